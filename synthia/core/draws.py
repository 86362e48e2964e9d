"""Draws: every random choice of a wiring, typed, recorded with its spans, and replayable.

A random picker takes its randomness only through the typed draws of its stream
(:class:`~synthia.core.random.Stream`): ``below(n)``, ``integer(low, high)``,
``unit()``, ``floating(low, high)``, ``boolean(p)``, ``weighted(cumulative)``. A draw is
recorded as a :class:`Draw`: its kind (``"integer"``, ``"float"``, ``"boolean"`` or
``"weighted"``), its value and the arguments that bound it. Each kind has an **order**
(:func:`sort_key`) whose minimum is the simplest value (:func:`simplest`):

* integers: closest to zero first, the positive one first (``0, 1, -1, 2, -2, ...``), so a
  range above zero starts at its low end and one below zero at its high end;
* floats: integral values first, in the integers' order, then the others by distance to
  zero (``0.0, 1.0, -1.0, 2.0, ..., 0.5, -0.5, ...``);
* booleans: ``False`` first; weighted indices: the first index first.

Behind the stream stand interchangeable **sources** (:class:`DrawSource`): while
:func:`routed` is active, every picker of a wiring -- and every picker created while it
is active -- sends its draws to one source instead of its own stream:

* :class:`Recorder` takes each draw from the picker's own seeded stream (the values are
  exactly those of plain generation) and logs it;
* :class:`Replayer` feeds a given sequence back: a draw out of its new range is clamped, a
  draw of another kind or past the end of the sequence is the simplest of its kind;
* a source fed by Hypothesis's data, or a learner, implements the same four methods.

Both log a :class:`Tape`: the draws in order, and the **spans** -- which picker's
``pick()`` each draw happened inside, nested -- so that a list element, a sub-tree, an
action or a grammar derivation is visible as a contiguous block of draws. Inputs are
ordered **shortlex** on their tapes (:meth:`Tape.key`): fewer picks, then fewer draws,
then draw by draw in each draw's order. This is what the generic shrinker
(:mod:`synthia.engine`) edits and what the failure database stores.

>>> import synthia as sy
>>> lists = sy.ComposeList(sy.RandomInteger(0, 100), sy.RandomInteger(0, 4)).set_seed(1)
>>> value, tape = record(lists)
>>> value, tape.values()
([18, 79, 86], [3, 18, 79, 86])
>>> replay(lists, [1, 7])[0]      # length 1, then the element 7
[7]
>>> replay(lists, [3, 7])[0]      # past the end: the simplest draws
[7, 0, 0]
"""
from __future__ import annotations

import copy
import itertools
import math
import random
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TYPE_CHECKING, Any, Callable, Hashable, Iterable, Iterator, NamedTuple, Sequence

from .exceptions import GiveUp
from .graph import upstream
from .instrument import unwrap_one, wrap_one

if TYPE_CHECKING:  # pragma: no cover
    from .picker import Picker
    from .random import Stream

__all__ = [
    "INTEGER",
    "FLOAT",
    "BOOLEAN",
    "WEIGHTED",
    "KINDS",
    "Draw",
    "Flex",
    "Span",
    "Tape",
    "DrawSource",
    "Passthrough",
    "Recorder",
    "Replayer",
    "Route",
    "RoutedStream",
    "Overrun",
    "routed",
    "current_route",
    "set_current_route",
    "restore_current_route",
    "outer_source",
    "open_span",
    "record",
    "replay",
    "simplest",
    "clamp",
    "sort_key",
    "draw_key",
]

INTEGER = "integer"
FLOAT = "float"
BOOLEAN = "boolean"
WEIGHTED = "weighted"
#: The kinds of draws, in the order the JSON format documents them.
KINDS = (INTEGER, FLOAT, BOOLEAN, WEIGHTED)


class Draw(NamedTuple):
    """One typed draw: its ``kind``, its ``value`` and the ``args`` that bound it.

    ``args`` is ``(low, high)`` for ``"integer"`` and ``"float"`` (half-open), ``(p,)``
    for ``"boolean"`` and ``(cumulative,)`` (the running sums of the weights, a tuple)
    for ``"weighted"``. In a sequence given to :class:`Replayer`, ``kind`` may be
    ``None``: the value is then taken for whatever draw comes, clamped.

    >>> Draw(INTEGER, 3, (0, 10)).key
    (0, 5)
    """

    kind: str | None
    value: Any
    args: tuple[Any, ...] = ()

    @property
    def key(self) -> tuple[Any, ...]:
        """The draw's place in its kind's order (see :func:`sort_key`)."""
        return sort_key(self.kind, self.value)

    @property
    def simplest(self) -> Any:
        """The simplest value a draw of this kind and these arguments can take."""
        return simplest(self.kind, self.args)


class Flex(NamedTuple):
    """In a sequence given to :class:`Replayer`: the draws of the next span of picker ``label``.

    When the replay opens a span of that picker at this point, its draws come from
    ``draws`` (the simplest ones once they run out) and any left over when the span
    closes are dropped, so that what follows stays aligned. ``draws`` may hold ``Flex``
    blocks too, one per sub-span: each sub-span then takes exactly its own draws, so a
    span moved to a place where its parts draw more or less (a sub-tree moved up, above a
    depth limit's fallback) keeps its parts aligned. The shrinker uses it to replace a span
    by a simpler one (the simplest, a descendant, a sibling).
    """

    label: Hashable
    draws: tuple[Any, ...]


class Overrun(GiveUp):
    """A replay made more draws than its budget allows (it cannot be smaller than the input)."""


# -- the order of each kind --------------------------------------------------------------
def _integer_rank(value: int) -> int:
    return 2 * value - 1 if value > 0 else -2 * value


def sort_key(kind: str | None, value: Any) -> tuple[Any, ...]:
    """The key of ``value`` in the order of draws of ``kind`` (smaller: simpler).

    >>> [sort_key(INTEGER, v)[1] for v in (0, 1, -1, 2)]
    [0, 1, 2, 3]
    >>> sort_key(FLOAT, 3.0) < sort_key(FLOAT, 0.5) < sort_key(FLOAT, -0.5)
    True
    """
    if kind == FLOAT:
        if value != value:  # NaN: last
            return (2,)
        if math.isinf(value):
            return (1, math.inf, value < 0)
        if float(value).is_integer():
            return (0, _integer_rank(int(value)))
        return (1, abs(value), value < 0)
    if kind == INTEGER:
        return (0, _integer_rank(value))
    return (0, int(value))


def draw_key(draw: Draw) -> tuple[Any, ...]:
    """``sort_key(draw.kind, draw.value)``."""
    return sort_key(draw.kind, draw.value)


def _simplest_float(low: float, high: float) -> float:
    if low <= 0.0 < high:
        return 0.0
    if low > 0.0:
        above = math.ceil(low)
        return float(above) if above < high else low
    under = math.ceil(high) - 1  # the largest integer below high
    return float(under) if under >= low else math.nextafter(high, -math.inf)


def _simplest_index(cumulative: Sequence[float]) -> int:
    for i, c in enumerate(cumulative):
        if c > 0:
            return i
    return 0


def simplest(kind: str | None, args: tuple[Any, ...]) -> Any:
    """The simplest value of a draw of ``kind`` bound by ``args`` (its order's minimum).

    >>> simplest(INTEGER, (5, 10)), simplest(INTEGER, (-10, -3)), simplest(INTEGER, (-5, 5))
    (5, -4, 0)
    >>> simplest(FLOAT, (0.5, 10.0)), simplest(FLOAT, (0.25, 0.75)), simplest(BOOLEAN, (0.5,))
    (1.0, 0.25, False)
    """
    if kind == INTEGER:
        low, high = args
        return 0 if low <= 0 < high else (low if low > 0 else high - 1)
    if kind == FLOAT:
        return _simplest_float(*args)
    if kind == BOOLEAN:
        return args[0] >= 1.0
    if kind == WEIGHTED:
        return _simplest_index(args[0])
    raise ValueError(f"kind must be one of {KINDS}, got {kind!r}")


def _weight(cumulative: Sequence[float], i: int) -> float:
    return cumulative[i] - (cumulative[i - 1] if i else 0.0)


def clamp(kind: str, args: tuple[Any, ...], value: Any) -> tuple[Any, bool]:
    """``(v, changed)``: ``value`` brought into the domain of a ``kind`` draw bound by ``args``.

    A value of the wrong type becomes the simplest value; ``changed`` says whether the
    value had to move.

    >>> clamp(INTEGER, (0, 10), 12), clamp(INTEGER, (0, 10), 3), clamp(BOOLEAN, (0.0,), True)
    ((9, True), (3, False), (False, True))
    """
    if kind == INTEGER:
        low, high = args
        if isinstance(value, bool) or not isinstance(value, int):
            if isinstance(value, float) and value.is_integer():
                value = int(value)
            else:
                return simplest(kind, args), True
        if value < low:
            return low, True
        if value >= high:
            return high - 1, True
        return value, False
    if kind == FLOAT:
        low, high = args
        if isinstance(value, bool) or not isinstance(value, (int, float)) or value != value:
            return simplest(kind, args), True
        value = float(value)
        if value < low:
            return low, True
        if value >= high:
            return max(low, math.nextafter(high, -math.inf)), True
        return value, False
    if kind == BOOLEAN:
        p = args[0]
        forced = False if p <= 0.0 else (True if p >= 1.0 else None)
        if not isinstance(value, bool):
            return (simplest(kind, args) if forced is None else forced), True
        if forced is not None:
            return forced, value is not forced
        return value, False
    if kind == WEIGHTED:
        cumulative = args[0]
        n = len(cumulative)
        if isinstance(value, bool) or not isinstance(value, int):
            return _simplest_index(cumulative), True
        i = min(max(value, 0), n - 1)
        if _weight(cumulative, i) > 0:
            return i, i != value
        for j in list(range(i - 1, -1, -1)) + list(range(i + 1, n)):
            if _weight(cumulative, j) > 0:
                return j, True
        return _simplest_index(cumulative), True
    raise ValueError(f"kind must be one of {KINDS}, got {kind!r}")


# -- tapes ------------------------------------------------------------------------------
class Span:
    """The draws made inside one ``pick()`` of one picker: ``draws[start:end]`` of a tape.

    ``label`` names the picker (its position in the upstream walk of the routed wiring,
    the same in every process); ``index`` is that picker's output number (outputs are
    numbered in completion order, as provenance numbers them); ``parent`` is the position
    of the enclosing span in :attr:`Tape.spans` (``-1`` for a top-level one).
    """

    __slots__ = ("label", "start", "end", "parent", "depth", "index")

    def __init__(self, label: Hashable, start: int, parent: int, depth: int) -> None:
        self.label = label
        self.start = start
        self.end = start
        self.parent = parent
        self.depth = depth
        self.index = -1

    def __len__(self) -> int:
        return self.end - self.start

    def __repr__(self) -> str:
        return f"Span(label={self.label}, draws=[{self.start}:{self.end}], depth={self.depth}, index={self.index})"


class Tape:
    """The draws of one input, with their spans: what a recorder or a replayer logged.

    ``picks`` is the number of top-level picks the input took (a harness tests the last
    one; the earlier ones set the wiring's state, for stateful pickers such as ``Tick``);
    ``pick_starts[i]`` is the position of the first draw of pick ``i``.
    """

    __slots__ = ("draws", "spans", "picks", "pick_starts", "_key", "_children")

    def __init__(self, draws: Iterable[Draw] = (), spans: Iterable[Span] = (), picks: int = 1, pick_starts: Iterable[int] | None = None) -> None:
        self.draws: list[Draw] = list(draws)
        self.spans: list[Span] = list(spans)
        self.picks = picks
        self.pick_starts: list[int] = list(pick_starts) if pick_starts is not None else [0] * (1 if picks else 0)
        self._key: tuple[Any, ...] | None = None
        self._children: dict[int, list[int]] | None = None

    def values(self) -> list[Any]:
        """The values of the draws, in order."""
        return [d.value for d in self.draws]

    def key(self) -> tuple[Any, ...]:
        """The shortlex key: ``(picks, number of draws, each draw's key in order)``."""
        if self._key is None:
            self._key = (self.picks, len(self.draws), tuple([sort_key(d.kind, d.value) for d in self.draws]))
        return self._key

    def __len__(self) -> int:
        return len(self.draws)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Tape) and self.picks == other.picks and [(d.kind, d.value) for d in self.draws] == [
            (d.kind, d.value) for d in other.draws
        ]

    def __hash__(self) -> int:
        return hash((self.picks, tuple((d.kind, d.value) for d in self.draws)))

    def __repr__(self) -> str:
        shown = ", ".join(f"{d.kind}:{d.value!r}" for d in self.draws[:12])
        more = f", ... {len(self.draws) - 12} more" if len(self.draws) > 12 else ""
        return f"Tape(picks={self.picks}, draws=[{shown}{more}])"

    def last_pick(self) -> "Tape":
        """The draws of the last pick alone, as a one-pick tape (spans dropped)."""
        start = self.pick_starts[-1] if self.pick_starts else 0
        return Tape(self.draws[start:], (), 1, [0])

    def direct_draws(self, span_position: int) -> list[int]:
        """Positions of the draws made by span ``span_position`` itself, not by its children."""
        span = self.spans[span_position]
        inside = set(range(span.start, span.end))
        for child in self.children(span_position):
            inside.difference_update(range(self.spans[child].start, self.spans[child].end))
        return sorted(inside)

    def children(self, span_position: int) -> list[int]:
        """Positions (in :attr:`spans`) of the spans directly inside span ``span_position``
        (``-1``: the top-level spans), in order."""
        if self._children is None:
            children: dict[int, list[int]] = {}
            for i, span in enumerate(self.spans):
                children.setdefault(span.parent, []).append(i)
            self._children = children
        return self._children.get(span_position, [])

    # -- JSON ------------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict: ``{"picks": n, "draws": [[kind, value, *args], ...]}``.

        Weighted draws store their running sums as a list. Spans are not stored: a
        replay through the wiring rebuilds them.
        """
        out = []
        for d in self.draws:
            if d.kind == WEIGHTED:
                out.append([d.kind, d.value, list(d.args[0])])
            else:
                out.append([d.kind, d.value, *d.args])
        return {"picks": self.picks, "pick_starts": list(self.pick_starts), "draws": out}

    @classmethod
    def from_json(cls, data: Any) -> "Tape":
        """The tape that :meth:`to_json` wrote; ``ValueError`` for anything malformed."""
        if not isinstance(data, dict) or not isinstance(data.get("draws"), list):
            raise ValueError(f"a tape must be a dict with a list of draws, got {data!r:.80}")
        picks = data.get("picks", 1)
        if isinstance(picks, bool) or not isinstance(picks, int) or picks < 1:
            raise ValueError(f"picks must be a positive int, got {picks!r}")
        if picks > len(data["draws"]) + MAX_EMPTY_PICKS:  # a tape no run could have written
            raise ValueError(f"{picks} picks for {len(data['draws'])} draws is more than a tape holds")
        draws = []
        for item in data["draws"]:
            if not isinstance(item, list) or len(item) < 3 or item[0] not in KINDS:
                raise ValueError(f"a draw must be [kind, value, *args] with kind in {KINDS}, got {item!r:.80}")
            kind, value, *args = item
            if kind == WEIGHTED:
                if len(args) != 1 or not isinstance(args[0], list) or not args[0]:
                    raise ValueError(f"a weighted draw needs its running sums, got {item!r:.80}")
                draws.append(Draw(kind, value, (tuple(float(c) for c in args[0]),)))
                continue
            expected = 1 if kind == BOOLEAN else 2
            if len(args) != expected or not all(isinstance(a, (int, float)) and not isinstance(a, bool) for a in args):
                raise ValueError(f"a {kind} draw needs {expected} numeric arguments, got {item!r:.80}")
            draws.append(Draw(kind, value, tuple(args)))
        starts = data.get("pick_starts")
        if not (isinstance(starts, list) and len(starts) == picks and all(isinstance(s, int) for s in starts)):
            starts = [0] * picks
        return cls(draws, (), picks, starts)


#: Picks without draws a tape read from JSON may have (pickers that draw nothing); beyond
#: this, a tape is not one a run wrote, and replaying it would not end in reasonable time.
MAX_EMPTY_PICKS = 10_000


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

    def close_span(self) -> None:
        """The innermost open ``pick()`` ends (normally or by an exception)."""

    def begin_pick(self) -> None:
        """A top-level pick begins (called by whoever drives the wiring)."""

    def observe(self, kind: str, args: tuple[Any, ...], value: Any) -> None:
        """A source routed inside this one chose ``value`` for a draw by itself (default: ignore)."""


def open_span(stream: "Stream | RoutedStream", label: Any) -> DrawSource | None:
    """Open a span for a part of a picker's own pick (a grammar derivation, a sub-tree).

    When ``stream`` is routed, the span opens on its source, which is returned: the picker
    calls its ``close_span()`` when the part ends (in a ``finally``). Otherwise nothing
    happens and ``None`` is returned, so plain generation pays one type check. ``label``
    names the kind of part (any hashable but an ``int``: ints name pickers), so that the
    shrinker can replace a part by a smaller one of the same kind. When routes nest (a
    guided wiring inside a recording), the span opens on the source of every route.
    """
    if isinstance(stream, RoutedStream):
        source = stream.route.source
        source.open_span(label)
        if not isinstance(stream.inner, RoutedStream):
            return source
        sources = [source]
        inner: Any = stream.inner
        while isinstance(inner, RoutedStream):
            inner.route.source.open_span(label)
            sources.append(inner.route.source)
            inner = inner.inner
        return _Spans(sources)
    return None


class _Spans(DrawSource):
    """The sources a part's span opened on, when routes nest: closing closes them all."""

    def __init__(self, sources: list[DrawSource]) -> None:
        self.sources = sources

    def close_span(self) -> None:
        for source in reversed(self.sources):
            source.close_span()


def outer_source(stream: "Stream | RoutedStream") -> DrawSource | None:
    """The source behind ``stream`` when it is routed (the outer route of a nested one), else ``None``.

    >>> outer_source(__import__("synthia").core.random.Stream(1)) is None
    True
    """
    return stream.route.source if isinstance(stream, RoutedStream) else None


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

    def _log(self, kind: str, args: tuple[Any, ...], value: Any) -> Any:
        self.draws.append(Draw(kind, value, args))
        return value

    def observe(self, kind: str, args: tuple[Any, ...], value: Any) -> None:
        self._log(kind, args, value)

    def open_span(self, label: Hashable) -> None:
        stack = self._stack
        self.spans.append(Span(label, len(self.draws), stack[-1] if stack else -1, len(stack)))
        stack.append(len(self.spans) - 1)

    def close_span(self) -> None:
        span = self.spans[self._stack.pop()]
        span.end = len(self.draws)
        span.index = self._closed.get(span.label, 0)
        self._closed[span.label] = span.index + 1

    def begin_pick(self) -> None:
        self.pick_starts.append(len(self.draws))

    @property
    def tape(self) -> Tape:
        """What was drawn so far, as a tape (spans still open are cut at the current end)."""
        for i in self._stack:
            self.spans[i].end = len(self.draws)
        picks = max(len(self.pick_starts), 1)
        starts = self.pick_starts or [0]
        return Tape(self.draws, self.spans, picks, starts)


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
    simplest of its kind. After ``max_draws`` draws the replay raises :class:`Overrun`.
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

    @property
    def fits(self) -> bool:
        """True when every given draw was used, unchanged and of the kind asked, and no more."""
        return self.misfits == 0 and self.extended == 0 and self._position >= len(self._main) and not self.overran

    @property
    def unused(self) -> int:
        """Entries of the sequence never reached."""
        return max(0, len(self._main) - self._position)

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
        if self.max_draws is not None and len(self.draws) >= self.max_draws:
            self.overran = True
            raise Overrun(f"the replay made more than {self.max_draws} draws")
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
            value = simplest(kind, args)
        elif entry.kind is not None and entry.kind != kind:
            self.misfits += 1
            value = simplest(kind, args)
        else:
            value, changed = clamp(kind, args, entry.value)
            if changed:
                self.misfits += 1
        return self._log(kind, args, value)

    def integer(self, stream: "Stream", low: int, high: int) -> int:
        return self._next(INTEGER, (low, high))

    def floating(self, stream: "Stream", low: float, high: float) -> float:
        return self._next(FLOAT, (low, high))

    def boolean(self, stream: "Stream", p: float) -> bool:
        return self._next(BOOLEAN, (p,))

    def weighted(self, stream: "Stream", cumulative: Sequence[float]) -> int:
        return self._next(WEIGHTED, (tuple(cumulative),))


# -- routing ------------------------------------------------------------------------------
_SERIALS = itertools.count(random.SystemRandom().getrandbits(60))


class Route:
    """The switch every routed stream reads: ``source`` is where draws go now.

    Swapping ``route.source`` redirects a whole routed wiring at once (a harness gives
    each replay its own :class:`Replayer`); when the :func:`routed` block ends the
    source becomes :class:`Passthrough`, so a picker that outlives the block (a ``Knit``
    instance) draws from its own stream again.
    """

    __slots__ = ("source", "previous", "ended", "serial")

    def __init__(self, source: DrawSource) -> None:
        self.source = source
        #: The route that was current when this one's block began, and whether the block ended.
        self.previous: Route | None = None
        self.ended = False
        #: A number no other route of this process has (from a random start, so that a number
        #: kept in a copy shipped to another process names none of its routes): what a
        #: ``Bind`` remembers of the routes a kept wiring was put on.
        self.serial = next(_SERIALS)


class RoutedStream:
    """A picker's stream while it is routed: the typed draws go to ``route.source``.

    It has the methods of :class:`~synthia.core.random.Stream`; the picker's own seeded
    stream stays inside (``inner``), reseeded and reset as usual, for sources that use it.
    """

    __slots__ = ("inner", "route")

    def __init__(self, inner: "Stream | RoutedStream", route: Route) -> None:
        self.inner = inner
        self.route = route

    def below(self, n: int) -> int:
        return self.route.source.integer(self.inner, 0, n)  # type: ignore[arg-type]

    def integer(self, low: int, high: int) -> int:
        return self.route.source.integer(self.inner, low, high)  # type: ignore[arg-type]

    def unit(self) -> float:
        return self.route.source.floating(self.inner, 0.0, 1.0)  # type: ignore[arg-type]

    def floating(self, low: float, high: float) -> float:
        return self.route.source.floating(self.inner, low, high)  # type: ignore[arg-type]

    def boolean(self, p: float) -> bool:
        return self.route.source.boolean(self.inner, p)  # type: ignore[arg-type]

    def weighted(self, cumulative: Sequence[float]) -> int:
        return self.route.source.weighted(self.inner, cumulative)  # type: ignore[arg-type]

    def integer_by(self, low: int, high: int, sample: Callable[["Stream"], int]) -> int:
        return self.route.source.integer_by(self.inner, low, high, sample)  # type: ignore[arg-type]

    def floating_by(self, low: float, high: float, sample: Callable[["Stream"], float]) -> float:
        return self.route.source.floating_by(self.inner, low, high, sample)  # type: ignore[arg-type]

    def integer_sampler(self, low: int, high: int) -> Callable[[], int]:
        route, inner = self.route, self.inner
        return lambda: route.source.integer(inner, low, high)  # type: ignore[arg-type]

    def floating_sampler(self, low: float, high: float) -> Callable[[], float]:
        route, inner = self.route, self.inner
        return lambda: route.source.floating(inner, low, high)  # type: ignore[arg-type]

    def boolean_sampler(self, p: float) -> Callable[[], bool]:
        route, inner = self.route, self.inner
        return lambda: route.source.boolean(inner, p)  # type: ignore[arg-type]

    # The primitive calls of random.Random, for pickers written against them: typed too.
    def random(self) -> float:
        return self.unit()

    def getrandbits(self, k: int) -> int:
        return self.integer(0, 1 << k)

    def seed(self, seed: Any = None) -> None:
        self.inner.seed(seed)

    def getstate(self) -> Any:
        return self.inner.getstate()

    def setstate(self, state: Any) -> None:
        self.inner.setstate(state)

    def __deepcopy__(self, memo: dict[int, Any]) -> "RoutedStream":
        # A copy made while routed (a duplicate inside a pick) stays on the same route.
        return RoutedStream(copy.deepcopy(self.inner, memo), self.route)


_ROUTE: ContextVar[Route | None] = ContextVar("synthia_route", default=None)


def current_route() -> Route | None:
    """The route of the innermost active :func:`routed` block (``None`` outside any)."""
    return _ROUTE.get()


def set_current_route(route: Route) -> Any:
    """Make ``route`` the one pickers created from now on join (as inside :func:`routed`),
    without rerouting any existing picker; returns the token :func:`restore_current_route`
    takes. A source that keeps a wiring routed for good (a guided picker) calls it around
    each pick, so that pickers made inside the pick (a ``Bind``'s inner picker) join it.

    >>> route = Route(PASSTHROUGH)
    >>> token = set_current_route(route); current_route() is route
    True
    >>> restore_current_route(token); current_route() is None
    True
    """
    return _ROUTE.set(route)


def restore_current_route(token: Any) -> None:
    """Undo :func:`set_current_route` (the route current before it is current again)."""
    _ROUTE.reset(token)


def _roots(roots: "Picker[Any] | Sequence[Picker[Any]]") -> list["Picker[Any]"]:
    from .picker import Picker

    return [roots] if isinstance(roots, Picker) else list(roots)


@contextmanager
def routed(roots: "Picker[Any] | Sequence[Picker[Any]]", source: DrawSource, *, spans: bool = True) -> Iterator[Route]:
    """Send every typed draw of the wirings ``roots`` to ``source`` while the block runs.

    Random pickers created inside the block (``Knit`` instances, the inner picker of a
    dependent wiring) are routed too. With ``spans`` (the default) every ``pick()`` of a
    picker of the wiring opens and closes a span on the source, labelled by the picker's
    position in the upstream walk. Yields the :class:`Route`, whose ``source`` may be
    swapped while the block runs.
    """
    from .picker import Seedable

    route = Route(source)
    nodes: list[Picker[Any]] = []
    seen: set[int] = set()
    for root in _roots(roots):
        for _, node in upstream(root):
            if id(node) not in seen:
                seen.add(id(node))
                nodes.append(node)
    streams: list[tuple[Picker[Any], Any]] = []
    for node in nodes:
        if isinstance(node, Seedable) and "_stream" in node.__dict__:
            current = node.__dict__["_stream"]
            if isinstance(current, RoutedStream) and current.route.source is source:
                continue  # made inside a block routed to the same source: routed already
            streams.append((node, node._stream))
            node._stream = RoutedStream(node._stream, route)  # type: ignore[assignment]
            node._bind()
    tokens: list[tuple[Picker[Any], Any]] = []
    if spans:
        for label, node in enumerate(nodes):
            tokens.append((node, wrap_one(node, _spanning(route, label))))
    route.previous = _ROUTE.get()
    _ROUTE.set(route)
    try:
        yield route
    finally:
        # Blocks may end out of order (a replay session opened inside a discovery block and
        # closed after it): the current route becomes the innermost one still open.
        route.ended = True
        if _ROUTE.get() is route:
            previous = route.previous
            while previous is not None and previous.ended:
                previous = previous.previous
            _ROUTE.set(previous)
        for node, wrapped in reversed(tokens):
            unwrap_one(node, wrapped)
        # Upstream pickers first, so that a compiled picker rebinding last finds its wiring
        # as it was and keeps its generated function.
        for node, stream in reversed(streams):
            seedable: Any = node
            seedable._stream = stream
            seedable._bind()
        route.source = PASSTHROUGH


def _spanning(route: Route, label: int) -> Callable[["Picker[Any]", Callable[[], Any]], Callable[[], Any]]:
    def make(picker: "Picker[Any]", pick: Callable[[], Any]) -> Callable[[], Any]:
        def spanned() -> Any:
            source = route.source
            source.open_span(label)
            try:
                return pick()
            finally:
                source.close_span()

        return spanned

    return make


def record(picker: "Picker[Any]", picks: int = 1) -> tuple[Any, Tape]:
    """Pick ``picks`` times from ``picker`` (in its current state), recording every draw.

    Returns the last value and the :class:`Tape`. The values are those plain picks
    would have given.

    >>> import synthia as sy
    >>> value, tape = record(sy.RandomInteger(0, 10, seed=1))
    >>> value, tape.draws
    (4, [Draw(kind='integer', value=4, args=(0, 10))])
    """
    recorder = Recorder()
    return _drive(picker, recorder, picks), recorder.tape


def replay(
    picker: "Picker[Any]", draws: "Tape | Iterable[Any]", *, reset: bool = True, max_draws: int | None = None, spans: bool = True
) -> tuple[Any, Tape]:
    """Pick from ``picker`` with its draws taken from ``draws``; return the last value and the tape.

    ``draws`` is a :class:`Tape` (its ``picks`` picks are replayed), or a sequence of
    :class:`Draw`, :class:`Flex` or plain values (one pick). The wiring is reset first
    unless ``reset=False``. The returned tape is what was really drawn: replaying it
    again gives the same value. ``spans=False`` leaves the tape without spans, and the
    replay costs less (no picker's pick is wrapped).
    """
    picks = draws.picks if isinstance(draws, Tape) else 1
    entries = draws.draws if isinstance(draws, Tape) else list(draws)
    replayer = Replayer(entries, max_draws)
    if reset:
        picker.reset()
    return _drive(picker, replayer, picks, spans), replayer.tape


def _drive(picker: "Picker[Any]", source: DrawSource, picks: int, spans: bool = True) -> Any:
    """Pick ``picks`` times with the wiring routed to ``source``; the last value."""
    value = None
    with routed(picker, source, spans=spans):
        for _ in range(picks):
            source.begin_pick()
            value = picker.pick()
    return value
