"""The Assert harness: discovery, shrinking around failures, stopping rules, reports, replay."""
from __future__ import annotations

import time

import pytest

import synthia as sy
from synthia.testing import Outcome, StoppingRule


def test_passing_run_reports_the_count_and_reason() -> None:
    report = sy.Assert(lambda x: 0 <= x < 10, x=sy.RandomInteger(0, 10), stop=sy.FixedCount(250)).run(seed=3)
    assert report.passed and report.tried == 250 and report.smallest is None
    assert "250" in report.reason and report.seed == 3


def test_the_same_seed_gives_the_same_run() -> None:
    def run() -> sy.TestReport:
        lists = sy.ComposeList(sy.RandomInteger(0, 100), sy.RandomInteger(0, 30))
        return sy.Assert(lambda l: sum(l) < 300, l=lists).run(seed=11)

    a, b = run(), run()
    assert (a.first, a.smallest, a.tried, a.shrink_steps) == (b.first, b.smallest, b.tried, b.shrink_steps)


def test_a_fresh_seed_is_drawn_and_reported() -> None:
    report = sy.Assert(lambda x: x < 50, x=sy.RandomInteger(0, 100)).run()
    again = sy.Assert(lambda x: x < 50, x=sy.RandomInteger(0, 100)).run(seed=report.seed)
    assert again.first == report.first and again.smallest == report.smallest == {"x": 50}


def test_exceptions_are_failures_with_their_traceback() -> None:
    def test(x: int) -> None:
        if x > 10:
            raise KeyError(x)

    report = sy.Assert(test, x=sy.RandomInteger(0, 100)).run(seed=1)
    assert not report.passed and report.smallest == {"x": 11}
    assert isinstance(report.exception, KeyError) and "KeyError" in report.traceback


def test_shrinking_recentres_on_the_last_failure() -> None:
    # Failures are x in [40, 60): re-centring on a passing value (the Java bug) would leave it.
    report = sy.Assert(lambda x: not 40 <= x < 60, x=sy.RandomInteger(0, 1000)).run(seed=5)
    assert report.smallest == {"x": 40}


def test_one_argument_shrinks_while_another_stays() -> None:
    report = sy.Assert(lambda a, b: not (a > 500 and b == 7), a=sy.RandomInteger(0, 1000), b=sy.RandomInteger(0, 10)).run(seed=2)
    assert report.smallest == {"a": 501, "b": 7}


def test_the_report_keeps_the_first_failure_and_its_index() -> None:
    assertion = sy.Assert(lambda x: x < 900, x=sy.RandomInteger(0, 1000))
    report = assertion.run(seed=8)
    assert report.first is not None and report.first["x"] >= 900
    assert assertion.example(8, report.first_index) == report.first  # type: ignore[arg-type]
    assert "seed=8" in report.reproduction and f"index={report.first_index}" in report.reproduction


def test_restarts_keep_the_smallest() -> None:
    report = sy.Assert(lambda x: x % 7 != 3, x=sy.RandomInteger(0, 10**6), restarts=3).run(seed=4)
    assert report.failures == 4 and report.smallest == {"x": 3}


def test_replay_runs_the_smallest_input_again() -> None:
    calls = []

    def test(x: int) -> bool:
        calls.append(x)
        return x < 20

    report = sy.Assert(test, x=sy.RandomInteger(0, 100)).run(seed=1)
    assert report.replay() is False and calls[-1] == 20


def test_inputs_that_run_out_stop_the_run() -> None:
    report = sy.Assert(lambda x: True, x=sy.AllIntegers(0, 7)).run(seed=1)
    assert report.passed and report.tried == 7 and "ran out" in report.reason


def test_time_budget_stops_on_time() -> None:
    start = time.perf_counter()
    report = sy.Assert(lambda x: time.sleep(0.001) is None, x=sy.RandomInteger(0, 9), stop=sy.TimeBudget(0.05)).run(seed=1)
    assert report.passed and "time budget" in report.reason and time.perf_counter() - start < 2


def test_custom_stopping_rules_see_every_outcome() -> None:
    class UntilThreeFails(StoppingRule):
        def begin(self) -> None:
            self.seen: list[Outcome] = []

        def observe(self, outcome: Outcome) -> None:
            self.seen.append(outcome)

        def reason_to_stop(self) -> str | None:
            return "enough" if len(self.seen) >= 30 else None

    rule = UntilThreeFails()
    report = sy.Assert(lambda x: True, x=sy.RandomInteger(0, 5), stop=rule).run(seed=1)
    assert report.reason == "enough" and [o.index for o in rule.seen] == list(range(30))


def test_non_shrinkable_inputs_fall_back_on_pick_smaller() -> None:
    names = sy.Apply(lambda n: "x" * n, sy.RandomInteger(0, 50))
    report = sy.Assert(lambda s: len(s) < 10, s=names).run(seed=2)
    assert report.smallest == {"s": "x" * 10}


def test_the_test_mutating_its_input_does_not_corrupt_the_report() -> None:
    def test(l: list[int]) -> bool:
        result = len(l) < 3
        l.clear()
        return result

    report = sy.Assert(test, l=sy.ComposeList(sy.RandomInteger(0, 5), sy.RandomInteger(0, 10))).run(seed=1)
    assert report.smallest == {"l": [0, 0, 0]}


def test_picker_times_name_each_picker() -> None:
    report = sy.Assert(lambda l: True, l=sy.ComposeList(sy.RandomInteger(0, 9), 5)).run(seed=1)
    assert {"l: ComposeList", "l/element: RandomInteger"} <= set(report.picker_times)


def test_the_user_pickers_are_left_untouched() -> None:
    picker = sy.RandomInteger(0, 100).set_seed(4)
    expected = picker.duplicate().take(5)
    sy.Assert(lambda x: x < 50, x=picker).run(seed=1)
    assert picker.take(5) == expected


@pytest.mark.parametrize(
    "call, error, mentions",
    [
        (lambda: sy.Assert(3, x=sy.Tick()), TypeError, "test"),
        (lambda: sy.Assert(bool), ValueError, "input"),
        (lambda: sy.Assert(bool, x=3), TypeError, "x"),
        (lambda: sy.Assert(bool, stop=5, x=sy.Tick()), TypeError, "stop"),
        (lambda: sy.Assert(bool, restarts=-1, x=sy.Tick()), ValueError, "restarts"),
        (lambda: sy.FixedCount(0), ValueError, "n"),
        (lambda: sy.TimeBudget(0), ValueError, "seconds"),
        (lambda: sy.RandomInteger(0, 9).shrink(3, magnitude=0), ValueError, "magnitude"),
    ],
)
def test_bad_arguments(call: object, error: type, mentions: str) -> None:
    with pytest.raises(error, match=mentions):
        call()  # type: ignore[operator]
