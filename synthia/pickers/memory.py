"""Sequences that remember: :class:`Record` keeps what passed through, :class:`Share`
broadcasts one stream to several consumers."""
from __future__ import annotations

from typing import Any, TypeVar, overload

from ..core.inputs import value_input
from ..core.picker import Bounded, Picker
from .bounded import ends

__all__ = ["Record", "Share"]

T = TypeVar("T")


class Record(Bounded[T]):
    """Passes the values of ``picker`` through and keeps them in :attr:`recorded`.

    ``reset()`` resets the input and clears the record. ``is_done()`` follows a bounded
    input (``False`` otherwise).

    >>> from synthia import Tick
    >>> r = Record(Tick(0, 2))
    >>> r.take(3), r.recorded
    ([0, 2, 4], [0, 2, 4])
    """

    inputs_fields = ("picker",)

    @overload
    def __init__(self, picker: Picker[T]) -> None: ...
    @overload
    def __init__(self, picker: T) -> None: ...
    def __init__(self, picker: Any) -> None:
        self.picker = value_input(picker, "picker")
        self.recorded: list[T] = []

    def _pick(self) -> T:
        value = self.picker.pick()
        self.recorded.append(value)
        return value

    def is_done(self) -> bool:
        return isinstance(self.picker, Bounded) and self.picker.is_done()

    def ends(self) -> bool:
        return ends(self.picker)

    def _reset_self(self) -> None:
        self.recorded = []


class _Broadcast(Picker[Any]):
    """The hub of a :class:`Share`: draws from the source once per value, for every consumer."""

    inputs_fields = ("source",)

    def __init__(self, source: Picker[Any]) -> None:
        self.source = source
        self.buffer: list[Any] = []
        self.base = 0  # the position of buffer[0]: values every consumer has read are dropped
        self.generation = 0
        self.consumers: list["Share[Any]"] = []

    def value_at(self, position: int) -> Any:
        while self.base + len(self.buffer) <= position:
            self.buffer.append(self.source.pick())
        value = self.buffer[position - self.base]
        if len(self.buffer) > 256:
            self._trim()
        return value

    def _trim(self) -> None:
        oldest = min(c.position for c in self.consumers if c.generation == self.generation)
        if oldest > self.base:
            del self.buffer[: oldest - self.base]
            self.base = oldest

    def _pick(self) -> Any:  # pragma: no cover - consumers call value_at
        raise TypeError("a Share hub is read through its consumers")

    def _reset_self(self) -> None:
        self.buffer = []
        self.base = 0
        self.generation += 1


class Share(Bounded[T]):
    """One consumer of a stream broadcast to several: each replays the same values at its own pace.

    ``Share(source)`` is the first consumer; :meth:`another` makes more on the same
    broadcast. The source is drawn once per value, whoever asks first. Resetting any
    consumer resets the broadcast (it is shared upstream), and every consumer then
    starts again from the first value; a duplicate of a wiring holding consumers
    gets its own broadcast, shared by the copied consumers. Values that every consumer
    has read are dropped, so memory stays bounded by the gap between the fastest and
    the slowest consumer.

    >>> from synthia import RandomInteger
    >>> a = Share(RandomInteger(0, 100, seed=1))
    >>> b = a.another()
    >>> a.take(3) == b.take(3)
    True
    """

    inputs_fields = ("hub",)

    @overload
    def __init__(self, source: Picker[T], *, _hub: _Broadcast | None = None) -> None: ...
    @overload
    def __init__(self, source: T, *, _hub: _Broadcast | None = None) -> None: ...
    def __init__(self, source: Any, *, _hub: _Broadcast | None = None) -> None:
        self.hub = _hub if _hub is not None else _Broadcast(value_input(source, "source"))
        self.position = 0
        self.generation = self.hub.generation
        self.hub.consumers.append(self)

    def another(self) -> "Share[T]":
        """A new consumer of the same broadcast, starting at the first value."""
        return Share(self.hub.source, _hub=self.hub)

    def _pick(self) -> T:
        if self.generation != self.hub.generation:
            self.position, self.generation = 0, self.hub.generation
        value = self.hub.value_at(self.position)
        self.position += 1
        return value

    def is_done(self) -> bool:
        source = self.hub.source
        unread = self.hub.base + len(self.hub.buffer) - self.position
        return unread <= 0 and isinstance(source, Bounded) and source.is_done()

    def ends(self) -> bool:
        return ends(self.hub.source)

    def _reset_self(self) -> None:
        self.position = 0
        self.generation = self.hub.generation

    def arguments(self) -> tuple[list[Any], dict[str, Any]]:
        return [self.hub.source], {}
