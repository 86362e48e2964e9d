"""Time limits that end a call still running: :func:`time_limit`.

Two mechanisms, chosen by where the limited code runs:

* **On the main thread of a Unix process**: a real-time alarm (``SIGALRM`` through
  ``signal.setitimer``). It interrupts Python code and blocking calls alike (``time.sleep``,
  a wait on a socket or a pipe). The handler and the pending alarm found on entry -- an outer
  ``time_limit``, pytest-timeout's signal mode, a user's ``signal.alarm`` -- are put back on
  exit with the time they had left: an outer alarm due *before* this limit ends is delivered
  to its own handler at its own time, and one whose time passed meanwhile fires at once.
* **Anywhere else** (another thread: a Dask worker, a web server's, a notebook's; a
  platform without ``setitimer``): a watchdog thread that raises the exception in the
  limited thread with ``PyThreadState_SetAsyncExc`` (CPython). It interrupts Python code
  only, between two bytecodes: a call blocked in C (``time.sleep(60)``, a lock, a socket
  read) is interrupted when it returns to Python, not before. No signal handler is touched.

Either way the exception is :class:`RunInterrupted`, a ``BaseException``: no ``except
Exception`` of the library or of a test swallows it. Python itself may: an exception raised
while a garbage-collector callback, a ``__del__`` or a weakref callback runs is printed and
dropped (distributed's GC diagnosis runs one at every collection). So once the time is
spent, the interruption is raised again every :data:`REPEAT` seconds until the block ends
(also when code inside it caught the first one and carried on).

>>> import threading
>>> def spin():
...     with time_limit(0.05):
...         while True:
...             pass
>>> outcome = []
>>> def off_main():
...     try:
...         spin()
...     except RunInterrupted as stop:
...         outcome.append(str(stop))
>>> worker = threading.Thread(target=off_main)
>>> worker.start(); worker.join()
>>> outcome
['the time limit of 0.05 s is spent']
"""
from __future__ import annotations

import math
import signal
import sys
import threading
import time
from contextlib import contextmanager
from typing import Any, Callable, Iterator

__all__ = ["RunInterrupted", "time_limit"]


class RunInterrupted(BaseException):
    """Raised to abandon a run from outside it (a time limit): the harnesses let it through,
    as they do ``KeyboardInterrupt``, instead of counting it as a failure of the test."""


class _Expired(RunInterrupted):
    """A :class:`RunInterrupted` raised by the watchdog thread, which can only name a class
    (CPython instantiates it without arguments): each limit makes a subclass with its text."""

    text = "the time limit is spent"

    def __init__(self, *args: Any) -> None:
        super().__init__(*(args or (self.text,)))


#: Seconds from which a limit is no limit (a year: beyond what a timer is asked to count;
#: ``math.inf`` included).
NEVER = 365 * 24 * 3600.0

#: Seconds between two interruptions once the time is spent and the block still runs.
REPEAT = 0.5

#: How early a signal may arrive and still count as on time (timers are not exact).
_SLACK = 1e-3


@contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    """Raise :class:`RunInterrupted` in this thread when the block runs longer than
    ``seconds`` (see the module docstring for how, and the limits off the main thread).
    A limit of a year or more (``math.inf``) is no limit.

    >>> with time_limit(5):
    ...     sum(range(10))
    45
    """
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or math.isnan(seconds) or seconds <= 0:
        raise ValueError(f"seconds must be a number > 0, got {seconds!r}")
    if seconds >= NEVER:  # a limit that would outlive the process: none
        yield
        return
    text = f"the time limit of {seconds:g} s is spent"
    if hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread():
        with _alarm(float(seconds), text):
            yield
    else:
        with _watchdog(float(seconds), text):
            yield


@contextmanager
def _alarm(seconds: float, text: str) -> Iterator[None]:
    """The limit as a ``SIGALRM`` on the main thread, sharing the timer with the alarm found."""
    found = signal.getsignal(signal.SIGALRM)
    delay, interval = signal.getitimer(signal.ITIMER_REAL)
    start = time.monotonic()
    deadline = start + seconds
    #: When the alarm found on entry is due next (``None``: there was none, or it has fired
    #: and does not repeat), and its repeat interval.
    outer: list[Any] = [start + delay if delay > 0 else None, interval]

    def arm() -> None:
        due = deadline if outer[0] is None else min(deadline, outer[0])
        signal.setitimer(signal.ITIMER_REAL, max(due - time.monotonic(), 1e-6))

    def handler(signum: int, frame: Any) -> None:
        now = time.monotonic()
        if outer[0] is not None and outer[0] <= deadline and now >= outer[0] - _SLACK:
            # The alarm found on entry is due first: it goes to its own handler, as it would
            # have without this limit (which stays armed in case that handler returns).
            outer[0] = now + outer[1] if outer[1] > 0 else None
            arm()
            _deliver(found, signum, frame)
            return
        if now >= deadline - _SLACK:
            # Again in a moment, should this one be swallowed (see the module docstring).
            due = now + REPEAT if outer[0] is None else min(now + REPEAT, outer[0])
            signal.setitimer(signal.ITIMER_REAL, max(due - now, 1e-6))
            raise RunInterrupted(text)
        arm()  # early: wait for the rest

    signal.signal(signal.SIGALRM, handler)
    arm()
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, found if found is not None else signal.SIG_DFL)
        if outer[0] is not None:
            signal.setitimer(signal.ITIMER_REAL, max(outer[0] - time.monotonic(), 1e-6), outer[1])


def _deliver(handler: Any, signum: int, frame: Any) -> None:
    """What ``SIGALRM`` would have done under ``handler`` (the one found on entry)."""
    if callable(handler):
        handler(signum, frame)
    elif handler == signal.SIG_DFL or handler is None:
        # The default action of SIGALRM ends the process: so be it, as without this limit.
        signal.signal(signal.SIGALRM, signal.SIG_DFL)
        signal.raise_signal(signal.SIGALRM)
    # SIG_IGN: nothing happens, as without this limit.


@contextmanager
def _watchdog(seconds: float, text: str) -> Iterator[None]:
    """The limit as a watchdog thread raising an asynchronous exception in this thread."""
    raise_in = _async_raiser()
    if raise_in is None:  # not CPython: nothing can interrupt another thread
        yield
        return
    target = threading.get_ident()
    kind: type[_Expired] = type("RunInterrupted", (_Expired,), {"text": text, "__module__": __name__})
    done = threading.Event()
    lock = threading.Lock()
    state = {"open": True, "fired": False}

    def watch() -> None:
        if done.wait(seconds):
            return
        while True:  # again every REPEAT seconds while the block runs (see the module docstring)
            with lock:
                if not state["open"]:
                    return
                raise_in(target, kind)
                state["fired"] = True
            if done.wait(REPEAT):
                return

    watcher = threading.Thread(target=watch, name="synthia time limit", daemon=True)
    watcher.start()
    delivered = False
    try:
        yield
    except kind:
        delivered = True
        raise
    finally:
        with lock:
            state["open"] = False
            done.set()
            pending = state["fired"] and not delivered
        if pending:
            # The watchdog fired as the block ended: the exception is on its way and must not
            # escape into the caller's code. It is taken here, at the next bytecodes (a
            # pending one is never cleared with SetAsyncExc(id, NULL): in CPython 3.11 that
            # leaves the interpreter's "async exception" flag set for good, and every later
            # traced call, such as Hypothesis's, slows to a crawl).
            try:
                for _ in range(1_000_000):
                    pass
            except kind:
                pass


def _async_raiser() -> Callable[[int, Any], None] | None:
    """``raise_in(thread_id, exception_class)``, or ``None`` where the interpreter has no
    ``PyThreadState_SetAsyncExc``."""
    if sys.implementation.name != "cpython":  # pragma: no cover - CPython is what CI runs
        return None
    import ctypes

    # A prototype of its own: setting argtypes on ctypes.pythonapi's shared one would change
    # it for every other user in the process.
    prototype = ctypes.PYFUNCTYPE(ctypes.c_int, ctypes.c_ulong, ctypes.py_object)
    set_async = prototype(("PyThreadState_SetAsyncExc", ctypes.pythonapi))

    def raise_in(thread: int, kind: Any) -> None:
        set_async(thread, kind)

    return raise_in
