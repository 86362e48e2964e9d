"""Shrinking quality and speed: the quality suite's cases, synthia beside Hypothesis.

For each case of ``tests/quality/cases.py`` that has a Hypothesis strategy, and each seed:

* synthia: ``Assert`` (up to 1000 inputs, then shrinking) on ``not condition``;
* Hypothesis: ``hypothesis.find(strategy, condition)`` with ``max_examples=case.examples`` (1000 but for one case), no
  database, seeded with ``random.Random(seed)``: the same condition, the same example
  budget, the strategy a user would write for the same domain.

Printed per case: how often each reaches the case's known minimum, the median number of
calls of the condition (generation and shrinking together) and the median seconds to the
final value. The summary says on how many cases synthia ends at the same minimum as
Hypothesis in every seed, and the total time of each.

A second table shrinks a given list of 1,000, 3,000 and 10,000 elements with one bad
element: how the shrinking time grows with the input's length.
"""
from __future__ import annotations

import pathlib
import random
import statistics
import sys
import time
from typing import Any, Callable

from timing import table

import synthia as sy

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))
from tests.quality.cases import CASES, QualityCase  # noqa: E402

QUICK_CASES = 12


def counted(condition: Callable[[Any], Any]) -> tuple[Callable[[Any], Any], list[int]]:
    calls = [0]

    def wrapper(value: Any) -> Any:
        calls[0] += 1
        return condition(value)

    return wrapper, calls


def synthia_run(case: QualityCase, seed: int) -> tuple[Any, int, float]:
    condition, calls = counted(case.fails)
    start = time.perf_counter()
    report = sy.Assert(lambda v: not condition(v), sy.FixedCount(case.examples), v=case.picker()).run(seed=seed)
    elapsed = time.perf_counter() - start
    return (report.smallest or {}).get("v"), calls[0], elapsed


def hypothesis_run(case: QualityCase, seed: int) -> tuple[Any, int, float]:
    from hypothesis import HealthCheck, find, settings
    from hypothesis.errors import NoSuchExample

    assert case.strategy is not None
    condition, calls = counted(case.fails)
    start = time.perf_counter()
    try:
        value = find(
            case.strategy(),
            condition,
            settings=settings(max_examples=case.examples, database=None, deadline=None, suppress_health_check=list(HealthCheck)),
            random=random.Random(seed),
        )
    except NoSuchExample:
        value = None
    return value, calls[0], time.perf_counter() - start


LONG_LENGTHS = (1000, 3000, 10_000)


def long_list_run(length: int, seed: int) -> tuple[Any, int, float]:
    """Shrink a given failing list of ``length`` elements below 900 but one (950): the value
    reached, the replays and the seconds the shrinking took."""
    from synthia.core.draws import replay

    rnd = random.Random(seed)
    lists = sy.ComposeList(sy.RandomInteger(0, 1000), sy.RandomInteger(0, 10_001))
    elements = [rnd.randrange(900) for _ in range(length)]
    elements[rnd.randrange(length)] = 950
    _, tape = replay(lists, [length, *elements])
    report = sy.Assert(lambda l: not any(x >= 900 for x in l), sy.FixedCount(1), l=lists).run(seed=seed, tapes=[tape])
    return (report.smallest or {}).get("l"), report.shrink_tries, report.time_shrinking


def run_long(quick: bool) -> None:
    """How shrinking time grows with the length of the input: one bad element in a long list."""
    seeds = [0] if quick else [0, 1, 2]
    rows = []
    for length in LONG_LENGTHS:
        runs = [long_list_run(length, seed) for seed in seeds]
        rows.append(
            (
                f"{length:,} elements",
                f"{sum(v == [900] for v, _, _ in runs)}/{len(runs)}",
                f"{statistics.median(c for _, c, _ in runs):7.0f}",
                f"{statistics.median(t for _, _, t in runs) * 1e3:8.1f} ms",
                f"{statistics.median(t for _, _, t in runs) / length * 1e6:6.1f} us",
            )
        )
    print(f"\nShrinking a long list with one element >= 900 to [900] (given input, seeds {seeds}):")
    table(rows, ("input", "at [900]", "replays", "shrink time", "per element"))


class HypothesisConstructors:
    """The constructors of ``bench_speed``'s tree wirings as Hypothesis strategies: ``Choice`` is
    ``one_of``, ``Apply`` a mapped ``tuples``, ``Bind`` ``flatmap``: the same trees, the same keys."""

    @staticmethod
    def _lift(value: Any) -> Any:
        from hypothesis import strategies as st

        return value if isinstance(value, st.SearchStrategy) else st.just(value)

    def Choice(self, *alternatives: Any) -> Any:
        from hypothesis import strategies as st

        return st.one_of(*[self._lift(a) for a in alternatives])

    def Apply(self, fn: Callable[..., Any], *args: Any) -> Any:
        from hypothesis import strategies as st

        return st.tuples(*[self._lift(a) for a in args]).map(lambda t: fn(*t))

    def Constant(self, value: Any) -> Any:
        return self._lift(value)

    def RandomInteger(self, low: int, high: int) -> Any:
        from hypothesis import strategies as st

        return st.integers(low, high - 1)

    def Bind(self, picker: Any, fn: Callable[[Any], Any]) -> Any:
        return picker.flatmap(lambda v: self._lift(fn(v)))


def _keys(tree: Any) -> list[int]:
    return [] if tree is None else [*_keys(tree[1]), tree[2], *_keys(tree[3])]


def _reds(tree: Any) -> list[int]:
    return [] if tree is None else [*_reds(tree[1]), *([tree[2]] if tree[0] == "R" else []), *_reds(tree[3])]


#: Failures of the red-black trees written with Bind, and the size and key sum of their minimum.
TREE_FAILURES: list[tuple[str, Callable[[Any], bool], tuple[int, int]]] = [
    ("four keys", lambda t: len(_keys(t)) >= 4, (4, 6)),
    ("two red nodes", lambda t: len(_reds(t)) >= 2, (3, 3)),
    ("five keys, one of 30 or more", lambda t: len(_keys(t)) >= 5 and max(_keys(t)) >= 30, (5, 36)),
    ("a red key of 20 or more", lambda t: max(_reds(t), default=0) >= 20, (2, 20)),
]


def run_bind_trees(quick: bool) -> None:
    """Red-black trees written with ``Bind`` (``bench_speed.rb_tree_bind``), synthia's and the
    same wiring in Hypothesis (``flatmap``), shrunk on the same failures: how often each ends
    at the smallest tree (fewest keys, then the smallest key sum)."""
    from hypothesis import HealthCheck, find, settings

    from bench_speed import Constructors, rb_tree_bind

    seeds = [0] if quick else [0, 1, 2, 3, 4]
    rows = []
    for name, fails, minimum in TREE_FAILURES:
        ours = [sy.Assert(lambda t: not fails(t), sy.FixedCount(1000), t=rb_tree_bind(Constructors())).run(seed=s).smallest["t"] for s in seeds]
        hypothesis_settings = settings(max_examples=1000, database=None, deadline=None, suppress_health_check=list(HealthCheck))
        theirs = [find(rb_tree_bind(HypothesisConstructors()), fails, settings=hypothesis_settings, random=random.Random(s)) for s in seeds]

        def at_minimum(trees: list[Any]) -> str:
            return f"{sum((len(_keys(t)), sum(_keys(t))) == minimum for t in trees)}/{len(trees)}"

        rows.append((name, at_minimum(ours), str([len(_keys(t)) for t in ours]), at_minimum(theirs), str([len(_keys(t)) for t in theirs])))
    print(f"\nRed-black trees written with Bind, at the smallest tree (fewest keys, then key sum), seeds {seeds}:")
    table(rows, ("failure", "synthia", "keys", "Hypothesis", "keys"))


def run(quick: bool) -> None:
    run_cases(quick)
    run_long(quick)
    run_bind_trees(quick)


def run_cases(quick: bool) -> None:
    cases = [c for c in CASES if c.strategy is not None]
    if quick:
        cases = cases[:QUICK_CASES]
    seeds = [0] if quick else [0, 1, 2, 3, 4]
    rows = []
    same = ours_at_minimum = theirs_at_minimum = 0
    ours_total = theirs_total = 0.0
    for case in cases:
        ours = [synthia_run(case, seed) for seed in seeds]
        theirs = [hypothesis_run(case, seed) for seed in seeds]
        ours_ok = sum(v == case.minimum for v, _, _ in ours)
        theirs_ok = sum(v == case.minimum for v, _, _ in theirs)
        ours_at_minimum += ours_ok == len(seeds)
        theirs_at_minimum += theirs_ok == len(seeds)
        same += all(a[0] == b[0] for a, b in zip(ours, theirs))
        ours_total += sum(t for _, _, t in ours)
        theirs_total += sum(t for _, _, t in theirs)
        rows.append(
            (
                case.name,
                f"{ours_ok}/{len(seeds)}",
                f"{statistics.median(c for _, c, _ in ours):7.0f}",
                f"{statistics.median(t for _, _, t in ours) * 1e3:8.1f} ms",
                f"{theirs_ok}/{len(seeds)}",
                f"{statistics.median(c for _, c, _ in theirs):7.0f}",
                f"{statistics.median(t for _, _, t in theirs) * 1e3:8.1f} ms",
            )
        )
    print(f"\nShrinking to the known minimum ({len(cases)} cases, seeds {seeds}, 1000 inputs at most, then shrinking):")
    table(rows, ("case", "synthia", "calls", "time", "Hypothesis", "calls", "time"))
    n = len(cases)
    print(f"\nat the known minimum in every seed: synthia {ours_at_minimum}/{n}, Hypothesis {theirs_at_minimum}/{n}")
    print(f"the same final value as Hypothesis in every seed: {same}/{n} cases ({same / n:.0%}; target: at least 90%)")
    print(f"total time: synthia {ours_total:.2f} s, Hypothesis {theirs_total:.2f} s ({theirs_total / ours_total:.1f}x)")
