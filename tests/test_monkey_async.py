"""Async actions: a coroutine function (on the system or the model, a precondition, an
expectation, an invariant) is awaited on the trace's own event loop, and everything a
sequential Monkey does -- lockstep, shrinking, programs, ``@sy.monkey`` -- works with it."""
from __future__ import annotations

import asyncio
import subprocess
import sys
import textwrap
from typing import Any

import synthia as sy


class AsyncStore:
    """A key-value store with async methods; ``put`` of key 3 stores one too many (planted)."""

    BUG = True

    def __init__(self) -> None:
        self.items: dict[int, int] = {}

    async def put(self, key: int, value: int) -> None:
        await asyncio.sleep(0)  # a real suspension: the loop must run
        self.items[key] = value + 1 if (self.BUG and key == 3) else value

    async def get(self, key: int) -> int | None:
        await asyncio.sleep(0)
        return self.items.get(key)

    async def size(self) -> int:
        return len(self.items)

    async def consistent(self) -> bool:
        return all(v < 10 for v in self.items.values())


class FixedStore(AsyncStore):
    BUG = False


class StoreModel:
    def __init__(self) -> None:
        self.items: dict[int, int] = {}

    def put(self, key: int, value: int) -> None:
        self.items[key] = value

    def get(self, key: int) -> int | None:
        return self.items.get(key)

    def size(self) -> int:
        return len(self.items)


class AsyncModel(StoreModel):
    """The same model with async methods: its results are awaited too."""

    async def put(self, key: int, value: int) -> None:  # type: ignore[override]
        await asyncio.sleep(0)
        super().put(key, value)

    async def get(self, key: int) -> int | None:  # type: ignore[override]
        return super().get(key)

    async def size(self) -> int:  # type: ignore[override]
        return super().size()


KEYS = sy.RandomInteger(0, 5)


def actions() -> list[sy.Action]:
    return [sy.Action("put", key=KEYS, value=sy.RandomInteger(0, 9)), sy.Action("get", key=KEYS), sy.Action("size")]


def test_an_async_system_is_checked_in_lockstep_and_shrunk() -> None:
    report = sy.Monkey(AsyncStore, actions(), model=StoreModel).run(seed=1)
    assert not report.passed
    assert [step.text("store") for step in report.trace or []] == ["await store.put(key=3, value=0)", "await store.get(key=3)"]
    assert report.failure == "async_store.get(key=3) returned 1; the model returns 0"
    assert report.replay() is False


def test_an_async_model_is_awaited_too() -> None:
    report = sy.Monkey(AsyncStore, actions(), model=AsyncModel).run(seed=1)
    assert not report.passed and report.failure == "async_store.get(key=3) returned 1; the model returns 0"
    assert sy.Monkey(FixedStore, actions(), model=AsyncModel).run(seed=1).passed


def test_a_correct_async_system_passes() -> None:
    report = sy.Monkey(FixedStore, actions(), model=StoreModel).run(seed=2)
    assert report.passed and report.tried == 100


def test_the_same_seed_gives_the_same_async_report() -> None:
    one = sy.Monkey(AsyncStore, actions(), model=StoreModel).run(seed=5)
    two = sy.Monkey(AsyncStore, actions(), model=StoreModel).run(seed=5)
    assert one.program == two.program and one.first_trace is not None
    assert [s.text() for s in one.first_trace] == [s.text() for s in two.first_trace or []]


def test_async_preconditions_expectations_and_invariants() -> None:
    async def has_items(model: StoreModel) -> bool:
        await asyncio.sleep(0)
        return bool(model.items)

    async def below_ten(value: Any) -> bool:
        await asyncio.sleep(0)
        return value is None or value < 4

    async def small(store: AsyncStore, model: StoreModel) -> bool:
        return len(store.items) <= 2

    get = sy.Action("get", key=KEYS, precondition=has_items)
    put = sy.Action("put", key=KEYS, value=sy.RandomInteger(0, 9))
    # the precondition: get never runs on an empty store (the first step is a put)
    seen = sy.Monkey(FixedStore, [get, put], model=StoreModel, max_steps=3).run(seed=0)
    assert seen.passed and seen.counts["get"]["tried"] > 0
    # an async expectation that fails
    expected = sy.Monkey(FixedStore, [put, sy.Action("get", key=KEYS, expect=below_ten)], model=StoreModel).run(seed=0)
    assert not expected.passed and "against the expectation" in expected.failure
    assert "assert await below_ten(await fixed_store.get(key=0))  # the action" in expected.program
    assert "async def below_ten(value: Any) -> bool:" in expected.program  # inlined: a local function has no import
    # an async invariant of the system and the model
    bounded = sy.Monkey(FixedStore, [put], model=StoreModel, invariants=[small]).run(seed=0)
    assert not bounded.passed and bounded.failure.startswith("invariant small is false")
    assert len(bounded.trace or []) == 3


def test_an_async_monkey_class() -> None:
    @sy.monkey(stop=sy.FixedCount(30))
    class TestQueue:
        def __init__(self) -> None:
            self.queue: asyncio.Queue[int] | None = None
            self.model: list[int] = []

        @sy.action(x=sy.RandomInteger(0, 9))
        async def push(self, x: int) -> None:
            if self.queue is None:
                self.queue = asyncio.Queue()
            await self.queue.put(x)
            self.model.append(x)

        @sy.action(precondition=lambda self: self.model)
        async def pop(self) -> None:
            assert self.queue is not None
            got = await self.queue.get()
            assert got == self.model.pop(0)

        @sy.invariant()
        async def same_size(self) -> bool:
            return (self.queue.qsize() if self.queue else 0) == len(self.model)

    TestQueue().test_monkey()  # passes: a queue's order is FIFO


def test_an_async_monkey_class_with_a_bug_fails_with_an_async_program() -> None:
    class Counter:
        def __init__(self) -> None:
            self.n = 0

        @sy.action(by=sy.RandomInteger(1, 5))
        async def add(self, by: int) -> None:
            await asyncio.sleep(0)
            self.n += by if by != 4 else 3  # planted

        @sy.invariant()
        async def never_three(self) -> bool:
            return self.n % 4 != 3 or self.n == 3

    report = sy.Monkey.from_class(Counter).run(seed=3)
    assert not report.passed
    assert "async def test_counter():" in report.program and "asyncio.run(test_counter())" in report.program
    assert "assert await counter.never_three() in (None, True)" in report.program


def run_program(program: str, classes: str) -> subprocess.CompletedProcess[str]:
    source = textwrap.dedent(classes) + "\n" + "\n".join(
        line for line in program.splitlines() if not line.startswith("from tests.")
    )
    return subprocess.run([sys.executable, "-c", source], capture_output=True, text=True, timeout=120)


def test_the_printed_async_program_runs_as_a_script_and_fails_on_the_bug() -> None:
    report = sy.Monkey(AsyncStore, actions(), model=StoreModel).run(seed=1)
    assert "asyncio.run(test_async_store())" in report.program
    classes = """
        import asyncio
        class AsyncStore:
            BUG = {bug}
            def __init__(self): self.items = {{}}
            async def put(self, key, value):
                await asyncio.sleep(0)
                self.items[key] = value + 1 if (self.BUG and key == 3) else value
            async def get(self, key):
                return self.items.get(key)
        """
    failed = run_program(report.program, classes.format(bug=True))
    assert failed.returncode != 0 and "AssertionError" in failed.stderr
    passed = run_program(report.program, classes.format(bug=False))
    assert passed.returncode == 0, passed.stderr


def test_each_trace_has_its_own_loop_closed_after_it() -> None:
    loops: list[asyncio.AbstractEventLoop] = []

    class Spy:
        async def touch(self) -> None:
            loops.append(asyncio.get_running_loop())

    assert sy.Monkey(Spy, [sy.Action("touch")], max_steps=2, stop=sy.FixedCount(3), copy_parts=False).run(seed=0).passed
    assert len(loops) == 6 and len({id(loop) for loop in loops[::2]}) >= 1
    assert all(loop.is_closed() for loop in loops)
    assert loops[0] is loops[1] and loops[1] is not loops[2]
