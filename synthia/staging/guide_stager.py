"""Compiling a guided picker: its wiring fused into one function that asks the learner itself.

:func:`synthia.compile` of a :class:`~synthia.GuidedPicker` (or of a wiring that holds one)
stages the guided picker's wiring like any other (:mod:`synthia.staging.compiler`), except
that each draw is the learner's decision written out in place -- the table entry of the
choice point in the current abstract state, epsilon-greedy with random ties, the visit
recorded, the next state followed -- instead of a call through the draw source, the picker
and its stream. The tree state's spans are a saved and restored local: a span's draws change
the state its own choices see, and the state after it is the one before it. Validity,
uniqueness, rewards and learning stay the guided picker's own (:meth:`GuidedPicker.compiled_episode`).

The compiled wiring makes the same decisions in the same order as the guided picker, so it
gives exactly the same values and leaves the learner in exactly the same state. It fuses
``Constant``, ``RandomInteger``, ``RandomFloat`` (finite, when floats are bucketed),
``RandomBoolean``, ``Choice`` (with its own uniform decision), ``Apply``, ``ComposeList``,
``ArrayPicker``, ``Deferred``, ``MarkovChain`` and the grammars without pattern terminals
(each rule's alternative decided in place, each derivation a span); a guided picker whose
wiring holds any other picker, or whose choice points are selected, is called as it is.

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

from ..core.constant import Constant
from ..core.picker import Picker
from ..pickers.basic import Apply, Choice, Deferred
from ..pickers.collections import ComposeList
from ..pickers.grammar import Derivation, GrammarSentence, GrammarSequence, Literal, NonTerminal
from ..pickers.markov import MarkovChain
from ..pickers.scalars import RandomBoolean, RandomFloat, RandomInteger
from ..pickers.tuples import ArrayPicker
from ..rl import GuidedPicker, GuideSource
from ..rl.guided import CHOICE
from ..rl.learning import greedy
from .compiler import _check_untouched, _Instrumented, _maker, _Stager

__all__ = ["NotFusable", "stage_guided", "guided_source"]

#: The pickers a guided wiring may hold to be compiled.
FUSED: tuple[type, ...] = (
    Constant, RandomInteger, RandomFloat, RandomBoolean, Choice, Apply, ComposeList, ArrayPicker, Deferred, MarkovChain,
    GrammarSentence, GrammarSequence,
)

#: The names the generated code shares between its functions (set at the start of each episode).
_SHARED = ("ctx", "rnd", "below", "eps", "visit", "entry_of", "follow")


def _no_pattern(regex: str) -> str:
    raise NotFusable("a grammar with pattern terminals (their draws are the pattern's own)")


class NotFusable(Exception):
    """The guided picker's wiring holds a picker (or a setting) the guided stager does not fuse."""


class _GuidedStager(_Stager):
    """The stager of a guided picker's wiring: each draw is the learner's decision, in place."""

    def __init__(self, guided: GuidedPicker[Any]) -> None:
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

    # -- nodes ---------------------------------------------------------------------------
    def emit(self, node: Picker[Any], out: list[str], ind: str) -> str:
        kind = type(node)
        if kind not in FUSED:
            raise NotFusable(f"{kind.__name__} is not fused in a guided wiring")
        if kind is Choice:
            decision = node.decision  # type: ignore[attr-defined]
            if not (type(decision) is RandomFloat and decision.low >= 0.0 and decision.high <= 1.0):
                raise NotFusable("a Choice with its own decision picker")
        if self.tree and self.guided.opens_span(node):
            _check_untouched(node)
            # A span: its draws move its own copy of the state; after it, the state is the one before it.
            saved = self.var("ctx")
            out.append(f"{ind}{saved} = ctx  # a span opens")
            value = self.dispatch(node, out, ind)
            out.append(f"{ind}ctx = {saved}  # the span closes")
            return value
        _check_untouched(node)
        return self.dispatch(node, out, ind)

    def call(self, node: Picker[Any], out: list[str], ind: str) -> str:
        raise NotFusable(f"{type(node).__name__} would be called as it is")

    def pick_of(self, node: Picker[Any]) -> str:
        raise NotFusable(f"{type(node).__name__} would be called as it is")

    def _point(self, node: Picker[Any]) -> int:
        point = self.guided.point_of(node)
        if point is None:
            raise _Instrumented  # routed elsewhere right now: the guided picker picks through its graph
        return point

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

    def _integer(self, node: RandomInteger, out: list[str], ind: str) -> str:
        self.staged += 1
        point = self._point(node)
        low, high = node.low, node.high
        n = high - low
        v = self.var("i")
        if n <= 1:
            out.append(f"{ind}{v} = {low!r}  # RandomInteger({low}, {high}): one value, no decision")
        elif n <= self.max_actions:
            a = self._act(point, (low, high), n, out, ind)
            out.append(f"{ind}{v} = {low!r} + {a}  # RandomInteger({low}, {high})")
        else:  # a wide range: the learner picks one of max_actions buckets, the value in it is uniform
            limit = self.max_actions
            bucket = self._act(point, (low, high), limit, out, ind)
            start, end = self.var("lo"), self.var("hi")
            out.append(f"{ind}{start} = {low!r} + {bucket} * {n} // {limit}")
            out.append(f"{ind}{end} = {low!r} + ({bucket} + 1) * {n} // {limit}")
            out.append(f"{ind}{v} = {start} + below({end} - {start})  # RandomInteger({low}, {high}), bucketed")
        return v

    def _float(self, node: RandomFloat, out: list[str], ind: str) -> str:
        self.staged += 1
        point = self._point(node)
        low, high = node.low, node.high
        buckets = self.buckets
        if not buckets or not high - low < math.inf:
            raise NotFusable("a float left random or unbounded")
        bucket = self._act(point, (low, high), buckets, out, ind)
        width = (high - low) / buckets
        v = self.var("f")
        out.append(f"{ind}{v} = {self.literal(low)} + ({bucket} + rnd()) * {self.literal(width)}  # RandomFloat({low!r}, {high!r})")
        out.append(f"{ind}if not {self.literal(low)} <= {v} < {self.literal(high)}:")
        out.append(f"{ind}    {v} = {self.literal(low)} + {bucket} * {self.literal(width)}")
        return v

    def _choice(self, node: Choice[Any], out: list[str], ind: str) -> str:
        """A ``Choice`` whose own decision is a choice point: the learner picks the alternative
        (one action per alternative of positive weight), no float made for it."""
        point = self.guided.point_of(node.decision)
        values = None if point is None else self.source.choices.get(point)
        if values is None:
            return super()._choice(node, out, ind)
        self.staged += 2
        alternatives = node.alternatives
        chosen = [node.index_of(v) for v in values]
        a = self._act(point, CHOICE, len(values), out, ind)
        index = a
        if chosen != list(range(len(alternatives))):
            index = self.var("i")
            out.append(f"{ind}{index} = {self.bind('chosen', tuple(chosen))}[{a}]  # the alternative of each action")
        return self._branches(alternatives, chosen, out, ind, lambda j: f"{index} == {j}", index=index)

    def _boolean(self, node: RandomBoolean, out: list[str], ind: str) -> str:
        self.staged += 1
        point = self._point(node)
        v = self.var("b")
        if node.p <= 0.0 or node.p >= 1.0:
            out.append(f"{ind}{v} = {node.p >= 1.0!r}  # RandomBoolean({node.p!r}): no decision")
            return v
        a = self._act(point, "boolean", 2, out, ind)
        out.append(f"{ind}{v} = {a} == 1  # RandomBoolean")
        return v

    def _guided(self, node: GuidedPicker[Any], out: list[str], ind: str) -> str:
        raise NotFusable("a guided picker inside a guided wiring")

    def _grammar_functions(self, node: GrammarSentence | GrammarSequence) -> dict[str, str]:
        """A rule's function, as the compiler writes it, with the alternative the learner's
        decision at the choice point ``(picker, ("rule", rule))`` among the alternatives that
        fit the depth; under the tree state each derivation is a span (the state saved on
        entry, restored on return)."""
        grammar = node.grammar
        point = self._point(node)
        sentence = type(node) is GrammarSentence
        make = self.bind("Derivation", Derivation, "Derivation")
        names = {rule: self.var("rule") for rule in grammar.rules}
        for rule, alternatives in grammar.rules.items():
            if any(not isinstance(symbol, (NonTerminal, Literal)) for alternative in alternatives for symbol in alternative):
                raise NotFusable("a grammar with pattern terminals (their draws are the pattern's own)")
            order = grammar.simplest_first[rule]
            by_depth = []
            for depth in range(node.max_depth + 1):
                fitting = [i for i in order if depth + grammar.alternative_depth(rule, i) <= node.max_depth] or order[:1]
                by_depth.append((len(fitting), tuple(fitting)))
            if max(n for n, _ in by_depth) > self.max_actions:
                raise NotFusable("a rule with more alternatives than max_actions")
            table = self.bind("fitting", tuple(by_depth))
            rule_keys = {n: ((point, ("rule", rule)), (0, n)) for n, _ in by_depth}
            keys = self.bind("keys", rule_keys)
            rule_names = self.bind("names", {n: self.source.name_of(key) for n, key in rule_keys.items()})
            body = [f"    def {names[rule]}(depth, put):  # a rule of the grammar, decided by the learner"]
            if self.tree:
                body.append("        saved = ctx  # the derivation is a span")
            used = sorted(set(index for _, fit in by_depth for index in fit))
            if all(n == 1 for n, _ in by_depth):  # one alternative at every depth: no decision
                body.append(f"        a = {used[0]}")
            else:
                body.append(f"        n, fit = {table}[depth]")
                body.append("        if n == 1:")
                body.append("            a = fit[0]")
                body.append("        else:")
                j = self._decide(f"{rule_names}[n]", f"{keys}[n]", "n", body, " " * 12, f"the rule {rule!r}")
                body.append(f"            a = fit[{j}]")
            self._derivations(alternatives, used, names, sentence, body, _no_pattern)
            if self.tree:
                body.append("        ctx = saved")
            body.append(f"        return {make}({self.bind('rule', rule)}, a, children)")
            self.functions.append(body)
        return names

    # -- the whole function ----------------------------------------------------------------
    def stage_wiring(self) -> tuple[str, tuple[Any, ...]]:
        body: list[str] = []
        value = self.emit(self.guided.wiring, body, " " * 8)
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


def guided_source(guided: GuidedPicker[Any]) -> str:
    """The generated source of a guided picker's wiring (``NotFusable`` when it is not fused).

    >>> import synthia as sy
    >>> print(guided_source(sy.guided(sy.RandomBoolean(), seed=1)).splitlines()[0])
    # synthia.compile: the wiring of a guided picker, 1 pickers staged
    """
    return _GuidedStager(guided).stage_wiring()[0]


def stage_guided(guided: GuidedPicker[Any]) -> Callable[[GuideSource], Any]:
    """The guided picker's wiring as one function of its draw source, for
    :meth:`GuidedPicker.compiled_pick` (``NotFusable`` when it is not fused).

    >>> import synthia as sy
    >>> g = sy.guided(sy.RandomInteger(0, 3), seed=1)
    >>> g.compiled_pick(stage_guided(g)) in range(3)
    True
    """
    return _staged(guided)[1]


def _staged(guided: GuidedPicker[Any]) -> tuple[str, Callable[[GuideSource], Any]]:
    source, env = _GuidedStager(guided).stage_wiring()
    make: Any = _maker(source)
    return source, make(env)
