"""Guided pickers: a learner steers the choice points of a wiring towards many distinct valid values.

:func:`guided` wraps a wiring in a :class:`GuidedPicker`. Every typed draw of the wiring
(:mod:`synthia.core.draws`) -- an integer, a boolean, a weighted index, a float (in
``float_buckets`` equal buckets) -- is a *choice point* decided by RLCheck's learner
(:class:`~synthia.rl.learning.Guide`) instead of the picker's own stream: a ``Choice``'s
decision (one action per alternative, whatever ``float_buckets`` is), a ``RandomInteger``, a
``RandomBoolean``, a list's length, a grammar rule's expansion, a Markov transition, the
alternatives that drive a ``Deferred`` recursion. The
catalog knows nothing of it: the learner is one more :class:`~synthia.core.draws.DrawSource`
behind the draws.

Each ``pick()`` runs episodes: the wiring makes a value, ``valid(value)`` judges it, and
the learner is rewarded 20 (valid, never seen before: its ``canonical`` form's 64-bit
BLAKE2b digest is new; by default :func:`stable_repr`), 0 (valid, seen before) or -1 (invalid). The first valid value is
returned (``only_valid=True``, like :class:`~synthia.PickIf`), or every value
(``only_valid=False``).

The **state** a choice is made in is the last ``window`` abstract choices (tokens
``(choice point, action)``):

* ``state="sequence"`` -- the last ``window`` choices of the episode, in order;
* ``state="tree"`` (RLCheck's *Tree L/R*) -- the choices on the path from the root: each
  ``pick()`` of a picker with two or more inputs other than constants (``Apply``,
  ``Choice``, a list) and each part a picker opens (a grammar derivation) is a *span*; a span starts
  with a copy of its parent's context, and a draw is taken in the state made of the last
  ``window`` tokens of the innermost span's context, then appends its token there. A left
  and a right sub-tree thus see their ancestors' values and the decision (``L`` or ``R``:
  the two decisions are distinct choice points) that led to them, never each other.

>>> import synthia as sy
>>> digits = sy.ComposeList(sy.RandomInteger(0, 10), length=sy.RandomInteger(1, 4))
>>> g = sy.guided(digits, valid=lambda xs: sorted(xs) == xs and len(xs) >= 2, seed=1)
>>> [sorted(x) == x and len(x) >= 2 for x in g.take(5)]
[True, True, True, True, True]
>>> g.valid_count, g.episodes >= g.valid_count >= g.unique_count >= 1
(5, True)
"""
from __future__ import annotations

import hashlib
import json
import pickle
from typing import Any, Callable, Hashable, Iterable, Sequence, TypeVar

from ..core.checks import check_bool, check_callable, check_float, check_int, check_number, check_probability, cumulative, describe
from ..core.draws import (
    BOOLEAN, FLOAT, INTEGER, PASSTHROUGH, WEIGHTED, DrawSource, Route, RoutedStream, current_route,
    put_stream, restore_current_route, set_current_route, stream_of,
)
from ..core.exceptions import GiveUp
from ..core.graph import edges, upstream
from ..core.inputs import value_input
from ..core.instrument import instance_pick, unwrap_one, wrap_one
from ..core.picker import Picker, Seedable
from ..core.random import check_seed, derive_seed, fresh_seed
from ..explain.recording import Entry
from ..explain.rules import Ref, rule
from ..pickers.basic import Choice
from ..pickers.scalars import RandomFloat
from .learning import REWARDS, Guide, explored, greedy

__all__ = ["GuidedPicker", "GuideSource", "guided", "digest", "STATES"]

T = TypeVar("T")

INF = float("inf")

#: The choice point of a picker made inside a pick (a ``Bind``'s inner picker).
NEW = -1

#: The state abstractions: the last choices of the episode, or of the path from the root.
STATES = ("sequence", "tree")

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
            return sample(RoutedStream(stream, Route(self)))
        return self.integer(stream, low, high)

    def floating_by(self, stream: Any, low: float, high: float, sample: Callable[[Any], float]) -> float:
        if id(stream) in self.points:
            return sample(RoutedStream(stream, Route(self)))  # as for integer_by: the sample's draws are guided
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


class _GuidedStream(RoutedStream):
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


def _decisions(wiring: Picker[Any], labels: dict[int, int]) -> dict[int, tuple[float, ...]]:
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
        if decision.low != 0.0 or decision.high != 1.0 or len(node.alternatives) < 2:
            continue
        sums = cumulative(node.weights)
        starts = [0.0, *sums[:-1]]
        positive = [i for i in range(len(sums)) if sums[i] > starts[i]]
        values = tuple((starts[i] + sums[i]) / 2 / sums[-1] for i in positive)
        if len(values) >= 2 and all(node.index_of(v) == i for v, i in zip(values, positive)):
            decisions[labels[id(decision)]] = values
    return decisions


class _Stats:
    __slots__ = ("episodes", "valid", "unique", "history", "every")

    def __init__(self, every: int) -> None:
        self.episodes = 0
        self.valid = 0
        self.unique = 0
        #: ``(episodes, valid, unique)`` at the end of every ``every`` episodes.
        self.history: list[tuple[int, int, int]] = []
        self.every = every


class GuidedPicker(Seedable[T]):
    """The values of ``wiring``, its choice points steered by a learner (see :func:`guided`).

    ``reset()`` restores the learner's initial state (nothing learnt, nothing seen);
    ``duplicate(with_state=True)`` copies what it learnt; ``set_seed(s)`` reseeds the
    wiring and the learner. :meth:`freeze` gives a picker that follows the learnt policy
    without learning; :meth:`to_json` / :meth:`from_json` save and reload the learner.

    >>> import synthia as sy
    >>> g = sy.guided(sy.RandomInteger(0, 100), valid=lambda x: x % 7 == 0, seed=2)
    >>> values = g.take(50)
    >>> all(v % 7 == 0 for v in values), g.unique_count > 5
    (True, True)
    >>> g.reset(); g.take(50) == values
    True
    >>> g
    GuidedPicker(RandomInteger(0, 100), valid=<lambda>, seed=2)
    """

    inputs_fields = ("wiring",)

    def __init__(
        self,
        wiring: Picker[T],
        valid: Callable[[T], Any] | None = None,
        *,
        state: str = "sequence",
        window: int = 4,
        epsilon: float = 0.25,
        rewards: Sequence[float] = REWARDS,
        canonical: Callable[[T], Any] = stable_repr,
        points: Iterable[Any] | None = None,
        float_buckets: int = 8,
        max_actions: int = 16,
        only_valid: bool = True,
        max_tries: int | None = 10_000,
        learning: bool = True,
        seed: int | None = None,
    ) -> None:
        self.wiring = value_input(wiring, "wiring")
        self.valid = None if valid is None else check_callable(valid, "valid", arguments=1)
        if state not in STATES:
            raise ValueError(f"state must be one of {STATES}, got {describe(state)}")
        self.state = state
        self.window = check_int(window, "window", minimum=1, maximum=1000)
        self.epsilon = check_probability(epsilon, "epsilon")
        if not isinstance(rewards, (list, tuple)) or len(rewards) != 3:
            raise ValueError(f"rewards must be 3 numbers (unique valid, valid seen, invalid), got {describe(rewards)}")
        self.rewards = tuple(check_float(r, "rewards") for r in rewards)
        self.canonical = check_callable(canonical, "canonical", arguments=1)
        self.points = None if points is None else _check_points(points)
        self.float_buckets = check_int(float_buckets, "float_buckets", minimum=0, maximum=1 << 16)
        self.max_actions = check_int(max_actions, "max_actions", minimum=2, maximum=1 << 16)
        self.only_valid = check_bool(only_valid, "only_valid")
        self.max_tries = None if max_tries is None else check_int(max_tries, "max_tries", minimum=1)
        self.learning = check_bool(learning, "learning")
        self._seed = fresh_seed() if seed is None else check_seed(seed)
        self._route = Route(PASSTHROUGH)
        self._installed: list[tuple[Picker[Any], Any, Any]] | None = None
        self._new_learner()
        self._install()

    # -- own state -----------------------------------------------------------------------
    def _new_learner(self) -> None:
        self.guide = Guide(self.epsilon, derive_seed(self._seed, "guide"))
        self.seen: set[bytes] = set()
        self.stats = _Stats(1000)

    def _seed_self(self, seed: int) -> None:
        self._seed = seed
        if self.learning:
            self._new_learner()
        else:
            self.guide.seed = derive_seed(seed, "guide")
            self._restart_frozen()

    def _reset_self(self) -> None:
        if self.learning:
            self._new_learner()
        else:
            self._restart_frozen()

    def _restart_frozen(self) -> None:
        self.guide.restart()
        self.seen = set()
        self.stats = _Stats(1000)

    # -- routing the wiring to the learner ---------------------------------------------------
    def _install(self) -> None:
        """Route every random picker of the wiring to this picker's learner, for good.

        The route's source is the learner only while this picker picks, a plain pass
        to the picker's own stream otherwise. A harness that routes the whole wiring
        again (to record, replay or feed Hypothesis's data) wraps this route: a source
        that dictates decides every draw, a recorder logs what the learner chose.
        """
        if self._installed is not None:
            self._uninstall()
        installed: list[tuple[Picker[Any], Any, Any]] = []
        points: dict[int, int] = {}
        route = self._route
        nodes = [node for _, node in upstream(self.wiring)]
        self._keys = {label: key for label, (key, _) in enumerate(upstream(self.wiring))}
        self._labels = {id(node): label for label, node in enumerate(nodes)}
        selected = self._selector()
        source = self._source = GuideSource(
            self.guide, points, selected, self.state, self.window, self.float_buckets, self.max_actions, explore=True,
            choices=_decisions(self.wiring, self._labels),
        )
        for label, node in enumerate(nodes):
            stream = stream_of(node)
            if stream is not None:
                points[id(stream)] = label
                guided = selected is None or selected(label)
                put_stream(node, _GuidedStream(stream, route, source, label, guided))
                installed.append((node, stream, None))
            elif self.state == "tree" and _branches(node):
                installed.append((node, None, wrap_one(node, _spanning(route, label))))
        self._installed = installed

    def _uninstall(self) -> None:
        node: Any
        for node, stream, token in reversed(self._installed or []):
            if stream is not None:
                put_stream(node, stream)
            else:
                unwrap_one(node, token)
        self._installed = None

    def _selector(self) -> Callable[[Hashable], bool] | None:
        if self.points is None:
            return None
        wanted: set[Any] = set()
        for item in self.points:
            if isinstance(item, Picker):
                if id(item) not in self._labels:
                    raise ValueError(f"points: {item!r} is not a picker of the wiring")
                wanted.add(self._labels[id(item)])
            else:
                wanted.add(item)
                wanted.add(("rule", item))
                wanted.update(label for label, key in self._keys.items() if key == item)
        frozen = frozenset(wanted)

        def selected(point: Hashable) -> bool:
            if point in frozen:
                return True
            return isinstance(point, tuple) and (point[0] in frozen or point[1] in frozen)

        return selected

    def __deepcopy__(self, memo: dict[int, Any]) -> "GuidedPicker[T]":
        self._uninstall()
        memo[id(self._source)] = None  # the copy builds its own source (and interned states)
        try:
            twin: GuidedPicker[T] = super().__deepcopy__(memo)  # type: ignore[assignment]
        finally:
            self._install()
        twin._route = Route(PASSTHROUGH)
        twin._installed = None
        twin._install()
        return twin

    # -- picking --------------------------------------------------------------------------
    def episode(self) -> tuple[T, bool, bool]:
        """One episode: a value of the wiring, learnt from; ``(value, valid, new)``."""
        return self.compiled_episode(self._routed_pick)

    def _routed_pick(self, source: GuideSource) -> T:
        """The wiring's value with its draws routed to ``source`` (the learner)."""
        source.begin()
        route = self._route
        route.source = source
        token = set_current_route(route)
        try:
            return self.wiring.pick()
        finally:
            route.source = PASSTHROUGH
            restore_current_route(token)

    def compiled_episode(self, pick_wiring: Callable[[GuideSource], T]) -> tuple[T, bool, bool]:
        """One episode whose value comes from ``pick_wiring(source)``: the routed wiring
        (:meth:`episode`), or the wiring compiled by :func:`synthia.compile` so that it asks
        the learner of ``source`` itself, the same decisions in the same order (and so the
        same values)."""
        source = self._source
        if source.guide is not self.guide:
            source.set_guide(self.guide)
        try:
            value = pick_wiring(source)
        except BaseException:
            self.guide.forget_episode()
            raise
        return self._judge(value)

    def compiled_pick(self, pick_wiring: Callable[[GuideSource], T]) -> T:
        """:meth:`pick`, its episodes run by :meth:`compiled_episode`."""
        if not self.only_valid:
            return self.compiled_episode(pick_wiring)[0]
        return self._pick_with(lambda: self.compiled_episode(pick_wiring))

    def point_of(self, picker: Picker[Any]) -> int | None:
        """The choice point of a random picker of the wiring when this picker's learner
        decides all its draws, else ``None`` (not a picker of the wiring, not selected, or
        routed elsewhere right now)."""
        stream = stream_of(picker)
        if type(stream) is _GuidedStream and stream.source is self._source and stream.guided:
            return stream.point
        return None

    def opens_span(self, picker: Picker[Any]) -> bool:
        """Whether ``picker``'s pick right now is the one this picker installed to open a
        span of the tree state (and no other wrapper is on it)."""
        return getattr(instance_pick(picker), "span_route", None) is self._route

    def _judge(self, value: T) -> tuple[T, bool, bool]:
        try:
            ok = True if self.valid is None else bool(self.valid(value))
            new = False
            if ok:
                form = self.canonical(value)
                if form.__class__ is not str and not isinstance(form, (str, bytes)):
                    raise TypeError(f"canonical must return a str or bytes (the canonical form of a value), got {describe(form)} from {self.canonical!r} for {describe(value)}")
                key = digest(form)
                seen = self.seen
                new = key not in seen
                if new:
                    seen.add(key)
        except BaseException:
            self.guide.forget_episode()  # the check raised: this episode teaches nothing
            raise
        if self.learning:
            self.guide.learn(self.rewards[0] if new else (self.rewards[1] if ok else self.rewards[2]))
        else:
            self.guide.forget_episode()
        stats = self.stats
        stats.episodes += 1
        stats.valid += ok
        stats.unique += new
        if stats.episodes % stats.every == 0:
            stats.history.append((stats.episodes, stats.valid, stats.unique))
        return value, ok, new

    def pick(self) -> T:
        return self._pick_with(self.episode)

    def _pick_with(self, episode: Callable[[], tuple[T, bool, bool]]) -> T:
        if not self.only_valid:
            return episode()[0]
        tries = self.max_tries
        if tries is None:
            while True:
                value, ok, _ = episode()
                if ok:
                    return value
        for _ in range(tries):
            value, ok, _ = episode()
            if ok:
                return value
        raise GiveUp(f"{self!r} made {tries} invalid values in a row")

    def on_failure(self) -> None:
        """The value made last failed a property: it counts as a new valid value (RLCheck's
        rule; the harness calls this). Its episode's reward becomes the unique-valid one."""
        if self.learning and self.guide.last_reward is not None:
            self.guide.relearn(self.rewards[0])

    @property
    def source(self) -> GuideSource:
        """The draw source the wiring is routed to (the learner behind the draws)."""
        return self._source

    # -- what it learnt ------------------------------------------------------------------------
    @property
    def episodes(self) -> int:
        """Episodes run (values made, valid or not) since the last reset."""
        return self.stats.episodes

    @property
    def valid_count(self) -> int:
        """Valid values made since the last reset."""
        return self.stats.valid

    @property
    def unique_count(self) -> int:
        """Distinct valid values made since the last reset (by their canonical digest)."""
        return self.stats.unique

    @property
    def history(self) -> list[tuple[int, int, int]]:
        """``(episodes, valid, unique valid)`` after every 1000 episodes: the learning curve."""
        return list(self.stats.history)

    def report_note(self) -> str | None:
        """One line for a test report: episodes, valid and unique-valid rates, and their trend."""
        s = self.stats
        if not s.episodes:
            return None
        note = (
            f"guided {type(self.wiring).__name__}: {s.episodes} episodes, "
            f"{s.valid / s.episodes:.1%} valid, {s.unique / s.episodes:.1%} unique valid"
        )
        if len(s.history) >= 2:
            (e0, v0, u0), (e1, v1, u1) = s.history[0], (s.episodes, s.valid, s.unique)
            if e1 > e0:
                note += f" (first {e0}: {v0 / e0:.1%} / {u0 / e0:.1%}; since: {(v1 - v0) / (e1 - e0):.1%} / {(u1 - u0) / (e1 - e0):.1%})"
        return note

    def freeze(self) -> "GuidedPicker[T]":
        """A copy that follows the learnt policy (exploration included) and learns no more.

        It is an ordinary picker: its values depend only on its seed, ``reset()`` replays
        them, and a harness shrinks and explains them through the wiring's draws.
        """
        twin = self.duplicate(with_state=True)
        twin.learning = False
        twin.reset()  # the wiring from its start; the tables kept
        return twin

    def to_json(self) -> str:
        """The learner (its Q-tables and counts) and the settings that shape them, as JSON."""
        return json.dumps({
            "format": "synthia-guide", "version": 1,
            "state": self.state, "window": self.window, "float_buckets": self.float_buckets,
            "max_actions": self.max_actions, "rewards": list(self.rewards),
            "guide": self.guide.to_state(),
        })

    def from_json(self, text: str) -> "GuidedPicker[T]":
        """Load a learner saved by :meth:`to_json` (of a guided picker over the same wiring); returns ``self``."""
        try:
            data = json.loads(text)
        except (TypeError, ValueError, RecursionError) as err:
            raise ValueError(f"text must be the JSON of GuidedPicker.to_json(): {err}") from None
        if not isinstance(data, dict) or data.get("format") != "synthia-guide" or not isinstance(data.get("guide"), dict):
            raise ValueError("text must be the JSON of GuidedPicker.to_json()")
        for name in ("state", "window", "float_buckets", "max_actions"):
            if data.get(name) != getattr(self, name):
                raise ValueError(f"the saved learner has {name}={data.get(name)!r}, this picker {getattr(self, name)!r}")
        self.guide = Guide.from_state(data["guide"])
        self._source.set_guide(self.guide)
        return self

    def arguments(self) -> tuple[list[Any], dict[str, Any]]:
        kwargs: dict[str, Any] = {}
        if self.valid is not None:
            kwargs["valid"] = self.valid
        defaults = {
            "state": "sequence", "window": 4, "epsilon": 0.25, "rewards": REWARDS, "canonical": stable_repr,
            "points": None, "float_buckets": 8, "max_actions": 16, "only_valid": True, "max_tries": 10_000,
            "learning": True,
        }
        for name, default in defaults.items():
            value = getattr(self, name)
            if value != default:
                kwargs[name] = value
        kwargs["seed"] = self._seed
        return [self.wiring], kwargs


@rule(GuidedPicker)
def _explain_guided(picker: Any, index: int, part: Any, entry: Entry) -> Any:
    """A guided value is the wiring's output of its last episode (the invalid ones before it
    do not matter); below it, the draws the learner decided are the wiring's own leaves."""
    wiring, i = entry.consumed[-1]
    return Ref(wiring, i, part)


def _spanning(route: Route, label: int) -> Callable[[Picker[Any], Callable[[], Any]], Callable[[], Any]]:
    def make(picker: Picker[Any], pick: Callable[[], Any]) -> Callable[[], Any]:
        def spanned() -> Any:
            source = route.source
            if source is PASSTHROUGH:
                return pick()
            stack = source.stack  # type: ignore[attr-defined]
            stack.append(stack[-1])
            try:
                return pick()
            finally:
                stack.pop()

        spanned.span_route = route  # type: ignore[attr-defined]
        return spanned

    return make


def _branches(node: Picker[Any]) -> bool:
    """Whether a pick of ``node`` may pick two inputs that draw (a span of the tree state)."""
    from ..core.constant import Constant

    return sum(1 for p in node.inputs if not isinstance(p, Constant)) >= 2


def _check_points(points: Iterable[Any]) -> tuple[Any, ...]:
    if not isinstance(points, (list, tuple, set, frozenset)):
        raise TypeError(f"points must be a list of pickers or names, got {describe(points)}")
    out = tuple(points)
    for p in out:
        if not isinstance(p, (Picker, str)):
            raise TypeError(f"points must hold pickers of the wiring or names (str), got {describe(p)}")
    return out


def guided(wiring: Picker[T], valid: Callable[[T], Any] | None = None, **options: Any) -> GuidedPicker[T]:
    """A picker of ``wiring``'s values whose choice points learn to make many distinct valid values.

    ``valid(value)`` is the validity precondition (``None``: every value is valid, and the
    learner seeks distinct values). Options (RLCheck's defaults): ``state="sequence"`` or
    ``"tree"``, ``window=4``, ``epsilon=0.25``, ``rewards=(20, 0, -1)``, ``canonical=stable_repr``
    (the form whose 64-bit digest decides uniqueness: the ``repr``, or the pickled value when
    the ``repr`` shows a memory address), ``points`` (pickers of the wiring, or
    names: input paths such as ``"element"`` or grammar rules; ``None``: every choice
    point), ``float_buckets=8`` (0: floats stay random), ``max_actions=16`` (wider integer
    ranges are split in that many buckets), ``only_valid=True``, ``max_tries=10_000``,
    ``seed``.

    >>> import synthia as sy
    >>> pairs = sy.Apply(lambda a, b: (a, b), sy.RandomInteger(0, 10), sy.RandomInteger(0, 10))
    >>> g = guided(pairs, valid=lambda p: p[0] < p[1], seed=3)
    >>> all(a < b for a, b in g.take(20))
    True
    """
    return GuidedPicker(wiring, valid, **options)
