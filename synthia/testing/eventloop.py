"""The event loop of a trace: a **virtual clock**, a loop that says when it is stuck, and a
way to run it from inside another running loop (Jupyter, IPython, pytest-asyncio).

:class:`VirtualLoop` is an asyncio event loop whose ``time()`` is virtual: it starts at 0
and, when no callback is ready and no I/O is registered, it **jumps to the next timer**
instead of waiting for it. ``asyncio.sleep``, ``wait_for``, ``asyncio.timeout`` and
``call_later`` all read the loop's time, so a trace with timers runs at once, and the same
seed gives the same trace whatever the load of the machine. When nothing is ready, no timer
is due and nothing else can wake a task (no I/O, no thread the trace started, no executor),
the loop is **stuck**: :func:`run_loop` raises :class:`Deadlock` at once instead of waiting
forever. Real I/O runs on the real clock: while a socket or pipe of the trace is registered,
the loop waits for it for real and its virtual time advances by the time waited.

>>> import asyncio
>>> loop = VirtualLoop()
>>> async def nap():
...     await asyncio.sleep(3600)      # an hour, on the virtual clock: no time passes
...     return asyncio.get_running_loop().time()
>>> run_loop(loop, nap())
3600.0
>>> async def forever():
...     await asyncio.get_running_loop().create_future()   # nothing will ever set it
>>> run_loop(loop, forever())
Traceback (most recent call last):
...
synthia.testing.eventloop.Deadlock: every task waits, and no timer, I/O or thread can wake one
>>> close_loop(loop)
"""
from __future__ import annotations

import asyncio
import contextvars
import selectors
import threading
import time
from typing import Any, Awaitable, Callable, TypeVar

__all__ = ["Deadlock", "VirtualLoop", "run_loop", "close_loop", "OUTSIDE_GRACE"]

T = TypeVar("T")

#: Seconds a stuck loop (or a scheduler whose branches all wait) waits for a thread outside
#: the scheduler's control -- one the trace started, an executor's -- to wake a task before
#: it is declared stuck. Only waited for when such a thread exists.
OUTSIDE_GRACE = 1.0


class Deadlock(Exception):
    """Every branch (task, thread) left waits, and nothing the scheduler sees can wake one."""


class _JumpingSelector(selectors.BaseSelector):
    """The loop's selector: a real one, except that a wait with only the loop's own wake-up
    pipe registered advances the virtual clock instead of sleeping."""

    def __init__(self) -> None:
        self.inner = selectors.DefaultSelector()
        self.loop: VirtualLoop | None = None

    def register(self, fileobj: Any, events: int, data: Any = None) -> selectors.SelectorKey:
        return self.inner.register(fileobj, events, data)

    def unregister(self, fileobj: Any) -> selectors.SelectorKey:
        return self.inner.unregister(fileobj)

    def modify(self, fileobj: Any, events: int, data: Any = None) -> selectors.SelectorKey:
        return self.inner.modify(fileobj, events, data)

    def get_map(self) -> Any:
        return self.inner.get_map()

    def close(self) -> None:
        self.inner.close()

    def select(self, timeout: float | None = None) -> list[tuple[selectors.SelectorKey, int]]:
        loop = self.loop
        if loop is None or (timeout is not None and timeout <= 0):
            return self.inner.select(timeout)
        if len(self.inner.get_map()) > 1:
            # Real I/O besides the loop's wake-up pipe: wait for it on the real clock.
            start = time.monotonic()
            events = self.inner.select(timeout)
            loop.advance(time.monotonic() - start)
            return events
        events = self.inner.select(0)
        if events:
            return events
        if timeout is not None:
            loop.advance(timeout)  # every task waits for a timer: jump to it
            return []
        if loop.outside_wakers():
            events = self.inner.select(OUTSIDE_GRACE)
            if events:
                return events
        loop.stuck()
        return []


class VirtualLoop(asyncio.SelectorEventLoop):
    """An event loop on a virtual clock (see the module's docstring). ``on_stuck``, when set,
    is called when the loop finds itself stuck (a scheduler's control task waits for it);
    otherwise the loop stops and :func:`run_loop` raises :class:`Deadlock`."""

    def __init__(self) -> None:
        selector = _JumpingSelector()
        super().__init__(selector)
        selector.loop = self
        self._now = 0.0
        self._threads = {t.ident for t in threading.enumerate()}
        self.stuck_reason: str | None = None
        self.on_stuck: Callable[[], None] | None = None

    def time(self) -> float:
        return self._now

    def advance(self, seconds: float) -> None:
        """Move the virtual clock ``seconds`` on."""
        self._now += seconds

    def outside_wakers(self) -> bool:
        """Whether something outside the loop may still wake a task: a thread started since
        the loop was made, or the loop's executor (``run_in_executor``, ``to_thread``)."""
        if getattr(self, "_default_executor", None) is not None:
            return True
        me = threading.get_ident()
        return any(t.ident not in self._threads and t.ident != me and t.is_alive() for t in threading.enumerate())

    def stuck(self) -> None:
        self.stuck_reason = "every task waits, and no timer, I/O or thread can wake one"
        if self.on_stuck is not None:
            self.on_stuck()
        else:
            self.stop()


def _running_loop() -> asyncio.AbstractEventLoop | None:
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None


def _complete(loop: asyncio.AbstractEventLoop, main: Awaitable[T]) -> T:
    try:
        return loop.run_until_complete(main)
    except RuntimeError:
        reason = getattr(loop, "stuck_reason", None)
        if reason is None:
            raise
        loop.stuck_reason = None  # type: ignore[attr-defined]
        raise Deadlock(reason) from None


def run_loop(loop: asyncio.AbstractEventLoop, main: Awaitable[T]) -> T:
    """``loop.run_until_complete(main)``, also when another event loop already runs in this
    thread (a notebook's, pytest-asyncio's): ``loop`` then runs in a worker thread, with this
    thread's context variables, while this one waits. A stuck :class:`VirtualLoop` raises
    :class:`Deadlock`."""
    if _running_loop() is None:
        return _complete(loop, main)
    context = contextvars.copy_context()
    outcome: list[Any] = []

    def work() -> None:
        try:
            outcome.append((True, context.run(_complete, loop, main)))
        except BaseException as exc:  # noqa: B036 - handed to the waiting thread as it is
            outcome.append((False, exc))

    worker = threading.Thread(target=work, name="synthia-loop", daemon=True)
    worker.start()
    worker.join()
    done, value = outcome[0]
    if not done:
        raise value
    return value  # type: ignore[no-any-return]


def close_loop(loop: asyncio.AbstractEventLoop) -> None:
    """Cancel what still runs on ``loop`` (a task left waiting by a stuck trace), finish its
    async generators, and close it."""
    if loop.is_closed():
        return
    try:
        pending = [task for task in asyncio.all_tasks(loop) if not task.done()]
        if pending:
            for task in pending:
                task.cancel()
            try:
                run_loop(loop, asyncio.gather(*pending, return_exceptions=True))
            except Deadlock:
                pass  # a task that waits again while it is cancelled: dropped with the loop
        run_loop(loop, loop.shutdown_asyncgens())
    finally:
        loop.close()
