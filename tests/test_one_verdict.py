"""Issue 31: one verdict rule in every harness, no run that tried nothing passes, teardown
after every trace, draws inside a Monkey replayed, printed programs that run."""
from __future__ import annotations

import asyncio
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import synthia as sy

INTS = sy.RandomInteger(0, 10)


# -- the verdict rule ----------------------------------------------------------------------
@pytest.mark.parametrize("result, status", [(None, "passed"), (True, "passed"), (np.True_, "passed"), (False, "failed"), (np.False_, "failed")])
def test_booleans_and_none_are_verdicts_in_assert(result: Any, status: str) -> None:
    assert sy.Assert(lambda a: result, a=INTS).run(seed=1).status == status


AMBIGUOUS = [
    np.array([False, True]),
    np.array(False),  # 0-d: an array all the same
    np.array([[True]]),
    0,
    1,
    "yes",
    [False],
]


@pytest.mark.parametrize("result", AMBIGUOUS, ids=repr)
def test_a_value_that_is_no_verdict_is_an_invalid_test_naming_it(result: Any) -> None:
    with pytest.raises(sy.InvalidTest, match=r"returned .* which is no verdict"):
        sy.Assert(lambda a: result, a=INTS).run(seed=1)


def test_pandas_objects_are_no_verdict() -> None:
    pd = pytest.importorskip("pandas")
    for result in (pd.Series([False]), pd.DataFrame({"a": [False]})):
        with pytest.raises(sy.InvalidTest, match="pandas"):
            sy.Assert(lambda a, r=result: r, a=INTS).run(seed=1)


def test_a_generator_test_is_invalid_its_body_never_ran() -> None:
    def test(a: int) -> Any:
        assert a < 0
        yield

    with pytest.raises(sy.InvalidTest, match="generator"):
        sy.Assert(test, a=INTS).run(seed=1)


def test_an_async_test_is_run_to_completion() -> None:
    seen: list[int] = []

    async def test(a: int) -> bool:
        await asyncio.sleep(0)
        seen.append(a)
        return a < 7

    report = sy.Assert(test, a=INTS).run(seed=1)
    assert not report.passed and report.smallest == {"a": 7} and seen


def test_an_async_test_runs_inside_a_running_event_loop() -> None:
    async def test(a: int) -> None:
        await asyncio.sleep(0)
        assert a < 7

    async def inside_a_loop() -> sy.TestReport:  # as in Jupyter: a loop already runs here
        return sy.Assert(test, a=INTS).run(seed=1)

    report = asyncio.run(inside_a_loop())
    assert not report.passed and report.smallest == {"a": 7}


def test_find_and_property_coverage_share_the_rule() -> None:
    assert sy.find(INTS, lambda a: a > 3, seed=1) == 4
    with pytest.raises(sy.InvalidTest, match="no verdict"):
        sy.find(INTS, lambda a: np.array([a > 3]), seed=1)


def test_find_says_why_when_the_wiring_ended_the_run() -> None:
    # Every input gives up (two booleans cannot fill a set of 3 or more): not a silent "0 tries".
    sets = sy.SetPicker(sy.RandomBoolean(), sy.RandomInteger(3, 5))
    with pytest.raises(sy.NoExampleFound, match=r"in 0 tries .*discarded \(an input picker gave up: SetPicker found only 2 distinct values of RandomBoolean\(\)\)"):
        sy.find(sets, lambda s: True, seed=0)


def test_an_input_whose_picker_gives_up_is_discarded_and_the_run_goes_on() -> None:
    # Hypothesis's st.sets(st.booleans()) translated: sizes above 2 give up, as a filter does
    # that finds nothing; those inputs are discarded, the others tested and shrunk.
    sets = sy.ComposeList(sy.SetPicker(sy.RandomBoolean(), sy.RandomInteger(0, 11)), sy.RandomInteger(0, 11))
    with pytest.warns(sy.HealthWarning, match="gave up: SetPicker found only 2 distinct values"):
        assert sy.find(sets, lambda x: len([s for s in x if s]) >= 3, seed=0) == [{False}] * 3
    report = sy.Assert(lambda v: len(v) <= 2, v=sy.DictPicker(sy.RandomBoolean(), sy.RandomBoolean(), sy.RandomInteger(0, 4))).run(seed=1)
    assert report.passed and report.tried == 100 and report.discarded
    assert "discarded (an input picker gave up: DictPicker found only 2 distinct keys of RandomBoolean())" in report.summary()


def test_find_says_why_when_most_inputs_are_discarded() -> None:
    # Most inputs discarded: the run stops early, and says so.
    rare = sy.Apply(lambda n: n if sy.assume(n == 0) else n, sy.RandomInteger(0, 1000))
    with pytest.raises(sy.NoExampleFound, match=r"satisfied the condition in \d+ tries \(seed 0\); \d+ inputs were discarded by assume"):
        sy.find(rare, lambda n: n > 0, seed=0)


class _Counter:
    def __init__(self) -> None:
        self.n = 0

    def add(self, by: int) -> None:
        self.n += by


@pytest.mark.parametrize("false", [False, np.False_])
def test_monkey_invariants_and_expectations_fail_on_any_false(false: Any) -> None:
    invariant = sy.Monkey(_Counter, [sy.Action("add", by=INTS)], invariants=[lambda c: false if c.n > 5 else True]).run(seed=1)
    assert not invariant.passed and "invariant" in invariant.failure
    expectation = sy.Monkey(_Counter, [sy.Action("add", by=INTS, expect=lambda r: false)]).run(seed=1)
    assert not expectation.passed and "against the expectation" in expectation.failure


def test_a_monkey_invariant_returning_an_array_is_an_invalid_test() -> None:
    with pytest.raises(sy.InvalidTest, match="the invariant .* returned array"):
        sy.Monkey(_Counter, [sy.Action("add", by=INTS)], invariants=[lambda c: np.array([c.n >= 0])]).run(seed=1)


def test_an_action_naming_a_missing_method_is_an_invalid_test() -> None:
    with pytest.raises(sy.InvalidTest, match="no method 'subtract' for the action 'subtract'"):
        sy.Monkey(_Counter, [sy.Action("add", by=INTS), sy.Action("subtract", by=INTS)]).run(seed=1)


# -- a run that tried nothing never passes -------------------------------------------------
def test_a_monkey_whose_preconditions_never_hold_is_an_error() -> None:
    never = sy.Action("add", by=INTS, precondition=lambda c: c.n > 0)
    report = sy.Monkey(_Counter, [never]).run(seed=1)
    assert not report.passed and report.status == "error" and report.tried == 0
    assert "no trace reached the test: all 100 were discarded" in report.error
    assert "the preconditions of add never held" in report.error


def test_an_assert_whose_inputs_are_all_discarded_is_an_error() -> None:
    report = sy.Assert(lambda a: sy.assume(a > 100), a=INTS).run(seed=1)
    assert report.status == "error" and "all" in (report.error or "") and "assume" in (report.error or "")


# -- teardown --------------------------------------------------------------------------------
def test_teardown_runs_after_every_trace_a_failing_one_too() -> None:
    ended: list[int] = []

    class Store:
        def __init__(self) -> None:
            self.items: list[int] = []

        def put(self, x: int) -> None:
            self.items.append(x)
            assert len(self.items) < 4

    report = sy.Monkey(Store, [sy.Action("put", x=INTS)], teardown=lambda s: ended.append(len(s.items))).run(seed=2)
    assert not report.passed and len(report.trace or []) == 4
    assert len(ended) > report.tried and ended.count(4) >= 1  # after passing traces, the failing one, and every replay


def test_a_teardown_that_raises_after_a_passing_trace_is_the_failure() -> None:
    class Resource:
        def __init__(self) -> None:
            self.opened = 0

        def open(self) -> None:
            self.opened += 1

        def close(self) -> None:
            if self.opened > 2:
                raise RuntimeError("leaked handles")

    report = sy.Monkey(Resource, [sy.Action("open")], teardown=Resource.close).run(seed=1)
    assert not report.passed and report.failure == "teardown close raised RuntimeError: leaked handles"
    assert len(report.trace or []) == 3
    assert report.program.splitlines()[-1] == "close(resource)  # teardown: raises RuntimeError"
    assert "def close(self) -> None:" in report.program  # a local class's method: its source inlined


def test_a_monkey_class_teardown_is_called() -> None:
    calls: list[str] = []

    @sy.monkey(stop=sy.FixedCount(5))
    class TestWithTeardown:
        def __init__(self) -> None:
            self.n = 0

        @sy.action(by=INTS)
        def add(self, by: int) -> None:
            self.n += by

        def teardown(self) -> None:
            calls.append("down")

    TestWithTeardown().test_monkey()
    assert calls.count("down") == 5


# -- draws inside a Monkey --------------------------------------------------------------------
def test_draws_in_a_system_and_its_actions_are_recorded_and_replayed() -> None:
    class Bag:
        def __init__(self) -> None:
            self.limit = sy.draw(sy.RandomInteger(2, 6))
            self.items: list[int] = []

        def add(self) -> None:
            self.items.append(sy.draw(sy.RandomInteger(0, 100)))
            assert sum(self.items) < 50 * self.limit

    report = sy.Monkey(Bag, [sy.Action("add")]).run(seed=3)
    assert not report.passed and report.status == "failed" and not report.flaky
    assert report.trace and len(report.trace) >= 1
    again = sy.Monkey(Bag, [sy.Action("add")]).run(seed=3)
    assert again.program == report.program and again.tape == report.tape


# -- printed programs run -------------------------------------------------------------------
MODULE = '''
import synthia as sy

class Counter:
    def __init__(self):
        self.n = 0

    def up(self, by):
        self.n += by if self.n < 3 else by + 1  # planted

    def big(self, x):
        assert x < 2 ** 40000


def run_lambda():
    return sy.Monkey(Counter, [sy.Action("up", by=sy.RandomInteger(1, 5))], invariants=[lambda counter: counter.n < 6]).run(seed=1)


def run_local():
    def below(counter):
        return counter.n <= 5

    return sy.Monkey(Counter, [sy.Action("up", by=sy.RandomInteger(1, 5))], invariants=[below]).run(seed=1)


def run_huge():
    return sy.Monkey(Counter, [sy.Action("big", x=sy.Choice(1, 2 ** 40001))]).run(seed=1)
'''


@pytest.mark.parametrize("which", ["run_lambda", "run_local", "run_huge"])
def test_every_printed_program_is_python_that_fails_the_same_way(which: str, tmp_path: Path) -> None:
    (tmp_path / "counters.py").write_text(textwrap.dedent(MODULE))
    sys.path.insert(0, str(tmp_path))
    try:
        import counters  # type: ignore[import-not-found]

        report = getattr(counters, which)()
    finally:
        sys.path.remove(str(tmp_path))
        sys.modules.pop("counters", None)
    assert not report.passed
    program = report.program
    compile(program, "program.py", "exec")  # valid Python
    assert "<lambda>" not in program and "..." not in program
    (tmp_path / "program.py").write_text(program)
    done = subprocess.run([sys.executable, "program.py"], cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert done.returncode != 0 and "AssertionError" in done.stderr, (program, done.stderr)
