"""Draw sources: where the typed draws of a routed wiring come from -- its own streams,
logged (:class:`Recorder`), a given sequence (:class:`Replayer`), or any other
:class:`DrawSource` (Hypothesis's data, a learner). Routing is :mod:`synthia.core.routing`.

>>> from synthia.core.random import Stream
>>> Replayer([5, 2]).integer(Stream(1), 0, 4)   # 5 is out of [0, 4): clamped
3
"""
from __future__ import annotations

import operator
from typing import TYPE_CHECKING, Any, Callable, Hashable, Iterable, Sequence

from .tapes import BOOLEAN, FLOAT, INTEGER, WEIGHTED, Draw, Flex, Overrun, Span, Tape, atom_key, clamp, simplest

if TYPE_CHECKING:  # pragma: no cover
    from .random import Stream

__all__ = ["DrawSource", "Passthrough", "PASSTHROUGH", "Recorder", "Replayer", "NOT_RECALLED"]

#: The types of the entries a replayer takes as they are.
_ENTRIES = {Draw, Flex}

#: What :meth:`DrawSource.recall` returns when it knows no value to give.
NOT_RECALLED: Any = object()


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

    def recall(self, fingerprint: tuple[Any, ...]) -> Any:
        """The value of the atomic pick about to begin, when this source knows it without the
        pick (a replay of the same draws as an earlier one), having logged its draws and spans
        as the pick would; else :data:`NOT_RECALLED`. ``fingerprint`` is ``(picker, ranges)``:
        the atomic picker and the ranges of the leaves upstream of it."""
        return NOT_RECALLED

    def remember(self, fingerprint: tuple[Any, ...], value: Any) -> None:
        """The atomic pick of ``fingerprint`` that just ended made ``value`` (see :meth:`recall`)."""

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
        #: The keys of atomic spans already known (recalled, or remembered), by first draw.
        self.atom_keys: dict[int, tuple[Any, ...]] = {}
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
            if span.end - span.start != 1:  # (one draw: what the order counts anyway; none: one choice still, a constant chosen)
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
        return Tape(self.draws, self.spans, picks, starts, atoms, self.atom_keys)


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

    ``memo`` (a dict the replays of one wiring share: a
    :class:`~synthia.engine.session.ReplaySession`'s) keeps the values of atomic picks made of
    the given draws: a later replay of the very same draws (the same objects, as a shrink
    candidate keeps the parts it does not change) logs them and gives the value without the
    pick, so that a candidate costs what it changes (a text of a thousand characters is not
    spelled again when another entry of its dict changed).
    """

    dictates = True
    #: The most atomic picks a memo holds (it is emptied when full).
    MEMO_SIZE = 20_000

    def __init__(self, draws: Iterable[Any], max_draws: int | None = None, memo: dict[Any, Any] | None = None) -> None:
        super().__init__()
        self.memo = memo
        #: Where the outermost atomic span open began: (span position, entry position, misfits
        #: and draws past the end so far).
        self._atom_from: tuple[int, int, int] | None = None
        #: The outermost atomic span that just closed, if it took its draws as given: (span
        #: position, first entry, entries after it).
        self._atom_done: tuple[int, int, int] | None = None
        #: How many atomic picks this replay recalled instead of making them.
        self.recalled = 0
        main = list(draws)
        if not set(map(type, main)) <= _ENTRIES:  # plain values among the draws
            main = [d if isinstance(d, (Draw, Flex)) else Draw(None, d) for d in main]
        self._main: list[Any] = main
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
        closing = self._stack[-1]
        super().close_span()
        start = self._atom_from
        if start is not None and closing == start[0]:
            self._atom_from = None
            span = self.spans[closing]
            given = self.misfits + self.extended == start[2] and not flexes and self._position - start[1] == span.end - span.start
            self._atom_done = (closing, start[1], self._position) if given else None

    # -- atomic picks recalled -----------------------------------------------------------------
    def open_atom(self, label: Hashable) -> None:
        outermost = self._atom < 0
        super().open_atom(label)
        if outermost and self.memo is not None and not self._flexes:
            self._atom_from = (self._atom, self._position, self.misfits + self.extended)

    def remember(self, fingerprint: tuple[Any, ...], value: Any) -> None:
        done, self._atom_done = self._atom_done, None
        memo = self.memo
        if memo is None or done is None:
            return
        at, first, after = done
        span = self.spans[at]
        if after - first < 2:
            return  # a draw or none: replayed as fast as recalled
        base: dict[Hashable, int] = {}
        for s in self.spans[at:]:
            base[s.label] = min(base.get(s.label, s.index), s.index)
        parts = tuple(
            (s.label, s.start - span.start, s.end - span.start, s.parent - at if s is not span else -1, s.depth - span.depth, s.index - base[s.label])
            for s in self.spans[at:]
        )
        if len(memo) >= self.MEMO_SIZE:
            memo.clear()
        entries = tuple(self._main[first:after])
        if len(entries) != after - first:
            return
        picker, ranges = fingerprint
        draws = tuple(self.draws[span.start : span.end])
        key = atom_key(draws)
        self.atom_keys[span.start] = key
        counts: dict[Hashable, int] = {}
        for label, *_ in parts:
            counts[label] = counts.get(label, 0) + 1
        # The last item: the spans last made of it, and where (a recall at the same place
        # after the same spans reuses them: spans are never changed once closed).
        memo[(id(picker), ranges, id(entries[0]))] = [picker, entries, value, draws, parts, key, counts, None]

    def recall(self, fingerprint: tuple[Any, ...]) -> Any:
        memo, main, position = self.memo, self._main, self._position
        if memo is None or self._flexes or self._atom >= 0 or position >= len(main):
            return NOT_RECALLED
        picker, ranges = fingerprint
        known = memo.get((id(picker), ranges, id(main[position])))
        if known is None or known[0] is not picker:
            return NOT_RECALLED
        _, entries, value, draws, parts, key, counts, last = known
        after = position + len(entries)
        if after > len(main) or not all(map(operator.is_, entries, main[position:after])):
            return NOT_RECALLED
        if self.max_draws is not None and self.choices >= self.max_draws:
            self.overran = True
            raise Overrun(f"the replay made more than {self.max_draws} choices")
        self.choices += 1
        self.recalled += 1
        self._position = after
        start, first = len(self.draws), len(self.spans)
        self.draws += draws
        stack, closed = self._stack, self._closed
        parent, depth = (stack[-1] if stack else -1), len(stack)
        get = closed.get
        where = (start, first, parent, depth, tuple([get(label, 0) for label in counts]))
        if last is not None and last[0] == where:
            self.spans += last[1]
        else:
            made: list[Span] = []
            make = Span.__new__
            for label, begin, end, up, down, index in parts:
                span = make(Span)
                span.label, span.start, span.end, span.depth = label, start + begin, start + end, depth + down
                span.parent = parent if up < 0 else first + up
                span.index = get(label, 0) + index
                made.append(span)
            self.spans += made
            known[7] = (where, made)
        for label, count in counts.items():
            closed[label] = get(label, 0) + count
        self.atoms.append((start, len(self.draws)))
        self.atom_keys[start] = key
        return value

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
            elif entry.kind == kind and entry.args == args:
                self.draws.append(entry)  # the entry itself: a later replay of it recalls what it made
                return value
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
