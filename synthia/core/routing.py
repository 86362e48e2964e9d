"""Routing: while :func:`routed` is active, every random picker of a wiring (and every one
created inside the block) sends its typed draws to one :class:`~synthia.core.sources.DrawSource`
instead of its own stream. This module is the one way anything outside the core puts a
picker on a source or reads which source it is on: :func:`routed` (a block),
:func:`stream_behind` and :func:`put_stream` (a source kept on a wiring for good, as a
guided picker's learner or a ``Bind``'s kept wirings), :func:`open_span` (a part of a pick).

>>> import synthia as sy
>>> from synthia.core.sources import Recorder
>>> numbers = sy.RandomInteger(0, 10, seed=1)
>>> recorder = Recorder()
>>> with routed(numbers, recorder):
...     value = numbers.pick()
>>> value, recorder.tape.values(), type(numbers.stream).__name__
(4, [4], 'Stream')
"""
from __future__ import annotations

import copy
import itertools
import random
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator, Sequence

from .checks import check_bool, check_count, check_picker, check_values
from .graph import upstream
from .instrument import unwrap_one, wrap_one
from .sources import PASSTHROUGH, DrawSource, Recorder, Replayer
from .tapes import Tape

if TYPE_CHECKING:  # pragma: no cover
    from .picker import Picker
    from .random import Stream

__all__ = [
    "Route",
    "RoutedStream",
    "routed",
    "current_route",
    "set_current_route",
    "restore_current_route",
    "stream_of",
    "stream_behind",
    "put_stream",
    "outer_source",
    "open_span",
    "record",
    "replay",
]


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


def stream_of(picker: "Picker[Any]") -> Any:
    """The stream ``picker`` draws from now (routed or its own), or ``None`` for a picker that
    owns no stream (it draws through its inputs).

    >>> import synthia as sy
    >>> stream_of(sy.RandomInteger(0, 3, seed=1)) is not None, stream_of(sy.Constant(3))
    (True, None)
    """
    return getattr(picker, "_stream", None)  # not __dict__: see core.instrument.instance_pick


def stream_behind(picker: "Picker[Any]") -> Any:
    """The stream ``picker`` owns, behind the routes it is on (``None`` if it owns none)."""
    stream = picker.__dict__.get("_stream")
    while isinstance(stream, RoutedStream):
        stream = stream.inner
    return stream


def put_stream(picker: "Picker[Any]", stream: Any) -> None:
    """Make ``stream`` what ``picker`` draws from (a source kept on it for good: routes of its
    own, a learner's stream), until the next :func:`put_stream`; the picker's cached draws
    follow (``_bind``).

    >>> import synthia as sy
    >>> numbers = sy.RandomInteger(0, 10, seed=1)
    >>> own = stream_of(numbers)
    >>> put_stream(numbers, RoutedStream(own, Route(Replayer([7])))); numbers.pick()
    7
    >>> put_stream(numbers, own); numbers.pick() in range(10)
    True
    """
    picker.__dict__["_stream"] = stream
    picker._bind()  # type: ignore[attr-defined]


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
    check_picker(picker, "picker")
    picks = check_count(picks, "picks")
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
    check_picker(picker, "picker")
    picks = draws.picks if isinstance(draws, Tape) else 1
    entries = draws.draws if isinstance(draws, Tape) else check_values(draws, "draws")
    if max_draws is not None:
        max_draws = check_count(max_draws, "max_draws")
    check_bool(reset, "reset")
    check_bool(spans, "spans")
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
