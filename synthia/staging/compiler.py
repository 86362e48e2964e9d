"""``compile(picker)``: a wiring of built-in pickers turned into one generated Python function.

The stager walks the wiring once and writes Python source for it, the way the Allegro
paper stages generators (``../shared/reference/papers-rl-and-staging.md``, Part B):

* one local variable per draw, in the order the wiring makes its draws;
* the rejection loop of an integer range inlined on the stream's ``getrandbits``, a float
  range on its ``random`` (the C methods of the Mersenne Twister, bound once);
* a weighted :class:`~synthia.Choice` unrolled into an ``if`` chain on the running sums of
  its weights (no list, no search);
* a loop for a :class:`~synthia.ComposeList`, a tuple for an :class:`~synthia.ArrayPicker`,
  a direct call of the user's function for an :class:`~synthia.Apply`;
* one local recursive function for each :class:`~synthia.Deferred`, with its depth counter;
* one local function per rule for a :class:`~synthia.GrammarSentence` or
  :class:`~synthia.GrammarSequence` (the alternatives that fit the depth budget tabled by
  depth, each alternative's symbols unrolled, a sentence's tokens collected on the way);
* for a :class:`~synthia.Bind` with ``cache=True``, its first value staged and each wiring it
  keeps compiled once, at its first pick (a ``Bind`` without it builds new pickers on every
  pick, so it is called as it is).

Every other picker (a user's class, a stateful picker such as ``Tick`` or ``Freeze``, a
picker of the domain catalog) is **called as it is** inside the fused code, and so is every
user function. The generated code reads the same streams as the wiring and makes exactly
the same draws in the same order, so it gives exactly the same values: same seed, same
sequence. Names and constants are handed to the generated code as objects (the arguments
of its ``make(env)``), never spliced into its text: only numbers the stager computed (a
range's bounds, a bit count, running sums) appear in the source as literals.

The compiled picker shares the wiring (picking from one moves the other, like any input),
and it is transparent to seeding: ``compile(p).set_seed(s)`` seeds ``p`` as
``p.set_seed(s)`` does. While a draw source is routed through it
(:func:`~synthia.routed`: recording, replaying, shrinking, Hypothesis's data) or its
picks are intercepted (provenance recording, per-picker timing), it picks through the
graph itself, so draws, spans and provenance are exactly those of the wiring.
"""
from __future__ import annotations

import builtins
from bisect import bisect_right
import itertools
import linecache
import math
import re
from collections import OrderedDict
from typing import Any, Callable, Iterator, TypeVar

from ..core.checks import check_count_pick, check_unit_pick, cumulative, positional_order
from ..core.constant import Constant
from ..core.routing import live_stream, route_key
from ..core.graph import upstream
from ..core.exceptions import NoMoreElements
from ..core.inputs import value_input
from ..core.instrument import WATCHED, intercepted
from ..core.lean import generate_lean_picks
from ..core.picker import UNSET, Picker, Seedable
from ..core.random import Stream, weighted_index
from ..pickers.basic import Apply, Choice, Deferred
from ..pickers.collections import ComposeList
from ..pickers.dependent import Bind
from ..pickers.grammar import Derivation, DerivedString, GrammarSentence, GrammarSequence, Literal, NonTerminal
from ..pickers.regex import RegexGenerator
from ..pickers.markov import MarkovChain
from ..pickers.scalars import RandomBoolean, RandomFloat, RandomInteger
from ..pickers.tuples import ArrayPicker
from ..rl import GuidedPicker

__all__ = ["compile", "Compiled", "STAGED"]

T = TypeVar("T")

#: The picker classes the stager fuses into the generated code (exactly these classes, not
#: subclasses); any other picker is called as it is.
STAGED: tuple[type, ...] = (
    Constant, RandomInteger, RandomFloat, RandomBoolean, Choice, Apply, ComposeList, ArrayPicker, Deferred, MarkovChain,
    Bind, GrammarSentence, GrammarSequence, GuidedPicker,
)

#: Alternatives of a Choice unrolled into an ``if`` chain; a longer choice among plain
#: values indexes a tuple instead.
_UNROLL = 12
_CACHE_SIZE = 256
_MAKERS: "OrderedDict[str, Callable[[tuple[Any, ...]], Callable[[], Any]]]" = OrderedDict()
_serial = itertools.count(1)
#: ``name = expression  # comment``: one generated statement that a comprehension can take.
_SIMPLE = re.compile(r"^\s*(\w+) = ([^#]*?)(  #.*)?$")
#: ``name = callable()  # comment``: a generated statement that only calls one object.
_ONE_CALL = re.compile(r"^\s*(\w+) = (\w+)\(\)(  #.*)?$")


def _no_way_out(state: Any) -> None:
    raise NoMoreElements(f"state {state!r} has no way out")


class _Instrumented(Exception):
    """A picker of the wiring is routed or intercepted right now: pick through the graph."""


def _live(node: Picker[Any]) -> Stream:
    stream = live_stream(node)
    if stream is None:
        raise _Instrumented
    return stream


def _untouched(wiring: Picker[Any]) -> bool:
    """Whether no picker of ``wiring`` is routed or intercepted right now."""
    for _, node in upstream(wiring):
        if intercepted(node) or route_key(node):
            return False
    return True


def _check_untouched(node: Picker[Any]) -> None:
    if intercepted(node):
        raise _Instrumented  # a wrapper (spans, provenance, timing) must see this pick


class _KeptPicks:
    """A call picks for a value whose wiring a ``Bind(cache=True)`` does not keep yet (or
    dropped at a reset): the ``Bind`` builds and keeps it, and its compiled pick goes to
    ``bind.compiled``, where the staged code finds it next time."""

    __slots__ = ("bind",)

    def __init__(self, bind: Bind[Any]) -> None:
        self.bind = bind

    def __call__(self, value: Any) -> Any:
        bind = self.bind
        inner = bind.inner_for(value)  # a TypeError for an unhashable value, as unstaged
        cls, compiled = value.__class__, bind.compiled

        def second() -> Any:
            # Compiled at the value's second pick: a value met once (a wide range) costs no
            # staging. Wirings of one shape share one source (numbers are objects), so
            # this is a walk over the wiring, not a compilation.
            fast = _fast_pick(inner)
            compiled[value] = (cls, fast)
            return fast()

        compiled[value] = (cls, second)
        return inner.pick()

    def __repr__(self) -> str:
        return f"_KeptPicks({self.bind!r})"


def _fast_pick(wiring: Picker[Any]) -> Callable[[], Any]:
    """The generated pick of ``wiring`` (its own ``pick`` when nothing fuses or it is routed)."""
    try:
        stager = _Stager(shared=True)
        source, env = stager.stage(wiring)
    except _Instrumented:
        return wiring.pick
    return stager.function(wiring, source, env)


class _Stager:
    """One walk over a wiring: the generated source and the objects it needs."""

    def __init__(self, shared: bool = False, one: Picker[Any] | None = None) -> None:
        #: Numbers as objects too (not literals), so that wirings of one shape that differ
        #: in their numbers (the wirings a ``Bind`` keeps per value) share one source.
        self.shared = shared
        #: Stage this picker alone (its lean pick): its inputs picked through their ``pick``,
        #: read at each call, so that routes and wrappers on them are seen.
        self.one = one
        self.env_names: list[str] = []
        self.env_values: list[Any] = []
        self._bound: dict[Any, str] = {}
        self._count = itertools.count()
        self.functions: list[list[str]] = []
        self.prelude: list[str] = []
        self._deferred: dict[int, str] = {}
        self._grammars: dict[int, dict[str, str]] = {}
        self.staged = 0
        self.called = 0
        #: The generated sources of the guided pickers' wirings, shown after the function.
        self.appendix: list[str] = []
        #: The statements of ``pick`` and the name of the value it returns (after :meth:`stage`).
        self.body: list[str] = []
        self.value = ""

    # -- names ---------------------------------------------------------------------------
    def var(self, prefix: str = "v") -> str:
        return f"{prefix}{next(self._count)}"

    def bind(self, prefix: str, obj: Any, key: Any = None) -> str:
        """The name under which the generated code sees ``obj`` (an argument of ``make``)."""
        if key is not None and key in self._bound:
            return self._bound[key]
        name = f"{prefix}_{len(self.env_names)}"
        self.env_names.append(name)
        self.env_values.append(obj)
        if key is not None:
            self._bound[key] = name
        return name

    def literal(self, value: Any, prefix: str = "k") -> str:
        """A number the stager computed, as a literal; anything else as a bound object."""
        if self.shared:
            return self.bind(prefix, value)
        if type(value) is int or (type(value) is float and math.isfinite(value)):
            return repr(value)
        return self.bind(prefix, value)

    # -- nodes ---------------------------------------------------------------------------
    def emit(self, node: Picker[Any], out: list[str], ind: str) -> str:
        """Append the statements that pick from ``node``; return the name of the value."""
        if self.one is not None and node is not self.one and type(node) is not Constant:
            name = self.bind("input", node, ("input", id(node)))
            v = self.var("p")
            out.append(f"{ind}{v} = {name}.pick()  # an input, through its pick")
            return v
        if type(node) in STAGED:
            _check_untouched(node)
        return self.dispatch(node, out, ind)

    def dispatch(self, node: Picker[Any], out: list[str], ind: str) -> str:
        """:meth:`emit`, once ``node`` is known to be untouched (or wrapped by what stages it)."""
        kind = type(node)
        if node is self.one:  # a subclass that keeps the pick of its class (Struct is an Apply)
            kind = Choice if isinstance(node, Choice) else Apply
        if kind is Constant:
            self.staged += 1
            return self.bind("const", node.value, ("const", id(node)))  # type: ignore[attr-defined]
        if kind is RandomInteger:
            return self._integer(node, out, ind)  # type: ignore[arg-type]
        if kind is RandomFloat and node.high - node.low != math.inf:  # type: ignore[attr-defined]
            return self._float(node, out, ind)  # type: ignore[arg-type]
        if kind is RandomBoolean:
            return self._boolean(node, out, ind)  # type: ignore[arg-type]
        if kind is Choice:
            return self._choice(node, out, ind)  # type: ignore[arg-type]
        if kind is Apply:
            return self._apply(node, out, ind)  # type: ignore[arg-type]
        if kind is ComposeList:
            return self._list(node, out, ind)  # type: ignore[arg-type]
        if kind is ArrayPicker:
            self.staged += 1
            items = [self.emit(p, out, ind) for p in node.pickers]  # type: ignore[attr-defined]
            v = self.var("t")
            out.append(f"{ind}{v} = ({', '.join(items)}{',' if len(items) == 1 else ''})  # ArrayPicker")
            return v
        if kind is Deferred:
            return self._call_deferred(node, out, ind)  # type: ignore[arg-type]
        if kind is MarkovChain and node.start is not UNSET:  # type: ignore[attr-defined]
            return self._markov(node, out, ind)  # type: ignore[arg-type]
        if kind is GuidedPicker:
            return self._guided(node, out, ind)  # type: ignore[arg-type]
        if kind is Bind and node.cache:  # type: ignore[attr-defined]
            return self._bind_kept(node, out, ind)  # type: ignore[arg-type]
        if kind is GrammarSentence or kind is GrammarSequence:
            return self._grammar(node, out, ind)  # type: ignore[arg-type]
        return self.call(node, out, ind)

    def _grammar(self, node: GrammarSentence | GrammarSequence, out: list[str], ind: str) -> str:
        """A grammar picker: one local function per rule, ``rule(depth, put)``, which draws the
        alternative among those that fit the depth budget (a table per rule, by depth, worked
        out here as the picker does), derives its symbols left to right and returns the
        :class:`~synthia.pickers.grammar.Derivation`; ``put`` collects the sentence's tokens
        on the way (a sentence), so the tree is not walked again."""
        self.staged += 1
        functions = self._grammars.get(id(node))
        if functions is None:
            functions = self._grammar_functions(node)
            self._grammars[id(node)] = functions
        start = functions[node.grammar.start]
        d, v = self.var("d"), self.var("g")
        if type(node) is GrammarSentence:
            tokens = self.var("tokens")
            out.append(f"{ind}{tokens} = []  # {type(node).__name__}")
            out.append(f"{ind}{d} = {start}(0, {tokens}.append)")
            sentence = self.bind("DerivedString", DerivedString, "DerivedString")
            out.append(f"{ind}{v} = {sentence}({self.bind('separator', node.separator)}.join({tokens}))")
            out.append(f"{ind}{v}.derivation = {d}")
        else:
            out.append(f"{ind}{d} = {start}(0, None)  # {type(node).__name__}")
            build = self.bind("build", node.build)  # type: ignore[union-attr]
            out.append(f"{ind}{v} = {build}({d})")
        return v

    def _grammar_functions(self, node: GrammarSentence | GrammarSequence) -> dict[str, str]:
        grammar = node.grammar
        sentence = type(node) is GrammarSentence
        bits = self.bind("getrandbits", _live(node).getrandbits, ("getrandbits", id(node)))
        stream = self.bind("stream", node.stream)
        make = self.bind("Derivation", Derivation, "Derivation")
        names = {rule: self.var("rule") for rule in grammar.rules}
        generators: dict[str, str] = {}
        for rule, alternatives in grammar.rules.items():
            order = grammar.simplest_first[rule]
            by_depth = []
            for depth in range(node.max_depth + 1):
                fitting = [i for i in order if depth + grammar.alternative_depth(rule, i) <= node.max_depth] or order[:1]
                by_depth.append((len(fitting), (len(fitting) - 1).bit_length(), tuple(fitting)))
            table = self.bind("fitting", tuple(by_depth))
            name = names[rule]
            body = [f"    def {name}(depth, put):  # a rule of the grammar"]
            used = sorted(set(index for _, _, fit in by_depth for index in fit))
            if all(n == 1 for n, _, _ in by_depth):  # one alternative at every depth: no draw
                body.append(f"        a = {used[0]}")
            else:
                body.append(f"        n, k, fit = {table}[depth]")
                body.append("        if n == 1:")
                body.append("            a = fit[0]")
                body.append("        else:")
                body.append(f"            j = {bits}(k)")
                body.append("            while j >= n:")
                body.append(f"                j = {bits}(k)")
                body.append("            a = fit[j]")
            def pattern(regex: str) -> str:
                generate = generators.get(regex)
                if generate is None:
                    generate = generators[regex] = self.bind("regex", RegexGenerator(regex).generate)
                return f"{generate}({stream})"

            self._derivations(alternatives, used, names, sentence, body, pattern)
            body.append(f"        return {make}({self.bind('rule', rule)}, a, children)")
            self.functions.append(body)
        return names

    def _derivations(
        self, alternatives: list[Any], used: list[int], names: dict[str, str], sentence: bool, body: list[str],
        pattern: Callable[[str], str],
    ) -> None:
        """For each alternative ``a`` of ``used``: its symbols derived left to right into
        ``children`` (a rule's function called, a literal put, ``pattern(regex)`` the call that
        generates a pattern terminal)."""
        for position, index in enumerate(used):
            if len(used) == 1:
                pad = "        "
            else:
                pad = "            "
                last = position == len(used) - 1
                body.append("        else:" if last else f"        {'if' if position == 0 else 'elif'} a == {index}:")
            children = []
            for symbol in alternatives[index]:
                if isinstance(symbol, NonTerminal):
                    child = self.var("c")
                    body.append(f"{pad}{child} = {names[symbol.name]}(depth + 1, put)")
                    children.append(child)
                elif isinstance(symbol, Literal):
                    text = self.bind("text", symbol.text)
                    if sentence and symbol.text != "":
                        body.append(f"{pad}put({text})")
                    children.append(text)
                else:
                    child = self.var("c")
                    body.append(f"{pad}{child} = {pattern(symbol.regex)}")
                    if sentence:
                        body.append(f"{pad}if {child} != '':")
                        body.append(f"{pad}    put({child})")
                    children.append(child)
            body.append(f"{pad}children = [{', '.join(children)}]")

    def _bind_kept(self, node: Bind[Any], out: list[str], ind: str) -> str:
        """A ``Bind(cache=True)``: its first value staged, then the wiring kept for that value,
        each one compiled once (at its first pick) and held by the ``Bind`` (``bind.compiled``,
        which ``reset`` empties with the wirings)."""
        _check_untouched(node.maker)  # the staged code does what the maker's pick does
        self.staged += 1
        x = self.emit(node.picker, out, ind)
        fast_get = self.bind("compiled_get", node.compiled.get)
        slow = self.bind("first_pick", _KeptPicks(node))
        e, v = self.var("e"), self.var("b")
        if type(node.picker) in (RandomInteger, RandomFloat, RandomBoolean):  # one type of value, hashable
            out.append(f"{ind}{e} = {fast_get}({x})  # Bind(cache=True): the compiled pick of the wiring kept for the value")
            out.append(f"{ind}if {e} is not None:")
        else:
            out.append(f"{ind}try:  # Bind(cache=True): the compiled pick of the wiring kept for the value")
            out.append(f"{ind}    {e} = {fast_get}({x})")
            out.append(f"{ind}except TypeError:  # unhashable: the Bind says so")
            out.append(f"{ind}    {e} = None")
            out.append(f"{ind}if {e} is not None and {e}[0] is {x}.__class__:")
        out.append(f"{ind}    {v} = {e}[1]()")
        out.append(f"{ind}else:")
        out.append(f"{ind}    {v} = {slow}({x})")
        return v

    def _boolean(self, node: RandomBoolean, out: list[str], ind: str) -> str:
        self.staged += 1
        random = self.bind("random", _live(node).random, ("random", id(node)))
        v = self.var("b")
        out.append(f"{ind}{v} = {random}() < {self.literal(node.p)}  # RandomBoolean")
        return v

    def _guided(self, node: GuidedPicker[Any], out: list[str], ind: str) -> str:
        """A guided picker: its wiring compiled to ask the learner itself (see
        :mod:`synthia.staging.guide_stager`), or the picker called as it is when its wiring holds
        pickers the guided stager does not fuse."""
        from .guide_stager import NotFusable, guided_source, stage_guided

        try:
            wiring = stage_guided(node)
        except NotFusable:
            return self.call(node, out, ind)
        self.appendix.append(guided_source(node))
        self.staged += 1
        pick = self.bind("compiled_pick", node.compiled_pick, ("compiled_pick", id(node)))
        v = self.var("g")
        out.append(f"{ind}{v} = {pick}({self.bind('guided_wiring', wiring)})  # GuidedPicker: its wiring compiled")
        return v

    def _markov(self, node: MarkovChain, out: list[str], ind: str) -> str:
        """The chain's state stays on the chain (``current``), so reset and copies work as usual."""
        self.staged += 1
        tables = {}
        for source, targets in node.transitions.items():
            names = [t for t, w in targets.items() if w > 0]
            if not names:
                continue
            sums = cumulative([targets[t] for t in names])
            back = []
            for i in range(len(names) + 1):
                j = min(i, len(names) - 1)
                while j > 0 and sums[j] == sums[j - 1]:
                    j -= 1
                back.append(names[j])
            tables[source] = (tuple(sums), sums[-1], tuple(back))
        chain = self.bind("chain", node, ("chain", id(node)))
        table_name = self.bind("tables", tables)
        unset = self.bind("UNSET", UNSET, "UNSET")
        stuck = self.bind("no_way_out", _no_way_out, "no_way_out")
        bisect = self.bind("bisect_right", bisect_right, "bisect_right")
        state, table = self.var("s"), self.var("tb")
        out.append(f"{ind}{state} = {chain}.current  # MarkovChain")
        out.append(f"{ind}if {state} is {unset}:")
        out.append(f"{ind}    {state} = {self.bind('start', node.start)}")
        out.append(f"{ind}else:")
        out.append(f"{ind}    {table} = {table_name}.get({state})")
        out.append(f"{ind}    if {table} is None:")
        out.append(f"{ind}        {stuck}({state})")
        decision = node.decision
        inner = ind + "    "
        if type(decision) is RandomFloat and decision.low >= 0.0 and decision.high <= 1.0:
            u = self.emit(decision, out, inner)
        else:
            check = self.bind("check_unit_pick", check_unit_pick, "check_unit_pick")
            u = self.var("u")
            out.append(f"{inner}{u} = float({check}({self.pick_of(decision)}(), 'decision', {self.bind('decision', decision)}))")
        out.append(f"{inner}{state} = {table}[2][{bisect}({table}[0], {u} * {table}[1])]")
        out.append(f"{ind}{chain}.current = {state}")
        v = self.var("m")
        if all(type(p) is Constant for p in node.states.values()):
            values = self.bind("emits", {name: p.value for name, p in node.states.items()})  # type: ignore[attr-defined]
            out.append(f"{ind}{v} = {values}[{state}]")
        else:
            picks = {name: self.env_values[self.env_names.index(self.pick_of(p))] for name, p in node.states.items()}
            out.append(f"{ind}{v} = {self.bind('emits', picks)}[{state}]()")
        return v

    def pick_of(self, node: Picker[Any]) -> str:
        """The name of ``node``'s pick, called as it is (its class's ``pick``, which reads a
        held sampler live, so a ``tell`` or a new stream is seen)."""
        _check_untouched(node)
        self.called += 1
        return self.bind("pick", node.pick, ("pick", id(node)))

    def call(self, node: Picker[Any], out: list[str], ind: str) -> str:
        """A picker called as it is."""
        name = self.pick_of(node)
        v = self.var("p")
        out.append(f"{ind}{v} = {name}()  # called as it is")
        return v

    def _integer(self, node: RandomInteger, out: list[str], ind: str) -> str:
        self.staged += 1
        low, high = node.low, node.high
        n = high - low
        k = (n - 1).bit_length()
        v = self.var("i")
        about = "" if self.shared else f"({low}, {high})"
        if n == 1:
            out.append(f"{ind}{v} = {self.literal(low)}  # RandomInteger{about}: one value, no draw")
            return v
        bits = self.bind("getrandbits", _live(node).getrandbits, ("getrandbits", id(node)))
        r = v if low == 0 else self.var("r")
        out.append(f"{ind}{r} = {bits}({self.literal(k)})  # RandomInteger{about}")
        if n != 1 << k:
            out.append(f"{ind}while {r} >= {self.literal(n)}:")
            out.append(f"{ind}    {r} = {bits}({self.literal(k)})")
        if low != 0:
            out.append(f"{ind}{v} = {self.literal(low)} + {r}")
        return v

    def _float(self, node: RandomFloat, out: list[str], ind: str) -> str:
        self.staged += 1
        random = self.bind("random", _live(node).random, ("random", id(node)))
        v = self.var("f")
        low, high = node.low, node.high
        if low == 0.0 and high == 1.0:
            out.append(f"{ind}{v} = {random}()  # RandomFloat()")
            return v
        about = "" if self.shared else f"({low!r}, {high!r})"
        out.append(f"{ind}{v} = {self.literal(low)} + {self.literal(high - low)} * {random}()  # RandomFloat{about}")
        out.append(f"{ind}if not {v} < {self.literal(high)}:")
        out.append(f"{ind}    {v} = {self.literal(low)}")
        return v

    def _choice(self, node: Choice[Any], out: list[str], ind: str) -> str:
        self.staged += 1
        alternatives = node.alternatives
        n = len(alternatives)
        weights = node.weights
        decision = node.decision
        uniform = len(set(weights)) == 1
        i = self.var("i")
        if type(decision) is RandomFloat and decision.low >= 0.0 and decision.high <= 1.0:
            u = self.emit(decision, out, ind)
            if n == 1:
                pass
            elif uniform and n <= _UNROLL:
                # int(u * n) == j exactly when j <= u * n < j + 1: compared, without int()'s call.
                t = self.var("t")
                out.append(f"{ind}{t} = {u} * {self.literal(float(n))}  # Choice of {n}, uniform")
                return self._branches(alternatives, list(range(n)), out, ind, lambda j: f"{t} < {self.literal(float(j + 1))}")
            elif uniform:
                out.append(f"{ind}{i} = int({u} * {n})  # Choice of {n}, uniform")
            else:
                sums = cumulative(weights)
                positive = [j for j in range(n) if (sums[j] - (sums[j - 1] if j else 0.0)) > 0]
                if len(positive) > _UNROLL:
                    index = self.bind("weighted_index", weighted_index, "weighted_index")
                    out.append(f"{ind}{i} = {index}({u}, {self.bind('sums', tuple(sums))})  # Choice of {n}, weighted")
                else:
                    t = self.var("t")
                    out.append(f"{ind}{t} = {u} * {self.literal(sums[-1])}  # Choice of {n}, weighted")
                    return self._branches(alternatives, positive, out, ind, lambda j: f"{t} < {self.literal(sums[j])}")
        else:
            choose = self.bind("choose", node.choose, ("choose", id(node)))
            out.append(f"{ind}{i} = {choose}()  # Choice of {n}: its decision is called as it is")
        if n == 1:
            return self.emit(alternatives[0], out, ind)
        return self._branches(alternatives, list(range(n)), out, ind, lambda j: f"{i} == {j}", index=i)

    def _branches(
        self, alternatives: list[Picker[Any]], indices: list[int], out: list[str], ind: str, test: Callable[[int], str], index: str = ""
    ) -> str:
        """``if test(j): value = alternative j`` for each ``j`` of ``indices``, the last one the ``else``."""
        v = self.var("c")
        if len(indices) == 1:
            out.append(f"{ind}{v} = {self.emit(alternatives[indices[0]], out, ind)}")
            return v
        if index and len(indices) > _UNROLL:
            if all(type(a) is Constant for a in alternatives):
                table = self.bind("values", tuple(a.value for a in alternatives))  # type: ignore[attr-defined]
                out.append(f"{ind}{v} = {table}[{index} if {index} < {len(alternatives)} else {len(alternatives) - 1}]")
            elif self.one is not None:
                table = self.bind("alternatives", tuple(alternatives))
                out.append(f"{ind}{v} = {table}[{index} if {index} < {len(alternatives)} else {len(alternatives) - 1}].pick()")
            else:
                picks = self.bind("picks", tuple(self.env_values[self.env_names.index(self.pick_of(a))] for a in alternatives))
                out.append(f"{ind}{v} = {picks}[{index} if {index} < {len(alternatives)} else {len(alternatives) - 1}]()")
            return v
        for position, j in enumerate(indices):
            last = position == len(indices) - 1
            out.append(f"{ind}else:" if last else f"{ind}{'if' if position == 0 else 'elif'} {test(j)}:")
            body: list[str] = []
            value = self.emit(alternatives[j], body, ind + "    ")
            if body and body[-1].startswith(f"{ind}    {value} = "):  # the value's own statement sets v
                body[-1] = f"{ind}    {v} = {body[-1][len(ind) + len(value) + 7:]}"
            else:
                body.append(f"{ind}    {v} = {value}")
            out.extend(body)
        return v

    def _apply(self, node: Apply[Any], out: list[str], ind: str) -> str:
        self.staged += 1
        args = [self.emit(a, out, ind) for a in node.args]
        order = positional_order(node.fn, len(args), list(node.kwargs)) if node.kwargs else None
        if order is not None:  # keywords naming the next positional parameters: passed by position
            picked = [self.emit(p, out, ind) for p in node.kwargs.values()]
            slots = [""] * len(picked)
            for i, slot in enumerate(order):
                slots[slot] = picked[i]
            fn = self.bind("fn", node.fn, ("fn", id(node)))
            v = self.var("a")
            out.append(f"{ind}{v} = {fn}({', '.join(args + slots)})  # Apply")
            return v
        keywords = [(self.bind("key", k), self.emit(p, out, ind)) for k, p in node.kwargs.items()]
        v = self.var("a")
        if node.fn is dict and not args:
            out.append(f"{ind}{v} = {{{', '.join(f'{k}: {e}' for k, e in keywords)}}}  # Apply(dict, ...)")
            return v
        fn = self.bind("fn", node.fn, ("fn", id(node)))
        parts = list(args)
        if keywords:
            parts.append("**{" + ", ".join(f"{k}: {e}" for k, e in keywords) + "}")
        out.append(f"{ind}{v} = {fn}({', '.join(parts)})  # Apply")
        return v

    def _list(self, node: ComposeList[Any], out: list[str], ind: str) -> str:
        self.staged += 1
        length = node.length
        n = self.emit(length, out, ind)
        safe = (type(length) is RandomInteger and length.low >= 0) or (
            type(length) is Constant and type(length.value) is int and length.value >= 0
        )
        if not safe:
            check = self.bind("check_count_pick", check_count_pick, "check_count_pick")
            source = self.bind("length", length, ("length", id(node)))
            out.append(f"{ind}if {n}.__class__ is not int or {n} < 0:")
            out.append(f"{ind}    {n} = {check}({n}, 'length', {source})")
        v = self.var("l")
        body: list[str] = []
        element = self.emit(node.element, body, ind + "    ")
        if not body:
            out.append(f"{ind}{v} = [{element} for _ in range({n})]  # ComposeList")
        elif len(body) == 1 and _SIMPLE.match(body[0]) and _SIMPLE.match(body[0]).group(1) == element:  # type: ignore[union-attr]
            expression = _SIMPLE.match(body[0]).group(2)  # type: ignore[union-attr]
            out.append(f"{ind}{v} = [{expression} for _ in range({n})]  # ComposeList")
        else:
            append = self.var("append")
            out.append(f"{ind}{v} = []  # ComposeList")
            out.append(f"{ind}{append} = {v}.append")
            out.append(f"{ind}for _ in range({n}):")
            out.extend(body)
            out.append(f"{ind}    {append}({element})")
        return v

    def _call_deferred(self, node: Deferred[Any], out: list[str], ind: str) -> str:
        name = self._deferred.get(id(node))
        if name is None:
            self.staged += 1
            name = self.var("deferred")
            self._deferred[id(node)] = name
            body = [f"    def {name}():  # Deferred"]
            target = node.target
            if node.max_depth is not None:
                depth = name.replace("deferred", "depth")
                self.prelude.append(f"    {depth} = 0")
                body.append(f"        nonlocal {depth}")
                body.append(f"        if {depth} >= {node.max_depth}:")
                fallback = self.emit(node.fallback, body, " " * 12)  # type: ignore[arg-type]
                _return(body, fallback, " " * 12)
                body.append(f"        {depth} += 1")
                body.append("        try:")
                _return(body, self.emit(target, body, " " * 12), " " * 12)
                body.append("        finally:")
                body.append(f"            {depth} -= 1")
            else:
                _return(body, self.emit(target, body, " " * 8), " " * 8)
            self.functions.append(body)
        v = self.var("d")
        out.append(f"{ind}{v} = {name}()")
        return v

    # -- the whole function ----------------------------------------------------------------
    def function(self, wiring: Picker[Any], source: str, env: tuple[Any, ...]) -> Callable[[], Any]:
        """The pick ``stage(wiring)`` generated (``source``, ``env``), unless it would only call
        one thing: then that thing itself, since a function around a call can only slow it
        (the wiring's own pick for a picker called as it is or a constant, the stream's C
        ``random`` for a ``RandomFloat()``). Compiling never makes a wiring slower."""
        if (self.staged == 0 and self.called == 1) or not self.body:  # called as it is, or a Constant
            return wiring.pick
        call = _ONE_CALL.match(self.body[0]) if len(self.body) == 1 and not self.functions and not self.prelude else None
        if call is not None and call.group(1) == self.value:
            return env[self.env_names.index(call.group(2))]  # type: ignore[no-any-return]
        return _maker(source)(env)

    def stage(self, root: Picker[Any]) -> tuple[str, tuple[Any, ...]]:
        body: list[str] = []
        value = self.emit(root, body, " " * 8)
        self.body, self.value = list(body), value  # before _return rewrites the last line
        header = f"the lean pick of one {type(root).__name__}" if self.one is not None else f"{self.staged} pickers staged, {self.called} called as they are"
        lines = [f"# synthia.compile: {header}", "def make(env):"]
        if self.env_names:
            lines.append(f"    ({', '.join(self.env_names)},) = env")
        lines.extend(self.prelude)
        for function in self.functions:
            lines.extend(function)
        lines.append("    def pick():")
        _return(body, value, " " * 8)
        lines.extend(body)
        lines.append("    return pick")
        for text in self.appendix:
            lines.extend(f"# {line}" if line else "#" for line in text.splitlines())
        return "\n".join(lines) + "\n", tuple(self.env_values)


def _return(body: list[str], value: str, ind: str) -> None:
    """End ``body`` (at indentation ``ind``) by returning ``value``: its own last statement
    returns it where it is one (no local stored and read back)."""
    if body and body[-1].startswith(f"{ind}{value} = "):
        body[-1] = f"{ind}return {body[-1][len(ind) + len(value) + 3:]}"
    else:
        body.append(f"{ind}return {value}")


def _lean_pick(picker: Picker[Any]) -> Callable[[], Any]:
    """The lean pick of one ``Choice`` or ``Apply`` (see :func:`~synthia.core.instrument.lean_pick`):
    the code the stager writes for it in a wiring, its inputs picked through their ``pick``.

    >>> import synthia as sy
    >>> choice = sy.Choice("a", sy.Tick())
    >>> print(_Stager(one=choice).stage(choice)[0])
    # synthia.compile: the lean pick of one Choice
    def make(env):
        (input_0, const_1, input_2,) = env
        def pick():
            p1 = input_0.pick()  # an input, through its pick
            t2 = p1 * 2.0  # Choice of 2, uniform
            if t2 < 1.0:
                c3 = const_1
            else:
                c3 = input_2.pick()  # an input, through its pick
            return c3
        return pick
    <BLANKLINE>
    """
    stager = _Stager(one=picker)
    source, env = stager.stage(picker)
    return stager.function(picker, source, env)


generate_lean_picks(_lean_pick)


def _maker(source: str) -> Callable[[tuple[Any, ...]], Callable[[], Any]]:
    """The ``make`` function of ``source``, compiled once per wiring shape (an LRU cache)."""
    make = _MAKERS.get(source)
    if make is not None:
        _MAKERS.move_to_end(source)
        return make
    filename = f"<synthia-staged-{next(_serial)}>"
    code = builtins.compile(source, filename, "exec")
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    namespace: dict[str, Any] = {"__builtins__": {"int": int, "float": float, "range": range, "len": len, "max": max, "TypeError": TypeError}}
    exec(code, namespace)
    make = namespace["make"]
    _MAKERS[source] = make
    if len(_MAKERS) > _CACHE_SIZE:
        _MAKERS.popitem(last=False)
    return make


def stage(wiring: Picker[Any]) -> tuple[str, tuple[Any, ...]]:
    """The generated source of ``wiring`` and the objects its ``make(env)`` takes.

    >>> import synthia as sy
    >>> source, env = stage(sy.Choice("a", sy.Tick()))
    >>> "called as it is" in source, len(env)
    (True, 3)
    """
    return _Stager().stage(wiring)


class Compiled(Seedable[T]):
    """A wiring of built-in pickers compiled to one generated Python function (see :func:`compile`).

    ``source`` is the generated code. The compiled picker shares ``wiring``; ``reset``,
    ``duplicate`` and ``set_seed`` act on the wiring exactly as on the original.

    >>> import synthia as sy
    >>> lists = sy.ComposeList(sy.RandomInteger(0, 100), sy.RandomInteger(0, 5))
    >>> fast = sy.compile(lists.duplicate())
    >>> fast.set_seed(3).take(3) == lists.set_seed(3).take(3)
    True
    >>> fast
    Compiled(ComposeList(RandomInteger(0, 100), length=RandomInteger(0, 5)))
    """

    def __init__(self, wiring: Picker[T]) -> None:
        self.wiring: Picker[T] = value_input(wiring, "wiring")  # a plain value is a Constant
        seed = self.wiring.seed
        self._init_stream(seed if isinstance(seed, int) and not isinstance(seed, bool) else 0)

    def named_inputs(self) -> Iterator[tuple[str, Picker[Any]]]:
        # An empty name: the wiring keeps the compiled picker's key, so seeds derive as without it.
        yield "", self.wiring

    def _pick(self) -> T:
        """One value, through the graph: what runs while the picker is routed or intercepted."""
        return self.wiring.pick()

    def _bind(self) -> None:
        # Called at construction, after a copy, and when a route starts or ends.
        self._made: Callable[[], T] | None = None
        if route_key(self):
            self._fast = None  # routed: through the graph (_pick)
            return
        try:
            self._fast = self._build() or self._prime
        except Exception:  # a wiring still being unpickled: build at the first pick
            self._fast = self._prime

    def __getstate__(self) -> dict[str, Any]:
        state = super().__getstate__()
        state.pop("_made", None)  # generated code: built again after unpickling
        return state

    def _build(self) -> Callable[[], T] | None:
        """Build and hold the generated function (``None`` while a picker of the wiring is
        routed or intercepted: the next pick tries again)."""
        fast = getattr(self, "_made", None)
        if fast is not None:
            return fast  # type: ignore[no-any-return]
        built = getattr(self, "_built", None)
        if built is not None and _untouched(self.wiring):
            # The end of a route (a recorded or replayed pick): the wiring is as it was when
            # the function was built, whose code reads the same pickers and streams.
            fast = built
        else:
            try:
                stager = _Stager()
                source, env = stager.stage(self.wiring)
            except _Instrumented:
                return None
            fast = stager.function(self.wiring, source, env)
        self._made = self._built = self._fast = fast
        return fast  # type: ignore[no-any-return]

    def _prime(self) -> T:
        """A pick while the function is not built yet (the end of a route): build it, then pick."""
        fast = self._build()
        return self.wiring.pick() if fast is None else fast()

    def take(self, n: int) -> list[T]:
        if not route_key(self) and not WATCHED:
            self._build()  # so that the loop holds the generated function, not the first-pick hook
        return super().take(n)

    def _seed_self(self, seed: int) -> None:
        self._stream.seed(seed)  # the wiring's pickers are seeded by the same walk

    @property
    def seed(self) -> int:
        """The seed last given to :meth:`set_seed` (the wiring's own seed before that)."""
        return self._seed

    @property
    def source(self) -> str:
        """The generated Python source (read it to see what was staged and what is called)."""
        return stage(self.wiring)[0]

    def value_range(self) -> tuple[Any, Any] | None:
        return self.wiring.value_range()

    def take_array(self, n: int) -> Any:
        """The wiring's :meth:`~synthia.Picker.take_array` (the same values as ``take(n)``)."""
        return self.wiring.take_array(n)

    def arguments(self) -> tuple[list[Any], dict[str, Any]]:
        return [self.wiring], {}


def compile(picker: Picker[T]) -> Compiled[T]:  # noqa: A001 - sy.compile is the name the issue asks for
    """Compile the wiring ``picker`` into one generated Python function that gives exactly its values.

    Built-in pickers (:data:`STAGED`) are fused into straight-line code that draws from
    the same streams in the same order; any other picker and every user function is
    called as it is. The result shares ``picker``'s wiring, is seeded, reset and
    duplicated like it, and picks through the graph whenever draws are routed or picks
    intercepted (recording, replay, shrinking, provenance), so it is never silently
    different. Compiling a compiled picker returns it; a plain value is a constant.

    >>> import synthia as sy
    >>> tree = sy.Deferred(lambda: sy.Choice(sy.RandomInteger(0, 10),
    ...                                      sy.Apply(lambda l, r: (l, r), tree, tree)),
    ...                    max_depth=3, fallback=0)
    >>> staged = sy.compile(tree)
    >>> staged.set_seed(7).take(3) == tree.set_seed(7).take(3)
    True
    >>> print(sy.compile(sy.RandomInteger(5, 10)).source)
    # synthia.compile: 1 pickers staged, 0 called as they are
    def make(env):
        (getrandbits_0,) = env
        def pick():
            r1 = getrandbits_0(3)  # RandomInteger(5, 10)
            while r1 >= 5:
                r1 = getrandbits_0(3)
            return 5 + r1
        return pick
    <BLANKLINE>
    """
    if isinstance(picker, Compiled):
        return picker
    return Compiled(value_input(picker, "picker"))
