"""The controlled scheduler's asyncio side: branches as tasks on a loop (a
:class:`~synthia.testing.eventloop.VirtualLoop`: timers on a virtual clock) that holds back
each branch's steps until the scheduler chooses that branch. Every ``await`` that suspends is
a preemption point; the decisions are the same as for threads
(:class:`~synthia.testing.scheduler.Decisions`). When every task waits and nothing can wake
one, the run is a deadlock, reported with where each branch waits.

>>> import asyncio, functools
>>> from synthia.testing.scheduler import Decisions
>>> from synthia.testing.history import History
>>> class Log:
...     def __init__(self): self.lines = []
...     async def step(self, name):
...         self.lines.append(f"{name}1")
...         await asyncio.sleep(10)          # ten seconds, on the virtual clock
...         self.lines.append(f"{name}2")
>>> log = Log()
>>> history = History()
>>> run_tasks(history, [], [[functools.partial(log.step, "a")], [functools.partial(log.step, "b")]], Decisions([[0], [0]]))
>>> log.lines
['a1', 'b1', 'a2', 'b2']
"""
from __future__ import annotations

import asyncio
import contextvars
import os
from typing import Any, Callable

from .eventloop import Deadlock, VirtualLoop, close_loop, run_loop
from .history import History
from .scheduler import _preempts

__all__ = ["run_tasks"]

_BRANCH: contextvars.ContextVar[int | None] = contextvars.ContextVar("synthia_branch", default=None)


class _ControlledLoop(VirtualLoop):
    """An event loop that holds back the steps of the branches' tasks: each is released when
    the scheduler chooses that branch (every other callback runs as usual)."""

    def __init__(self) -> None:
        super().__init__()
        self.held: dict[int, list[tuple[Any, tuple[Any, ...], contextvars.Context | None]]] = {}
        #: What the control task waits on when no branch is ready.
        self.waiter: asyncio.Future[Any] | None = None
        self.on_stuck = self._stuck_now

    def call_soon(self, callback: Any, *args: Any, context: contextvars.Context | None = None) -> asyncio.Handle:  # type: ignore[override]
        branch = _BRANCH.get() if context is None else context.get(_BRANCH)
        if branch is None or branch not in self.held:
            return super().call_soon(callback, *args, context=context)
        self.held[branch].append((callback, args, context))
        self.poke()
        return asyncio.Handle(callback, args, self, context)

    def poke(self, why: Any = None) -> None:
        """Wake the control task (a branch became ready, ended, or the loop is stuck)."""
        waiter = self.waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(why)

    def _stuck_now(self) -> None:
        if self.waiter is not None and not self.waiter.done():
            self.poke("stuck")
        else:
            self.stop()

    def release(self, branch: int) -> None:
        waiting, self.held[branch] = self.held[branch], []
        for callback, args, context in waiting:
            super().call_soon(callback, *args, context=context)


def run_tasks(history: History, prefix: list[Callable[[], Any]], branches: list[list[Callable[[], Any]]], decisions: Any) -> None:
    """The ``prefix``'s calls one after the other, then the ``branches`` as tasks under the
    decisions, on a fresh controlled loop; a deadlock is written in ``history.deadlock``."""
    loop = _ControlledLoop()

    async def whole() -> None:
        for index, call in enumerate(prefix):
            await history.perform_async(-1, index, call)
        await _run_branches(loop, history, branches, decisions)

    try:
        run_loop(loop, whole())
    except Deadlock as exc:
        blocked = history.blocked
        if blocked and blocked[0].branch < 0:
            history.deadlock = f"the prefix's call {blocked[0].text} waits, and no timer, I/O or thread can wake it"
        else:
            history.deadlock = str(exc)
    finally:
        close_loop(loop)


async def _run_branches(loop: _ControlledLoop, history: History, branches: list[list[Callable[[], Any]]], decisions: Any) -> None:
    #: Per branch: the call it is in, and its points so far in that call.
    where = [[-1, 0] for _ in branches]

    async def branch(number: int, calls: list[Callable[[], Any]]) -> None:
        for index, call in enumerate(calls):
            where[number] = [index, 0]
            await asyncio.sleep(0)  # the boundary before the call: a point
            record = await history.perform_async(number, index, call)
            record.points = where[number][1]

    tasks: list[asyncio.Task[None]] = []
    for number, calls in enumerate(branches):
        loop.held[number] = []
        context = contextvars.copy_context()
        context.run(_BRANCH.set, number)
        task = context.run(loop.create_task, branch(number, calls))
        task.add_done_callback(lambda _: loop.poke())
        tasks.append(task)
    try:
        await _control(loop, tasks, decisions, where)
    finally:
        # Whatever ended the control (a replay out of draws, a deadlock), no task is left behind.
        for number in list(loop.held):
            loop.release(number)
            del loop.held[number]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    for task in tasks:
        task.result()


def _waits(number: int, task: "asyncio.Task[None]") -> str:
    """Where a branch's task waits: its innermost frame."""
    frames = task.get_stack()
    if not frames:
        return f"branch {number + 1} waits"
    frame = frames[-1]
    return f"branch {number + 1} waits in {frame.f_code.co_name} ({os.path.basename(frame.f_code.co_filename)}:{frame.f_lineno})"


async def _control(loop: _ControlledLoop, tasks: list["asyncio.Task[None]"], decisions: Any, where: list[list[int]]) -> None:
    running: int | None = None
    #: Whether the running branch waited (for a timer, a lock, another task) since it ran:
    #: when it is ready again, which branch goes on is a choice, as after a thread blocks.
    waited = False
    while not all(task.done() for task in tasks):
        ready = [k for k in range(len(tasks)) if loop.held[k] and not tasks[k].done()]
        if running not in ready:
            waited = True
        if not ready:
            # Every branch waits for something outside the branches (a timer, I/O): the loop
            # runs it (its clock jumps to the next timer) until a branch is ready again.
            loop.waiter = loop.create_future()
            try:
                why = await loop.waiter
            finally:
                loop.waiter = None
            if why == "stuck":
                waiting = [_waits(k, task) for k, task in enumerate(tasks) if not task.done()]
                raise Deadlock("; ".join(waiting) + ", and no timer, I/O or thread can wake one")
            continue
        chosen = running
        if running in ready and not waited:
            # The running branch suspended and is ready at once: a point of its current call.
            assert running is not None
            where[running][1] += 1
            index, point = where[running]
            if index >= 0 and point == decisions.at(running, index) and len(ready) > 1:
                decisions.switched(running, _preempts(index, point))
                others = sorted((k for k in ready if k != running), key=lambda k: (k <= running, k))  # type: ignore[operator]
                chosen = decisions.choose(others)
        else:
            order = sorted(ready) if running is None else sorted(ready, key=lambda k: (k <= running, k))  # type: ignore[operator]
            chosen = decisions.choose(order)
        assert chosen is not None
        running, waited = chosen, False
        loop.release(chosen)
        await asyncio.sleep(0)  # the chosen branch's steps run before this line goes on
