"""Watching picks from outside: spans, provenance, timing.

:meth:`Picker.pick <synthia.core.picker.Picker.pick>` is final, and reads one variable,
:data:`WATCHED`: the registry of the picks being watched right now. While it is empty (nearly
always), a pick is the picker's own code and pays for no check at all; while it is not, every
pick checks it, and a watched picker's pick runs the wrappers registered for it, around the
class's ``_pick()`` (:func:`on_watching` tells the picker module when to switch). A
wrapper is made by a factory ``make_wrapper(picker, pick) -> new_pick`` (``pick`` is what it
wraps: the class's ``_pick`` bound to the picker, or the wrapper registered before it), and
registered by :func:`wrap_one` (one picker) or :func:`intercept` (a whole wiring, for a
block). Nothing is written on the watched pickers: a copy never carries a wrapper, and a
picker's attribute reads stay as fast as an unwatched one's.

The registry is one for the process, as the pickers are: a wiring watched in one thread is
watched in every thread that picks from it (a concurrent test's branches).

>>> from synthia import ComposeList, RandomInteger
>>> lists = ComposeList(RandomInteger(0, 10), length=2).set_seed(3)
>>> calls = []
>>> def counting(picker, pick):
...     def wrapper():
...         calls.append(type(picker).__name__)
...         return pick()
...     return wrapper
>>> with intercept(lists, counting):
...     _ = lists.pick()
>>> calls
['ComposeList', 'Constant', 'RandomInteger', 'RandomInteger']
"""
from __future__ import annotations

from contextlib import contextmanager
from typing import Any, Callable, Iterator

from .graph import upstream

#: A picker (this module reads nothing of it but its ``_pick`` and ``_reset_self``).
Picker = Any

__all__ = [
    "WATCHED",
    "RESETS",
    "on_watching",
    "intercept",
    "wrap_one",
    "unwrap_one",
    "watch_resets",
    "unwatch_resets",
    "intercepted",
    "watcher",
    "start_log",
    "log_kept",
]

#: ``make_wrapper(picker, pick) -> new_pick``: ``pick`` is the callable being wrapped.
WrapperFactory = Callable[[Picker, Callable[[], Any]], Callable[[], Any]]

#: The picks watched right now: ``id(picker)`` to the callable its pick runs (its wrappers,
#: outermost first, around the class's ``_pick``). Empty: every pick runs the picker's own code.
WATCHED: dict[int, Callable[[], Any]] = {}
#: The resets watched right now: ``id(picker)`` to what runs instead of its ``_reset_self()``.
RESETS: dict[int, Callable[[], Any]] = {}
#: The watched pickers themselves, so that an ``id`` stays theirs while they are watched.
_HELD: dict[int, tuple[Picker, int]] = {}
#: Called with ``True`` when the first pick is watched and ``False`` when none is any more
#: (the picker module switches its final ``pick`` between its two forms).
_SWITCHES: list[Callable[[bool], None]] = []


def on_watching(switch: Callable[[bool], None]) -> None:
    """Call ``switch(True)`` whenever picks begin to be watched (the registry fills) and
    ``switch(False)`` whenever none is any more (it empties)."""
    _SWITCHES.append(switch)
    switch(bool(WATCHED))


def _changed(before: bool) -> None:
    if before != bool(WATCHED):
        for switch in _SWITCHES:
            switch(not before)

_MISSING = object()


def _hold(picker: Picker) -> None:
    key = id(picker)
    held = _HELD.get(key)
    _HELD[key] = (picker, 1 if held is None else held[1] + 1)


def _release(picker: Picker) -> None:
    key = id(picker)
    held = _HELD.get(key)
    if held is None:  # pragma: no cover - released more than held
        return
    if held[1] <= 1:
        del _HELD[key]
    else:
        _HELD[key] = (picker, held[1] - 1)


def wrap_one(picker: Picker, make_wrapper: WrapperFactory) -> Any:
    """Watch ``picker``'s picks with the wrapper ``make_wrapper`` makes (around the wrappers
    already on it); return the token :func:`unwrap_one` needs to take it off.

    >>> from synthia import RandomInteger
    >>> numbers = RandomInteger(0, 10, seed=1)
    >>> token = wrap_one(numbers, lambda picker, pick: lambda: -pick())
    >>> numbers.pick() < 0, intercepted(numbers)
    (True, True)
    >>> unwrap_one(numbers, token); numbers.pick() >= 0, intercepted(numbers)
    (True, False)
    """
    key = id(picker)
    before = bool(WATCHED)
    previous = WATCHED.get(key, _MISSING)
    inner = picker._pick if previous is _MISSING else previous  # type: ignore[attr-defined]
    WATCHED[key] = make_wrapper(picker, inner)  # type: ignore[arg-type]
    _hold(picker)
    _changed(before)
    return previous


def unwrap_one(picker: Picker, token: Any) -> None:
    """Undo :func:`wrap_one`: the wrappers that were on ``picker`` before it are on again."""
    key = id(picker)
    before = bool(WATCHED)
    if token is _MISSING:
        WATCHED.pop(key, None)
    else:
        WATCHED[key] = token
    _release(picker)
    _changed(before)


def intercepted(picker: Picker) -> bool:
    """Whether a wrapper (a span, provenance, timing) is on ``picker``'s pick right now.

    >>> from synthia import RandomInteger
    >>> numbers = RandomInteger(0, 10)
    >>> with intercept(numbers, lambda picker, pick: pick):
    ...     inside = intercepted(numbers)
    >>> inside, intercepted(numbers)
    (True, False)
    """
    return id(picker) in WATCHED


def watcher(picker: Picker) -> Callable[[], Any] | None:
    """The outermost wrapper on ``picker``'s pick right now (``None`` when none is)."""
    return WATCHED.get(id(picker))


def watch_resets(picker: Picker, make_wrapper: Callable[[Callable[[], Any]], Callable[[], Any]]) -> Any:
    """Observe the resets of one picker's own state: ``make_wrapper(reset_own_state)``
    returns what runs instead, on :meth:`~Picker.reset`, :meth:`~Picker.set_seed` and
    :func:`~synthia.core.picker.restart` alike. Returns the token :func:`unwatch_resets`
    needs; wrappers nest like those of :func:`wrap_one`.
    """
    key = id(picker)
    previous = RESETS.get(key, _MISSING)
    inner = picker._reset_self if previous is _MISSING else previous
    RESETS[key] = make_wrapper(inner)  # type: ignore[arg-type]
    _hold(picker)
    return previous


def unwatch_resets(picker: Picker, token: Any) -> None:
    """Undo :func:`watch_resets`, restoring the observer that was there before."""
    key = id(picker)
    if token is _MISSING:
        RESETS.pop(key, None)
    else:
        RESETS[key] = token
    _release(picker)


def start_log(picker: Picker) -> list[Any]:
    """Begin a new provenance log on ``picker`` (kept on it until the next one, dropped by a
    copy) and return it."""
    log: list[Any] = []
    setattr(picker, "_provenance_log", log)
    return log


def log_kept(picker: Picker) -> list[Any] | None:
    """The provenance log kept on ``picker`` (:func:`start_log`), or ``None``."""
    return getattr(picker, "_provenance_log", None)  # (not __dict__: reading it slows the object's attributes)


@contextmanager
def intercept(root: Picker, make_wrapper: WrapperFactory) -> Iterator[list[Picker]]:
    """Wrap the picks of ``root`` and of every picker upstream while the block runs.

    Yields the list of pickers that were wrapped.
    """
    nodes = [node for _, node in upstream(root)]
    tokens = [wrap_one(node, make_wrapper) for node in nodes]
    try:
        yield nodes
    finally:
        for node, token in zip(reversed(nodes), reversed(tokens)):
            unwrap_one(node, token)
