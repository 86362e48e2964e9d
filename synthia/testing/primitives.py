"""Blocking primitives a controlled scheduler sees: stand-ins for ``threading.Lock``,
``RLock`` and ``Condition``, put in place of the real ones while a controlled run lasts.

A branch of a controlled run (:mod:`~synthia.testing.scheduler`) that waits for a lock
another branch holds must not block its thread for real: the scheduler would wait for it
forever. The stand-ins here ask the scheduler instead: the branch is *blocked* (another
branch runs), woken when the lock is released, the condition notified; a timed wait times
out on the scheduler's virtual clock when nothing else can run; and when every branch is
blocked the run is a **deadlock**. In any other thread the stand-ins are the real thing:
a thread blocks as it would on ``threading.Lock``.

:func:`controlled_primitives` puts the stand-ins in place for a block -- ``threading.Lock``,
``threading.RLock`` and ``threading.Condition``, the clock ``threading`` and ``queue`` read
for their timeouts, and the names a module of the system bound with ``from threading import
Lock`` -- and restores them after, also on error, counting nested and concurrent blocks.
``threading.Event``, ``Semaphore``, ``BoundedSemaphore``, ``Barrier`` and ``queue.Queue``
are written in Python on ``Condition`` and ``Lock``, so those made inside the block are seen
too. What was made before the block (a lock created at import time, a module-level queue)
stays a real primitive, and so do C ones (``queue.SimpleQueue``, ``_thread`` locks).

>>> lock = Lock()
>>> with lock:
...     lock.locked()
True
>>> import threading
>>> with controlled_primitives():
...     made = threading.Lock()
>>> type(made) is Lock, threading.Lock is Lock
(True, False)
"""
from __future__ import annotations

import _thread
import collections
import contextlib
import queue
import sys
import threading
import time
from types import ModuleType
from typing import Any, Callable, Iterable, Iterator, Protocol

from ..core.checks import check_values

__all__ = ["Lock", "RLock", "Condition", "controlled_primitives", "current", "monotonic", "waited_condition", "Abort"]

_allocate = _thread.allocate_lock
_get_ident = _thread.get_ident


class Controlled(Protocol):
    """What a controlled thread (a branch of a scheduler) offers the primitives it uses."""

    def block(self, waitable: Any, deadline: float | None) -> bool:
        """Wait, blocked, until ``waitable`` is woken (``True``) or the virtual clock reaches
        ``deadline`` (``False``)."""

    def now(self) -> float:
        """The scheduler's virtual clock."""


class Abort(BaseException):
    """Unwinds a branch the scheduler gave up on (a deadlock, a stuck branch)."""


_RUNNING = threading.local()
#: The schedulers running now: a release or notification from any thread tells each.
_SCHEDULERS: list[Any] = []


def current() -> Controlled | None:
    """The controlled branch this thread runs, or ``None``."""
    return getattr(_RUNNING, "branch", None)


def set_current(branch: Controlled | None) -> None:
    _RUNNING.branch = branch


def register(scheduler: Any) -> None:
    _SCHEDULERS.append(scheduler)


def unregister(scheduler: Any) -> None:
    if scheduler in _SCHEDULERS:
        _SCHEDULERS.remove(scheduler)


def wake(waitable: Any) -> None:
    """The branches blocked on ``waitable`` may go on (they try again)."""
    for scheduler in list(_SCHEDULERS):
        scheduler.wake(waitable)


def monotonic() -> float:
    """The clock timeouts are measured on: the scheduler's virtual clock in a branch, the
    real ``time.monotonic()`` elsewhere."""
    branch = current()
    return time.monotonic() if branch is None else branch.now()


def _wait_until(branch: Controlled, waitable: Any, attempt: Callable[[], bool], timeout: float | None) -> bool:
    deadline = None if timeout is None else branch.now() + timeout
    while True:
        if not branch.block(waitable, deadline):
            return attempt()  # timed out: a last try
        if attempt():
            return True


class Lock:
    """A lock that a controlled scheduler sees: a branch that waits for it while another
    branch holds it is *blocked* (the scheduler runs another branch, and reports a deadlock
    when every branch is blocked) instead of hanging the run. Outside a scheduler it is a
    plain ``threading.Lock``; during a controlled run ``threading.Lock`` is this class.

    >>> lock = Lock()
    >>> lock.acquire(), lock.acquire(blocking=False), lock
    (True, False, Lock(locked))
    >>> lock.release()
    """

    def __init__(self) -> None:
        self._lock = _allocate()
        #: The thread that holds it (for a deadlock's report), or ``None``.
        self.owner: int | None = None

    def __deepcopy__(self, memo: dict[int, Any]) -> "Lock":
        # A copy of an object (a model's state, in a search) has its own lock, free: between
        # two sequential calls no lock is held.
        return type(self)()

    def __reduce__(self) -> Any:
        return (type(self), ())

    def _try(self) -> bool:
        return self._lock.acquire(False)

    def acquire(self, blocking: bool = True, timeout: float = -1) -> bool:
        if not blocking and timeout != -1:
            raise ValueError("can't specify a timeout for a non-blocking call")
        branch = current()
        if branch is None:
            got = self._lock.acquire(blocking, timeout)
        else:
            got = self._lock.acquire(False)
            if not got and blocking:
                got = _wait_until(branch, self, self._try, None if timeout < 0 else timeout)
        if got:
            self.owner = _get_ident()
        return got

    def release(self) -> None:
        if not self._lock.locked():
            raise RuntimeError("release unlocked lock")
        self.owner = None
        self._lock.release()
        if _SCHEDULERS:
            wake(self)

    def locked(self) -> bool:
        return self._lock.locked()

    def _at_fork_reinit(self) -> None:
        self._lock = _allocate()
        self.owner = None

    def _is_owned(self) -> bool:
        return self._lock.locked()

    def _release_save(self) -> None:
        self.release()

    def _acquire_restore(self, state: Any) -> None:
        self.acquire()

    def __enter__(self) -> bool:
        return self.acquire()

    def __exit__(self, *exc: Any) -> None:
        self.release()

    def __repr__(self) -> str:
        return f"Lock({'locked' if self.locked() else 'unlocked'})"


class RLock(Lock):
    """A re-entrant :class:`Lock` (what ``threading.RLock`` is during a controlled run): the
    thread that holds it may take it again, and must release it as many times.

    >>> lock = RLock()
    >>> with lock, lock:
    ...     lock.locked()
    True
    """

    def __init__(self) -> None:
        super().__init__()
        self.count = 0

    def acquire(self, blocking: bool = True, timeout: float = -1) -> bool:
        if self.owner == _get_ident():
            self.count += 1
            return True
        got = super().acquire(blocking, timeout)
        if got:
            self.count = 1
        return got

    def release(self) -> None:
        if self.owner != _get_ident():
            raise RuntimeError("cannot release un-acquired lock")
        self.count -= 1
        if not self.count:
            super().release()

    def _at_fork_reinit(self) -> None:
        super()._at_fork_reinit()
        self.count = 0

    def _is_owned(self) -> bool:
        return self.owner == _get_ident()

    def _release_save(self) -> Any:  # type: ignore[override]
        state = self.count
        self.count = 1
        self.release()
        return state

    def _acquire_restore(self, state: Any) -> None:
        self.acquire()
        self.count = state

    def __repr__(self) -> str:
        return f"RLock({'locked' if self.locked() else 'unlocked'}, count={self.count})"


class _BranchWaiter:
    """A branch waiting in :meth:`Condition.wait`: blocked until notified."""

    __slots__ = ("condition", "notified")

    def __init__(self, condition: "Condition") -> None:
        self.condition = condition
        self.notified = False

    def wait(self, branch: Controlled, timeout: float | None) -> bool:
        deadline = None if timeout is None else branch.now() + timeout
        while not self.notified:
            if not branch.block(self, deadline):
                return self.notified
        return True

    def wake(self) -> None:
        self.notified = True
        wake(self)


class _ThreadWaiter:
    """Another thread waiting in :meth:`Condition.wait`: blocked for real on a lock."""

    __slots__ = ("lock",)

    def __init__(self) -> None:
        self.lock = _allocate()
        self.lock.acquire()

    def wait(self, branch: None, timeout: float | None) -> bool:
        return self.lock.acquire(True, -1 if timeout is None else max(timeout, 0.0))

    def wake(self) -> None:
        self.lock.release()


class Condition:
    """A condition variable a controlled scheduler sees (what ``threading.Condition`` is
    during a controlled run): a branch waiting for a notification is blocked, and a timed
    wait times out on the virtual clock when no branch can run.

    >>> condition = Condition()
    >>> with condition:
    ...     condition.wait(timeout=0)
    False
    """

    def __init__(self, lock: Any = None) -> None:
        if lock is None:
            lock = RLock()
        self._lock = lock
        self.acquire = lock.acquire
        self.release = lock.release
        self._waiters: collections.deque[Any] = collections.deque()

    def __deepcopy__(self, memo: dict[int, Any]) -> "Condition":
        import copy

        return type(self)(copy.deepcopy(self._lock, memo))

    def __reduce__(self) -> Any:
        return (type(self), (self._lock,))

    def __enter__(self) -> bool:
        return self._lock.__enter__()  # type: ignore[no-any-return]

    def __exit__(self, *exc: Any) -> Any:
        return self._lock.__exit__(*exc)

    def __repr__(self) -> str:
        return f"Condition({self._lock!r}, {len(self._waiters)} waiting)"

    def _at_fork_reinit(self) -> None:
        self._lock._at_fork_reinit()
        self._waiters.clear()

    def _is_owned(self) -> bool:
        owned = getattr(self._lock, "_is_owned", None)
        if owned is not None:
            return bool(owned())
        if self._lock.acquire(False):
            self._lock.release()
            return False
        return True

    def _release_save(self) -> Any:
        save = getattr(self._lock, "_release_save", None)
        if save is not None:
            return save()
        self._lock.release()
        return None

    def _acquire_restore(self, state: Any) -> None:
        restore = getattr(self._lock, "_acquire_restore", None)
        if restore is not None:
            restore(state)
        else:
            self._lock.acquire()

    def wait(self, timeout: float | None = None) -> bool:
        if not self._is_owned():
            raise RuntimeError("cannot wait on un-acquired lock")
        branch = current()
        waiter: Any = _BranchWaiter(self) if branch is not None else _ThreadWaiter()
        self._waiters.append(waiter)
        saved = self._release_save()
        woken = False
        try:
            woken = waiter.wait(branch, timeout)
            return woken
        finally:
            self._acquire_restore(saved)
            if not woken:
                with contextlib.suppress(ValueError):
                    self._waiters.remove(waiter)

    def wait_for(self, predicate: Callable[[], Any], timeout: float | None = None) -> Any:
        end = None
        wait = timeout
        result = predicate()
        while not result:
            if wait is not None:
                if end is None:
                    end = monotonic() + wait
                else:
                    wait = end - monotonic()
                    if wait <= 0:
                        break
            self.wait(wait)
            result = predicate()
        return result

    def notify(self, n: int = 1) -> None:
        if not self._is_owned():
            raise RuntimeError("cannot notify on un-acquired lock")
        while self._waiters and n > 0:
            self._waiters.popleft().wake()
            n -= 1

    def notify_all(self) -> None:
        self.notify(len(self._waiters))

    notifyAll = notify_all


# -- the stand-ins in place ------------------------------------------------------------------
_REAL: dict[str, Any] = {"Lock": threading.Lock, "RLock": threading.RLock, "Condition": threading.Condition}
_STAND_IN: dict[str, Any] = {"Lock": Lock, "RLock": RLock, "Condition": Condition}
#: The clocks ``threading`` and ``queue`` read for their timeouts (``Semaphore.acquire``,
#: ``Queue.get``): the virtual clock in a branch.
_CLOCKS = [(threading, "_time"), (queue, "time")]
_window = _allocate()
_depth = 0
_saved: list[tuple[Any, str, Any]] = []
#: The threads alive when the outermost block began: any other (but the scheduler's) was
#: started by the system, and may wake a blocked branch.
_before: set[int | None] = set()


def threads_before() -> set[int | None]:
    """The idents of the threads alive when the outermost :func:`controlled_primitives`
    block began (those alive now, outside any block)."""
    with _window:
        if _depth:
            return set(_before)
    return {t.ident for t in threading.enumerate()}


def _swap(module: Any, name: str, value: Any, into: list[tuple[Any, str, Any]]) -> None:
    into.append((module, name, getattr(module, name)))
    setattr(module, name, value)


def _check_modules(modules: Any) -> list[ModuleType]:
    """``modules`` as a list of modules (a clear error naming the argument otherwise)."""
    if isinstance(modules, (str, bytes, ModuleType)):
        raise TypeError(f"modules must be a list of modules, got {modules!r} ({type(modules).__name__})")
    modules = check_values(modules, "modules")
    for module in modules:
        if not isinstance(module, ModuleType):
            raise TypeError(f"modules must be a list of modules, got {module!r} ({type(module).__name__}) in it")
    return list(modules)


@contextlib.contextmanager
def controlled_primitives(modules: Iterable[ModuleType] = ()) -> Iterator[None]:
    """While the block runs, ``threading.Lock``, ``RLock`` and ``Condition`` are the
    stand-ins of this module (so are the names ``modules`` bound to the real ones, as with
    ``from threading import Lock``), and the clock of ``threading``'s and ``queue``'s
    timeouts is :func:`monotonic`; all restored after, also on error. Blocks may nest and
    run in several threads at once: the stand-ins stay until the last one ends.

    >>> import queue, threading
    >>> with controlled_primitives():
    ...     jobs = queue.Queue()          # its lock and conditions: stand-ins
    >>> type(jobs.not_empty) is Condition, threading.Condition is Condition
    (True, False)
    """
    global _depth
    modules = _check_modules(modules)
    local: list[tuple[Any, str, Any]] = []
    with _window:
        if _depth == 0:
            _before.clear()
            _before.update(t.ident for t in threading.enumerate())
            for name, stand_in in _STAND_IN.items():
                _swap(threading, name, stand_in, _saved)
            for module, name in _CLOCKS:
                if hasattr(module, name):
                    _swap(module, name, monotonic, _saved)
        _depth += 1
        for module in modules:
            if module is threading or module is sys.modules[__name__]:
                continue
            for name, value in list(vars(module).items()):
                for kind, real in _REAL.items():
                    if value is real:
                        _swap(module, name, _STAND_IN[kind], local)
    try:
        yield
    finally:
        with _window:
            for module, name, value in reversed(local):
                setattr(module, name, value)
            _depth -= 1
            if _depth == 0:
                for module, name, value in reversed(_saved):
                    setattr(module, name, value)
                _saved.clear()


def waited_condition(waitable: Any) -> Condition | None:
    """The condition a blocked branch waits to be notified on, or ``None`` (it waits for a lock)."""
    return waitable.condition if isinstance(waitable, _BranchWaiter) else None
