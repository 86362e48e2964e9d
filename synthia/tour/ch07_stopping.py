"""Chapter 7: knowing when to stop, and what a passing run proves."""
from __future__ import annotations

import statistics

import synthia as sy

from . import Tour

TITLE = "7. When to stop: the Bayesian rule, classes, coverage, property coverage"


def run(tour: Tour) -> None:
    tour.say(
        """
        A fixed count of 100 inputs says nothing about what a passing run proves. The Bayesian
        rule keeps a Beta posterior on the pass rate and stops when its exact lower credible
        bound clears gamma: with gamma = delta = 0.05 that is after exactly 58 passes, and the
        report states the guarantee, the classes of inputs seen (read from their recorded
        draws: which alternative, which length), and the residual risk -- the chance that a
        failure region of a given size was missed.
        """
    )
    tour.code(
        """
        def mean_is_bounded(xs):
            sy.event("singleton" if len(xs) == 1 else "longer")
            assert min(xs) <= statistics.fmean(xs) <= max(xs)

        lists = sy.ComposeList(sy.RandomInteger(-100, 100), sy.RandomInteger(1, 12))
        report = sy.Assert(mean_is_bounded, sy.Bayesian(), xs=lists).run(seed=1)
        """
    )

    def mean_is_bounded(xs: list[int]) -> None:
        sy.event("singleton" if len(xs) == 1 else "longer")
        assert min(xs) <= statistics.fmean(xs) <= max(xs)

    lists = sy.ComposeList(sy.RandomInteger(-100, 100), sy.RandomInteger(1, 12))
    report = sy.Assert(mean_is_bounded, sy.Bayesian(), xs=lists).run(seed=1)
    tour.show("inputs", report.tried)
    tour.show("guarantee", report.guarantee)
    assert report.evidence is not None
    for line in report.evidence.summary(top=2):
        tour.show("evidence", line)

    tour.say(
        """
        cover() states a requirement on the inputs, checked as QuickCheck's checkCoverage
        does (certainty 10**9, tolerance 0.9): a run whose inputs confidently miss it fails
        with "insufficient coverage", and an undecided one goes on past its stopping rule.
        """
    )
    tour.code(
        """
        def sorted_is_idempotent(xs):
            sy.cover("has duplicates", 0.3, len(set(xs)) < len(xs))
            assert sorted(sorted(xs)) == sorted(xs)
        """
    )

    def sorted_is_idempotent(xs: list[int]) -> None:
        sy.cover("has duplicates", 0.3, len(set(xs)) < len(xs))
        assert sorted(sorted(xs)) == sorted(xs)

    spread = sy.Assert(sorted_is_idempotent, xs=lists).run(seed=1)
    tour.show("wide values (-100..100)", f"{spread.status}: {'; '.join(spread.insufficient) or spread.reason}")
    narrow = sy.ComposeList(sy.RandomInteger(0, 5), sy.RandomInteger(1, 12))
    dense = sy.Assert(sorted_is_idempotent, xs=narrow).run(seed=1)
    tour.show("narrow values (0..4)", f"{dense.status} after {dense.tried} inputs")

    tour.say(
        """
        How good are the properties themselves? property_coverage runs them against mutants
        of the function under test -- its result or an argument perturbed by synthia's
        mutators -- and prints which mutants each property kills, after how many inputs.
        """
    )
    tour.code(
        """
        def between(median, xs):
            assert min(xs) <= median(xs) <= max(xs)
        def order_free(median, xs):
            assert median(xs) == median(sorted(xs))
        print(sy.property_coverage([between, order_free], statistics.median, xs=lists).table())
        """
    )

    def between(median: object, xs: list[int]) -> None:
        assert min(xs) <= median(xs) <= max(xs)  # type: ignore[operator]

    def order_free(median: object, xs: list[int]) -> None:
        assert median(xs) == median(sorted(xs))  # type: ignore[operator]

    for line in sy.property_coverage([between, order_free], statistics.median, xs=lists).table().splitlines():
        tour.show("kills", line)
