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

import json
from typing import Any, Callable, Hashable, Iterable, Sequence, TypeVar

from ..core.checks import check_bool, check_callable, check_float, check_int, check_number, check_probability, describe
from ..core.draws import PASSTHROUGH, Route, drawing_from, keep_routed, release_routes, stream_of
from ..core.emitter import Emitter
from ..core.exceptions import GiveUp
from ..core.graph import upstream
from ..core.inputs import value_input
from ..core.picker import Picker, Seedable
from ..core.random import check_seed, derive_seed, fresh_seed
from ..explain.recording import Entry
from ..explain.rules import Ref, rule
from .guide_source import GuideSource, decisions_of, GuidedStream, digest, stable_repr
from .guide_stager import GuidedEmitter, NotFusable, guided_source, stage_guided
from .learning import REWARDS, Guide

__all__ = ["GuidedPicker", "GuideSource", "guided", "digest", "STATES"]

T = TypeVar("T")

#: The state abstractions: the last choices of the episode, or of the path from the root.
STATES = ("sequence", "tree")



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
        self._installed: list[tuple[Picker[Any], Any]] | None = None
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
        spans: list[tuple[Picker[Any], int]] = []
        points: dict[int, int] = {}
        nodes = [node for _, node in upstream(self.wiring)]
        self._keys = {label: key for label, (key, _) in enumerate(upstream(self.wiring))}
        self._labels = {id(node): label for label, node in enumerate(nodes)}
        selected = self._selector()
        source = self._source = GuideSource(
            self.guide, points, selected, self.state, self.window, self.float_buckets, self.max_actions, explore=True,
            choices=decisions_of(self.wiring, self._labels),
        )
        def guided_stream(own: Any, route: Route, node: Picker[Any], label: int) -> GuidedStream:
            points[id(own)] = label
            return GuidedStream(own, route, source, label, selected is None or selected(label))

        self._installed = keep_routed(self.wiring, self._route, guided_stream)
        if self.state == "tree":
            spans = [(node, label) for label, node in enumerate(nodes) if stream_of(node) is None and _branches(node)]
        #: The pickers whose picks open a span of the tree state, watched while this picker picks.
        self._spans = spans
        self._span_ids = frozenset(id(node) for node, _ in spans)

    def _uninstall(self) -> None:
        release_routes(self._installed or [])
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
        with drawing_from(self._route, source, self._spans):
            return self.wiring.pick()

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

    def stage(self, e: Emitter, out: list[str], ind: str) -> str:
        """The stager's hook: the wiring compiled to ask the learner itself
        (:mod:`synthia.rl.guide_stager`), called by the compiled code with this picker's
        episodes; the picker called as it is when its wiring holds pickers the guided stager
        does not fuse."""
        if isinstance(e, GuidedEmitter):
            raise NotFusable("a guided picker inside a guided wiring")
        try:
            wiring = stage_guided(self)
        except NotFusable:
            return e.call(self, out, ind)
        e.appendix.append(guided_source(self))
        e.staged += 1
        pick = e.bind("compiled_pick", self.compiled_pick, ("compiled_pick", id(self)))
        v = e.var("g")
        out.append(f"{ind}{v} = {pick}({e.bind('guided_wiring', wiring)})  # GuidedPicker: its wiring compiled")
        return v

    def point_of(self, picker: Picker[Any]) -> int | None:
        """The choice point of a random picker of the wiring when this picker's learner
        decides all its draws, else ``None`` (not a picker of the wiring, not selected, or
        routed elsewhere right now)."""
        stream = stream_of(picker)
        if type(stream) is GuidedStream and stream.source is self._source and stream.guided:
            return stream.point
        return None

    def opens_span(self, picker: Picker[Any]) -> bool:
        """Whether ``picker``'s pick opens a span of the tree state (while this picker picks)."""
        return id(picker) in self._span_ids

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

    def _pick(self) -> T:
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
