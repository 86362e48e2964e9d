"""Compiling a guided picker: its wiring fused into one function that asks the learner itself.

:func:`synthia.compile` of a :class:`~synthia.GuidedPicker` (or of a wiring that holds one)
writes the guided picker's wiring with :class:`GuidedEmitter`, the core's
:class:`~synthia.core.emitter.Emitter` with its draws written differently: each typed draw
is the learner's decision written out in place -- the table entry of the choice point in
the current abstract state, epsilon-greedy with random ties, the visit recorded, the next
state followed -- instead of a call through the draw source, the picker and its stream. The
pickers' own code is the same (their ``stage`` hooks, their described draws): a ``Choice``'s
decision is the learner's action among its alternatives, a grammar's rule is decided among
the alternatives that fit the depth. The tree state's spans are a saved and restored local: a
span's draws change the state its own choices see, and the state after it is the one before
it. Validity, uniqueness, rewards and learning stay the guided picker's own
(:meth:`GuidedPicker.compiled_episode`).

The compiled wiring makes the same decisions in the same order as the guided picker, so it
gives exactly the same values and leaves the learner in exactly the same state. A guided
picker whose wiring holds a picker that would be called as it is (a user's picker, a
stateful one, a grammar with pattern terminals, a draw with a distribution of its own), or
whose choice points are selected, or whose floats are left random, is called as it is.

>>> import synthia as sy
>>> pairs = sy.Apply(lambda a, b: (a, b), sy.RandomInteger(0, 5), sy.RandomInteger(0, 5))
>>> plain = sy.guided(pairs, valid=lambda p: p[0] < p[1], seed=3)
>>> fast = sy.compile(sy.guided(pairs.duplicate(), valid=lambda p: p[0] < p[1], seed=3))
>>> fast.take(20) == plain.take(20)
True
>>> "entry_of(ctx" in fast.source
True
"""
from __future__ import annotations

import math
from typing import Any, Callable, Hashable

from ..core.draws import BOOLEAN, FLOAT, INTEGER, WEIGHTED
from ..core.emitter import Emitter, Instrumented, make_function
from ..core.picker import Picker
from .guide_source import CHOICE, GuideSource
from .learning import greedy

__all__ = ["NotFusable", "GuidedEmitter", "stage_guided", "guided_source"]

#: The names the generated code shares between its functions (set at the start of each episode).
_SHARED = ("ctx", "rnd", "below", "eps", "visit", "entry_of", "follow")


class NotFusable(Exception):
    """The guided picker's wiring holds a picker (or a setting) the guided stager does not fuse."""


class GuidedEmitter(Emitter):
    """The emitter of a guided picker's wiring: each draw is the learner's decision, in place."""

    def __init__(self, guided: Any) -> None:
        super().__init__()
        self.guided = guided
        source: GuideSource = guided.source
        self.source = source
        if source.selected is not None or not source.explore:
            raise NotFusable("only a guided picker whose learner decides every choice point is compiled")
        self.tree = source.tree
        self.buckets = source.float_buckets
        self.max_actions = source.max_actions
        self.greedy = self.bind("greedy", greedy, "greedy")
        #: The parts open while the code is written (a grammar rule's derivation), innermost last.
        self.parts: list[tuple[Any, str]] = []

    # -- what this emitter does not fuse ---------------------------------------------------------
    def call(self, node: Picker[Any], out: list[str], ind: str) -> str:
        raise NotFusable(f"{type(node).__name__} would be called as it is")

    def pick_of(self, node: Picker[Any]) -> str:
        raise NotFusable(f"{type(node).__name__} would be called as it is")

    def opaque(self, prefix: str, obj: Any, key: Any = None) -> str:
        raise NotFusable(f"{prefix} would be called as it is")

    def stream_call(self, node: Picker[Any], fn: Callable[[Any], Any]) -> str:
        raise NotFusable("draws made by a function on the stream (a grammar's pattern terminal)")

    # -- the walk ------------------------------------------------------------------------
    def pick(self, node: Picker[Any], out: list[str], ind: str) -> str:
        if self.tree and self.guided.opens_span(node):
            self.check(node)
            # A span: its draws move its own copy of the state; after it, the state is the one before it.
            saved = self.var("ctx")
            out.append(f"{ind}{saved} = ctx  # a span opens")
            value = super().pick(node, out, ind)
            out.append(f"{ind}ctx = {saved}  # the span closes")
            return value
        return super().pick(node, out, ind)

    def part_open(self, label: Any, out: list[str], ind: str) -> None:
        saved = self.var("saved")
        self.parts.append((label, saved))
        if self.tree:
            out.append(f"{ind}{saved} = ctx  # the part is a span")

    def part_close(self, label: Any, out: list[str], ind: str) -> None:
        _, saved = self.parts.pop()
        if self.tree:
            out.append(f"{ind}ctx = {saved}")

    def _point(self, node: Picker[Any]) -> Hashable:
        point = self.guided.point_of(node)
        if point is None:
            raise Instrumented  # routed elsewhere right now: the guided picker picks through its graph
        return point if not self.parts else (point, self.parts[-1][0])

    # -- the learner's decisions ---------------------------------------------------------
    def _act(self, point: Hashable, domain: Hashable, n: int, out: list[str], ind: str) -> str:
        """The learner's action at ``(point, domain)`` among ``n``, written as ``GuideSource._act`` decides it."""
        key = (point, domain)
        name, key_name = self.bind("name", self.source.name_of(key)), self.bind("key", key)
        return self._decide(name, key_name, str(n), out, ind, f"point {point}, {n} actions", two=n == 2)

    def _decide(self, name: str, key: str, n: str, out: list[str], ind: str, what: str, two: bool = False) -> str:
        """The code of one decision: the entry of ``key`` (an expression; ``name`` its name) in
        the current state, epsilon-greedy among ``n`` (an expression) actions from one uniform
        draw (``explored`` and ``greedy`` of :mod:`synthia.rl.learning`), the visit, the next state."""
        e, a, u, q, t, nxt = self.var("e"), self.var("a"), self.var("u"), self.var("q"), self.var("t"), self.var("n")
        out.extend([
            f"{ind}{e} = ctx.entries.get({name})  # the learner decides: {what}",
            f"{ind}if {e} is None:",
            f"{ind}    {e} = entry_of(ctx, {name}, {key}, {n})",
            f"{ind}{u} = rnd()",
            f"{ind}if {u} < eps:",
            f"{ind}    {a} = int({u} / eps * {n})",
            f"{ind}    if {a} >= {n}:",
            f"{ind}        {a} = {n} - 1",
            f"{ind}else:",
            f"{ind}    {q} = {e}[0]",
        ])
        if two:  # the higher of two, a tie broken by below(2): greedy()'s answer without the calls
            out.append(f"{ind}    {a} = 0 if {q}[0] > {q}[1] else 1 if {q}[1] > {q}[0] else below(2)")
        else:
            out.extend([
                f"{ind}    {t} = max({q})",
                f"{ind}    {a} = {q}.index({t}) if {q}.count({t}) == 1 else {self.greedy}({q}, below)",
            ])
        out.extend([
            f"{ind}visit(({e}, {a}))",
            f"{ind}{nxt} = {e}[2][{a}]",
            f"{ind}ctx = follow(ctx, {e}, {key}, {a}) if {nxt} is None else {nxt}",
        ])
        return a

    def draw_raw(self, node: Picker[Any], kind: str, args: tuple[Any, ...], out: list[str], ind: str, sample: Any = None) -> str:
        """A typed draw of ``node``: the learner's decision at its choice point (as
        :class:`~synthia.rl.guide_source.GuideSource` makes it)."""
        if sample is not None:
            raise NotFusable("a draw with a distribution of its own (its own draws are the choice points)")
        self.staged += 1
        point = self._point(node)
        label = type(node).__name__
        if kind == INTEGER:
            return self._integer(point, args[0], args[1], out, ind, label)
        if kind == FLOAT:
            return self._float(point, args[0], args[1], out, ind, label)
        if kind == BOOLEAN:
            v = self.var("b")
            p = args[0]
            if p <= 0.0 or p >= 1.0:
                out.append(f"{ind}{v} = {p >= 1.0!r}  # {label}({p!r}): no decision")
                return v
            a = self._act(point, "boolean", 2, out, ind)
            out.append(f"{ind}{v} = {a} == 1  # {label}")
            return v
        if kind == WEIGHTED:
            cumulative = args[0]
            positive = [i for i in range(len(cumulative)) if cumulative[i] > (cumulative[i - 1] if i else 0.0)]
            v = self.var("w")
            if len(positive) <= 1:
                out.append(f"{ind}{v} = {positive[0] if positive else 0}  # {label}: no decision")
                return v
            a = self._act(point, ("weighted", len(cumulative), tuple(positive)), len(positive), out, ind)
            out.append(f"{ind}{v} = {self.bind('positive', tuple(positive))}[{a}]  # {label}")
            return v
        raise ValueError(f"kind must be one of integer, float, boolean, weighted, got {kind!r}")

    def _integer(self, point: Hashable, low: int, high: int, out: list[str], ind: str, label: str) -> str:
        n = high - low
        v = self.var("i")
        if n <= 1:
            out.append(f"{ind}{v} = {low!r}  # {label}({low}, {high}): one value, no decision")
        elif n <= self.max_actions:
            a = self._act(point, (low, high), n, out, ind)
            out.append(f"{ind}{v} = {low!r} + {a}  # {label}({low}, {high})")
        else:  # a wide range: the learner picks one of max_actions buckets, the value in it is uniform
            limit = self.max_actions
            bucket = self._act(point, (low, high), limit, out, ind)
            start, end = self.var("lo"), self.var("hi")
            out.append(f"{ind}{start} = {low!r} + {bucket} * {n} // {limit}")
            out.append(f"{ind}{end} = {low!r} + ({bucket} + 1) * {n} // {limit}")
            out.append(f"{ind}{v} = {start} + below({end} - {start})  # {label}({low}, {high}), bucketed")
        return v

    def _float(self, point: Hashable, low: float, high: float, out: list[str], ind: str, label: str) -> str:
        values = self.source.choices.get(point) if type(point) is int else None  # type: ignore[arg-type]
        v = self.var("f")
        if values is not None:  # a Choice's decision: the learner picks the alternative, the value chooses it
            a = self._act(point, CHOICE, len(values), out, ind)
            out.append(f"{ind}{v} = {self.bind('choices', values)}[{a}]  # {label}: a Choice's decision")
            return v
        buckets = self.buckets
        if not buckets or not high - low < math.inf:
            raise NotFusable("a float left random or unbounded")
        bucket = self._act(point, (low, high), buckets, out, ind)
        width = (high - low) / buckets
        out.append(f"{ind}{v} = {self.literal(low)} + ({bucket} + rnd()) * {self.literal(width)}  # {label}({low!r}, {high!r})")
        out.append(f"{ind}if not {self.literal(low)} <= {v} < {self.literal(high)}:")
        out.append(f"{ind}    {v} = {self.literal(low)} + {bucket} * {self.literal(width)}")
        return v

    def draw_below(self, node: Picker[Any], n: str, k: str, counts: tuple[int, ...], out: list[str], ind: str) -> str:
        """An integer of ``[0, n)``: the learner's decision among ``n`` (one table per count)."""
        if max(counts) > self.max_actions:
            raise NotFusable("a draw among more alternatives than max_actions")
        point = self._point(node)
        keys = {c: (point, (0, c)) for c in counts}
        key_table = self.bind("keys", keys)
        names = self.bind("names", {c: self.source.name_of(key) for c, key in keys.items()})
        return self._decide(f"{names}[{n}]", f"{key_table}[{n}]", n, out, ind, f"{type(node).__name__}'s draw among {n}")

    # -- the whole function ----------------------------------------------------------------
    def write_wiring(self) -> tuple[str, tuple[Any, ...]]:
        """The source of the guided picker's wiring as ``make(env)`` giving ``pick(source)``."""
        body: list[str] = []
        value = self.pick(self.guided.wiring, body, " " * 8)
        self.finish(body)
        shared = ", ".join(_SHARED)
        lines = [f"# synthia.compile: the wiring of a guided picker, {self.staged} pickers staged", "def make(env):"]
        if self.env_names:
            lines.append(f"    ({', '.join(self.env_names)},) = env")
        lines.append(f"    {' = '.join(_SHARED)} = None")
        lines.extend(self.prelude)
        for function in self.functions:
            lines.append(function[0])
            lines.append("        nonlocal ctx")
            lines.extend(function[1:])
        lines.append("    def pick(source):")
        lines.append(f"        nonlocal {shared}")
        lines.append("        rnd, below, eps, visit, ctx = source.kit()")
        lines.append("        entry_of, follow = source.entry_of, source.follow")
        lines.extend(body)
        lines.append(f"        return {value}")
        lines.append("    return pick")
        return "\n".join(lines) + "\n", tuple(self.env_values)


def guided_source(guided: Any) -> str:
    """The generated source of a guided picker's wiring (``NotFusable`` when it is not fused).

    >>> import synthia as sy
    >>> print(guided_source(sy.guided(sy.RandomBoolean(), seed=1)).splitlines()[0])
    # synthia.compile: the wiring of a guided picker, 1 pickers staged
    """
    return GuidedEmitter(guided).write_wiring()[0]


def stage_guided(guided: Any) -> Callable[[GuideSource], Any]:
    """The guided picker's wiring as one function of its draw source, for
    :meth:`GuidedPicker.compiled_pick` (``NotFusable`` when it is not fused).

    >>> import synthia as sy
    >>> g = sy.guided(sy.RandomInteger(0, 3), seed=1)
    >>> g.compiled_pick(stage_guided(g)) in range(3)
    True
    """
    source, env = GuidedEmitter(guided).write_wiring()
    make: Any = make_function(source)
    return make(env)  # type: ignore[no-any-return]
