"""The concurrent Monkey: branches under a controlled scheduler, checked for linearizability,
shrunk (calls and preemptions), replayed by a printed program; and its parts -- the search
for a linearization, the scheduler's locks and deadlocks, the options."""
from __future__ import annotations

import asyncio
import functools
import importlib
import json
import os
import pathlib
import re
import subprocess
import sys
import threading
from typing import Any, Iterator

import pytest

import synthia as sy
from synthia.testing import scheduler
from synthia.testing.linearizability import Call, linearize

EXAMPLES = pathlib.Path(__file__).resolve().parent.parent / "examples"
ROOT = EXAMPLES.parent


@pytest.fixture(scope="module")
def races() -> Iterator[Any]:
    sys.path.insert(0, str(EXAMPLES))
    try:
        yield importlib.import_module("concurrency_races")
    finally:
        sys.path.remove(str(EXAMPLES))


RACES = ["counter", "cache", "account", "queue"]


def shape(report: sy.MonkeyReport) -> tuple[list[int], int]:
    history = report.history
    assert history is not None
    return [len(history.branch(k)) for k in range(2)], history.preemptions


@pytest.mark.parametrize("name", RACES)
def test_each_planted_race_is_found_in_9_of_10_seeds_and_shrunk_to_2_calls_per_branch_and_1_preemption(races: Any, name: str) -> None:
    # The bar: in at least 9 seeds of 10, found within 2,000 schedules and shrunk to
    # at most 2 calls per branch and 1 preemption (on 3.11 and 3.12 all 10 seeds are; on
    # 3.13, whose bytecode differs, one counter seed ends at 2 preemptions: the shrinker
    # would have to move a call to the other branch, a larger draw).
    minimal = 0
    for seed in range(10):
        report = races.race_monkey(name).run(seed=seed)
        if report.passed:
            continue
        assert report.tried <= 2000
        assert report.failure.startswith("no sequential order of the calls explains their results")
        calls, preemptions = shape(report)
        assert max(calls) <= 3 and min(calls) >= 1, (seed, calls)
        minimal += max(calls) <= 2 and preemptions <= 1
    assert minimal >= 9


@pytest.mark.parametrize("name", RACES)
def test_each_locked_version_passes_2000_schedules(races: Any, name: str) -> None:
    report = races.race_monkey(name, locked=True).run(seed=0)
    assert report.passed and report.tried == 2000, report.failure


@pytest.mark.parametrize("name", RACES)
def test_the_printed_program_replays_the_race_and_passes_on_the_locked_version(races: Any, name: str) -> None:
    report = races.race_monkey(name).run(seed=1)
    system, fixed = races.RACES[name][0].__name__, races.RACES[name][1].__name__
    program = report.program
    assert "sy.interleave(" in program and "history.linearizable(model" in program

    def run(text: str) -> subprocess.CompletedProcess[str]:
        env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
        return subprocess.run([sys.executable, "-c", text], capture_output=True, text=True, cwd=EXAMPLES, timeout=120, env=env)

    buggy = run(program)
    assert buggy.returncode != 0 and "no sequential order of the calls explains their results" in buggy.stderr, buggy.stderr
    correct = re.sub(rf"\b{system}\b(?=[,\n])", f"{fixed} as {system}", program, count=1)
    assert correct != program
    passed = run(correct)
    assert passed.returncode == 0, passed.stderr


def test_the_same_seed_gives_the_same_report_in_a_fresh_process(races: Any) -> None:
    here = races.race_monkey("cache").run(seed=3)
    code = (
        "import json, sys; sys.path.insert(0, 'examples'); import concurrency_races as r\n"
        "report = r.race_monkey('cache').run(seed=3)\n"
        "print(json.dumps([report.failure, report.program, report.tried, report.history.schedule]))"
    )
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=300, env=env)
    assert out.returncode == 0, out.stderr
    assert here.history is not None
    assert json.loads(out.stdout) == [here.failure, here.program, here.tried, here.history.schedule]


def test_the_report_replays_and_shows_the_branches_side_by_side(races: Any) -> None:
    report = races.race_monkey("counter").run(seed=1)
    assert report.replay() is False  # the smallest trace fails again when replayed
    lines = report.failure.splitlines()
    assert lines[1].split("|")[0].strip() == "branch 1" and lines[1].split("|")[1].strip() == "branch 2"
    assert "counter.increment() -> None" in report.failure and "counter.get() -> 1" in report.failure


def test_without_a_model_fresh_systems_are_the_model(races: Any) -> None:
    report = sy.Monkey(races.Counter, [sy.Action("increment"), sy.Action("get")], threads=2, preemption="opcode", stop=sy.FixedCount(2000)).run(seed=2)
    assert not report.passed and "model = Counter()" in report.program
    assert sy.Monkey(races.LockedCounter, [sy.Action("increment"), sy.Action("get")], threads=2, preemption="opcode", stop=sy.FixedCount(300)).run(seed=2).passed


def test_action_level_preemption_cannot_split_an_action(races: Any) -> None:
    # At action boundaries only, += is never interrupted: the counter is linearizable.
    report = races.race_monkey("counter", preemption="action", schedules=300).run(seed=0)
    assert report.passed


def test_no_preemption_finds_no_race(races: Any) -> None:
    assert races.race_monkey("cache", preemptions=0, schedules=300).run(seed=0).passed


def test_pct_schedules_find_the_races(races: Any) -> None:
    for name in ("counter", "cache"):
        report = races.race_monkey(name, schedule="pct").run(seed=0)
        assert not report.passed and shape(report)[1] == 1


def test_three_threads(races: Any) -> None:
    report = races.race_monkey("cache", threads=3, schedules=2000).run(seed=0)
    assert not report.passed
    assert report.history is not None and len(report.history.schedule) == 3


# -- linearizability -----------------------------------------------------------------------------
class Register:
    def __init__(self) -> None:
        self.value = 0

    def write(self, v: int) -> None:
        self.value = v

    def read(self) -> int:
        return self.value


def call(branch: int, text: str, step: Any, result: Any, invoked: int, returned: int, raised: BaseException | None = None) -> Call:
    return Call(branch, 0, text, step, result, raised, invoked, returned)


def test_a_linearization_respects_real_time() -> None:
    write = call(0, "write(1)", lambda m: m.write(1), None, 1, 2)
    # The read began after the write returned: it must see 1.
    stale = call(1, "read()", lambda m: m.read(), 0, 3, 4)
    assert linearize([write, stale], Register()) is None
    # Overlapping the write, it may see 0 (ordered before) or 1.
    for seen in (0, 1):
        overlapping = call(1, "read()", lambda m: m.read(), seen, 1, 4)
        found = linearize([dataclass_copy(write, invoked=0, returned=3), overlapping], Register())
        assert found is not None
        assert found.order == ([1, 0] if seen == 0 else [0, 1])


def dataclass_copy(c: Call, **changes: Any) -> Call:
    import dataclasses

    return dataclasses.replace(c, **changes)


def test_exceptions_agree_by_type() -> None:
    class Stack:
        def __init__(self) -> None:
            self.items: list[int] = []

        def pop(self) -> int:
            return self.items.pop()

    empty = call(0, "pop()", lambda m: m.pop(), None, 1, 2, IndexError("empty"))
    assert linearize([empty], Stack()) is not None
    wrong = call(0, "pop()", lambda m: m.pop(), None, 1, 2, KeyError("x"))
    assert linearize([wrong], Stack()) is None


def test_the_search_is_memoised_on_placed_calls_and_state() -> None:
    # 12 concurrent increments that all returned None: without memoisation the search would
    # try 12! orders before finding that the read of 13 is impossible.
    class Counter:
        def __init__(self) -> None:
            self.n = 0

        def inc(self) -> None:
            self.n += 1

        def get(self) -> int:
            return self.n

    steps = 0

    def inc(m: Counter) -> None:
        nonlocal steps
        steps += 1
        m.inc()

    calls = [call(k, "inc()", inc, None, 0, 100) for k in range(12)] + [call(12, "get()", lambda m: m.get(), 13, 0, 100)]
    assert linearize(calls, Counter()) is None
    assert steps < 12 * 2**12


def test_a_model_is_never_changed_by_the_search() -> None:
    model = Register()
    linearize([call(0, "write(5)", lambda m: m.write(5), None, 1, 2)], model)
    assert model.value == 0


# -- the scheduler -------------------------------------------------------------------------------
class Transfers:
    """Two locks taken in opposite orders: a deadlock under the right schedule."""

    def __init__(self) -> None:
        self.a, self.b = sy.Lock(), sy.Lock()
        self.moved = 0

    def forward(self) -> None:
        with self.a:
            with self.b:
                self.moved += 1

    def backward(self) -> None:
        with self.b:
            with self.a:
                self.moved -= 1


def test_a_deadlock_between_scheduler_locks_is_reported_not_hung() -> None:
    report = sy.Monkey(Transfers, [sy.Action("forward"), sy.Action("backward")], threads=2, preemption="line", stop=sy.FixedCount(2000)).run(seed=0)
    assert not report.passed and report.failure.startswith("deadlock: branch 1 waits for a lock, branch 2 waits for a lock")


def test_interleave_replays_a_schedule() -> None:
    class Counter:
        def __init__(self) -> None:
            self.n = 0

        def increment(self) -> None:
            seen = self.n
            self.n = seen + 1

    counter = Counter()
    history = sy.interleave(counter, [[functools.partial(counter.increment)]] * 2, schedule=[[3], [0]], preemption="line")
    assert counter.n == 1 and history.preemptions == 1
    counter = Counter()
    sy.interleave(counter, [[functools.partial(counter.increment)]] * 2, preemption="line")
    assert counter.n == 2  # no preemption: one after the other


def test_a_branch_stuck_outside_the_scheduler_is_an_invalid_test(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(scheduler, "STUCK_AFTER", 0.5)

    class Plain:
        def __init__(self) -> None:
            self.lock = threading.Lock()  # not sy.Lock: held across a line point

        def work(self) -> None:
            with self.lock:
                x = 1
                del x

    plain = Plain()
    with pytest.raises(sy.InvalidTest, match="use synthia.Lock"):
        sy.interleave(plain, [[functools.partial(plain.work)]] * 2, schedule=[[3], [0]], preemption="line")


def test_tasks_hold_back_each_branch_until_it_is_chosen() -> None:
    order: list[str] = []

    class Log:
        async def step(self, name: str) -> None:
            order.append(f"{name}1")
            await asyncio.sleep(0)
            order.append(f"{name}2")

    log = Log()
    sy.interleave(log, [[functools.partial(log.step, "a")], [functools.partial(log.step, "b")]], schedule=[[2], [0]], tasks=True)
    assert order == ["a1", "b1", "b2", "a2"]
    order.clear()
    sy.interleave(log, [[functools.partial(log.step, "a")], [functools.partial(log.step, "b")]], tasks=True)
    assert order == ["a1", "a2", "b1", "b2"]


def test_line_points_are_only_in_the_systems_own_code() -> None:
    assert scheduler.system_code(sy.Monkey(Register, [sy.Action("read")])) == frozenset()  # synthia's machinery: never a point
    assert scheduler.system_code(Register()) == {__file__}
    assert scheduler.system_code({}) == frozenset()


# -- options -------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "options, message",
    [
        (dict(threads=1), "threads must be an int of at least 2, got 1"),
        (dict(tasks=True), "tasks must be an int of at least 2, got True"),
        (dict(threads=2, tasks=2), "give threads or tasks, not both"),
        (dict(threads=2, preemption="bytecode"), "preemption must be one of"),
        (dict(tasks=2, preemption="line"), "preemption must be 'action' with tasks"),
        (dict(threads=2, schedule="fair"), "schedule must be one of"),
        (dict(threads=2, preemptions=-1), "preemptions must be a non-negative int or None, got -1"),
        (dict(threads=2, branch_steps=0), "branch_steps must be an int of at least 1, got 0"),
        (dict(threads=2, prefix=-1), "prefix must be an int of at least 0, got -1"),
    ],
)
def test_bad_concurrent_options_are_refused_at_construction(options: dict[str, Any], message: str) -> None:
    with pytest.raises((ValueError, TypeError), match=re.escape(message)):
        sy.Monkey(Register, [sy.Action("read")], **options)


def test_a_concurrent_monkey_needs_a_list_of_actions_and_a_factory_without_a_model() -> None:
    with pytest.raises(TypeError, match="takes a list of actions"):
        sy.Monkey(Register, sy.Choice(sy.Action("read")), threads=2)

    class Resettable(Register):
        def reset(self) -> None:
            self.value = 0

    with pytest.raises(TypeError, match="needs a system factory"):
        sy.Monkey(Resettable(), [sy.Action("read")], threads=2)


def test_the_repr_reads_like_the_wiring() -> None:
    monkey = sy.Monkey(Register, [sy.Action("read")], threads=2, preemption="line", stop=sy.FixedCount(10))
    assert repr(monkey) == "Monkey(Register, [Action('read')], threads=2, prefix=3, branch_steps=3, preemption='line', schedule='random', stop=FixedCount(10))"


def test_a_monkey_class_runs_concurrently() -> None:
    class Hits:
        """A test class whose record() reads, then writes: a race between threads."""

        def __init__(self) -> None:
            self.count = 0

        @sy.action()
        def record(self) -> int:
            seen = self.count
            self.count = seen + 1
            return seen + 1

    report = sy.Monkey.from_class(Hits, threads=2, preemption="line", stop=sy.FixedCount(2000)).run(seed=0)
    assert not report.passed and report.history is not None and report.history.preemptions == 1
    assert "model = " in report.program and "Hits" in report.program

    @sy.monkey(threads=2, preemption="line", stop=sy.FixedCount(2000))
    class TestHits(Hits):
        pass

    with pytest.raises(sy.SynthiaFailure, match="no sequential order of the calls explains their results"):
        TestHits().test_monkey()


def test_async_actions_need_tasks_not_threads(races: Any) -> None:
    with pytest.raises(TypeError, match="the action 'transfer' is a coroutine function: run async actions as tasks=N, not threads=2"):
        sy.Monkey(races.Account, [sy.Action("transfer", amount=1)], model=races.AccountModel, threads=2)


def test_expectations_are_checked_on_every_concurrent_call(races: Any) -> None:
    def small(result: int) -> bool:
        if result > 5:
            raise ValueError("too big")
        return True

    actions = [sy.Action("get_or_set", key=0, value=sy.RandomInteger(0, 10), expect=small)]
    report = sy.Monkey(races.LockedCache, actions, model=races.CacheModel, threads=2, stop=sy.FixedCount(200)).run(seed=0)
    assert not report.passed and "the expectation raised ValueError: too big" in report.failure
