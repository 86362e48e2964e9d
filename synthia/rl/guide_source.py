"""The learner as a source of draws: each typed draw of a guided wiring asks RLCheck's learner.

:class:`GuideSource` is one more :class:`~synthia.core.draws.DrawSource` behind the streams of
a guided wiring (:class:`~synthia.rl.guided.GuidedPicker` keeps the wiring on its route with
:func:`~synthia.core.routing.keep_routed`): an integer, a boolean, a weighted index or a float
(in ``float_buckets`` equal buckets) is a *choice point* whose action the learner
(:class:`~synthia.rl.learning.Guide`) decides in the current abstract state. The held
samplers of the wiring's leaves go straight to it (:class:`GuidedStream`).

>>> import synthia as sy
>>> g = sy.guided(sy.RandomInteger(0, 4), seed=1)
>>> type(g.source).__name__, g.source.window
('GuideSource', 4)
"""
from __future__ import annotations

import hashlib
import pickle
from typing import Any, Callable, Hashable, Sequence

from ..core.checks import cumulative
from ..core.draws import BOOLEAN, FLOAT, INTEGER, PASSTHROUGH, WEIGHTED, DrawSource, Route, RoutedStream, current_route
from ..core.graph import edges, upstream
from ..core.picker import Picker
from ..pickers.basic import Choice
from ..pickers.scalars import RandomFloat
from .learning import Guide, explored, greedy

__all__ = ["GuideSource", "GuidedStream", "decisions_of", "stable_repr", "digest", "CHOICE", "NEW"]

INF = float("inf")

#: The choice point of a picker made inside a pick (a ``Bind``'s inner picker).
NEW = -1

#: The domain of a ``Choice``'s decision: one action per alternative.
CHOICE = "choice"


_blake2b = hashlib.blake2b


def stable_repr(value: Any) -> str | bytes:
    """The default canonical form of a value: its ``repr``, unless the ``repr`` shows where an
    object lives in memory (``<... at 0x...>``, an object without a ``repr`` of its own, such
    as a ``networkx`` graph), then the value pickled, when it pickles. A form with an address
    would make uniqueness, and so the rewards and every later decision, depend on memory
    reuse rather than on the value.

    >>> stable_repr([1, "a"])
    "[1, 'a']"
    >>> import networkx as nx
    >>> stable_repr(nx.path_graph(3)) == stable_repr(nx.path_graph(3)) != stable_repr(nx.path_graph(4))
    True
    """
    text = repr(value)
    if " at 0x" not in text:
        return text
    try:
        return pickle.dumps(value, protocol=4)
    except Exception:  # a value that does not pickle (a lambda inside): its repr is all there is
        return text


def digest(text: Any) -> bytes:
    """The 64-bit BLAKE2b digest of ``text`` (a ``str`` or ``bytes``), the uniqueness key.

    >>> digest("(2 L R)").hex()
    '...'
    >>> len(digest(b"x"))
    8
    """
    data = text.encode() if type(text) is str else text if isinstance(text, bytes) else str(text).encode()
    return _blake2b(data, digest_size=8).digest()


class _State:
    """An abstract state, interned: its tokens and the learner's entries met in it (a cache
    of the tables), by the name of their ``(choice point, domain)`` (:meth:`GuideSource.name_of`)."""

    __slots__ = ("tokens", "entries")

    def __init__(self, tokens: tuple[Any, ...]) -> None:
        self.tokens = tokens
        self.entries: dict[str, list[Any]] = {}


class GuideSource(DrawSource):
    """The draw source of a :class:`GuidedPicker`: each typed draw asks the learner.

    ``points`` maps ``id(stream)`` to the choice point (the picker's position in the
    upstream walk); ``selected`` (``None``: all) are the points the learner decides, the
    others draw from their own streams; ``choices`` maps the point of a ``Choice``'s own
    decision to the decision's value for each action (one action per alternative that can
    be chosen). A guided picker makes its own (``picker.source``);
    its ``stack`` and ``parts`` hold the contexts of the open spans during an episode.

    >>> import synthia as sy
    >>> g = sy.guided(sy.RandomInteger(0, 4), seed=1)
    >>> g.source.points, g.source.window, g.source.tree
    ({...: 0}, 4, False)
    """

    def __init__(
        self, guide: Guide, points: dict[int, int], selected: Callable[[Hashable], bool] | None,
        state: str, window: int, float_buckets: int, max_actions: int, explore: bool = True,
        choices: dict[int, tuple[float, ...]] | None = None,
    ) -> None:
        self.points = points
        self.choices = {} if choices is None else choices
        self._names: dict[tuple[Hashable, Hashable], str] = {}
        self.selected = selected
        self.tree = state == "tree"
        self.window = window
        self.float_buckets = float_buckets
        self.max_actions = max_actions
        self.explore = explore
        self.set_guide(guide)
        self.begin()

    def set_guide(self, guide: Guide) -> None:
        """Decide with ``guide`` from now on (the interned states are rebuilt)."""
        self.guide = guide
        self._random, self._below, self._epsilon = guide._random, guide._below, guide.epsilon
        self._episode = guide.episode
        self.states: dict[tuple[Any, ...], _State] = {}
        self.root = self._intern(())

    def _intern(self, tokens: tuple[Any, ...]) -> _State:
        state = self.states.get(tokens)
        if state is None:
            state = self.states[tokens] = _State(tokens)
        return state

    def begin(self) -> None:
        """A new episode: empty contexts."""
        #: The context of each open span (the tree state), innermost last.
        self.stack: list[_State] = [self.root]
        #: The part each open span is in (a grammar rule's derivation), innermost last.
        self.parts: list[Any] = [None]
        self.recent = self.root
        route = current_route()
        #: The source of the route the pick runs inside (a harness's recorder or replayer).
        self.outer: DrawSource | None = None if route is None else route.source

    # -- spans ---------------------------------------------------------------------------
    def open_span(self, label: Hashable) -> None:
        self.stack.append(self.stack[-1])
        self.parts.append(self.parts[-1] if type(label) is int else label)

    def close_span(self) -> None:
        if len(self.stack) > 1:
            self.stack.pop()
            self.parts.pop()

    # -- the choice ----------------------------------------------------------------------
    def name_of(self, key: tuple[Hashable, Hashable]) -> str:
        """The name the states cache the entry of ``key`` (choice point, domain) under: its
        ``repr``, the same in every source, and a string, whose hash Python keeps."""
        name = self._names.get(key)
        if name is None:
            name = self._names[key] = repr(key)
        return name

    def _choose(self, point: Hashable, domain: Hashable, n: int) -> int:
        """The learner's action for ``point`` with ``domain`` (``n`` actions), in the current state."""
        key = (point, domain)
        return self._act(self.name_of(key), key, n)

    def _act(self, name: str, key: tuple[Hashable, Hashable], n: int) -> int:
        """The learner's action for ``key`` (choice point, domain; named ``name``) with ``n``
        actions: one uniform draw ``u``, exploring (:func:`~synthia.rl.learning.explored`)
        when below epsilon, else greedy."""
        tree = self.tree
        if tree:
            stack = self.stack
            state = stack[-1]
        else:
            state = self.recent
        entry = state.entries.get(name)
        if entry is None:
            entry = self.entry_of(state, name, key, n)
        if self.explore:
            u = self._random()
            action = explored(u, self._epsilon, n) if u < self._epsilon else greedy(entry[0], self._below)
        else:
            action = greedy(entry[0], self._below)
        self._episode.append((entry, action))
        following = entry[2][action]
        if following is None:
            following = self.follow(state, entry, key, action)
        if tree:
            stack[-1] = following
        else:
            self.recent = following
        return action

    # -- what a compiled wiring decides with (synthia.compile of a guided picker) --------------
    def entry_of(self, state: Any, name: str, key: tuple[Hashable, Hashable], n: int) -> list[Any]:
        """The learner's table entry for ``key`` (choice point, domain; ``n`` actions) in the
        interned ``state``, made when new and cached on the state under ``name``: ``[Q values,
        counts, the state each action leads to]``."""
        entry = self.guide.entry((key[0], key[1], state.tokens), n)
        if len(entry) == 2:
            entry.append([None] * n)  # the state each action leads to
        state.entries[name] = entry
        return entry

    def follow(self, state: Any, entry: list[Any], key: tuple[Hashable, Hashable], action: int) -> Any:
        """The interned state after ``action`` at ``key`` in ``state`` (the last ``window`` choices)."""
        following = entry[2][action] = self._intern((*state.tokens, (key[0], action))[-self.window :])
        return following

    def kit(self) -> tuple[Callable[[], float], Callable[[int], int], float, Callable[[Any], None], Any]:
        """What a compiled wiring decides with during one episode, exactly as :meth:`_act` does:
        the learner's ``random`` and ``below``, epsilon, the method that records a visit, and
        the root state the episode starts in."""
        return self._random, self._below, self._epsilon, self._episode.append, self.root

    def _point(self, stream: Any) -> Hashable:
        point: Hashable = self.points.get(id(stream), NEW)
        part = self.parts[-1]
        return point if part is None else (point, part)

    def _outer(self, stream: Any) -> DrawSource | None:
        """The source of an enclosing route, for a picker made inside the pick, when it dictates."""
        outer = self.outer
        if outer is not None and outer.dictates and id(stream) not in self.points:
            return outer
        return None

    def _tell(self, stream: Any, kind: str, args: tuple[Any, ...], value: Any) -> Any:
        if self.outer is not None and id(stream) not in self.points:
            self.outer.observe(kind, args, value)
        return value

    def integer(self, stream: Any, low: int, high: int) -> int:
        n = high - low
        if n <= 1:
            return low
        outer = self._outer(stream)
        if outer is not None:
            return outer.integer(stream, low, high)
        point = self._point(stream)
        if self.selected is not None and not self.selected(point):
            value: int = stream.integer(low, high)
        elif n <= self.max_actions:
            value = low + self._choose(point, (low, high), n)
        else:
            limit = self.max_actions
            bucket = self._choose(point, (low, high), limit)
            start, end = low + bucket * n // limit, low + (bucket + 1) * n // limit
            value = start + self.guide._below(end - start)
        return self._tell(stream, INTEGER, (low, high), value)  # type: ignore[no-any-return]

    def integer_by(self, stream: Any, low: int, high: int, sample: Callable[[Any], int]) -> int:
        if id(stream) in self.points:
            # A picker of the wiring: its sample's own draws (AnyInteger's mode, width and
            # magnitude) are the choice points, as they are for a picker that draws them directly.
            return sample(Route(self).join(stream))
        return self.integer(stream, low, high)

    def floating_by(self, stream: Any, low: float, high: float, sample: Callable[[Any], float]) -> float:
        if id(stream) in self.points:
            return sample(Route(self).join(stream))  # as for integer_by: the sample's draws are guided
        return self.floating(stream, low, high)

    def boolean(self, stream: Any, p: float) -> bool:
        if p <= 0.0 or p >= 1.0:
            return p >= 1.0
        outer = self._outer(stream)
        if outer is not None:
            return outer.boolean(stream, p)
        point = self._point(stream)
        if self.selected is not None and not self.selected(point):
            value: bool = stream.boolean(p)
        else:
            value = self._choose(point, "boolean", 2) == 1
        return self._tell(stream, BOOLEAN, (p,), value)  # type: ignore[no-any-return]

    def weighted(self, stream: Any, cumulative: Sequence[float]) -> int:
        positive = [i for i in range(len(cumulative)) if cumulative[i] > (cumulative[i - 1] if i else 0.0)]
        if len(positive) <= 1:
            return positive[0] if positive else 0
        outer = self._outer(stream)
        if outer is not None:
            return outer.weighted(stream, cumulative)
        point = self._point(stream)
        if self.selected is not None and not self.selected(point):
            value: int = stream.weighted(cumulative)
        else:
            value = positive[self._choose(point, ("weighted", len(cumulative), tuple(positive)), len(positive))]
        return self._tell(stream, WEIGHTED, (tuple(cumulative),), value)  # type: ignore[no-any-return]

    def floating(self, stream: Any, low: float, high: float) -> float:
        known = self.points.get(id(stream))
        if known is not None and self.selected is None and self.parts[-1] is None and known in self.choices:
            actions = self.choices[known]  # a Choice's decision: one action per alternative
            return actions[self._choose(known, CHOICE, len(actions))]
        if known is not None and self.selected is None and self.float_buckets and self.parts[-1] is None and high - low < INF:
            # The hot path: a picker of the wiring, every point guided, no part open.
            buckets = self.float_buckets
            bucket = self._choose(known, (low, high), buckets)
            width = (high - low) / buckets
            value = low + (bucket + self.guide._random()) * width
            return value if low <= value < high else low + bucket * width
        outer = self._outer(stream)
        if outer is not None:
            return outer.floating(stream, low, high)
        buckets = self.float_buckets
        point = self._point(stream)
        base = point[0] if isinstance(point, tuple) else point
        values = self.choices.get(base) if type(base) is int else None
        if self.selected is not None and not self.selected(point):
            value = stream.floating(low, high)
        elif values is not None:
            value = values[self._choose(point, CHOICE, len(values))]
        elif not buckets or not (high - low < INF):
            value = stream.floating(low, high)
        else:
            bucket = self._choose(point, (low, high), buckets)
            width = (high - low) / buckets
            value = low + (bucket + self.guide._random()) * width
            if not low <= value < high:
                value = low + bucket * width
        return self._tell(stream, FLOAT, (low, high), value)  # type: ignore[no-any-return]


class GuidedStream(RoutedStream):
    """The stream of a picker of a guided wiring: a :class:`RoutedStream` whose held draws
    (the samplers of ``RandomInteger``, ``RandomFloat``, ``RandomBoolean``, a ``Choice``'s
    decision) go straight to the learner while the guided picker picks, and straight to the
    picker's own sampler otherwise. Every other draw takes the routed path."""

    __slots__ = ("source", "point", "guided")

    def __init__(self, inner: Any, route: Route, source: GuideSource, point: int, guided: bool) -> None:
        super().__init__(inner, route)
        self.source = source
        self.point = point
        self.guided = guided

    def integer_sampler(self, low: int, high: int) -> Callable[[], int]:
        plain = self.inner.integer_sampler(low, high)
        route, source, n = self.route, self.source, high - low
        inner: Any = self.inner
        if not self.guided or n <= 1 or n > source.max_actions:
            return lambda: (plain() if route.source is PASSTHROUGH else route.source.integer(inner, low, high))
        key = (self.point, (low, high))
        act, name = source._act, source.name_of(key)

        def integer() -> int:
            current = route.source
            if current is source and source.parts[-1] is None:
                return low + act(name, key, n)
            return plain() if current is PASSTHROUGH else current.integer(inner, low, high)

        return integer

    def floating_sampler(self, low: float, high: float) -> Callable[[], float]:
        plain = self.inner.floating_sampler(low, high)
        route, source = self.route, self.source
        inner: Any = self.inner
        buckets = source.float_buckets
        values = source.choices.get(self.point)
        if self.guided and values is not None:
            return self._decision_sampler(plain, low, high, values)
        if not self.guided or not buckets or not (high - low < INF):
            return lambda: (plain() if route.source is PASSTHROUGH else route.source.floating(inner, low, high))
        key = (self.point, (low, high))
        act, name, width = source._act, source.name_of(key), (high - low) / buckets

        def floating() -> float:
            current = route.source
            if current is source and source.parts[-1] is None:
                bucket = act(name, key, buckets)
                value = low + (bucket + source.guide._random()) * width
                return value if low <= value < high else low + bucket * width
            return plain() if current is PASSTHROUGH else current.floating(inner, low, high)

        return floating

    def _decision_sampler(self, plain: Callable[[], float], low: float, high: float, values: tuple[float, ...]) -> Callable[[], float]:
        """A ``Choice``'s decision: the learner picks the alternative, the value is the
        decision that chooses it (no draw for a position inside it)."""
        route, source, n = self.route, self.source, len(values)
        inner: Any = self.inner
        key = (self.point, CHOICE)
        act, name = source._act, source.name_of(key)

        def decision() -> float:
            current = route.source
            if current is source and source.parts[-1] is None:
                return values[act(name, key, n)]
            return plain() if current is PASSTHROUGH else current.floating(inner, low, high)

        return decision

    def boolean_sampler(self, p: float) -> Callable[[], bool]:
        plain = self.inner.boolean_sampler(p)
        route, source = self.route, self.source
        inner: Any = self.inner
        if not self.guided or p <= 0.0 or p >= 1.0:
            return lambda: (plain() if route.source is PASSTHROUGH else route.source.boolean(inner, p))
        key = (self.point, "boolean")
        act, name = source._act, source.name_of(key)

        def boolean() -> bool:
            current = route.source
            if current is source and source.parts[-1] is None:
                return act(name, key, 2) == 1
            return plain() if current is PASSTHROUGH else current.boolean(inner, p)

        return boolean


def decisions_of(wiring: Picker[Any], labels: dict[int, int]) -> dict[int, tuple[float, ...]]:
    """The choice point of each ``Choice``'s own decision in ``wiring`` (a ``RandomFloat`` in
    ``[0, 1)`` that nothing else reads), with the decision's value for each action: one
    action per alternative of positive weight, the value the middle of its share of
    ``[0, 1)``, checked to choose it."""
    readers: dict[int, int] = {}
    for _, _, child in edges(wiring):
        readers[id(child)] = readers.get(id(child), 0) + 1
    decisions: dict[int, tuple[float, ...]] = {}
    for _, node in upstream(wiring):
        decision = getattr(node, "decision", None)
        if not isinstance(node, Choice) or type(decision) is not RandomFloat or readers.get(id(decision)) != 1:
            continue
        if decision.low != 0.0 or decision.high != 1.0 or len(node.weights) < 2:
            continue
        sums = cumulative(node.weights)
        starts = [0.0, *sums[:-1]]
        positive = [i for i in range(len(sums)) if sums[i] > starts[i]]
        values = tuple((starts[i] + sums[i]) / 2 / sums[-1] for i in positive)
        if len(values) >= 2 and all(node.index_of(v) == i for v, i in zip(values, positive)):
            decisions[labels[id(decision)]] = values
    return decisions
