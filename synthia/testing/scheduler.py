"""A controlled scheduler: branches of calls run in parallel threads (or asyncio tasks), one
at a time, switching only where a *decision* says so.

Each branch runs in its own thread, but only one branch runs at a time: a branch stops at
each **preemption point** and waits until the scheduler resumes it. The points are every
action boundary; with ``preemption="line"`` also every line, and with ``"opcode"`` every
bytecode, of the system's own code (``sys.settrace``, restricted to the files that define
the system's class and the actions -- never synthia's nor the standard library's). A
**schedule** says, for each call, at which of its points it is preempted (``0``: never),
and which ready branch runs when there is a choice. The concurrent :class:`~synthia.Monkey`
draws each call's preemption point as a typed draw of that call's step (deleting a step
leaves the others' points alone), so a schedule is recorded, replayed and shrunk -- towards
fewer preemptions, ``0`` being the simplest draw -- like any other draw; :func:`interleave`
replays one.

With ``tasks=True`` the branches are asyncio tasks on a loop whose scheduling of the
branches' steps the scheduler decides: every ``await`` that suspends is a point.

A branch that waits for a :class:`Lock` held by a suspended branch is *blocked*: the
scheduler runs another, and reports a deadlock when every branch is blocked. A branch that
blocks on something else the scheduler does not see (a ``threading.Lock`` held across a
point, real I/O) is waited for up to :data:`STUCK_AFTER` seconds -- a last resort, never
reached by a run that uses :class:`Lock` -- and the run is then an invalid test.

>>> import functools
>>> class Counter:
...     def __init__(self): self.n = 0
...     def increment(self):
...         seen = self.n
...         self.n = seen + 1
>>> counter = Counter()
>>> history = interleave(counter, [[functools.partial(counter.increment)]] * 2, schedule=[[3], [0]], preemption="line")
>>> counter.n    # branch 1 was preempted between its read and its write: one increment lost
1
>>> history.preemptions
1
"""
from __future__ import annotations

import asyncio
import contextvars
import dataclasses
import functools
import inspect
import os
import sys
import sysconfig
import threading
from types import CoroutineType, FunctionType
from typing import Any, Callable, Iterable, Sequence

from ..core.checks import check_bool, check_int, check_values
from ..core.random import Stream
from ..engine.report import InvalidTest, safe_repr
from .actions import variable_name
from .linearizability import Call, Linearization, linearize

__all__ = ["Lock", "History", "Concurrency", "Deadlock", "interleave", "STUCK_AFTER", "PREEMPTIONS", "SCHEDULES"]

#: Seconds a running branch may take to reach its next preemption point before the run is an
#: invalid test (it blocks on something the scheduler does not control). A last resort: the
#: schedule never depends on it, only whether a stuck run ends.
STUCK_AFTER = 60.0

#: Where a branch may be preempted.
PREEMPTIONS = ("action", "line", "opcode")
#: How discovery draws the decisions.
SCHEDULES = ("random", "pct")

_PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
#: synthia's machinery, never points (its tour's and examples' objects under test may be).
_MACHINERY = tuple(os.path.join(_PACKAGE, part) + os.sep for part in ("core", "engine", "testing"))
_STDLIB = tuple(os.path.abspath(sysconfig.get_paths()[key]) for key in ("stdlib", "platstdlib"))


class Deadlock(Exception):
    """Every branch left waits for a :class:`Lock` another holds."""


class _Abort(BaseException):
    """Unwinds a branch thread the scheduler gave up on (a deadlock, a stuck branch)."""


@dataclasses.dataclass
class Concurrency:
    """The concurrent mode of a :class:`~synthia.Monkey`: ``branches`` parallel branches
    (``tasks``: asyncio tasks, else threads), after a sequential prefix of at most ``prefix``
    steps, each of at most ``branch_steps`` steps; preempted at ``preemption`` points
    (``"action"``, ``"line"``, ``"opcode"``), with decisions drawn by the ``schedule``
    strategy (``"random"``, or ``"pct"``: random priorities, changed at ``preemptions``
    random points) and at most ``preemptions`` preemptions per trace (``None``: no bound
    under ``"random"``, 1 under ``"pct"``).

    >>> Concurrency(2, preemption="line")
    Concurrency(branches=2, tasks=False, prefix=3, branch_steps=3, preemption='line', schedule='random', preemptions=None)
    >>> Concurrency(1)
    Traceback (most recent call last):
    ...
    ValueError: threads must be an int of at least 2, got 1
    """

    branches: int
    tasks: bool = False
    prefix: int = 3
    branch_steps: int = 3
    preemption: str = "action"
    schedule: str = "random"
    preemptions: int | None = None

    def __post_init__(self) -> None:
        what = "tasks" if self.tasks else "threads"
        if isinstance(self.branches, bool) or not isinstance(self.branches, int) or self.branches < 2:
            raise ValueError(f"{what} must be an int of at least 2, got {self.branches!r}")
        for name, low in (("prefix", 0), ("branch_steps", 1)):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < low:
                raise ValueError(f"{name} must be an int of at least {low}, got {value!r}")
        if self.preemption not in PREEMPTIONS:
            raise ValueError(f"preemption must be one of {PREEMPTIONS}, got {self.preemption!r}")
        if self.tasks and self.preemption != "action":
            raise ValueError(f"preemption must be 'action' with tasks (every await that suspends is a point), got {self.preemption!r}")
        if self.schedule not in SCHEDULES:
            raise ValueError(f"schedule must be one of {SCHEDULES}, got {self.schedule!r}")
        value = self.preemptions
        if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 0):
            raise ValueError(f"preemptions must be a non-negative int or None, got {value!r}")

    @property
    def bound(self) -> int | None:
        """The number of preemptions a trace may have (``None``: no bound)."""
        return 1 if self.preemptions is None and self.schedule == "pct" else self.preemptions

    @property
    def limit(self) -> int:
        """One more than the last point of a call where it may be preempted: the boundary
        before it, then its first lines, opcodes or suspensions."""
        return 8 if self.tasks else {"action": 2, "line": 16, "opcode": 64}[self.preemption]


class Decisions:
    """A schedule: ``preempt[k][i]``, the point of branch ``k``'s call ``i`` where the branch
    is preempted (``0``: never; ``1``: before the call starts; ``p``: at the ``p - 1``-th line,
    opcode or suspension inside it), and ``choose(n)``, which of ``n`` ready branches runs
    when there is a choice (``0``: the first, after the one preempted). ``taken`` lists the
    choices made, ``preemptions`` counts the preemptions that switched branches."""

    def __init__(self, preempt: Sequence[Sequence[int]], choose: Callable[[int], int] | None = None) -> None:
        self.preempt = [list(p) for p in preempt]
        self._choose = choose
        self.taken: list[int] = []
        self.preemptions = 0

    def at(self, branch: int, index: int) -> int:
        """The point where branch ``branch``'s call ``index`` is preempted (``0``: never)."""
        points = self.preempt[branch] if branch < len(self.preempt) else ()
        return points[index] if index < len(points) else 0

    def choose(self, n: int) -> int:
        value = 0 if self._choose is None or n < 2 else min(max(int(self._choose(n)), 0), n - 1)
        self.taken.append(value)
        return value

    @classmethod
    def replaying(cls, preempt: Sequence[Sequence[int]], choices: Sequence[int] = ()) -> "Decisions":
        """The decisions of a recorded schedule (choices ``0`` past the end of ``choices``)."""
        given = list(choices)
        return cls(preempt, lambda n: given.pop(0) if given else 0)


def sampler(concurrency: Concurrency, steps: int) -> Callable[[Stream, int], int]:
    """How discovery draws the preemption point of each of a trace's ``steps`` calls (its
    ``i``-th call: ``sample(stream, i)``), an integer of ``[0, concurrency.limit)``: under
    ``"random"`` each call is preempted with probability 1/2 at a uniform point (at most
    ``preemptions`` calls in a trace, when bounded); under ``"pct"``, ``preemptions`` calls
    of the trace (1 by default), chosen uniformly, are preempted, each at a uniform point."""
    bound = concurrency.bound
    limit = concurrency.limit
    state: dict[str, Any] = {"made": 0, "chosen": None}

    def sample(stream: Stream, index: int) -> int:
        if index == 0:
            state["made"], state["chosen"] = 0, None
        if bound is not None and state["made"] >= bound:
            return 0
        if concurrency.schedule == "pct":
            if state["chosen"] is None:
                state["chosen"] = {stream.integer(0, steps) for _ in range(bound or 1)}
            preempted = index in state["chosen"]
        else:
            preempted = stream.boolean(0.5)
        if not preempted:
            return 0
        state["made"] += 1
        return stream.integer(1, limit)

    return sample


def _preempts(index: int, point: int) -> bool:
    """Whether switching away at ``point`` of call ``index`` preempts the branch: switching
    before a branch's first call only chooses which branch starts."""
    return not (index == 0 and point == 1)


# -- the lock a scheduler sees -------------------------------------------------------------------
_RUNNING = threading.local()


class Lock:
    """A lock that a controlled scheduler sees: a branch that waits for it while a suspended
    branch holds it is *blocked* (the scheduler runs another branch, and reports a deadlock
    when every branch is blocked) instead of hanging the run. Outside a scheduler it is a
    plain ``threading.Lock``; it is also a context manager.

    >>> lock = Lock()
    >>> with lock:
    ...     lock.locked()
    True
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()

    def __deepcopy__(self, memo: dict[int, Any]) -> "Lock":
        # A copy of an object (a model's state, in a search) has its own lock, free: between
        # two sequential calls no lock is held.
        return Lock()

    def __reduce__(self) -> Any:
        return (Lock, ())

    def acquire(self, blocking: bool = True, timeout: float = -1) -> bool:
        branch: _Branch | None = getattr(_RUNNING, "branch", None)
        if branch is None:
            return self._lock.acquire(blocking, timeout)
        while not self._lock.acquire(False):
            if not blocking:
                return False
            branch.wait_for(self)
        return True

    def release(self) -> None:
        self._lock.release()
        branch: _Branch | None = getattr(_RUNNING, "branch", None)
        if branch is not None:
            branch.scheduler.released(self)

    def locked(self) -> bool:
        return self._lock.locked()

    def __enter__(self) -> bool:
        return self.acquire()

    def __exit__(self, *exc: Any) -> None:
        self.release()

    def __repr__(self) -> str:
        return f"Lock({'locked' if self.locked() else 'unlocked'})"


# -- threads ----------------------------------------------------------------------------------
class _Branch:
    def __init__(self, scheduler: "_Threads", number: int, calls: list[Callable[[], Any]]) -> None:
        self.scheduler = scheduler
        self.number = number
        self.calls = calls
        self.go = threading.Semaphore(0)
        self.state = "new"  # "parked", "running", "blocked", "done"
        self.preempted = False
        self.waiting: Lock | None = None
        #: The points of the current call so far, and the one where it is preempted.
        self.point = 0
        self.target = 0
        self.index = -1
        self.thread = threading.Thread(target=self.body, name=f"synthia-branch-{number + 1}", daemon=True)

    def reached(self) -> None:
        """A preemption point: counted, and the branch is preempted at its call's target."""
        self.point += 1
        if self.point == self.target:
            self.park(preempted=True)

    def park(self, preempted: bool = False) -> None:
        """Hand control back to the scheduler and wait to be resumed."""
        self.state, self.preempted = "parked", preempted
        self.scheduler.signal.release()
        self.go.acquire()
        if self.scheduler.aborted:
            raise _Abort()

    def wait_for(self, lock: Lock) -> None:
        self.waiting = lock
        self.state = "blocked"
        self.scheduler.signal.release()
        self.go.acquire()
        if self.scheduler.aborted:
            raise _Abort()

    def body(self) -> None:
        _RUNNING.branch = self
        scheduler = self.scheduler
        try:
            self.park()
            for index, call in enumerate(self.calls):
                self.index, self.point, self.target = index, 0, scheduler.decisions.at(self.number, index)
                self.reached()  # the boundary before the call
                if scheduler.tracer is not None:
                    sys.settrace(scheduler.tracer)
                scheduler.history.perform(self.number, index, call)
                sys.settrace(None)
        except _Abort:
            pass
        finally:
            sys.settrace(None)
            _RUNNING.branch = None
            self.state = "done"
            scheduler.signal.release()


class _Threads:
    """Runs the branches in threads, one at a time, switching where the decisions say."""

    def __init__(self, history: "History", branches: list[list[Callable[[], Any]]], decisions: Decisions, preemption: str, code: frozenset[str]) -> None:
        self.history = history
        self.decisions = decisions
        self.signal = threading.Semaphore(0)
        self.aborted = False
        self.branches = [_Branch(self, k, calls) for k, calls in enumerate(branches)]
        self.tracer = None if preemption == "action" else self._tracer(preemption == "opcode", code)

    def _tracer(self, opcodes: bool, code: frozenset[str]) -> Callable[..., Any]:
        wanted = "opcode" if opcodes else "line"

        def local(frame: Any, event: str, arg: Any) -> Any:
            if event == wanted:
                _RUNNING.branch.reached()
            return local

        def tracer(frame: Any, event: str, arg: Any) -> Any:
            if frame.f_code.co_filename not in code:
                return None
            if opcodes:
                frame.f_trace_opcodes = True
            return local

        return tracer

    def released(self, lock: Lock) -> None:
        for branch in self.branches:
            if branch.state == "blocked" and branch.waiting is lock:
                branch.state, branch.waiting = "parked", None

    def run(self) -> None:
        for branch in self.branches:
            branch.thread.start()
            self._wait(branch)
        running: _Branch | None = None
        try:
            while True:
                live = [b for b in self.branches if b.state != "done"]
                if not live:
                    return
                ready = [b for b in live if b.state == "parked"]
                if not ready:
                    raise Deadlock(", ".join(f"branch {b.number + 1} waits for a lock" for b in live))
                if running is not None and running.state == "parked" and not running.preempted:
                    chosen = running  # (not reached: a branch parks only when preempted)
                elif running is None:
                    chosen = ready[0]  # branch 1 starts; another starts when branch 1 is preempted at once
                else:
                    others = [b for b in ready if b is not running] or ready
                    if running.preempted and others != ready and _preempts(running.index, running.point):
                        self.decisions.preemptions += 1
                    # The branches after the one preempted come first, in a circle.
                    others.sort(key=lambda b: (b.number <= running.number, b.number))  # type: ignore[union-attr]
                    chosen = others[self.decisions.choose(len(others))]
                running = chosen
                chosen.state = "running"
                chosen.go.release()
                self._wait(chosen)
        finally:
            self._abort()

    def _wait(self, branch: _Branch) -> None:
        if not self.signal.acquire(timeout=STUCK_AFTER):
            self._abort()
            raise InvalidTest(
                f"branch {branch.number + 1} did not reach a preemption point in {STUCK_AFTER:g} s: it blocks on something the "
                "scheduler does not control (a threading.Lock held by a suspended branch? use synthia.Lock; real I/O?)"
            )

    def _abort(self) -> None:
        self.aborted = True
        for branch in self.branches:
            if branch.state != "done":
                branch.go.release()
        for branch in self.branches:
            branch.thread.join(STUCK_AFTER)


# -- asyncio tasks ------------------------------------------------------------------------------
_BRANCH: contextvars.ContextVar[int | None] = contextvars.ContextVar("synthia_branch", default=None)


class _ControlledLoop(asyncio.SelectorEventLoop):
    """An event loop that holds back the steps of the branches' tasks: each is released when
    the scheduler chooses that branch (every other callback runs as usual)."""

    def __init__(self) -> None:
        super().__init__()
        self.held: dict[int, list[tuple[Any, tuple[Any, ...], contextvars.Context | None]]] = {}

    def call_soon(self, callback: Any, *args: Any, context: contextvars.Context | None = None) -> asyncio.Handle:  # type: ignore[override]
        branch = _BRANCH.get() if context is None else context.get(_BRANCH)
        if branch is None or branch not in self.held:
            return super().call_soon(callback, *args, context=context)
        self.held[branch].append((callback, args, context))
        return asyncio.Handle(callback, args, self, context)

    def release(self, branch: int) -> None:
        waiting, self.held[branch] = self.held[branch], []
        for callback, args, context in waiting:
            super().call_soon(callback, *args, context=context)


async def _run_tasks(loop: _ControlledLoop, history: "History", branches: list[list[Callable[[], Any]]], decisions: Decisions) -> None:
    #: Per branch: the call it is in, and its points so far in that call.
    where = [[-1, 0] for _ in branches]

    async def branch(number: int, calls: list[Callable[[], Any]]) -> None:
        for index, call in enumerate(calls):
            where[number] = [index, 0]
            await asyncio.sleep(0)  # the boundary before the call: a point
            await history.perform_async(number, index, call)

    tasks = []
    for number, calls in enumerate(branches):
        loop.held[number] = []
        context = contextvars.copy_context()
        context.run(_BRANCH.set, number)
        tasks.append(loop.create_task(branch(number, calls), context=context))  # type: ignore[call-arg]
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


async def _control(loop: _ControlledLoop, tasks: list["asyncio.Task[None]"], decisions: Decisions, where: list[list[int]]) -> None:
    running: int | None = None
    idle = 0
    while not all(task.done() for task in tasks):
        ready = [k for k in range(len(tasks)) if loop.held[k]]
        if not ready:
            # A branch waits for something outside the branches (a timer, real I/O): let the loop run.
            idle += 1
            if idle > 10_000:
                await asyncio.sleep(0.001)
            if idle > 10_000 + STUCK_AFTER * 1000:
                raise Deadlock("every branch waits, and nothing the scheduler sees will wake one")
            await asyncio.sleep(0)
            continue
        idle = 0
        chosen = running
        if running in ready:
            # The running branch suspended: a point of its current call.
            where[running][1] += 1
            index, point = where[running]
            preempted = index >= 0 and point == decisions.at(running, index)
            if preempted and len(ready) > 1:
                decisions.preemptions += _preempts(index, point)
                others = sorted((k for k in ready if k != running), key=lambda k: (k <= running, k))  # type: ignore[operator]
                chosen = others[decisions.choose(len(others))]
        elif running is None:
            chosen = ready[0]  # branch 1 starts; another starts when branch 1 is preempted at once
        else:
            others = sorted(ready, key=lambda k: (k <= running, k))  # type: ignore[operator]
            chosen = others[decisions.choose(len(others))]
        assert chosen is not None
        running = chosen
        loop.release(chosen)
        await asyncio.sleep(0)  # the chosen branch's steps run before this line goes on


# -- histories ---------------------------------------------------------------------------------
class History:
    """What the calls of a concurrent run did: :attr:`calls` (the prefix's, then each branch's,
    each a :class:`~synthia.testing.linearizability.Call` with its logical invocation and
    response times), the decisions taken (:attr:`schedule`) and the preemptions among them."""

    def __init__(self, texts: list[list[str]] | None = None) -> None:
        self.calls: list[Call] = []
        self.clock = 0
        #: Per branch, per call, the point where it was to be preempted (``0``: never).
        self.schedule: list[list[int]] = []
        #: The choices among ready branches the scheduler made.
        self.choices: list[int] = []
        self.preemptions = 0
        self.deadlock: str | None = None
        self._texts = texts

    def _text(self, branch: int, index: int, call: Callable[[], Any]) -> str:
        if self._texts is not None:
            return self._texts[branch + 1][index]
        return _call_text(call)

    def _begin(self, branch: int, index: int, call: Callable[[], Any]) -> Call:
        self.clock += 1
        record = Call(branch, index, self._text(branch, index, call), _no_model, None, None, self.clock, -1)
        self.calls.append(record)
        return record

    def _end(self, record: Call) -> None:
        self.clock += 1
        record.returned = self.clock

    def perform(self, branch: int, index: int, call: Callable[[], Any]) -> None:
        record = self._begin(branch, index, call)
        try:
            record.result = call()
        except _Abort:
            raise
        except BaseException as exc:  # noqa: B036 - whatever a call raises is its result
            record.exception = exc
        self._end(record)

    async def perform_async(self, branch: int, index: int, call: Callable[[], Any]) -> None:
        record = self._begin(branch, index, call)
        try:
            result = call()
            record.result = await result if type(result) is CoroutineType else result
        except asyncio.CancelledError:
            raise
        except BaseException as exc:  # noqa: B036
            record.exception = exc
        self._end(record)

    def branch(self, number: int) -> list[Call]:
        """The calls of branch ``number`` (``-1``: the prefix), in order."""
        return [c for c in self.calls if c.branch == number]

    def linearizable(self, model: Any, steps: Sequence[Sequence[Callable[[Any], Any]]], prefix: Sequence[Callable[[Any], Any]] = ()) -> bool:
        """Whether some sequential order of the calls, consistent with real time, gives the
        observed results on ``model``; ``steps[k][i]`` performs branch ``k``'s call ``i`` on
        a model, ``prefix[i]`` the prefix's call ``i``."""
        return self.linearization(model, steps, prefix) is not None

    def linearization(
        self, model: Any, steps: Sequence[Sequence[Callable[[Any], Any]]], prefix: Sequence[Callable[[Any], Any]] = (),
        fresh: Callable[[], Any] | None = None,
    ) -> Linearization | None:
        """The order that explains the history (see :meth:`linearizable`), or ``None``;
        ``fresh`` makes a new model when ``model`` cannot be copied."""
        for call in self.calls:
            call.model_step = prefix[call.index] if call.branch < 0 else steps[call.branch][call.index]
        loop = asyncio.new_event_loop()

        def settle(value: Any) -> Any:
            return loop.run_until_complete(value) if type(value) is CoroutineType else value

        try:
            return linearize(self.calls, model, settle, fresh)
        finally:
            loop.close()

    def side_by_side(self) -> str:
        """The prefix, then the branches in columns, each call with its result."""
        lines = [f"prefix: {c.text} {c.said()}" for c in self.branch(-1)]
        branches = [self.branch(k) for k in range(max((c.branch for c in self.calls), default=-1) + 1)]
        width = max([len(f"{c.text} {c.said()}") for c in self.calls if c.branch >= 0] + [8])
        lines.append(" | ".join(f"{f'branch {k + 1}':<{width}}" for k in range(len(branches))).rstrip())
        for row in range(max((len(b) for b in branches), default=0)):
            cells = [f"{b[row].text} {b[row].said()}" if row < len(b) else "" for b in branches]
            lines.append(" | ".join(f"{cell:<{width}}" for cell in cells).rstrip())
        return "\n".join(lines)

    def __repr__(self) -> str:
        return f"History({len(self.calls)} calls, schedule={self.schedule}, choices={self.choices}, preemptions={self.preemptions})"

    def __str__(self) -> str:
        return self.side_by_side()


def _no_model(model: Any) -> Any:  # pragma: no cover - replaced before a linearization
    raise RuntimeError("no model step given for this call")


def _call_text(call: Callable[[], Any]) -> str:
    """A call as a line of Python: ``counter.increment()`` for ``partial(counter.increment)``."""
    if isinstance(call, functools.partial):
        fn = call.func
        if inspect.ismethod(fn):
            name = f"{variable_name(fn.__self__)}.{fn.__name__}"
        else:
            name = getattr(fn, "__qualname__", getattr(fn, "__name__", "call"))
        shown = [safe_repr(a) for a in call.args] + [f"{k}={safe_repr(v)}" for k, v in call.keywords.items()]
        return f"{name}({', '.join(shown)})"
    return getattr(call, "__qualname__", repr(call))


def system_code(system: Any, functions: Iterable[Any] = ()) -> frozenset[str]:
    """The files of the system's own code, where line and opcode points are: those defining
    the methods of its class (and its bases) and the ``functions`` (an action's function),
    without synthia's machinery (its core, engine and testing packages) nor the standard
    library's."""
    found: set[str] = set()
    for cls in type(system).__mro__:
        if cls.__module__ == "builtins":
            continue
        for member in vars(cls).values():
            member = getattr(member, "__func__", member)
            member = getattr(member, "fget", member)
            if isinstance(member, FunctionType):
                found.add(member.__code__.co_filename)
    for fn in functions:
        while isinstance(fn, functools.partial):
            fn = fn.func
        fn = getattr(fn, "__func__", fn)
        if isinstance(fn, FunctionType):
            found.add(fn.__code__.co_filename)
    return frozenset(f for f in found if not os.path.abspath(f).startswith((*_MACHINERY, *_STDLIB)))


def run_history(
    system: Any, prefix: Sequence[Callable[[], Any]], branches: Sequence[Sequence[Callable[[], Any]]], decisions: Decisions,
    *, tasks: bool = False, preemption: str = "action", code: frozenset[str] | None = None, texts: list[list[str]] | None = None,
) -> History:
    """Perform the ``prefix`` calls one after the other, then the ``branches`` in parallel
    under the controlled scheduler; the history of what every call did."""
    history = History(texts)
    lists = [list(b) for b in branches]
    if tasks:
        loop = _ControlledLoop()
        try:
            async def whole() -> None:
                for index, call in enumerate(prefix):
                    await history.perform_async(-1, index, call)
                await _run_tasks(loop, history, lists, decisions)

            try:
                loop.run_until_complete(whole())
            except Deadlock as exc:
                history.deadlock = str(exc)
        finally:
            loop.run_until_complete(loop.shutdown_asyncgens())
            loop.close()
    else:
        for index, call in enumerate(prefix):
            history.perform(-1, index, call)
        scheduler = _Threads(history, lists, decisions, preemption, system_code(system) if code is None else code)
        try:
            scheduler.run()
        except Deadlock as exc:
            history.deadlock = str(exc)
    history.schedule = [[decisions.at(k, i) for i in range(len(calls))] for k, calls in enumerate(lists)]
    history.choices = list(decisions.taken)
    history.preemptions = decisions.preemptions
    return history


def interleave(
    system: Any, branches: Sequence[Sequence[Callable[[], Any]]], schedule: Sequence[Sequence[int]] = (), *,
    choices: Sequence[int] = (), prefix: Sequence[Callable[[], Any]] = (), tasks: bool = False, preemption: str = "action",
) -> History:
    """Run ``prefix`` then ``branches`` of calls on ``system`` under the controlled scheduler:
    what a concurrent :class:`~synthia.Monkey`'s printed program calls to reproduce a race.
    Each call is a function of no arguments (``functools.partial(counter.increment)``); with
    ``tasks`` it may return a coroutine, awaited on the scheduler's loop. ``schedule[k][i]``
    is the point where branch ``k``'s call ``i`` is preempted (``0`` or missing: never;
    ``1``: before it starts; ``p``: at its ``p - 1``-th line, opcode or suspension);
    ``choices`` choose among ready branches where there is a choice (``0``: the next one)."""
    if preemption not in PREEMPTIONS:
        raise ValueError(f"preemption must be one of {PREEMPTIONS}, got {preemption!r}")
    branches = [check_values(calls, f"branches[{k}]") for k, calls in enumerate(check_values(branches, "branches"))]
    for k, calls in enumerate(branches):
        for i, call in enumerate(calls):
            if not callable(call):
                raise TypeError(f"branches[{k}][{i}] must be a call of no arguments, got {call!r}")
    schedule = [[check_int(p, f"schedule[{k}][{i}]", minimum=0) for i, p in enumerate(check_values(points, f"schedule[{k}]"))] for k, points in enumerate(check_values(schedule, "schedule"))]
    choices = [check_int(c, f"choices[{i}]", minimum=0) for i, c in enumerate(check_values(choices, "choices"))]
    prefix = check_values(prefix, "prefix")
    for i, call in enumerate(prefix):
        if not callable(call):
            raise TypeError(f"prefix[{i}] must be a call of no arguments, got {call!r}")
    check_bool(tasks, "tasks")
    functions = [call for calls in branches for call in calls] + list(prefix)
    code = system_code(system, functions)
    return run_history(system, prefix, branches, Decisions.replaying(schedule, choices), tasks=tasks, preemption=preemption, code=code)
