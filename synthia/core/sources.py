"""Draw sources: where the typed draws of a routed wiring come from -- its own streams,
logged (:class:`Recorder`), a given sequence (:class:`Replayer`), or any other
:class:`DrawSource` (Hypothesis's data, a learner). Routing is :mod:`synthia.core.routing`.

>>> from synthia.core.random import Stream
>>> Replayer([5, 2]).integer(Stream(1), 0, 4)   # 5 is out of [0, 4): clamped
3
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Hashable, Iterable, Sequence

from .tapes import BOOLEAN, FLOAT, INTEGER, WEIGHTED, Draw, Flex, Overrun, Span, Tape, clamp, simplest

if TYPE_CHECKING:  # pragma: no cover
    from .random import Stream

__all__ = ["DrawSource", "Passthrough", "PASSTHROUGH", "Recorder", "Replayer"]


# -- sources ------------------------------------------------------------------------------
class DrawSource:
    """Where typed draws come from while :func:`routed` is active.

    Each method receives the picker's own seeded ``stream`` (a source may use it, as the
    :class:`Recorder` does, or ignore it, as the :class:`Replayer` does) and the draw's
    arguments, and returns the value. :meth:`open_span` and :meth:`close_span` bracket
    every ``pick()`` of a routed picker; :meth:`begin_pick` marks each top-level pick.

    Routes nest: a wiring routed inside a pick of a routed wiring (a guided picker inside
    a harness) sends its draws to the inner source, whose ``stream`` is then the outer
    route's stream. An inner source that would choose values by itself (a learner) asks
    :func:`outer_source`: if the outer source ``dictates`` (a replayer, Hypothesis's
    data), it lets the outer stream decide; otherwise it chooses and tells the outer
    source with :meth:`observe`, so that a recorder still logs every draw.
    """

    #: True when this source decides every value (a replayer); sources inside it defer to it.
    dictates = False

    def integer(self, stream: "Stream", low: int, high: int) -> int:  # pragma: no cover - interface
        raise NotImplementedError

    def floating(self, stream: "Stream", low: float, high: float) -> float:  # pragma: no cover - interface
        raise NotImplementedError

    def boolean(self, stream: "Stream", p: float) -> bool:  # pragma: no cover - interface
        raise NotImplementedError

    def weighted(self, stream: "Stream", cumulative: Sequence[float]) -> int:  # pragma: no cover - interface
        raise NotImplementedError

    def integer_by(self, stream: "Stream", low: int, high: int, sample: Callable[["Stream"], int]) -> int:
        """An integer draw with a distribution of the picker's own (see
        :meth:`~synthia.core.random.Stream.integer_by`); by default, the source's integer draw."""
        return self.integer(stream, low, high)

    def floating_by(self, stream: "Stream", low: float, high: float, sample: Callable[["Stream"], float]) -> float:
        """A float draw with a distribution of the picker's own (see
        :meth:`~synthia.core.random.Stream.floating_by`); by default, the source's float draw."""
        return self.floating(stream, low, high)

    def open_span(self, label: Hashable) -> None:
        """A routed picker's ``pick()`` begins (or a part of it: see :func:`open_span`)."""

    def open_atom(self, label: Hashable) -> None:
        """The ``pick()`` of an atomic picker (:attr:`~synthia.core.picker.Picker.atomic`)
        begins: a span whose draws count as one choice. By default, :meth:`open_span`."""
        self.open_span(label)

    def close_span(self) -> None:
        """The innermost open ``pick()`` ends (normally or by an exception)."""

    def begin_pick(self) -> None:
        """A top-level pick begins (called by whoever drives the wiring)."""

    def observe(self, kind: str, args: tuple[Any, ...], value: Any) -> None:
        """A source routed inside this one chose ``value`` for a draw by itself (default: ignore)."""


class Passthrough(DrawSource):
    """Every draw from the picker's own stream, nothing logged (a route after its block ends)."""

    def integer(self, stream: "Stream", low: int, high: int) -> int:
        return stream.integer(low, high)

    def floating(self, stream: "Stream", low: float, high: float) -> float:
        return stream.floating(low, high)

    def boolean(self, stream: "Stream", p: float) -> bool:
        return stream.boolean(p)

    def weighted(self, stream: "Stream", cumulative: Sequence[float]) -> int:
        return stream.weighted(cumulative)

    def integer_by(self, stream: "Stream", low: int, high: int, sample: Callable[["Stream"], int]) -> int:
        return stream.integer_by(low, high, sample)

    def floating_by(self, stream: "Stream", low: float, high: float, sample: Callable[["Stream"], float]) -> float:
        return stream.floating_by(low, high, sample)


PASSTHROUGH = Passthrough()


class _Logging(DrawSource):
    """Shared by the recorder and the replayer: builds the :class:`Tape` of what was drawn."""

    def __init__(self) -> None:
        self.draws: list[Draw] = []
        self.spans: list[Span] = []
        self.pick_starts: list[int] = []
        self._stack: list[int] = []
        self._closed: dict[Hashable, int] = {}
        #: The draw ranges of the outermost atomic spans closed so far (one choice each).
        self.atoms: list[tuple[int, int]] = []
        #: The position (in :attr:`spans`) of the outermost atomic span open, else -1.
        self._atom = -1

    def _log(self, kind: str, args: tuple[Any, ...], value: Any) -> Any:
        self.draws.append(Draw(kind, value, args))
        return value

    def observe(self, kind: str, args: tuple[Any, ...], value: Any) -> None:
        self._log(kind, args, value)

    def open_span(self, label: Hashable) -> None:
        stack = self._stack
        self.spans.append(Span(label, len(self.draws), stack[-1] if stack else -1, len(stack)))
        stack.append(len(self.spans) - 1)

    def open_atom(self, label: Hashable) -> None:
        self.open_span(label)
        if self._atom < 0:
            self._atom = self._stack[-1]

    def close_span(self) -> None:
        position = self._stack.pop()
        span = self.spans[position]
        span.end = len(self.draws)
        span.index = self._closed.get(span.label, 0)
        self._closed[span.label] = span.index + 1
        if position == self._atom:
            self._atom = -1
            if span.end - span.start > 1:  # a draw or none: what the order counts anyway
                self.atoms.append((span.start, span.end))

    def begin_pick(self) -> None:
        self.pick_starts.append(len(self.draws))

    @property
    def tape(self) -> Tape:
        """What was drawn so far, as a tape (spans still open are cut at the current end)."""
        for i in self._stack:
            self.spans[i].end = len(self.draws)
        picks = max(len(self.pick_starts), 1)
        starts = self.pick_starts or [0]
        atoms = self.atoms
        if self._atom >= 0 and len(self.draws) - self.spans[self._atom].start > 1:
            atoms = atoms + [(self.spans[self._atom].start, len(self.draws))]
        return Tape(self.draws, self.spans, picks, starts, atoms)


class Recorder(_Logging):
    """Takes every draw from the picker's own seeded stream and logs it.

    The values are exactly those of plain generation: recording changes nothing but
    what is remembered.
    """

    def integer(self, stream: "Stream", low: int, high: int) -> int:
        return self._log(INTEGER, (low, high), stream.integer(low, high))

    def floating(self, stream: "Stream", low: float, high: float) -> float:
        return self._log(FLOAT, (low, high), stream.floating(low, high))

    def boolean(self, stream: "Stream", p: float) -> bool:
        return self._log(BOOLEAN, (p,), stream.boolean(p))

    def weighted(self, stream: "Stream", cumulative: Sequence[float]) -> int:
        return self._log(WEIGHTED, (tuple(cumulative),), stream.weighted(cumulative))

    def integer_by(self, stream: "Stream", low: int, high: int, sample: Callable[["Stream"], int]) -> int:
        return self._log(INTEGER, (low, high), stream.integer_by(low, high, sample))

    def floating_by(self, stream: "Stream", low: float, high: float, sample: Callable[["Stream"], float]) -> float:
        return self._log(FLOAT, (low, high), stream.floating_by(low, high, sample))


class Replayer(_Logging):
    """Feeds a sequence of draws back to the wiring, and logs what was really drawn.

    ``draws`` holds :class:`Draw` entries (or plain values, taken for whatever draw
    comes) and :class:`Flex` blocks. A draw of the expected kind is clamped into its new
    range; a draw of another kind, and every draw past the end of the sequence, is the
    simplest of its kind. After ``max_draws`` choices (draws, those of an atomic span
    counting as one: see :meth:`Tape.key`) the replay raises :class:`Overrun`.
    :attr:`fits` tells whether the sequence was used exactly as given.
    """

    dictates = True

    def __init__(self, draws: Iterable[Any], max_draws: int | None = None) -> None:
        super().__init__()
        self._main: list[Any] = [d if isinstance(d, (Draw, Flex)) else Draw(None, d) for d in draws]
        self._position = 0
        #: The Flex blocks being replayed, innermost last: ``[entries, position, span depth]``.
        self._flexes: list[list[Any]] = []
        self.max_draws = max_draws
        self.misfits = 0
        self.extended = 0
        self.overran = False
        #: The choices drawn so far: draws outside atomic spans, and atomic spans begun.
        self.choices = 0

    @property
    def fits(self) -> bool:
        """True when every given draw was used, unchanged and of the kind asked, and no more."""
        return self.misfits == 0 and self.extended == 0 and self._position >= len(self._main) and not self.overran

    def open_span(self, label: Hashable) -> None:
        super().open_span(label)
        flexes = self._flexes
        if flexes:  # a block nested in the block being replayed (a sub-span of a moved span)
            flex = flexes[-1]
            entries, i = flex[0], flex[1]
            if i < len(entries) and isinstance(entries[i], Flex) and entries[i].label == label:
                flex[1] = i + 1
                flexes.append([list(entries[i].draws), 0, len(self._stack)])
        elif self._position < len(self._main):
            entry = self._main[self._position]
            if isinstance(entry, Flex) and entry.label == label:
                self._position += 1
                flexes.append([list(entry.draws), 0, len(self._stack)])

    def close_span(self) -> None:
        flexes = self._flexes
        if flexes and flexes[-1][2] == len(self._stack):
            flexes.pop()  # what is left of the block is dropped: what follows stays aligned
        super().close_span()

    def _next(self, kind: str, args: tuple[Any, ...]) -> Any:
        if self._atom < 0 or self.spans[self._atom].start == len(self.draws):  # a new choice
            if self.max_draws is not None and self.choices >= self.max_draws:
                self.overran = True
                raise Overrun(f"the replay made more than {self.max_draws} choices")
            self.choices += 1
        if self._flexes:
            flex = self._flexes[-1]
            entries, i = flex[0], flex[1]
            while i < len(entries) and isinstance(entries[i], Flex):
                entries[i : i + 1] = list(entries[i].draws)  # a nested block whose span did not open: in line
            entry = entries[i] if i < len(entries) else None
            flex[1] = i + 1
        else:
            main = self._main
            while self._position < len(main) and isinstance(main[self._position], Flex):
                # A block whose span never opened here: its draws are taken in line.
                block = main[self._position]
                main[self._position : self._position + 1] = list(block.draws)
            entry = main[self._position] if self._position < len(main) else None
            self._position += 1
        if entry is None:
            self.extended += 1
            value = self.beyond(kind, args)
        elif entry.kind is not None and entry.kind != kind:
            self.misfits += 1
            value = simplest(kind, args)
        else:
            value, changed = clamp(kind, args, entry.value)
            if changed:
                self.misfits += 1
        return self._log(kind, args, value)

    def beyond(self, kind: str, args: tuple[Any, ...]) -> Any:
        """A draw past the end of the sequence: the simplest of its kind (a subclass may draw
        otherwise)."""
        return simplest(kind, args)

    def integer(self, stream: "Stream", low: int, high: int) -> int:
        return self._next(INTEGER, (low, high))

    def floating(self, stream: "Stream", low: float, high: float) -> float:
        return self._next(FLOAT, (low, high))

    def boolean(self, stream: "Stream", p: float) -> bool:
        return self._next(BOOLEAN, (p,))

    def weighted(self, stream: "Stream", cumulative: Sequence[float]) -> int:
        return self._next(WEIGHTED, (tuple(cumulative),))
