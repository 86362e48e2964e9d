"""The stager's writer: a wiring, or one picker, written as one generated Python function.

The :class:`Emitter` walks a wiring once and writes Python source for it, the way the
Allegro paper stages generators (``../shared/reference/papers-rl-and-staging.md``, Part B):
one local variable per draw, in the order the wiring makes its draws. It knows **no picker
class**; it reads what each picker says of itself:

* a leaf that describes its draw (``draw_spec()``, :mod:`synthia.core.leaves`) is written as
  that draw inline -- the rejection loop of an integer range on the stream's
  ``getrandbits``, a float on its ``random`` (the C methods of the Mersenne Twister, bound
  once) -- followed by the mapping to a value;
* a composite that gives a hook, ``stage(emitter, out, ind)``, writes its own code (a
  ``Choice`` its ``if`` chain, a ``ComposeList`` its loop, a ``Deferred`` a local recursive
  function, a grammar one function per rule...), asking the emitter for the code of its
  inputs (:meth:`Emitter.pick`), for draws on its own stream (:meth:`Emitter.draw_raw`,
  :meth:`Emitter.draw_below`), for names (:meth:`Emitter.var`, :meth:`Emitter.bind`);
* every other picker is **called as it is** (its ``pick()``), and so is every user function.

A hook applies to the class that defines it and to subclasses that keep its ``_pick``: a
subclass with a pick of its own is called as it is. Names and constants are handed to the
generated code as objects (the arguments of its ``make(env)``), never spliced into its
text: only numbers the emitter computed (a range's bounds, a bit count, running sums) appear
in the source as literals.

Two uses: :func:`synthia.compile` writes a whole wiring (:func:`fast_pick`); a composite
with a hook holds, from its second pick, **its lean pick**: the code of that one picker, its
inputs picked through their own fast code (a described leaf's held sampler, read once per
pick; the class's ``_pick`` of a picker that holds none) (:func:`lean_from_second_pick`).
Both run only while nothing watches picks (the final ``Picker.pick`` is the fast code only
then), so the draws and spans a recorder sees are the wiring's own.

>>> import synthia as sy
>>> choice = sy.Choice("a", sy.Tick())
>>> print(Emitter(one=choice).write(choice)[0])
# synthia.compile: the lean pick of one Choice
def make(env):
    (input_0, const_1, input_2,) = env
    def pick():
        held1 = input_0._fast  # a described input: its held sampler
        p0 = held1()
        t2 = p0 * 2.0  # Choice of 2, uniform
        if t2 < 1.0:
            c3 = const_1
        else:
            c3 = input_2._pick()  # an input, through its own fast code
        return c3
    return pick
<BLANKLINE>
"""
from __future__ import annotations

import builtins
import itertools
import linecache
import math
import re
from collections import OrderedDict
from typing import Any, Callable, Iterator, Sequence

from .checks import cumulative
from .instrument import intercepted
from .leaves import DrawSpec
from .picker import Picker, Seedable, described
from .random import weighted_index
from .routing import live_stream
from .tapes import BOOLEAN, FLOAT, INTEGER, WEIGHTED

__all__ = [
    "Emitter",
    "Instrumented",
    "described",
    "is_pure",
    "fast_pick",
    "lean_pick",
    "lean_from_second_pick",
    "fast_code",
    "stage",
    "return_value",
    "UNROLL",
]

#: Alternatives of a choice unrolled into an ``if`` chain; a longer choice indexes a tuple.
UNROLL = 12
_CACHE_SIZE = 256
_MAKERS: "OrderedDict[str, Callable[[tuple[Any, ...]], Callable[[], Any]]]" = OrderedDict()
_serial = itertools.count(1)
#: ``name = expression  # comment``: one generated statement that a comprehension can take.
SIMPLE = re.compile(r"^\s*(\w+) = ([^#]*?)(  #.*)?$")
#: ``name = callable()  # comment``: a generated statement that only calls one object.
_ONE_CALL = re.compile(r"^\s*(\w+) = (\w+)\(\)(  #.*)?$")


class Instrumented(Exception):
    """A picker of the wiring is routed or watched right now: pick through the graph."""


def is_pure(node: Picker[Any]) -> bool:
    """Whether the emitter writes ``node``'s pick as a value (a ``Constant``: no draw, no state),
    so that ``node.pick()`` is that value."""
    return node.pure and node._stages


class Emitter:
    """One walk over a wiring: the generated source and the objects it needs.

    ``shared``: numbers as objects too (not literals), so that wirings of one shape that
    differ in their numbers (the wirings a ``Bind`` keeps per value) share one source.
    ``one``: write this picker alone (its lean pick): its inputs picked through their
    ``pick``, read at each call.
    """

    def __init__(self, shared: bool = False, one: Picker[Any] | None = None) -> None:
        self.shared = shared
        self.one = one
        self.env_names: list[str] = []
        self.env_values: list[Any] = []
        self._bound: dict[Any, str] = {}
        self._count = itertools.count()
        #: Local functions of ``make`` (each a list of lines, its ``def`` first).
        self.functions: list[list[str]] = []
        #: Lines of ``make`` before the functions (counters a local function updates).
        self.prelude: list[str] = []
        #: What hooks remember during one walk (a ``Deferred``'s function name, by picker).
        self.memo: dict[Any, Any] = {}
        #: Pickers written inline, and pickers called as they are.
        self.staged = 0
        self.called = 0
        #: Text shown after the function (the sources of the guided pickers' wirings).
        self.appendix: list[str] = []
        #: Statements run once at the start of each pick (an input's held sampler, read once).
        self.hoisted: list[str] = []
        #: The statements of ``pick`` and the name of the value it returns (after :meth:`write`).
        self.body: list[str] = []
        self.value = ""
        #: What hooks decide once the whole walk is written (``finisher(lines_of_pick)``): a
        #: ``Deferred`` passes its depth as an argument when nothing else calls it.
        self.finishers: list[Callable[[list[str]], None]] = []

    def finish(self, pick_lines: list[str]) -> None:
        """Run the hooks' finishers on the walk just written (``pick_lines``: pick's own)."""
        for finisher in self.finishers:
            finisher(pick_lines)
        self.finishers.clear()

    def lines_outside(self, pick_lines: list[str], own: list[str]) -> Iterator[list[str]]:
        """Every list of generated lines but ``pick_lines`` and the function ``own``."""
        yield self.prelude
        yield self.hoisted
        for function in self.functions:
            if function is not own:
                yield function

    # -- names ---------------------------------------------------------------------------
    def var(self, prefix: str = "v") -> str:
        """A new local name."""
        return f"{prefix}{next(self._count)}"

    def bind(self, prefix: str, obj: Any, key: Any = None) -> str:
        """The name under which the generated code sees ``obj`` (an argument of ``make``);
        objects bound under the same ``key`` share one name."""
        if key is not None and key in self._bound:
            return self._bound[key]
        name = f"{prefix}_{len(self.env_names)}"
        self.env_names.append(name)
        self.env_values.append(obj)
        if key is not None:
            self._bound[key] = name
        return name

    def literal(self, value: Any, prefix: str = "k") -> str:
        """A number the emitter computed, as a literal; anything else as a bound object."""
        if self.shared:
            return self.bind(prefix, value)
        if type(value) is int or (type(value) is float and math.isfinite(value)):
            return repr(value)
        return self.bind(prefix, value)

    def opaque(self, prefix: str, obj: Any, key: Any = None) -> str:
        """The name of ``obj``, a callable that picks or draws as it is (a ``Bind``'s slow path)."""
        return self.bind(prefix, obj, key)

    # -- the walk ------------------------------------------------------------------------
    def check(self, node: Picker[Any]) -> None:
        """Raise :class:`Instrumented` when a wrapper watches ``node``'s picks right now."""
        if intercepted(node):
            raise Instrumented

    def pick(self, node: Picker[Any], out: list[str], ind: str) -> str:
        """Append the statements that pick from ``node``; return the name of the value."""
        if self.one is not None and node is not self.one:
            return self.lean_input(node, out, ind)
        if node._stages:
            self.check(node)
            return node.stage(self, out, ind)  # type: ignore[misc]
        spec = described(node)
        if spec is not None:
            self.check(node)
            return self.draw(node, spec, out, ind)
        return self.call(node, out, ind)

    def lean_input(self, node: Picker[Any], out: list[str], ind: str) -> str:
        """An input of the picker written alone: a constant inline, a described leaf through
        its held sampler (read at each call, so a new stream is seen), any other through its
        ``pick``."""
        if is_pure(node):
            return node.stage(self, out, ind)  # type: ignore[misc]
        name = self.bind("input", node, ("input", id(node)))
        v = self.var("p")
        if described(node) is not None:
            held = self.memo.get(("held", id(node)))
            if held is None:  # read once per pick: a picker's stream changes between picks only
                held = self.memo[("held", id(node))] = self.var("held")
                self.hoisted.append(f"        {held} = {name}._fast  # a described input: its held sampler")
            out.append(f"{ind}{v} = {held}()")
        else:
            # Generated code runs only while nothing watches picks: the input's own fast code.
            out.append(f"{ind}{v} = {name}.{_fast_name(node)}()  # an input, through its own fast code")
        return v

    def pick_of(self, node: Picker[Any]) -> str:
        """The name of ``node``'s pick, called as it is."""
        self.check(node)
        self.called += 1
        return self.bind("pick", node.pick, ("pick", id(node)))

    def call(self, node: Picker[Any], out: list[str], ind: str) -> str:
        """A picker called as it is (its fast code, or its class's ``_pick``: generated code
        runs only while nothing watches picks, so the final ``pick`` has nothing to check)."""
        self.check(node)
        self.called += 1
        name = self.bind("picker", node, ("picker", id(node)))
        v = self.var("p")
        out.append(f"{ind}{v} = {name}.{_fast_name(node)}()  # called as it is")
        return v

    def constant(self, node: Picker[Any], value: Any) -> str:
        """The name of a constant ``value`` (``node``'s, one name per picker)."""
        self.staged += 1
        return self.bind("const", value, ("const", id(node)))

    def stream_of(self, node: Picker[Any]) -> Any:
        """``node``'s own stream, to read draws from inline (:class:`Instrumented` when routed)."""
        stream = live_stream(node)
        if stream is None:
            raise Instrumented
        return stream

    # -- draws ---------------------------------------------------------------------------
    def draw(self, node: Picker[Any], spec: DrawSpec, out: list[str], ind: str) -> str:
        """A described leaf: its draw inline, then the mapping to a value."""
        raw = self.draw_raw(node, spec.kind, spec.args, out, ind, sample=spec.sample)
        if spec.value is None:
            return raw
        v = self.var("m")
        out.append(f"{ind}{v} = {self.bind('value', spec.value, ('value', id(node)))}({raw})  # {type(node).__name__}'s value")
        return v

    def draw_raw(self, node: Picker[Any], kind: str, args: tuple[Any, ...], out: list[str], ind: str, sample: Any = None) -> str:
        """One typed draw of ``node``'s stream, inline; the name of the drawn value."""
        self.staged += 1
        label = type(node).__name__
        if sample is not None:  # a distribution of the picker's own: called on the stream
            by = self.bind("by", getattr(self.stream_of(node), "integer_by" if kind == INTEGER else "floating_by"), ("by", id(node)))
            v = self.var("s")
            out.append(f"{ind}{v} = {by}({self.literal(args[0])}, {self.literal(args[1])}, {self.bind('sample', sample)})  # {label}")
            return v
        if kind == INTEGER:
            return self._integer(node, args[0], args[1], out, ind, label)
        if kind == FLOAT:
            return self._float(node, args[0], args[1], out, ind, label)
        if kind == BOOLEAN:
            random = self.bind("random", self.stream_of(node).random, ("random", id(node)))
            v = self.var("b")
            out.append(f"{ind}{v} = {random}() < {self.literal(args[0])}  # {label}")
            return v
        if kind == WEIGHTED:
            random = self.bind("random", self.stream_of(node).random, ("random", id(node)))
            index = self.bind("weighted_index", weighted_index, "weighted_index")
            v = self.var("w")
            out.append(f"{ind}{v} = {index}({random}(), {self.bind('sums', tuple(args[0]))})  # {label}")
            return v
        raise ValueError(f"kind must be one of integer, float, boolean, weighted, got {kind!r}")

    def _integer(self, node: Picker[Any], low: int, high: int, out: list[str], ind: str, label: str) -> str:
        n = high - low
        k = (n - 1).bit_length()
        v = self.var("i")
        about = "" if self.shared else f"({low}, {high})"
        if n == 1:
            out.append(f"{ind}{v} = {self.literal(low)}  # {label}{about}: one value, no draw")
            return v
        bits = self.bind("getrandbits", self.stream_of(node).getrandbits, ("getrandbits", id(node)))
        r = v if low == 0 else self.var("r")
        out.append(f"{ind}{r} = {bits}({self.literal(k)})  # {label}{about}")
        if n != 1 << k:
            out.append(f"{ind}while {r} >= {self.literal(n)}:")
            out.append(f"{ind}    {r} = {bits}({self.literal(k)})")
        if low != 0:
            out.append(f"{ind}{v} = {self.literal(low)} + {r}")
        return v

    def _float(self, node: Picker[Any], low: float, high: float, out: list[str], ind: str, label: str) -> str:
        stream = self.stream_of(node)
        v = self.var("f")
        if high - low == math.inf:  # the width overflows: the stream's own draw
            floating = self.bind("floating", stream.floating, ("floating", id(node)))
            out.append(f"{ind}{v} = {floating}({self.bind('low', low)}, {self.bind('high', high)})  # {label}")
            return v
        random = self.bind("random", stream.random, ("random", id(node)))
        if low == 0.0 and high == 1.0:
            out.append(f"{ind}{v} = {random}()  # {label}()")
            return v
        about = "" if self.shared else f"({low!r}, {high!r})"
        out.append(f"{ind}{v} = {self.literal(low)} + {self.literal(high - low)} * {random}()  # {label}{about}")
        out.append(f"{ind}if not {v} < {self.literal(high)}:")
        out.append(f"{ind}    {v} = {self.literal(low)}")
        return v

    def draw_below(self, node: Picker[Any], n: str, k: str, counts: tuple[int, ...], out: list[str], ind: str) -> str:
        """An integer of ``[0, n)`` drawn from ``node``'s stream, ``n`` a name of the generated
        code (one of ``counts``, each above 1) and ``k`` the name of its bit count: the
        ``below(n)`` of the stream (a grammar rule's alternative)."""
        bits = self.bind("getrandbits", self.stream_of(node).getrandbits, ("getrandbits", id(node)))
        j = self.var("j")
        out.append(f"{ind}{j} = {bits}({k})")
        out.append(f"{ind}while {j} >= {n}:")
        out.append(f"{ind}    {j} = {bits}({k})")
        return j

    def stream_call(self, node: Picker[Any], fn: Callable[[Any], Any]) -> str:
        """An expression calling ``fn(stream)`` on ``node``'s stream (draws made by ``fn``)."""
        return f"{self.bind('draws', fn)}({self.bind('stream', self.stream_of(node), ('stream', id(node)))})"

    def part_open(self, label: Any, out: list[str], ind: str) -> None:
        """A part of a pick begins (a grammar rule's derivation; a span when recorded)."""

    def part_close(self, label: Any, out: list[str], ind: str) -> None:
        """The part begun by :meth:`part_open` ends."""

    # -- choices -------------------------------------------------------------------------
    def branches(
        self, alternatives: list[Picker[Any]], indices: list[int], out: list[str], ind: str, test: Callable[[int], str], index: str = ""
    ) -> str:
        """``if test(j): value = alternative j`` for each ``j`` of ``indices``, the last one the
        ``else`` (a tuple indexed by ``index`` beyond :data:`UNROLL` alternatives)."""
        v = self.var("c")
        if len(indices) == 1:
            out.append(f"{ind}{v} = {self.pick(alternatives[indices[0]], out, ind)}")
            return v
        if index and len(indices) > UNROLL:
            last = len(alternatives) - 1
            if all(is_pure(a) for a in alternatives):
                table = self.bind("values", tuple(a.pick() for a in alternatives))
                out.append(f"{ind}{v} = {table}[{index} if {index} < {last + 1} else {last}]")
            elif self.one is not None:
                table = self.bind("alternatives", tuple(alternatives))
                out.append(f"{ind}{v} = {table}[{index} if {index} < {last + 1} else {last}].pick()")
            else:
                picks = self.bind("picks", tuple(self.env_values[self.env_names.index(self.pick_of(a))] for a in alternatives))
                out.append(f"{ind}{v} = {picks}[{index} if {index} < {last + 1} else {last}]()")
            return v
        for position, j in enumerate(indices):
            last_one = position == len(indices) - 1
            out.append(f"{ind}else:" if last_one else f"{ind}{'if' if position == 0 else 'elif'} {test(j)}:")
            body: list[str] = []
            value = self.pick(alternatives[j], body, ind + "    ")
            if body and body[-1].startswith(f"{ind}    {value} = "):  # the value's own statement sets v
                body[-1] = f"{ind}    {v} = {body[-1][len(ind) + len(value) + 7:]}"
            else:
                body.append(f"{ind}    {v} = {value}")
            out.extend(body)
        return v

    def choose(
        self, node: Picker[Any], decision: Picker[Any], weights: Sequence[Any] | None, count: int, out: list[str], ind: str
    ) -> tuple[str, Callable[[int], str], list[int]] | str:
        """The index a float decision in ``[0, 1)`` chooses among ``count`` alternatives of
        ``weights`` (``None``: equal weights): the decision drawn, then either
        ``(name, test, indices)`` for an unrolled ``if`` chain over ``indices`` (``test(j)``
        true when the choice is ``j`` or one before it) or the name of the index."""
        n = count
        uniform = weights is None or len(set(weights)) == 1
        u = self.pick(decision, out, ind)
        if n == 1:
            return "0"
        if uniform and n <= UNROLL:
            # int(u * n) == j exactly when j <= u * n < j + 1: compared, without int()'s call.
            t = self.var("t")
            out.append(f"{ind}{t} = {u} * {self.literal(float(n))}  # {type(node).__name__} of {n}, uniform")
            return t, lambda j: f"{t} < {self.literal(float(j + 1))}", list(range(n))
        i = self.var("i")
        if uniform:
            out.append(f"{ind}{i} = int({u} * {n})  # {type(node).__name__} of {n}, uniform")
            return i
        sums = cumulative(weights)  # type: ignore[arg-type]
        positive = [j for j in range(n) if (sums[j] - (sums[j - 1] if j else 0.0)) > 0]
        if len(positive) > UNROLL:
            index = self.bind("weighted_index", weighted_index, "weighted_index")
            out.append(f"{ind}{i} = {index}({u}, {self.bind('sums', tuple(sums))})  # {type(node).__name__} of {n}, weighted")
            return i
        t = self.var("t")
        out.append(f"{ind}{t} = {u} * {self.literal(sums[-1])}  # {type(node).__name__} of {n}, weighted")
        return t, lambda j: f"{t} < {self.literal(sums[j])}", positive

    # -- the whole function ----------------------------------------------------------------
    def function(self, wiring: Picker[Any], source: str, env: tuple[Any, ...]) -> Callable[[], Any]:
        """The pick ``write(wiring)`` generated (``source``, ``env``), unless it would only call
        one thing: then that thing itself, since a function around a call can only slow it
        (the wiring's own pick for a picker called as it is or a constant, the stream's C
        ``random`` for a ``RandomFloat()``). Compiling never makes a wiring slower."""
        if (self.staged == 0 and self.called == 1) or not self.body:  # called as it is, or a Constant
            return held_fast(wiring)
        call = _ONE_CALL.match(self.body[0]) if len(self.body) == 1 and not self.functions and not self.prelude and not self.hoisted else None
        if call is not None and call.group(1) == self.value:
            return env[self.env_names.index(call.group(2))]  # type: ignore[no-any-return]
        return make_function(source)(env)

    def write(self, root: Picker[Any]) -> tuple[str, tuple[Any, ...]]:
        """The generated source of ``root`` and the objects its ``make(env)`` takes."""
        body: list[str] = []
        value = self.pick(root, body, " " * 8)
        self.finish(body)
        self.body, self.value = list(body), value  # before return_value rewrites the last line
        header = f"the lean pick of one {type(root).__name__}" if self.one is not None else f"{self.staged} pickers staged, {self.called} called as they are"
        lines = [f"# synthia.compile: {header}", "def make(env):"]
        if self.env_names:
            lines.append(f"    ({', '.join(self.env_names)},) = env")
        lines.extend(self.prelude)
        for function in self.functions:
            lines.extend(function)
        lines.append("    def pick():")
        return_value(body, value, " " * 8)
        lines.extend(self.hoisted)
        lines.extend(body)
        lines.append("    return pick")
        for text in self.appendix:
            lines.extend(f"# {line}" if line else "#" for line in text.splitlines())
        return "\n".join(lines) + "\n", tuple(self.env_values)


def _fast_name(node: Picker[Any]) -> str:
    """The attribute generated code calls for ``node``'s fast code: ``_fast`` for a picker that
    may hold code of its own, its class's ``_pick`` otherwise (called without a bound method)."""
    return "_fast" if node._holds else "_pick"


def return_value(body: list[str], value: str, ind: str) -> None:
    """End ``body`` (at indentation ``ind``) by returning ``value``: its own last statement
    returns it where it is one (no local stored and read back)."""
    if body and body[-1].startswith(f"{ind}{value} = "):
        body[-1] = f"{ind}return {body[-1][len(ind) + len(value) + 3:]}"
    else:
        body.append(f"{ind}return {value}")


def make_function(source: str) -> Callable[[tuple[Any, ...]], Callable[[], Any]]:
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
    return Emitter().write(wiring)


def fast_pick(wiring: Picker[Any], *, shared: bool = False) -> Callable[[], Any]:
    """The generated pick of ``wiring`` (its own ``pick`` when nothing fuses or it is routed
    or watched right now). ``shared``: numbers passed as objects (see :class:`Emitter`)."""
    try:
        emitter = Emitter(shared=shared)
        source, env = emitter.write(wiring)
    except Instrumented:
        return wiring.pick
    return emitter.function(wiring, source, env)


def lean_pick(picker: Picker[Any]) -> Callable[[], Any]:
    """The lean pick of one picker with a hook: the code the emitter writes for it in a
    wiring, its inputs picked through their ``pick`` (see the module's example)."""
    emitter = Emitter(one=picker)
    source, env = emitter.write(picker)
    return emitter.function(picker, source, env)


def lean_from_second_pick(picker: Picker[Any]) -> Any:
    """The fast code of a composite with a hook until its second pick (the class's ``_fast``):
    its first pick takes the class's reference path (``_pick``) and marks it; its second
    generates its lean pick (:func:`lean_pick`), holds it as its fast code and picks through
    it. So a picker picked once (one a plain ``Bind`` builds for one value) costs no
    generation, and copies, which drop fast code, make their own."""
    picked = picker._picked
    if picked == 0:
        picker._picked = 1
        return picker._pick()
    if picked == 1:
        fast = picker._fast = lean_pick(picker)
        picker._picked = 2
        return fast()
    return picker._fast()  # made already (called through a reference read before)


#: Read by ``Picker.__init_subclass__``: a subclass that picks its own way holds no lean pick.
lean_from_second_pick.needs_hook = True  # type: ignore[attr-defined]


def held_fast(picker: Picker[Any]) -> Callable[[], Any]:
    """``picker``'s fast code, made now if it makes it at its first pick (a leaf's sampler)."""
    if described(picker) is not None or (isinstance(picker, Seedable) and picker._samples):
        fast = picker._make_fast()  # type: ignore[attr-defined]
        if fast is not None:
            picker._fast = fast
            return fast  # type: ignore[no-any-return]
    return picker._fast


def fast_code(picker: Picker[Any]) -> Callable[[], Any] | None:
    """The fast code ``picker`` holds for its pick right now (its sampler, its lean pick, a
    compiled function), or ``None`` when it holds none yet (it picks through its class).

    >>> from synthia import Apply, RandomInteger
    >>> pair = Apply(lambda a: (a, a), RandomInteger(0, 3))
    >>> fast_code(pair) is None, pair.take(2) and fast_code(pair) is not None
    (True, True)
    """
    fast = picker._fast
    return None if getattr(fast, "__self__", None) is picker else fast
