"""A controlled scheduler: branches of calls run in parallel threads (or asyncio tasks), one
at a time, switching only where a *decision* says so.

Each branch runs in its own thread, but only one branch runs at a time: a branch stops at
each **preemption point** and waits until the scheduler resumes it. The points are every
action boundary and, with ``preemption="line"``, every line -- with ``"opcode"`` every
bytecode -- of the system's own code (``sys.settrace``, restricted to the files that define
the system's class and the actions, and to the modules named in ``within`` -- never
synthia's nor the standard library's). A concurrent Monkey's default, ``"auto"``, draws one
of the two per trace. A **schedule** says, for each
call, at which of its points it is preempted (``0``: never), and which ready branch runs
when there is a choice. The concurrent :class:`~synthia.Monkey` draws each call's point and
each choice as typed draws (:mod:`~synthia.testing.schedules` says how discovery draws
them), so a schedule is recorded, replayed and shrunk -- towards fewer preemptions, ``0``
being the simplest draw -- like any other draw; :func:`interleave` replays one.

A branch that waits for a lock, a condition, an event, a semaphore or a queue (the
``threading`` and ``queue`` ones, made during the run: :mod:`~synthia.testing.primitives`)
is *blocked*: the scheduler runs another; a timed wait times out on a virtual clock when no
branch can run; when every branch is blocked the run is a **deadlock**, reported with what
each branch holds and waits for. A branch that blocks on something the scheduler does not
see (a lock made before the run, real I/O) is waited for up to :data:`STUCK_AFTER` seconds
-- a last resort -- and the run is then an invalid test.

With ``tasks=True`` the branches are asyncio tasks (:mod:`~synthia.testing.asynctasks`):
every ``await`` that suspends is a point, and timers run on the loop's virtual clock.

>>> import functools
>>> class Counter:
...     def __init__(self): self.n = 0
...     def increment(self):
...         seen = self.n
...         self.n = seen + 1
>>> counter = Counter()
>>> history = interleave(counter, [[functools.partial(counter.increment)]] * 2, schedule=[[3], [0]])
>>> counter.n    # branch 1 was preempted between its read and its write: one increment lost
1
>>> history.preemptions
1
"""
from __future__ import annotations

import _thread
import dataclasses
import functools
import importlib.util
import os
import sys
import sysconfig
import threading
from queue import Empty, SimpleQueue
from types import FunctionType, ModuleType
from typing import Any, Callable, Iterable, Sequence

from ..core.checks import check_bool, check_float, check_int, check_values
from ..core.picker import Picker
from ..engine.report import InvalidTest
from .actions import variable_name
from .eventloop import Deadlock
from .history import History
from .schedules import Explorations
from .primitives import Abort, Lock, controlled_primitives, register, set_current, threads_before, unregister
from .waitfor import describe_deadlock, names_of

__all__ = ["Lock", "History", "Concurrency", "Deadlock", "interleave", "STUCK_AFTER", "PREEMPTIONS", "SCHEDULES", "POINTS"]

#: Seconds a running branch may take to reach its next preemption point before the run is an
#: invalid test (it blocks on something the scheduler does not control). A last resort: the
#: schedule never depends on it, only whether a stuck run ends.
STUCK_AFTER = 60.0

#: Where a thread may be preempted: ``"auto"`` is at lines, and once the run has tried
#: :data:`~synthia.testing.schedules.DEEPENING` schedules, at opcodes in one in three.
PREEMPTIONS = ("auto", "action", "line", "opcode")
#: Where a given schedule preempts threads (a run with ``"auto"`` draws one per trace).
GRANULARITIES = ("action", "line", "opcode")
#: How discovery draws the decisions.
SCHEDULES = ("pct", "random")
#: The range of a call's preemption-point draw: every point of a call is reachable.
POINTS = 1 << 16

_PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
#: synthia's machinery, never points (its tour's and examples' objects under test may be).
_MACHINERY = tuple(os.path.join(_PACKAGE, part) + os.sep for part in ("core", "engine", "testing"))
_STDLIB = tuple(os.path.abspath(sysconfig.get_paths()[key]) + os.sep for key in ("stdlib", "platstdlib"))
_WAKE = object()
#: Seconds given to an aborted branch to unwind.
_UNWIND = 5.0


@dataclasses.dataclass
class Concurrency:
    """The concurrent mode of a :class:`~synthia.Monkey`: ``branches`` parallel branches
    (``tasks``: asyncio tasks, else threads), after a sequential prefix of at most ``prefix``
    steps, each of at most ``branch_steps`` steps; preempted at ``preemption`` points
    (``"line"`` by default for threads, ``"action"`` or ``"opcode"``; tasks at every await
    that suspends), also inside the modules named in ``within``; decisions drawn by the
    ``schedule`` strategy (``"pct"``: random priorities and ``preemptions`` priority-change
    points; ``"random"``: each call preempted with probability 1/2, at most ``preemptions``
    per trace). See :mod:`~synthia.testing.schedules`.

    >>> Concurrency(2)
    Concurrency(branches=2, tasks=False, prefix=3, branch_steps=3, preemption='auto', schedule='pct', preemptions=None, within=())
    >>> Concurrency(1)
    Traceback (most recent call last):
    ...
    ValueError: threads must be an int of at least 2, got 1
    """

    branches: int
    tasks: bool = False
    prefix: int = 3
    branch_steps: int = 3
    preemption: str | None = None
    schedule: str = "pct"
    preemptions: int | None = None
    within: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        what = "tasks" if self.tasks else "threads"
        if isinstance(self.branches, bool) or not isinstance(self.branches, int) or self.branches < 2:
            raise ValueError(f"{what} must be an int of at least 2, got {self.branches!r}")
        for name, low in (("prefix", 0), ("branch_steps", 1)):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < low:
                raise ValueError(f"{name} must be an int of at least {low}, got {value!r}")
        if self.preemption is None:
            self.preemption = "action" if self.tasks else "auto"
        if self.preemption not in PREEMPTIONS:
            raise ValueError(f"preemption must be one of {PREEMPTIONS}, got {self.preemption!r}")
        if self.tasks and self.preemption != "action":
            raise ValueError(f"preemption must be 'action' with tasks (every await that suspends is a point), got {self.preemption!r}")
        if self.schedule not in SCHEDULES:
            raise ValueError(f"schedule must be one of {SCHEDULES}, got {self.schedule!r}")
        value = self.preemptions
        if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 0):
            raise ValueError(f"preemptions must be a non-negative int or None, got {value!r}")
        self.within = check_within(self.within)
        #: What the runs of the Monkey in this mode explored (per run: the points reached).
        self.explorations = Explorations()

    @property
    def picks(self) -> int:
        """The most top-level picks a trace takes: its number of preemptions, its steps, and
        the choices of its schedule."""
        return self.prefix + self.branches * self.branch_steps + 2

    @property
    def explored(self) -> str:
        """What the last run's schedules explored, in a sentence."""
        return self.explorations.describe()


def check_within(within: Any) -> tuple[str, ...]:
    """``within`` as a tuple of importable module names (a clear error otherwise)."""
    if isinstance(within, Picker):  # an endless iterator, usually a slip for a list
        raise TypeError(f"within must be a list of module names, got the picker {within!r}")
    names = (within,) if isinstance(within, str) else within
    try:
        names = tuple(check_values(names, "within"))
    except TypeError:
        raise TypeError(f"within must be a list of module names, got {within!r}") from None
    for name in names:
        if not isinstance(name, str) or not name:
            raise TypeError(f"within must be a list of module names, got {within!r}")
        if name == "synthia" or name.startswith("synthia."):
            raise ValueError(f"within names modules whose code is preempted; synthia's own is never preempted, got {name!r}")
        try:
            spec = importlib.util.find_spec(name)
        except (ImportError, ValueError):
            spec = None
        if spec is None:
            raise ValueError(f"within names modules whose code is preempted: no module {name!r} can be imported")
    return names


class Decisions:
    """A schedule: ``preempt[k][i]``, the point of branch ``k``'s call ``i`` where the branch
    is preempted (``0``: never; ``1``: before the call starts; ``p``: at the ``p - 1``-th line,
    opcode or suspension inside it), and :meth:`choose`, which of the ready branches runs
    when there is a choice (``0``: the first, after the one that ran last -- in a circle;
    at the start, branch 1). ``taken`` lists the choices made, ``preemptions`` counts the
    preemptions that switched branches; ``switched(k)`` is told when branch ``k`` is
    preempted (a discovery strategy lowers its priority)."""

    def __init__(
        self, preempt: Sequence[Sequence[int]], choose: Callable[[list[int]], int] | None = None,
        switched: Callable[[int], None] | None = None,
    ) -> None:
        self.preempt = [list(p) for p in preempt]
        self._choose = choose
        self._switched = switched
        self.taken: list[int] = []
        self.preemptions = 0

    def at(self, branch: int, index: int) -> int:
        """The point where branch ``branch``'s call ``index`` is preempted (``0``: never)."""
        points = self.preempt[branch] if 0 <= branch < len(self.preempt) else ()
        return points[index] if index < len(points) else 0

    def choose(self, candidates: list[int]) -> int:
        """Which of ``candidates`` (branch numbers, in circle order) runs next."""
        if len(candidates) < 2:
            return candidates[0]
        value = 0 if self._choose is None else min(max(int(self._choose(candidates)), 0), len(candidates) - 1)
        self.taken.append(value)
        return candidates[value]

    def switched(self, branch: int, counted: bool) -> None:
        self.preemptions += counted
        if self._switched is not None:
            self._switched(branch)

    @classmethod
    def replaying(cls, preempt: Sequence[Sequence[int]], choices: Sequence[int] = ()) -> "Decisions":
        """The decisions of a recorded schedule (choices ``0`` past the end of ``choices``)."""
        given = list(choices)
        return cls(preempt, lambda candidates: given.pop(0) if given else 0)


def _preempts(index: int, point: int) -> bool:
    """Whether switching away at ``point`` of call ``index`` preempts the branch: switching
    before a branch's first call only chooses which branch starts."""
    return not (index == 0 and point == 1)


# -- the code whose lines are points ----------------------------------------------------------
@dataclasses.dataclass(frozen=True)
class Code:
    """The code whose lines (or opcodes) are preemption points: ``files``, and every file
    under ``folders`` (a package named in ``within``); ``modules`` are its loaded modules
    (their ``from threading import Lock`` names get the scheduler's stand-ins)."""

    files: frozenset[str] = frozenset()
    folders: tuple[str, ...] = ()
    modules: tuple[ModuleType, ...] = ()

    def __contains__(self, filename: object) -> bool:
        return isinstance(filename, str) and (filename in self.files or bool(self.folders) and filename.startswith(self.folders))


_INSTALLED = tuple(os.path.abspath(sysconfig.get_paths()[key]) + os.sep for key in ("purelib", "platlib"))


def _outside_machinery(path: str) -> bool:
    path = os.path.abspath(path)
    return not path.startswith(_MACHINERY) and (path.startswith(_INSTALLED) or not path.startswith(_STDLIB))


@functools.lru_cache(maxsize=256)
def _modules_of(files: frozenset[str], folders: tuple[str, ...]) -> tuple[ModuleType, ...]:
    found = []
    for module in list(sys.modules.values()):
        path = getattr(module, "__file__", None)
        if isinstance(path, str) and (path in files or (folders and path.startswith(folders))):
            found.append(module)
    return tuple(found)


def system_code(system: Any, functions: Iterable[Any] = (), within: Sequence[str] = ()) -> Code:
    """The system's own code, where line and opcode points are: the files defining the
    methods of its class (and its bases) and the ``functions`` (an action's function),
    without synthia's machinery (its core, engine and testing packages) nor the standard
    library's; and the modules named in ``within`` (a package: all its files)."""
    found: set[str] = set()
    for cls in (system if isinstance(system, type) else type(system)).__mro__:
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
    files = {f for f in found if _outside_machinery(f)}
    folders: list[str] = []
    for name in within:  # named by the user: preempted even in the standard library
        spec = importlib.util.find_spec(name)
        if spec is None:
            continue
        if spec.submodule_search_locations:
            folders.extend(os.path.join(os.path.abspath(p), "") for p in spec.submodule_search_locations)
        elif spec.origin:
            files.add(spec.origin)
    return Code(frozenset(files), tuple(folders), _modules_of(frozenset(files), tuple(folders)))


# -- threads ----------------------------------------------------------------------------------
class _Clock:
    """The virtual clock of a run's timeouts, shared by its prefix and its branches."""

    def __init__(self) -> None:
        self.now = 0.0


class _Branch:
    def __init__(self, scheduler: "_Threads", number: int, calls: list[Callable[[], Any]]) -> None:
        self.scheduler = scheduler
        self.number = number
        self.calls = calls
        self.go: SimpleQueue[None] = SimpleQueue()
        self.state = "new"  # "parked" (ready), "running", "blocked", "done"
        self.preempted = False
        self.waiting: Any = None
        self.deadline: float | None = None
        self.timed_out = False
        self.ident: int | None = None
        #: The points of the current call so far, and the one where it is preempted.
        self.point = 0
        self.target = 0
        self.index = -1
        self.name = "the prefix" if number < 0 else f"branch {number + 1}"
        self.thread = threading.Thread(target=self.body, name=f"synthia-{'prefix' if number < 0 else f'branch-{number + 1}'}", daemon=True)

    # -- what the primitives ask of a controlled thread
    def now(self) -> float:
        return self.scheduler.clock.now

    def block(self, waitable: Any, deadline: float | None) -> bool:
        scheduler = self.scheduler
        if scheduler.aborted:
            raise Abort()
        with scheduler.mutex:
            self.state, self.waiting, self.deadline, self.timed_out = "blocked", waitable, deadline, False
        scheduler.signal.put(self)
        self._resume()
        self.waiting, self.deadline = None, None
        return not self.timed_out

    # -- points
    def reached(self) -> None:
        """A preemption point: counted, and the branch is preempted at its call's target."""
        self.point += 1
        if self.point == self.target:
            self.park(preempted=True)
        elif self.scheduler.aborted:
            raise Abort()

    def park(self, preempted: bool = False) -> None:
        """Hand control back to the scheduler and wait to be resumed."""
        scheduler = self.scheduler
        with scheduler.mutex:
            self.state, self.preempted = "parked", preempted
        scheduler.signal.put(self)
        self._resume()

    def _resume(self) -> None:
        self.go.get()
        if self.scheduler.aborted:
            raise Abort()

    def tracer(self, opcodes: bool, code: Code) -> Callable[..., Any]:
        wanted = "opcode" if opcodes else "line"
        reached = self.reached
        inside: dict[str, bool] = {}

        def local(frame: Any, event: str, arg: Any) -> Any:
            if event == wanted:
                reached()
            return local

        def tracer(frame: Any, event: str, arg: Any) -> Any:
            filename = frame.f_code.co_filename
            known = inside.get(filename)
            if known is None:
                known = inside[filename] = filename in code
            if not known:
                return None
            if opcodes:
                frame.f_trace_opcodes = True
            return local

        return tracer

    def body(self) -> None:
        scheduler = self.scheduler
        self.ident = threading.get_ident()
        set_current(self)
        try:
            self.park()
            for index, call in enumerate(self.calls):
                self.index, self.point, self.target = index, 0, scheduler.decisions.at(self.number, index)
                self.reached()  # the boundary before the call
                done = scheduler.history.perform(self.number, index, call, scheduler.tracer_of(self))
                done.points = self.point
        except Abort:
            calls = scheduler.history.calls
            if calls and calls[-1].branch == self.number and calls[-1].returned < 0:
                calls[-1].points = self.point
        finally:
            sys.settrace(None)
            set_current(None)
            with scheduler.mutex:
                self.state = "done"
            scheduler.signal.put(self)


class _Threads:
    """Runs the branches in threads, one at a time, switching where the decisions say."""

    def __init__(
        self, history: History, branches: list[list[Callable[[], Any]]], decisions: Decisions, preemption: str, code: Code,
        clock: _Clock, names: Callable[[], dict[int, tuple[Any, str]]], numbers: Sequence[int] | None = None,
    ) -> None:
        self.history = history
        self.decisions = decisions
        self.clock = clock
        self.names = names
        self.mutex = _thread.allocate_lock()
        #: Who holds a lock that no branch holds (the prefix's thread), by thread ident.
        self.owners: dict[int, str] = {}
        self.signal: SimpleQueue[Any] = SimpleQueue()
        self.idle = False
        self.aborted = False
        numbers = list(range(len(branches))) if numbers is None else list(numbers)
        self.branches = [_Branch(self, number, calls) for number, calls in zip(numbers, branches)]
        self.preemption = preemption
        self.code = code
        self.baseline = threads_before()

    def tracer_of(self, branch: _Branch) -> Callable[..., Any] | None:
        if self.preemption == "action":
            return None
        return branch.tracer(self.preemption == "opcode", self.code)

    def wake(self, waitable: Any) -> None:
        """The branches blocked on ``waitable`` may try again (from any thread)."""
        with self.mutex:
            woke = False
            for branch in self.branches:
                if branch.state == "blocked" and branch.waiting is waitable:
                    branch.state, branch.preempted = "parked", False
                    woke = True
            if woke and self.idle:
                self.idle = False
                self.signal.put(_WAKE)

    def who(self, ident: int) -> str:
        for branch in self.branches:
            if branch.ident == ident:
                return branch.name
        return self.owners.get(ident, "another thread")

    def run(self) -> None:
        register(self)
        try:
            for branch in self.branches:
                branch.thread.start()
                self._handoff(branch)
            running: _Branch | None = None
            while True:
                with self.mutex:
                    live = [b for b in self.branches if b.state != "done"]
                    ready = [b for b in live if b.state == "parked"]
                    self.idle = bool(live) and not ready
                if not live:
                    return
                if not ready:
                    self._stalled(live)
                    continue
                chosen = self._next(running, ready)
                running = chosen
                with self.mutex:
                    chosen.state = "running"
                chosen.go.put(None)
                self._handoff(chosen)
        finally:
            unregister(self)
            self._abort()

    def _next(self, running: _Branch | None, ready: list[_Branch]) -> _Branch:
        decisions = self.decisions
        if running is None:
            order = sorted(ready, key=lambda b: b.number)
        elif running.state == "parked" and running.preempted:
            others = [b for b in ready if b is not running]
            if not others:
                return running
            decisions.switched(running.number, _preempts(running.index, running.point))
            order = sorted(others, key=lambda b: (b.number <= running.number, b.number))
        else:
            order = sorted(ready, key=lambda b: (b.number <= running.number, b.number))
        chosen = decisions.choose([b.number for b in order])
        return next(b for b in order if b.number == chosen)

    def _stalled(self, live: list[_Branch]) -> None:
        """Every branch left is blocked: a thread outside the scheduler may wake one; else the
        earliest timed wait times out (the virtual clock jumps to it); else a deadlock."""
        from .eventloop import OUTSIDE_GRACE

        if self._outsiders():
            try:
                self.signal.get(timeout=OUTSIDE_GRACE)
            except Empty:
                pass
        with self.mutex:
            self.idle = False
            if any(b.state == "parked" for b in live):
                return
            timed = [(b.deadline, b.number, b) for b in live if b.deadline is not None]
            if timed:
                deadline, _, first = min(timed, key=lambda t: (t[0], t[1]))
                self.clock.now = max(self.clock.now, deadline)
                first.timed_out, first.state, first.preempted = True, "parked", False
                return
        names = self.names()
        blocked = [(b.name, b.ident, b.waiting) for b in live]
        raise Deadlock(describe_deadlock(blocked, names, self.who))

    def _outsiders(self) -> bool:
        """Whether a thread started since the run began (the system's own) may still wake a branch."""
        ours = {b.ident for b in self.branches}
        return any(t.ident not in self.baseline and t.ident not in ours and t.is_alive() for t in threading.enumerate())

    def _handoff(self, branch: _Branch) -> None:
        """Wait until ``branch`` parks, blocks or ends."""
        while True:
            try:
                got = self.signal.get(timeout=STUCK_AFTER)
            except Empty:
                self._abort()
                raise InvalidTest(
                    f"{branch.name} did not reach a preemption point in {STUCK_AFTER:g} s: it blocks on something the "
                    "scheduler does not see (a lock made before the run, real I/O, a thread of its own)"
                ) from None
            if got is not _WAKE:
                return

    def _abort(self) -> None:
        self.aborted = True
        for branch in self.branches:
            if branch.state != "done":
                branch.go.put(None)
        for branch in self.branches:
            if branch.thread.ident is not None:
                # A branch unwinds at once (every wait raises); one blocked for real on
                # something unseen cannot be waited for.
                branch.thread.join(min(STUCK_AFTER, _UNWIND))


# -- a whole run ---------------------------------------------------------------------------------
def run_history(
    system: Any, prefix: Sequence[Callable[[], Any]], branches: Sequence[Sequence[Callable[[], Any]]], decisions: Decisions,
    *, tasks: bool = False, preemption: str = "line", code: Code | None = None, texts: list[list[str]] | None = None,
    variable: str | None = None,
) -> History:
    """Perform the ``prefix`` calls one after the other, then the ``branches`` in parallel
    under the controlled scheduler; the history of what every call did. A deadlock (or a
    prefix call that blocks for good) ends the run with :attr:`History.deadlock` set."""
    name = variable or variable_name(system)
    history = History(texts, system, name)
    lists = [list(b) for b in branches]
    code = system_code(system) if code is None else code

    def names() -> dict[int, tuple[Any, str]]:
        return names_of(system, name)

    if tasks:
        from .asynctasks import run_tasks

        run_tasks(history, list(prefix), lists, decisions)
    else:
        clock = _Clock()
        with controlled_primitives(code.modules):
            owners: dict[int, str] = {}
            try:
                if prefix:
                    solo = _Threads(history, [list(prefix)], Decisions([]), "action", code, clock, names, numbers=[-1])
                    solo.run()
                    owners = {b.ident: "the prefix" for b in solo.branches if b.ident is not None}
                scheduler = _Threads(history, lists, decisions, preemption, code, clock, names)
                scheduler.owners = owners
                scheduler.run()
            except Deadlock as exc:
                history.deadlock = str(exc)
    history.preemption = "action" if tasks else preemption
    history.schedule = [[decisions.at(k, i) for i in range(len(calls))] for k, calls in enumerate(lists)]
    history.choices = list(decisions.taken)
    history.preemptions = decisions.preemptions
    return history


def interleave(
    system: Any, branches: Sequence[Sequence[Callable[[], Any]]], schedule: Sequence[Sequence[int]] = (), *,
    choices: Sequence[int] = (), prefix: Sequence[Callable[[], Any]] = (), tasks: bool = False, preemption: str = "line",
    within: Sequence[str] = (), timeout: float | None = None,
) -> History:
    """Run ``prefix`` then ``branches`` of calls on ``system`` under the controlled scheduler:
    what a concurrent :class:`~synthia.Monkey`'s printed program calls to reproduce a race.
    Each call is a function of no arguments (``functools.partial(counter.increment)``); with
    ``tasks`` it may return a coroutine, awaited on the scheduler's loop. ``schedule[k][i]``
    is the point where branch ``k``'s call ``i`` is preempted (``0`` or missing: never;
    ``1``: before it starts; ``p``: at its ``p - 1``-th line, opcode or suspension, also in
    the modules named in ``within``); ``choices`` choose among ready branches where there is
    a choice (``0``: the next one). A deadlock never hangs: the history says it
    (:attr:`History.deadlock`); ``timeout`` (seconds) bounds the wait for a branch blocked on
    something the scheduler does not see (:data:`STUCK_AFTER` by default)."""
    global STUCK_AFTER
    if preemption not in GRANULARITIES:
        raise ValueError(f"preemption must be one of {GRANULARITIES}, got {preemption!r}")
    branches = [check_values(calls, f"branches[{k}]") for k, calls in enumerate(check_values(branches, "branches"))]
    for k, calls in enumerate(branches):
        for i, call in enumerate(calls):
            if not callable(call):
                raise TypeError(f"branches[{k}][{i}] must be a call of no arguments, got {call!r}")
    if timeout is not None:
        if not 0 < check_float(timeout, "timeout") <= threading.TIMEOUT_MAX:
            raise ValueError(f"timeout must be a positive number of seconds, got {timeout!r} (at most threading.TIMEOUT_MAX, {threading.TIMEOUT_MAX:g})")
    schedule = [[check_int(p, f"schedule[{k}][{i}]", minimum=0) for i, p in enumerate(check_values(points, f"schedule[{k}]"))] for k, points in enumerate(check_values(schedule, "schedule"))]
    choices = [check_int(c, f"choices[{i}]", minimum=0) for i, c in enumerate(check_values(choices, "choices"))]
    prefix = check_values(prefix, "prefix")
    for i, call in enumerate(prefix):
        if not callable(call):
            raise TypeError(f"prefix[{i}] must be a call of no arguments, got {call!r}")
    check_bool(tasks, "tasks")
    functions = [call for calls in branches for call in calls] + list(prefix)
    code = system_code(system, functions, check_within(within))
    saved = STUCK_AFTER
    if timeout is not None:
        STUCK_AFTER = float(timeout)
    try:
        return run_history(system, prefix, branches, Decisions.replaying(schedule, choices), tasks=tasks, preemption=preemption, code=code)
    finally:
        STUCK_AFTER = saved
