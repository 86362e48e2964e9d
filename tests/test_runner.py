"""The runner under ``Assert`` and ``Monkey``: one set of phases and options, and a report that
depends on the seed alone -- not on the machine, its load, or the clock."""
from __future__ import annotations

import dataclasses
import json
import subprocess
import sys
import textwrap
import time
from typing import Any, Callable

import pytest

import synthia as sy
from synthia.engine.runner import RunOptions


def _coupled(p: Any) -> None:
    a, b = p
    assert not (0 < b - a <= 30), "a close pair"


def _coupled_assert() -> sy.Assert:
    pair = sy.Apply(lambda a, b: (a, b), sy.RandomInteger(0, 12000), sy.RandomInteger(0, 12000))
    return sy.Assert(_coupled, sy.FixedCount(5000), p=pair)


def _long_list_assert() -> sy.Assert:
    def small(l: list[int]) -> None:
        assert sum(l) < 40_000, "too large"

    return sy.Assert(small, l=sy.ComposeList(sy.RandomInteger(0, 1000), sy.RandomInteger(0, 200)))


class _Counter:
    def __init__(self) -> None:
        self.n = 0

    def add(self, by: int) -> None:
        self.n += by if self.n < 20 else by + 1  # wrong past 20

    def get(self) -> int:
        return self.n


class _CounterModel:
    def __init__(self) -> None:
        self.n = 0

    def add(self, by: int) -> None:
        self.n += by

    def get(self) -> int:
        return self.n


def _monkey(**options: Any) -> sy.Monkey:
    return sy.Monkey(_Counter, [sy.Action("add", by=sy.RandomInteger(0, 9)), sy.Action("get")], model=_CounterModel, **options)


def _outcome(report: sy.TestReport) -> tuple[Any, ...]:
    """What a report says, leaving out the seconds it measured."""
    return (report.passed, repr(report.smallest), repr(report.first), report.first_index, report.tried, report.failures,
            report.shrink_tries, report.shrink_steps, report.shrink_reason, report.reason, report.time_bound, report.flaky)


def _fast_clock(monkeypatch: pytest.MonkeyPatch, speed: float = 100.0) -> None:
    """Every clock a run may read runs ``speed`` times faster than real time."""
    for name in ("perf_counter", "monotonic", "time"):
        real: Callable[[], float] = getattr(time, name)
        start = real()
        monkeypatch.setattr(time, name, lambda real=real, start=start: start + (real() - start) * speed)


@pytest.mark.parametrize("make", [_coupled_assert, _long_list_assert, _monkey], ids=["coupled pair", "long list", "monkey"])
def test_the_same_seed_gives_the_same_report_under_a_clock_100_times_faster(make: Callable[[], Any], monkeypatch: pytest.MonkeyPatch) -> None:
    normal = make().run(seed=11)
    assert not normal.passed and normal.shrink_tries > 50
    _fast_clock(monkeypatch)
    fast = make().run(seed=11)
    assert _outcome(fast) == _outcome(normal)
    assert fast.time_bound == "" and "time-bound" not in fast.summary()


@pytest.mark.filterwarnings("ignore::synthia.testing.HealthWarning")  # the fast clock makes generation look slow
def test_an_explicit_shrink_time_that_binds_is_said_in_the_report(monkeypatch: pytest.MonkeyPatch) -> None:
    _fast_clock(monkeypatch, speed=10_000.0)
    report = dataclasses.replace(_coupled_assert().options)  # the options are one value
    assert report.shrink_time is None and report.time_budget is None
    bound = sy.Assert(_coupled, sy.RunOptions(stop=sy.FixedCount(5000), shrink_time=0.5), p=_coupled_assert().inputs["p"]).run(seed=11)
    assert not bound.passed and bound.shrink_reason == "the time budget"
    assert bound.time_bound.startswith("the shrink_time limit ended shrinking")
    assert "this report depends on the machine's speed" in bound.summary()


def test_a_time_budget_that_ends_discovery_is_said_in_the_report(monkeypatch: pytest.MonkeyPatch) -> None:
    _fast_clock(monkeypatch, speed=10_000.0)
    for harness in (sy.Assert(lambda x: True, sy.RunOptions(stop=sy.FixedCount(10**9), time_budget=50.0), x=sy.RandomInteger(0, 9)),
                    sy.Monkey(_CounterModel, [sy.Action("add", by=sy.RandomInteger(0, 9))], stop=sy.FixedCount(10**9), time_budget=50.0)):
        report = harness.run(seed=3)
        assert report.passed and report.tried > 0 and report.reason == "the time budget of 50 s is spent"
        assert report.time_bound == "the time budget of 50 s ended discovery"


SCRIPT = """
import json, sys
sys.path.insert(0, {root!r})
from tests.test_runner import _coupled_assert, _monkey, _outcome
print(json.dumps([_outcome(_coupled_assert().run(seed=11)), _outcome(_monkey().run(seed=11))]))
"""


def test_the_same_seed_gives_the_same_report_in_a_fresh_process() -> None:
    import pathlib

    root = str(pathlib.Path(__file__).resolve().parent.parent)
    out = subprocess.run([sys.executable, "-c", SCRIPT.format(root=root)], capture_output=True, text=True, check=True, cwd=root)
    here = [_outcome(_coupled_assert().run(seed=11)), _outcome(_monkey().run(seed=11))]
    assert json.loads(out.stdout) == json.loads(json.dumps(here))


def test_assert_and_monkey_take_the_same_run_options() -> None:
    options = RunOptions(stop=sy.FixedCount(7), restarts=1, shrink_budget=50, copy_parts=False, observe=True, name="same")
    harnesses = [
        sy.Assert(lambda x: x < 5, options, x=sy.RandomInteger(0, 10)),
        sy.Monkey(_Counter, [sy.Action("add", by=sy.RandomInteger(0, 9)), sy.Action("get")], _CounterModel, options),
    ]
    for harness in harnesses:
        given = {f.name: getattr(options, f.name) for f in dataclasses.fields(options) if getattr(options, f.name) is not None}
        assert all(getattr(harness.options, k) is v for k, v in given.items()) and harness.name == "same"
        report = harness.run(seed=2)
        assert report.shrink_tries <= 50 * 2 and len(report.observations) >= report.tried
    # A monkey has no inputs of its own: the same options may come as keywords.
    by_keywords = sy.Monkey(_Counter, [sy.Action("add", by=sy.RandomInteger(0, 9))], restarts=1, shrink_budget=50, name="same")
    assert by_keywords.options.restarts == 1 and by_keywords.name == "same"
    with pytest.raises(TypeError, match="unexpected keyword argument 'shrink_budgets'"):
        sy.Monkey(_Counter, [sy.Action("add", by=sy.RandomInteger(0, 9))], shrink_budgets=5)


def test_any_identifier_is_an_input_name_and_options_never_collide_with_inputs() -> None:
    names = {name: sy.Choice("a", "b") for name in ("name", "stop", "restarts", "progress", "timing", "classes", "observe", "options")}

    def test(**values: str) -> bool:
        return set(values) == set(names) and all(v in ("a", "b") for v in values.values())

    report = sy.Assert(test, sy.RunOptions(stop=sy.FixedCount(20), name="every name"), **names).run(seed=1)
    assert report.passed and report.tried == 20 and report.harness.name == "every name"


def test_an_option_given_as_a_keyword_says_where_it_goes() -> None:
    with pytest.raises(TypeError, match=r"input restarts must be a picker, got 2 .*sy.RunOptions\(restarts=2\)"):
        sy.Assert(lambda x: True, restarts=2, x=sy.RandomInteger(0, 10))  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"input stop must be a picker, got FixedCount\(10\)"):
        sy.Assert(lambda x: True, x=sy.RandomInteger(0, 10), stop=sy.FixedCount(10))  # type: ignore[arg-type]


def test_given_takes_any_input_name_and_its_options_apart() -> None:
    seen: list[tuple[str, int]] = []

    @sy.given(sy.RunOptions(max_examples=5, database=False), name=sy.Choice("ada", "alan"), max_examples=sy.RandomInteger(0, 3))
    def test_names(name: str, max_examples: int) -> None:
        seen.append((name, max_examples))

    test_names()
    assert len(seen) == 5 and all(name in ("ada", "alan") and 0 <= n < 3 for name, n in seen)

    @sy.RunOptions(max_examples=3, database=False)
    @sy.given(restarts=sy.RandomInteger(0, 9))
    def test_decorated(restarts: int) -> None:
        seen.append(("decorated", restarts))

    test_decorated()
    assert sum(1 for name, _ in seen if name == "decorated") == 3
    # The mistake fails the test when it runs (not the collection of its whole file).
    mistaken = sy.given(x=sy.RandomInteger(0, 9), max_examples=20)(lambda x: None)
    with pytest.raises(TypeError, match=r"max_examples must be a picker, got 20 .*sy.given\(sy.RunOptions\(max_examples=20\)"):
        mistaken()


def test_restarts_observations_and_coverage_work_in_a_monkey() -> None:
    class Store:
        def __init__(self) -> None:
            self.items: list[int] = []

        def put(self, x: int) -> None:
            sy.event("big" if x > 5 else "small")
            sy.cover("put a big value", 0.1, x > 5)
            self.items.append(x)

        def size(self) -> int:
            return len(self.items) if len(self.items) < 3 else 0  # wrong from 3 items

    monkey = sy.Monkey(Store, [sy.Action("put", x=sy.RandomInteger(0, 9)), sy.Action("size", expect=lambda n: n >= 0)],
                       invariants=[lambda s: s.size() == len(s.items)], restarts=2, observe=True)
    report = monkey.run(seed=4)
    assert not report.passed and len(report.trace) == 3 and "failures shrunk" in report.reason
    assert report.failures == 3 and report.observations and report.observations[0]["property"] == "Store"
    assert report.evidence is not None and report.evidence.labels["small"] > 0
    passing = sy.Monkey(_CounterModel, [sy.Action("add", by=sy.RandomInteger(0, 9))], observe=True).run(seed=1)
    assert passing.passed and len(passing.observations) == passing.tried


def test_a_late_failure_is_made_again_from_a_checkpoint_not_from_the_start() -> None:
    made = [0]

    def counted(x: int) -> int:
        made[0] += 1
        return x

    wiring = sy.Apply(counted, sy.RandomInteger(0, 10**6))
    # (No copies: a copy with edge values calls `counted` once more.)
    harness = sy.Assert(lambda x: x != 777_000 and made[0] < 5000, sy.RunOptions(stop=sy.FixedCount(10_000), copy_parts=False), x=wiring)
    report = harness.run(seed=1)
    assert not report.passed and report.first_index == 4999
    # Discovery made 5,000 inputs; recording the failing one made at most 1,024 more, where
    # making it again from the start of the run would make 5,000.
    assert made[0] < 5000 + 1024 + report.shrink_tries + 10


def test_setting_up_an_assert_on_a_large_wiring_costs_one_copy(monkeypatch: pytest.MonkeyPatch) -> None:
    # A wiring of about a thousand pickers: a sum of 500 records.
    parts = [sy.Apply(lambda a, b: a + b, sy.RandomInteger(0, 9), sy.RandomInteger(0, 9)) for _ in range(500)]
    wiring = sy.Apply(lambda *xs: sum(xs), *parts)
    copies = []
    real = sy.Picker.duplicate

    def counted(self: sy.Picker[Any], with_state: bool = False) -> sy.Picker[Any]:
        copies.append(type(self).__name__)
        return real(self, with_state)

    monkeypatch.setattr(sy.Picker, "duplicate", counted)
    before_first = []

    def test(total: int) -> None:
        if not before_first:
            before_first.append(len(copies))

    harness = sy.Assert(test, sy.FixedCount(3), total=wiring)
    assert copies == []  # building the harness copies nothing
    harness.run(seed=0)
    assert before_first == [1]  # the run's one copy of the whole wiring, before its first input


def test_a_saved_failure_tried_first_leaves_discovery_as_it_would_be_without_it() -> None:
    # The replay session of the saved failures must be closed before discovery: a Monkey's
    # argument pickers, made inside a trace, would draw from its replayer.
    from synthia.core.draws import Tape

    monkey = _monkey()
    plain = monkey.run(seed=3)
    assert plain.tape is not None and plain.tape.picks > 1
    first_step = Tape(plain.tape.draws[: plain.tape.pick_starts[1]], (), 1, [0])  # one step: it passes
    after_a_dropped_tape = monkey.run(seed=3, tapes=[first_step])
    assert after_a_dropped_tape.notes[0] == "a saved failure was dropped: it no longer fails"
    assert _outcome(after_a_dropped_tape)[1:] == _outcome(plain)[1:] and not after_a_dropped_tape.flaky


def test_a_pickled_monkey_runs_as_the_original() -> None:
    import pickle

    monkey = _monkey()
    copy = pickle.loads(pickle.dumps(monkey))
    assert _outcome(copy.run(seed=5)) == _outcome(monkey.run(seed=5))  # an action's "expects nothing" survives


class _RunsOutOfMemory(sy.Picker[str]):
    """A large value, made once; making it again (recording, replaying, shrinking) runs out
    of memory from the ``fails_from``-th pick on (counted across copies)."""

    def __init__(self, fails_from: int) -> None:
        self.picks = [0]
        self.fails_from = fails_from

    def pick(self) -> str:
        self.picks[0] += 1
        if self.picks[0] >= self.fails_from:
            raise MemoryError
        return "x" * 10**6

    def __deepcopy__(self, memo: dict[int, Any]) -> "_RunsOutOfMemory":
        return self  # copies share the count, as the memory of one process


@pytest.mark.parametrize("fails_from", [2, 3, 4])  # recording, replaying, showing it (the confirming replay shows it)
def test_a_failing_input_too_large_to_record_is_still_reported(fails_from: int) -> None:
    """Issue 26: a MemoryError while the failure was recorded escaped run() and lost it."""
    report = sy.Assert(lambda s: len(s) < 100, s=_RunsOutOfMemory(fails_from)).run(seed=5)
    assert not report.passed and report.status == "failed" and report.failures == 1
    assert report.first_index == 0 and report.smallest == {"s": "x" * 10**6} and report.tape is None
    assert "too large to record" in report.reason and "MemoryError" in report.reason
    summary = report.summary()
    assert "could not be recorded (MemoryError)" in summary and "not shrunk and not saved" in summary
    assert "seed: 5" in summary and "example(seed=5, index=0)" in summary and len(summary) < 3000


def test_a_failing_input_too_large_to_record_fails_a_pytest_test() -> None:
    @sy.given(s=_RunsOutOfMemory(2))
    def test_short(s: str) -> None:
        assert len(s) < 100

    with pytest.raises(AssertionError, match=r"(?s)could not be recorded \(MemoryError\).*seed"):
        test_short()


def test_a_ten_million_character_failing_input_is_reported_with_its_seed_and_index() -> None:
    big = sy.Apply(lambda n: "x" * n, sy.RandomInteger(10**7, 10**7 + 10))
    report = sy.Assert(lambda s: len(s) < 100, s=big).run(seed=1)
    assert not report.passed and report.smallest == {"s": "x" * 10**7} and report.first_index == 0
    summary = report.summary()
    assert "seed: 1" in summary and "index=0" in summary and len(summary) < 5000
