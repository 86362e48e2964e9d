"""Opt-in recording of what each picker produced and consumed: the raw material of explanations.

While a :func:`recording` block is active, every picker of the wiring keeps a log:
for each output (numbered since its last reset) the value and the list of
``(upstream picker, upstream output index)`` it consumed while producing it. A
picker shared by several consumers numbers its outputs once, so explanations are
exact under sharing; a reset by the user restarts the numbering (a reset a picker makes
while picking, such as a repeating behaviour tree starting a new round, does not). Outside the block ``pick()``
runs the plain class method: recording costs nothing unless asked for.

>>> import synthia as sy
>>> lists = sy.ComposeList(sy.RandomInteger(0, 10), 2).set_seed(1)
>>> with recording(lists):
...     value = lists.pick()
>>> log_of(lists)[0].consumed[1][0] is lists.element
True
"""
from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Callable, ContextManager, Iterator

from ..core.checks import check_bool, check_picker
from ..core.graph import upstream
from ..core.instrument import log_kept, start_log, unwatch_resets, unwrap_one, watch_resets, wrap_one
from ..core.picker import Picker

__all__ = ["Entry", "recording", "log_of", "NotRecorded"]


class NotRecorded(LookupError):
    """The output asked about was not produced inside a :func:`recording` block."""


@dataclass
class Entry:
    """One recorded output: its value and the upstream outputs consumed to make it."""

    value: Any
    consumed: list[tuple[Picker[Any], int]] = field(default_factory=list)


def log_of(picker: Picker[Any]) -> list[Entry]:
    """The recorded outputs of ``picker`` since its last reset (raises :class:`NotRecorded`)."""
    log = log_kept(picker)
    if log is None:
        raise NotRecorded(f"{picker!r} was not recorded: pick inside `with synthia.recording(picker):`")
    return log


def recording(*roots: Picker[Any], reset: bool = True) -> ContextManager[None]:
    """Record every pick of the wirings ``roots`` inside the block.

    The wirings are reset first (``reset=False`` keeps their state, for pickers
    that have not picked yet), so output indices count from the initial state.
    Logs stay on the pickers after the block, for :func:`~synthia.explain`.
    The arguments are checked at the call, not when the block starts.
    """
    for i, root in enumerate(roots):
        check_picker(root, f"roots[{i}]")
    check_bool(reset, "reset")
    return _recording(roots, reset)


@contextmanager
def _recording(roots: tuple[Picker[Any], ...], reset: bool) -> Iterator[None]:
    frames: list[list[tuple[Picker[Any], int]]] = []
    nodes: list[Picker[Any]] = []
    seen: set[int] = set()
    for root in roots:
        for _, node in upstream(root):
            if id(node) not in seen:
                seen.add(id(node))
                nodes.append(node)

    def recorded_pick(picker: Picker[Any], pick: Callable[[], Any]) -> Callable[[], Any]:
        def wrapper() -> Any:
            frames.append([])
            try:
                value = pick()
            except BaseException:
                frames.pop()
                raise
            consumed = frames.pop()
            if isinstance(value, Picker):
                # A picker made while picking (a Knit instance): record it from now on too.
                for _, node in upstream(value):
                    if id(node) not in seen:
                        seen.add(id(node))
                        install(node)
            log = log_kept(picker)
            assert log is not None  # started by install()
            log.append(Entry(value, consumed))
            if frames:
                frames[-1].append((picker, len(log) - 1))
            return value

        return wrapper

    def recorded_reset(picker: Picker[Any]) -> Callable[[Callable[[], Any]], Callable[[], Any]]:
        def observe(reset_self: Callable[[], Any]) -> Callable[[], Any]:
            def wrapper() -> Any:
                # A reset made by a picker while it picks (a behaviour tree starting a new
                # round) keeps the numbering going, so earlier outputs stay explainable.
                if not frames:
                    start_log(picker)
                return reset_self()

            return wrapper

        return observe

    tokens: list[tuple[Picker[Any], Any, Any]] = []

    def install(node: Picker[Any]) -> None:
        start_log(node)
        previous_reset = watch_resets(node, recorded_reset(node))
        tokens.append((node, wrap_one(node, recorded_pick), previous_reset))

    for node in nodes:
        install(node)
    try:
        if reset:
            for root in roots:
                root.reset()
        yield
    finally:
        for node, token, previous_reset in reversed(tokens):
            unwatch_resets(node, previous_reset)
            unwrap_one(node, token)
