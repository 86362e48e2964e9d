"""The concurrent Monkey: races found with the default settings, shrunk (calls and
preemptions), replayed by a printed program; deadlocks named with their wait-for cycle; the
threading primitives a system makes seen by the scheduler; timers on a virtual clock; and the
parts -- the search for a linearization, the scheduler, PCT, the options.

The ten subjects of ``benchmarks/race_subjects.py`` are checked on one seed here (the
benchmark, ``python benchmarks/run.py concurrency``, checks ten seeds and the correct
versions over 2,000 schedules)."""
from __future__ import annotations

import asyncio
import functools
import importlib
import json
import os
import pathlib
import queue
import re
import subprocess
import sys
import threading
from typing import Any, Iterator

import pytest

import synthia as sy
from synthia.core.random import Stream
from synthia.testing import primitives, scheduler
from synthia.testing.linearizability import Call, linearize
from synthia.testing.schedules import DEEPENING, Exploration, Plan

ROOT = pathlib.Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
BENCHMARKS = ROOT / "benchmarks"


def _module(folder: pathlib.Path, name: str) -> Iterator[Any]:
    sys.path.insert(0, str(folder))
    try:
        yield importlib.import_module(name)
    finally:
        sys.path.remove(str(folder))


@pytest.fixture(scope="module")
def races() -> Iterator[Any]:
    yield from _module(EXAMPLES, "concurrency_races")


@pytest.fixture(scope="module")
def subjects() -> Iterator[Any]:
    yield from _module(BENCHMARKS, "race_subjects")


SUBJECTS = ["ids", "worklist", "memo", "session", "refcount", "buffer", "deep", "transfers", "stampede", "limiter"]
#: The fewest preemptions that show each subject's race (the others need one).
NO_PREEMPTION = {"buffer", "limiter"}
SEED = 1


def shape(report: sy.MonkeyReport) -> tuple[list[int], int]:
    history = report.history
    assert history is not None
    return [len(history.branch(k)) for k in range(2)], history.preemptions


@pytest.fixture(scope="module")
def found(subjects: Any) -> dict[str, sy.MonkeyReport]:
    """Each subject's report with the default settings, on one seed."""
    return {name: subjects.race_monkey(name).run(seed=SEED) for name in SUBJECTS}


def environment(*folders: pathlib.Path) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), *map(str, folders), os.environ.get("PYTHONPATH", "")])}


# -- the subjects, with the defaults ------------------------------------------------------------------
def test_the_subjects_are_the_races_the_issue_asks_for(subjects: Any) -> None:
    kinds = {name: subject.kind for name, subject in subjects.SUBJECTS.items()}
    assert sorted(kinds) == sorted(SUBJECTS)
    assert {"first use", "deadlock", "deep in a call", "inside a library", "asyncio, timers"} <= set(kinds.values())
    for name, subject in subjects.SUBJECTS.items():
        assert set(subject.options) <= {"threads", "tasks", "within"}, name  # the defaults
        assert subject.modelled_on and subject.fixed is not subject.system


@pytest.mark.parametrize("name", SUBJECTS)
def test_each_subject_is_found_with_the_defaults_and_shrunk_to_its_smallest_race(found: dict[str, sy.MonkeyReport], name: str) -> None:
    report = found[name]
    assert not report.passed and report.tried <= 2000, report.reason
    calls, preemptions = shape(report)
    assert max(calls) <= 2 and min(calls) >= 1, calls
    assert preemptions == (0 if name in NO_PREEMPTION else 1), report.history
    kind = "deadlock" if name == "transfers" else "no sequential order of the calls explains their results"
    assert report.failure.startswith(kind), report.failure


@pytest.mark.parametrize("name", SUBJECTS)
def test_each_correct_version_passes(subjects: Any, name: str) -> None:
    report = subjects.race_monkey(name, locked=True, schedules=300).run(seed=0)
    assert report.passed and report.tried == 300, report.failure


def test_the_race_deep_in_a_call_is_preempted_past_its_20th_point(found: dict[str, sy.MonkeyReport]) -> None:
    history = found["deep"].history
    assert history is not None and max(max(points) for points in history.schedule) > 20, history.schedule


def test_a_race_inside_a_library_needs_within(subjects: Any, found: dict[str, sy.MonkeyReport]) -> None:
    # Its window lies in tinycache's code only: without within=[...], no point falls in it.
    assert subjects.race_monkey("stampede", schedules=500, within=[]).run(seed=SEED).passed
    history = found["stampede"].history
    assert history is not None and "within=['tinycache']" in found["stampede"].program


def test_a_first_use_race_needs_the_empty_prefix(found: dict[str, sy.MonkeyReport]) -> None:
    history = found["session"].history
    assert history is not None and history.branch(-1) == []
    assert "raised KeyError" in found["session"].failure


def test_the_same_seed_gives_the_same_report_in_a_fresh_process(found: dict[str, sy.MonkeyReport]) -> None:
    code = (
        "import json, race_subjects as r\n"
        f"reports = {{name: r.race_monkey(name).run(seed={SEED}) for name in {SUBJECTS!r}}}\n"
        "print(json.dumps({n: [x.failure, x.program, x.tried, x.history.schedule, x.history.choices] for n, x in reports.items()}))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=600,
        env={**environment(BENCHMARKS), "PYTHONHASHSEED": "7"},
    )
    assert out.returncode == 0, out.stderr
    here = {n: [x.failure, x.program, x.tried, x.history.schedule, x.history.choices] for n, x in found.items()}  # type: ignore[union-attr]
    assert json.loads(out.stdout) == here


def _run_programs(programs: dict[str, str]) -> dict[str, str]:
    """Run each program in one fresh process: what each raised (``""``: it passed)."""
    code = (
        "import json, sys, traceback\n"
        "programs = json.loads(sys.stdin.read())\n"
        "outcome = {}\n"
        "for name, program in programs.items():\n"
        "    try:\n"
        "        exec(compile(program, name, 'exec'), {'__name__': '__main__'})\n"
        "        outcome[name] = ''\n"
        "    except BaseException as exc:\n"
        "        outcome[name] = f'{type(exc).__name__}: {exc}'\n"
        "print(json.dumps(outcome))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], input=json.dumps(programs), capture_output=True, text=True, cwd=ROOT, timeout=600,
        env=environment(BENCHMARKS, EXAMPLES),
    )
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.splitlines()[-1])  # type: ignore[no-any-return]


def test_each_printed_program_fails_on_the_race_and_passes_on_the_correct_version(subjects: Any, found: dict[str, sy.MonkeyReport]) -> None:
    buggy, correct = {}, {}
    for name, report in found.items():
        subject = subjects.SUBJECTS[name]
        system, fixed = subject.system.__name__, subject.fixed.__name__
        buggy[name] = report.program
        correct[name] = re.sub(rf"\b{system}\b(?=[,\n])", f"{fixed} as {system}", report.program, count=1)
        assert correct[name] != report.program
    failed = _run_programs(buggy)
    for name, raised in failed.items():
        expected = "deadlock: " if name == "transfers" else "no sequential order of the calls explains their results"
        assert raised.startswith("AssertionError") and expected in raised, (name, raised)
    assert _run_programs(correct) == {name: "" for name in SUBJECTS}


# -- deadlocks and blocking -----------------------------------------------------------------------------
def test_a_deadlock_names_its_wait_for_cycle_and_leaves_no_thread_behind(found: dict[str, sy.MonkeyReport], subjects: Any) -> None:
    before = set(threading.enumerate())
    report = subjects.race_monkey("transfers").run(seed=SEED)
    assert set(threading.enumerate()) == before
    first = report.failure.splitlines()[0]
    assert re.fullmatch(
        r"deadlock: branch 1 holds bank\.(a|b) and waits for bank\.(a|b) \(held by branch 2\); "
        r"branch 2 holds bank\.\2 and waits for bank\.\1 \(held by branch 1\); "
        r"the wait-for cycle: branch 1 -> bank\.\2 -> branch 2 -> bank\.\1 -> branch 1",
        first,
    ), first
    assert "blocked" in report.failure and "-> None" not in report.failure
    assert report.program.endswith('assert history.deadlock is None, f"deadlock: {history.deadlock}"')
    assert "timeout=10" in report.program


class Jobs:
    """A queue a prefix call may wait on for good."""

    def __init__(self) -> None:
        self.jobs: queue.Queue[int] = queue.Queue()

    def put(self, job: int) -> None:
        self.jobs.put(job)

    def take(self) -> int:
        return self.jobs.get()


class JobsModel:
    def __init__(self) -> None:
        self.jobs: list[int] = []

    def put(self, job: int) -> None:
        self.jobs.append(job)

    def take(self) -> int:
        if not self.jobs:
            raise queue.Empty
        return self.jobs.pop(0)


def test_a_call_that_blocks_for_good_in_the_prefix_is_a_deadlock_too() -> None:
    before = set(threading.enumerate())
    report = sy.Monkey(Jobs, [sy.Action("put", job=sy.RandomInteger(0, 3)), sy.Action("take")], model=JobsModel, threads=2).run(seed=0)
    assert set(threading.enumerate()) == before
    assert report.failure.splitlines() == [
        "deadlock: the prefix waits for a notification on jobs.jobs.not_empty, and nothing left can wake it",
        "prefix: jobs.take() blocked",
    ]


class Primitives:
    """Each threading primitive, waited on by one branch and released by the other."""

    def __init__(self) -> None:
        self.rlock = threading.RLock()
        self.ready = threading.Event()
        self.slots = threading.Semaphore(0)
        self.changed = threading.Condition()
        self.box: queue.Queue[int] = queue.Queue(maxsize=1)
        self.gate = threading.Barrier(2)
        self.log: list[str] = []

    def first(self) -> None:
        with self.rlock, self.rlock:
            self.log.append("rlock")
        self.ready.set()
        self.slots.release()
        with self.changed:
            self.changed.notify_all()
        self.box.put(1)
        self.gate.wait()

    def second(self) -> None:
        self.ready.wait()
        self.slots.acquire()
        self.box.get()
        self.gate.wait()
        self.log.append("through")


def test_every_threading_primitive_made_in_a_trace_is_seen_by_the_scheduler() -> None:
    primitives_ = Primitives()  # made outside a trace: real primitives, for the types
    with sy.controlled_primitives():
        system = Primitives()
    for name in ("rlock", "ready", "slots", "changed", "box", "gate"):
        assert type(getattr(system, name)) is type(getattr(primitives_, name)) or name in ("rlock", "changed")
    assert type(system.rlock) is primitives.RLock and type(system.changed) is primitives.Condition
    assert type(system.box.mutex) is primitives.Lock and type(system.ready._cond) is primitives.Condition  # noqa: SLF001
    # Branch 2 runs first and waits on each in turn; branch 1 releases them: no deadlock, no hang.
    for choices in ([0], [1]):
        with sy.controlled_primitives():
            system = Primitives()
        history = sy.interleave(system, [[functools.partial(system.first)], [functools.partial(system.second)]], choices=choices, timeout=10)
        assert history.deadlock is None and system.log == ["rlock", "through"], (choices, history.deadlock)


class Warmup:
    """Starts a thread of its own, which sets ``ready`` a moment later."""

    def __init__(self) -> None:
        self.ready = threading.Event()
        threading.Thread(target=self.warm, daemon=True).start()

    def warm(self) -> None:
        threading.Event().wait(0.05)  # made outside a branch: a real wait
        self.ready.set()

    def wait(self) -> bool:
        return self.ready.wait()


def test_a_branch_waiting_for_a_thread_the_system_started_is_not_a_deadlock() -> None:
    report = sy.Monkey(Warmup, [sy.Action("wait")], threads=2, prefix=0, branch_steps=1, stop=sy.FixedCount(3)).run(seed=0)
    assert report.passed, report.failure


def test_a_timed_wait_times_out_on_the_virtual_clock() -> None:
    class Waiter:
        def __init__(self) -> None:
            self.never = threading.Event()
            self.jobs: queue.Queue[int] = queue.Queue()

        def wait(self) -> bool:
            return self.never.wait(timeout=3600)  # an hour: virtual, so at once

        def take(self) -> Any:
            try:
                return self.jobs.get(timeout=3600)
            except queue.Empty:
                return "empty"

    with sy.controlled_primitives():
        waiter = Waiter()
    history = sy.interleave(waiter, [[functools.partial(waiter.wait)], [functools.partial(waiter.take)]])
    assert [(c.text, c.result) for c in history.calls] == [("waiter.wait()", False), ("waiter.take()", "empty")]


def test_the_stand_ins_are_restored_after_a_trace_also_on_error_and_across_threads() -> None:
    real = (threading.Lock, threading.RLock, threading.Condition, queue.Queue)
    with pytest.raises(RuntimeError, match="inside"):
        with sy.controlled_primitives():
            assert threading.Lock is primitives.Lock
            raise RuntimeError("inside")
    assert (threading.Lock, threading.RLock, threading.Condition, queue.Queue) == real
    entered, leave = threading.Event(), threading.Event()

    def other() -> None:
        with sy.controlled_primitives():
            entered.set()
            leave.wait()

    thread = threading.Thread(target=other)
    thread.start()
    entered.wait()
    with sy.controlled_primitives():
        pass
    assert threading.Lock is primitives.Lock  # the other thread's block still runs
    leave.set()
    thread.join()
    assert threading.Lock is real[0]
    lock = primitives.Lock()  # outside a scheduler: a plain lock
    assert lock.acquire() and not lock.acquire(blocking=False) and lock.acquire(timeout=0.01) is False


def test_a_branch_stuck_outside_the_scheduler_is_an_invalid_test(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(scheduler, "STUCK_AFTER", 0.5)

    class Plain:
        def __init__(self) -> None:
            self.lock = threading.Lock()  # made outside a trace: a real lock, held across a line point

        def work(self) -> None:
            with self.lock:
                x = 1
                del x

    plain = Plain()
    before = set(threading.enumerate())
    with pytest.raises(sy.InvalidTest, match="a lock made before the run"):
        sy.interleave(plain, [[functools.partial(plain.work)]] * 2, schedule=[[3], [0]])
    # Given up, the preempted branch unwinds (releasing the lock), and the one blocked for real ends.
    for thread in set(threading.enumerate()) - before:
        thread.join(5)
    assert set(threading.enumerate()) == before and not plain.lock.locked()


# -- exceptions -------------------------------------------------------------------------------------------
class Refuses:
    def get(self) -> int:
        raise ValueError("never")


class RefusesModel:
    def get(self) -> int:
        return 0


def test_an_exception_no_action_declares_fails_a_concurrent_trace_with_or_without_a_model() -> None:
    alone = sy.Monkey(Refuses, [sy.Action("get")], threads=2, stop=sy.FixedCount(100)).run(seed=0)
    assert not alone.passed and alone.failure.startswith("refuses.get() raised ValueError: never")
    assert 'raised = [call.text for call in history.calls if isinstance(call.exception, ValueError)]' in alone.program
    modelled = sy.Monkey(Refuses, [sy.Action("get")], model=RefusesModel, threads=2, stop=sy.FixedCount(100)).run(seed=0)
    assert not modelled.passed and "raised ValueError" in modelled.failure
    declared = sy.Monkey(Refuses, [sy.Action("get", raises=ValueError)], threads=2, stop=sy.FixedCount(100)).run(seed=0)
    assert declared.passed  # every sequential order raises it too


# -- timers and running event loops ------------------------------------------------------------------------
class Slow:
    async def nap(self) -> float:
        await asyncio.sleep(3600)
        return asyncio.get_running_loop().time()


def test_async_monkeys_run_inside_a_running_event_loop(found: dict[str, sy.MonkeyReport], subjects: Any) -> None:
    async def inside() -> tuple[sy.MonkeyReport, sy.MonkeyReport]:
        tasks = subjects.race_monkey("limiter").run(seed=SEED)
        sequential = sy.Monkey(Slow, [sy.Action("nap")], max_steps=3, stop=sy.FixedCount(5)).run(seed=0)
        return tasks, sequential

    tasks, sequential = asyncio.run(inside())
    assert tasks.failure == found["limiter"].failure and tasks.program == found["limiter"].program
    assert sequential.passed and sequential.tried == 5


def test_timers_run_on_the_virtual_clock_in_order() -> None:
    from synthia.testing.eventloop import VirtualLoop, close_loop, run_loop

    async def timers() -> list[Any]:
        loop = asyncio.get_running_loop()
        fired: list[Any] = []
        loop.call_later(7, fired.append, "later 7")
        loop.call_later(3, fired.append, "later 3")
        try:
            await asyncio.wait_for(asyncio.sleep(100), timeout=5)
        except asyncio.TimeoutError:
            fired.append(("timed out at", loop.time()))
        await asyncio.sleep(10)
        fired.append(("slept to", loop.time()))
        return fired

    loop = VirtualLoop()
    try:
        assert run_loop(loop, timers()) == ["later 3", ("timed out at", 5.0), "later 7", ("slept to", 15.0)]
    finally:
        close_loop(loop)


def test_a_trace_that_waits_for_nothing_is_a_deadlock_not_a_hang() -> None:
    class Forever:
        async def wait(self) -> None:
            await asyncio.get_running_loop().create_future()

    report = sy.Monkey(Forever, [sy.Action("wait")], tasks=2, stop=sy.FixedCount(20)).run(seed=0)
    assert report.failure.startswith("deadlock: the prefix's call forever.wait() waits") or report.failure.startswith("deadlock: branch 1 waits in wait")
    sequential = sy.Monkey(Forever, [sy.Action("wait")], max_steps=1, stop=sy.FixedCount(2)).run(seed=0)
    assert "raised Deadlock: every task waits" in sequential.failure


# -- the examples ----------------------------------------------------------------------------------------
RACES = ["counter", "cache", "account", "queue"]


@pytest.mark.parametrize("name", RACES)
def test_each_example_race_is_found_with_the_defaults_and_its_locked_version_passes(races: Any, name: str) -> None:
    report = races.race_monkey(name).run(seed=1)
    assert not report.passed and report.failure.startswith("no sequential order of the calls explains their results")
    calls, preemptions = shape(report)
    assert max(calls) <= 2 and preemptions == 1
    assert races.race_monkey(name, locked=True, schedules=300).run(seed=1).passed


def test_the_report_replays_and_shows_the_branches_side_by_side(races: Any) -> None:
    report = races.race_monkey("counter").run(seed=0)
    assert report.replay() is False  # the smallest trace fails again when replayed
    lines = report.failure.splitlines()
    assert lines[1].split("|")[0].strip() == "branch 1" and lines[1].split("|")[1].strip() == "branch 2"
    assert "counter.increment() -> None" in report.failure and "counter.get() -> 1" in report.failure
    assert report.history is not None and report.history.preemption == "opcode"  # += is one line


def test_without_a_model_fresh_systems_are_the_model(races: Any) -> None:
    report = sy.Monkey(races.Cache, [sy.Action("get_or_set", key=0, value=sy.RandomInteger(0, 10))], threads=2, stop=sy.FixedCount(2000)).run(seed=2)
    assert not report.passed and "history.linearizable(Cache," in report.program
    assert sy.Monkey(races.LockedCache, [sy.Action("get_or_set", key=0, value=sy.RandomInteger(0, 10))], threads=2, stop=sy.FixedCount(300)).run(seed=2).passed


def test_action_level_preemption_cannot_split_an_action(races: Any) -> None:
    assert races.race_monkey("cache", preemption="action", schedules=300).run(seed=0).passed


def test_no_preemption_finds_no_race(races: Any) -> None:
    assert races.race_monkey("cache", preemptions=0, schedules=300).run(seed=0).passed


def test_random_schedules_find_the_races_too(races: Any) -> None:
    for name in ("cache", "queue"):
        report = races.race_monkey(name, schedule="random").run(seed=0)
        assert not report.passed and shape(report)[1] == 1


def test_three_threads(races: Any) -> None:
    report = races.race_monkey("cache", threads=3).run(seed=0)
    assert not report.passed
    assert report.history is not None and len(report.history.schedule) == 3


# -- PCT and what discovery explores ---------------------------------------------------------------------
def test_pct_gives_the_branches_distinct_priorities_and_its_change_points_grow_with_the_budget() -> None:
    concurrency = scheduler.Concurrency(3, prefix=3, branch_steps=3)
    exploration = Exploration()
    seen_prefixes, seen_changes, starts = set(), set(), set()
    for trace in range(400):
        exploration.traces = trace
        plan = Plan(concurrency, exploration)
        stream = Stream(trace)
        plan.budget(stream)
        assert sorted(plan.priorities) == [len(plan.changes) + 1 + k for k in range(3)]
        seen_prefixes.add(plan.quotas[0])
        seen_changes.add((trace >= DEEPENING, len(plan.changes)))
        starts.add(plan.choose(stream, [0, 1, 2]))
    assert seen_prefixes == {0, 1, 2, 3}  # the empty prefix is tried
    assert seen_changes == {(False, 1), (True, 1), (True, 2)}
    assert starts == {0, 1, 2}  # any branch may have the highest priority
    plan.switched(starts.pop())
    assert min(plan.priorities) == 1  # the i-th change drops a priority to i, below the others


def test_points_are_drawn_among_every_point_calls_reached() -> None:
    concurrency = scheduler.Concurrency(2, preemption="line")
    exploration = Exploration()
    exploration.observe("line", [("long", 40, 0), ("short", 3, 0)])
    drawn = {"long": set(), "short": set()}
    for seed in range(3000):
        plan = Plan(concurrency, exploration)
        stream = Stream(seed)
        plan._draw(stream)  # noqa: SLF001
        for action in drawn:
            plan.changes = {plan.ordinal}
            drawn[action].add(plan.point(stream, 1, 1, action))
    assert max(drawn["long"]) == 40 and min(drawn["long"]) == 1  # every point of the 40: none past it
    assert drawn["short"] == {1, 2, 3}
    assert "long 39 lines" in exploration.describe()


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
        found = linearize([call(0, "write(1)", lambda m: m.write(1), None, 0, 3), overlapping], Register())
        assert found is not None
        assert found.order == ([1, 0] if seen == 0 else [0, 1])


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


def test_a_model_is_never_changed_by_the_search_and_may_be_a_class() -> None:
    model = Register()
    linearize([call(0, "write(5)", lambda m: m.write(5), None, 1, 2)], model)
    assert model.value == 0
    history = sy.interleave(model, [[functools.partial(model.write, 5)], [functools.partial(model.read)]])
    assert history.linearizable(Register, [[lambda m: m.write(5)], [lambda m: m.read()]])


# -- the scheduler -------------------------------------------------------------------------------
def test_interleave_replays_a_schedule() -> None:
    class Counter:
        def __init__(self) -> None:
            self.n = 0

        def increment(self) -> None:
            seen = self.n
            self.n = seen + 1

    counter = Counter()
    history = sy.interleave(counter, [[functools.partial(counter.increment)]] * 2, schedule=[[3], [0]])
    assert counter.n == 1 and history.preemptions == 1 and history.preemption == "line"
    counter = Counter()
    sy.interleave(counter, [[functools.partial(counter.increment)]] * 2)
    assert counter.n == 2  # no preemption: one after the other


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


def test_line_points_are_in_the_systems_own_code_and_the_modules_named() -> None:
    assert scheduler.system_code(sy.Monkey(Register, [sy.Action("read")])).files == frozenset()  # synthia's machinery: never a point
    assert scheduler.system_code(Register()).files == {__file__}
    assert scheduler.system_code({}).files == frozenset()
    code = scheduler.system_code(Register(), within=["json"])
    assert json.__file__ in code and json.decoder.__file__ in code and __file__ in code and queue.__file__ not in code


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
        (dict(threads=2, within=["no_such_module_here"]), "within names modules whose code is preempted: no module 'no_such_module_here' can be imported"),
        (dict(threads=2, within=["synthia.core"]), "synthia's own is never preempted, got 'synthia.core'"),
        (dict(threads=2, within=[3]), "within must be a list of module names, got [3]"),
    ],
)
def test_bad_concurrent_options_are_refused_at_construction(options: dict[str, Any], message: str) -> None:
    with pytest.raises((ValueError, TypeError), match=re.escape(message)):
        sy.Monkey(Register, [sy.Action("read")], **options)


def test_interleave_refuses_bad_arguments() -> None:
    register = Register()
    with pytest.raises(ValueError, match="preemption must be one of"):
        sy.interleave(register, [[functools.partial(register.read)]], preemption="auto")
    with pytest.raises(ValueError, match="timeout must be a positive number of seconds, got 0"):
        sy.interleave(register, [[functools.partial(register.read)]], timeout=0)
    with pytest.raises(TypeError, match=re.escape("branches[0][0] must be a call of no arguments, got 3")):
        sy.interleave(register, [[3]])  # type: ignore[list-item]


def test_a_concurrent_monkey_needs_a_list_of_actions_and_a_factory_without_a_model() -> None:
    with pytest.raises(TypeError, match="takes a list of actions"):
        sy.Monkey(Register, sy.Choice(sy.Action("read")), threads=2)

    class Resettable(Register):
        def reset(self) -> None:
            self.value = 0

    with pytest.raises(TypeError, match="needs a system factory"):
        sy.Monkey(Resettable(), [sy.Action("read")], threads=2)


def test_the_repr_reads_like_the_wiring() -> None:
    monkey = sy.Monkey(Register, [sy.Action("read")], threads=2, stop=sy.FixedCount(10))
    assert repr(monkey) == "Monkey(Register, [Action('read')], threads=2, prefix=3, branch_steps=3, preemption='auto', schedule='pct', stop=FixedCount(10))"


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

    report = sy.Monkey.from_class(Hits, threads=2, stop=sy.FixedCount(2000)).run(seed=0)
    assert not report.passed and report.history is not None and report.history.preemptions == 1
    assert "history.linearizable(Hits" in report.program and "class Hits:" in report.program  # a local class is inlined

    @sy.monkey(threads=2, stop=sy.FixedCount(2000))
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
