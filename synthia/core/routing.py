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
from typing import Any, Callable, Hashable, Iterable, Iterator, Sequence

from .checks import check_bool, check_count, check_picker, check_values
from .graph import upstream
from .instrument import WATCHED, unwrap_one, wrap_one
from .picker import Picker, Seedable, described
from .random import ROUTE, Stream
from .sources import NOT_RECALLED, PASSTHROUGH, DrawSource, Recorder, Replayer
from .tapes import Tape

__all__ = [
    "Route",
    "RoutedStream",
    "routed",
    "current_route",
    "set_current_route",
    "restore_current_route",
    "leave_routes",
    "outside_routes",
    "stream_of",
    "stream_behind",
    "put_stream",
    "live_stream",
    "is_routed",
    "route_key",
    "follow_routes",
    "keep_routed",
    "release_routes",
    "drawing_from",
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

    def join(self, stream: Any) -> "RoutedStream":
        """``stream`` on this route (a picker made while the route is current joins it)."""
        return RoutedStream(stream, self)


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

    def own(self) -> Any:
        """The picker's own stream, behind every route it is on."""
        return self.inner.own()

    def rebase(self, own: Any) -> "RoutedStream":
        """This routed stream with ``own`` behind its routes (in place: a block that ends
        puts back this object, which then holds ``own``)."""
        self.inner = self.inner.rebase(own)
        return self

    def getstate(self) -> Any:
        return self.inner.getstate()

    def setstate(self, state: Any) -> None:
        self.inner.setstate(state)

    def __deepcopy__(self, memo: dict[int, Any]) -> "RoutedStream":
        # A copy made while routed (a duplicate inside a pick) stays on the same route.
        return RoutedStream(copy.deepcopy(self.inner, memo), self.route)


def current_route() -> Route | None:
    """The route of the innermost active :func:`routed` block (``None`` outside any)."""
    return ROUTE.get()  # type: ignore[no-any-return]


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
    return ROUTE.set(route)


def restore_current_route(token: Any) -> None:
    """Undo :func:`set_current_route` (the route current before it is current again)."""
    ROUTE.reset(token)


def leave_routes() -> Any:
    """Make no route current: pickers created from now on draw from their own streams (a
    test's body, a run inside another run's test); returns the token
    :func:`restore_current_route` takes. The routes of existing pickers are kept.

    >>> import synthia as sy
    >>> with routed(sy.RandomInteger(0, 9), Replayer([3])):
    ...     token = leave_routes()
    ...     built_inside = sy.RandomInteger(0, 9)
    ...     restore_current_route(token)
    >>> stream_of(built_inside).__class__.__name__
    'Stream'
    """
    return ROUTE.set(None)


@contextmanager
def outside_routes() -> Iterator[None]:
    """While the block runs, no route is current (:func:`leave_routes`): a run made inside
    another run's test -- a ``find`` in a ``@given`` test's body -- routes only its own
    copies, and a picker built in it joins none of the outer run's routes."""
    if ROUTE.get() is None:  # (nothing to leave: the context is not touched, which the hot path would pay for)
        yield
        return
    token = ROUTE.set(None)
    try:
        yield
    finally:
        ROUTE.reset(token)


def stream_of(picker: "Picker[Any]") -> Any:
    """The stream ``picker`` draws from now (routed or its own), or ``None`` for a picker that
    owns no stream (it draws through its inputs).

    >>> import synthia as sy
    >>> stream_of(sy.RandomInteger(0, 3, seed=1)) is not None, stream_of(sy.Constant(3))
    (True, None)
    """
    return getattr(picker, "_stream", None)  # (not __dict__: reading it slows the object's attributes)


def stream_behind(picker: "Picker[Any]") -> Any:
    """The stream ``picker`` owns, behind the routes it is on (``None`` if it owns none).

    >>> import synthia as sy
    >>> numbers = sy.RandomInteger(0, 3, seed=1)
    >>> with routed(numbers, Recorder()):
    ...     stream_behind(numbers) is not stream_of(numbers)
    True
    """
    stream = getattr(picker, "_stream", None)
    return None if stream is None else stream.own()


def live_stream(picker: "Picker[Any]") -> Stream | None:
    """The stream ``picker`` draws from when it draws from its own stream directly: ``None``
    while it is routed (its draws go to a source) or when it owns no stream. What fused code
    may read the draws of (:mod:`synthia.core.emitter`).

    >>> import synthia as sy
    >>> numbers = sy.RandomInteger(0, 3, seed=1)
    >>> live_stream(numbers) is stream_of(numbers), live_stream(sy.Constant(1))
    (True, None)
    """
    stream = getattr(picker, "_stream", None)
    return None if stream is None or isinstance(stream, RoutedStream) else stream


def is_routed(stream: Any) -> bool:
    """Whether ``stream`` (a picker's, as :func:`stream_of` gives it) sends its draws to a source.

    >>> from synthia.core.random import Stream
    >>> is_routed(Stream(1)), is_routed(Route(Recorder()).join(Stream(1)))
    (False, True)
    """
    return isinstance(stream, RoutedStream)


def route_key(picker: "Picker[Any]") -> tuple[int, ...]:
    """The routes ``picker`` is on right now, as numbers (outermost first; ``()`` when it is
    on none or owns no stream): two pickers with equal keys draw through the same sources.

    >>> import synthia as sy
    >>> numbers = sy.RandomInteger(0, 3, seed=1)
    >>> route_key(numbers)
    ()
    >>> with routed(numbers, Recorder()) as route:
    ...     route_key(numbers) == (route.serial,)
    True
    """
    stream = getattr(picker, "_stream", None)
    key = []
    while isinstance(stream, RoutedStream):
        key.append(stream.route.serial)
        stream = stream.inner
    return tuple(key)


def follow_routes(wiring: "Picker[Any]", like: "Picker[Any]") -> None:
    """Put every random picker of ``wiring`` on the routes ``like`` is on (its own stream
    behind them), or on its own stream again when ``like`` is on none: a wiring kept by a
    picker (a ``Bind``'s) draws through its keeper's sources.

    >>> import synthia as sy
    >>> keeper, kept = sy.RandomInteger(0, 3, seed=1), sy.RandomInteger(0, 9, seed=2)
    >>> with routed(keeper, Replayer([7])):
    ...     follow_routes(kept, keeper)
    ...     kept.pick()
    7
    >>> follow_routes(kept, keeper); route_key(kept)
    ()
    """
    routes = []
    stream = getattr(like, "_stream", None)
    while isinstance(stream, RoutedStream):
        routes.append(stream.route)
        stream = stream.inner
    for _, node in upstream(wiring):
        own = stream_behind(node)
        if own is not None:
            for route in reversed(routes):
                own = RoutedStream(own, route)
            put_stream(node, own)


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
    seedable: Any = picker
    seedable._stream = stream
    seedable._bind()


def keep_routed(
    wiring: "Picker[Any]", route: Route, stream: Callable[[Any, Route, "Picker[Any]", int], Any] | None = None
) -> list[tuple["Picker[Any]", Any]]:
    """Put every random picker of ``wiring`` on ``route`` for good (a guided picker's learner):
    its draws go to ``route.source`` -- :data:`PASSTHROUGH`, its own stream, until a
    :func:`drawing_from` block names another source. ``stream(own, route, picker, label)``
    makes each picker's routed stream (a :class:`RoutedStream` by default; a source may keep
    its own subclass, as the learner does); ``label`` is the picker's position in the walk.
    Returns what :func:`release_routes` takes to put the pickers back on their streams.

    >>> import synthia as sy
    >>> numbers = sy.RandomInteger(0, 10, seed=1)
    >>> route = Route(PASSTHROUGH)
    >>> kept = keep_routed(numbers, route)
    >>> with drawing_from(route, Replayer([7])):
    ...     numbers.pick()
    7
    >>> numbers.pick() in range(10), route_key(numbers) == (route.serial,)
    (True, True)
    >>> release_routes(kept); route_key(numbers)
    ()
    """
    kept: list[tuple[Picker[Any], Any]] = []
    for label, (_, node) in enumerate(upstream(wiring)):
        current = stream_of(node)
        if current is not None:
            put_stream(node, RoutedStream(current, route) if stream is None else stream(current, route, node, label))
            kept.append((node, current))
    return kept


def release_routes(kept: list[tuple["Picker[Any]", Any]]) -> None:
    """Undo :func:`keep_routed`: each picker draws from the stream it had before."""
    for node, stream in reversed(kept):
        put_stream(node, stream)


@contextmanager
def drawing_from(route: Route, source: DrawSource, spans: Sequence[tuple["Picker[Any]", Hashable]] = ()) -> Iterator[Route]:
    """While the block runs, the draws on ``route`` (kept by :func:`keep_routed`) go to
    ``source``, pickers made in the block join the route, and each pick of a picker of
    ``spans`` (``(picker, label)`` pairs) opens a span labelled ``label`` on the source."""
    route.source = source
    token = ROUTE.set(route)
    watched = [(node, wrap_one(node, _spanning(route, label))) for node, label in spans]
    try:
        yield route
    finally:
        for node, wrapped in reversed(watched):
            unwrap_one(node, wrapped)
        route.source = PASSTHROUGH
        ROUTE.reset(token)


def _roots(roots: "Picker[Any] | Sequence[Picker[Any]]") -> list["Picker[Any]"]:
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
    route = Route(source)
    nodes: list[Picker[Any]] = []
    seen: set[int] = set()
    chosen: set[int] = set()  # constant alternatives after a Choice's first (see _spanning)
    for root in _roots(roots):
        for key, node in upstream(root):
            if id(node) not in seen:
                seen.add(id(node))
                nodes.append(node)
                if node.pure and _later_alternative(key):
                    chosen.add(id(node))
    streams: list[tuple[Picker[Any], Any]] = []
    for node in nodes:
        current = getattr(node, "_stream", None) if isinstance(node, Seedable) else None
        if current is not None:
            if isinstance(current, RoutedStream) and current.route.source is source:
                continue  # made inside a block routed to the same source: routed already
            streams.append((node, current))
            put_stream(node, RoutedStream(current, route))
    tokens: list[tuple[Picker[Any], Any]] = []
    if spans:
        for label, node in enumerate(nodes):
            tokens.append((node, wrap_one(node, _spanning(route, label, id(node) in chosen))))
    route.previous = ROUTE.get()
    ROUTE.set(route)
    try:
        yield route
    finally:
        # Blocks may end out of order (a replay session opened inside a discovery block and
        # closed after it): the current route becomes the innermost one still open.
        route.ended = True
        if ROUTE.get() is route:
            previous = route.previous
            while previous is not None and previous.ended:
                previous = previous.previous
            ROUTE.set(previous)
        for node, wrapped in reversed(tokens):
            unwrap_one(node, wrapped)
        # Upstream pickers first, so that a compiled picker rebinding last finds its wiring
        # as it was and keeps its generated function.
        for node, stream in reversed(streams):
            put_stream(node, stream)
        route.source = PASSTHROUGH


def _later_alternative(key: str) -> bool:
    """Whether the picker at ``key`` of the upstream walk is an alternative of a ``Choice``
    after its first. Such an alternative that draws nothing (a constant) is one choice of its
    own when chosen (an empty atom in :meth:`~synthia.core.tapes.Tape.key`), as the value of
    an earlier alternative that draws is, so that of two alternatives making one value the
    earlier is the simpler (a text beside ``"xyzzy-plover"`` makes ``"xyzzy"``). A first
    alternative needs no such count: no earlier one can make its value (``None`` ending a tree
    stays the fewest choices)."""
    name = key.rpartition("/")[2]
    return name.startswith("alternatives[") and name != "alternatives[0]"


def _spanning(route: Route, label: Hashable, empty_choice: bool = False) -> Callable[["Picker[Any]", Callable[[], Any]], Callable[[], Any]]:
    def make(picker: "Picker[Any]", pick: Callable[[], Any]) -> Callable[[], Any]:
        if picker.atomic and not empty_choice:
            parts = _made_by_draws(picker)

            def atom() -> Any:
                source = route.source
                if parts is not None:  # the value is a function of the draws: a replay may recall it
                    fingerprint = (picker, tuple([described(part).args for part in parts]))  # type: ignore[union-attr]
                    value = source.recall(fingerprint)
                    if value is not NOT_RECALLED:
                        return value
                source.open_atom(label)
                try:
                    value = pick()
                finally:
                    source.close_span()
                if parts is not None:
                    source.remember(fingerprint, value)
                return value

            return atom

        def spanned() -> Any:
            source = route.source
            if empty_choice:  # a constant alternative: its span is an atom, one choice though it draws nothing
                source.open_atom(label)
            else:
                source.open_span(label)
            try:
                return pick()
            finally:
                source.close_span()

        return spanned

    return make


def pick_in_parts(stream: "Stream | RoutedStream", picker: "Picker[Any]", prefix: Hashable) -> Any:
    """``picker.pick()``, where ``picker`` was built inside the pick of another (a ``Bind``'s
    ``fn``): while its draws are routed with spans, each picker of its wiring that nothing
    watches yet opens a span too, labelled ``(prefix, position in the walk, class name)``, so
    that its parts (list elements, sub-trees, alternatives) are parts the shrinker can delete,
    swap and replace, as in a wiring built once. Off any route, a plain pick."""
    if not isinstance(stream, RoutedStream) or stream.route.source is PASSTHROUGH or not WATCHED:
        return picker.pick()
    route = stream.route
    tokens = []
    for position, (key, node) in enumerate(upstream(picker)):
        if id(node) not in WATCHED:
            empty_choice = node.pure and _later_alternative(key)
            tokens.append((node, wrap_one(node, _spanning(route, (prefix, position, type(node).__name__), empty_choice))))
    try:
        return picker.pick()
    finally:
        for node, token in reversed(tokens):
            unwrap_one(node, token)


def _made_by_draws(picker: "Picker[Any]") -> "list[Picker[Any]] | None":
    """The leaves upstream of an atomic picker when its value is a function of its draws and
    their ranges alone (every picker upstream of it describes its one draw, or is pure), else
    ``None``: a replay may then recall its value from an earlier replay of the same draws."""
    parts = []
    for _, node in upstream(picker):
        if node is not picker:
            if described(node) is not None:
                parts.append(node)
            elif not node.pure:
                return None
    return parts


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
