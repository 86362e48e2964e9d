"""The quality suite: every case of ``cases.py`` shrinks to its known minimum, in every seed.

The minimum is asserted exactly, for seeds 0-4. ``benchmarks/bench_shrink.py`` runs the
same cases beside Hypothesis.
"""
from __future__ import annotations

import pytest

import synthia as sy

from .cases import CASES, QualityCase

SEEDS = range(5)


def test_there_are_at_least_a_hundred_cases() -> None:
    assert len(CASES) >= 100
    assert len({case.name for case in CASES}) == len(CASES)


@pytest.mark.parametrize("case", CASES, ids=repr)
@pytest.mark.parametrize("seed", SEEDS)
def test_the_case_shrinks_to_its_known_minimum(case: QualityCase, seed: int) -> None:
    report = sy.Assert(lambda v: not case.fails(v), sy.FixedCount(case.examples), v=case.picker()).run(seed=seed)
    assert not report.passed, f"no failure found in {case.examples} inputs with seed {seed}"
    assert report.smallest == {"v": case.minimum}
    assert case.fails(report.smallest["v"])
    # The smallest input is a real output of the wiring: its draws replay to it.
    assert report.harness is not None and report.tape is not None
    assert report.harness.replay(report.tape, seed) == report.smallest


def test_minima_are_minimal_among_their_neighbours() -> None:
    # A cross-check that does not trust the shrinker: for the integer cases, no smaller
    # value of the same range fails.
    for case in CASES:
        if case.name in {"int at least 1000", "remainder, not monotone", "int range above zero"}:
            picker = case.picker()
            smaller = [v for v in range(picker.low, case.minimum) if case.fails(v)]  # type: ignore[attr-defined]
            assert smaller == [], case.name
