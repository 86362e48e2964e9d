"""Speed: unstaged wirings, staged ones (``sy.compile``), tight hand-written loops, Hypothesis,
and the numpy batch mode, all in one run (``python benchmarks/run.py speed``).

Every hand-written loop uses **the same algorithm and distribution** as the wiring it is
compared with (see ``synthia.core.random``): an int in ``[0, n)`` is ``getrandbits(k)``
with ``k = (n - 1).bit_length()``, rejected while ``>= n``; a float in ``[low, high)`` is
``low + (high - low) * random()`` (``low`` if that rounds up to ``high``); a boolean is
``random() < p``; a uniform choice among ``n`` is ``int(random() * n)`` (for two, ``random() * 2.0 < 1.0``:
the same index without ``int()``'s call, as the staged code computes it); a weighted one
compares ``random() * total`` with the running sums of the weights; a ``Deferred`` counts
its depth and takes its fallback past ``max_depth``; a grammar sentence draws among the
alternatives that fit the depth budget (tabled per rule and depth, as the picker does) and
collects the tokens on the way down. Only the streams differ (one
``random.Random`` there, one stream per picker in synthia), so the values are different but
identically distributed. Both sides call the same user functions (``_pair``, ``_cons``,
``_node``, ``Person``...), which a wiring's ``Apply`` calls too. The staged wiring gives
exactly the unstaged one's values (checked here on every workload before timing). The int
pair is measured twice: with a plain ``Bind`` (new pickers built and seeded on every pick) and
with ``Bind(..., cache=True)`` (one kept wiring per value); both against the same hand loop.

First, trees made valid by construction with ``Bind`` (red-black trees whose black height and
keys narrow level by level; binary search trees whose keys narrow), against a flat wiring of
the same kind of trees (a ``ComposeList`` of keys inserted by a plain function, through
``Apply``): inputs per CPU second of the flat wiring, a plain ``Bind`` (``fn`` builds new
pickers on every pick) and ``Bind(cache=True)`` (kept wirings, shared by the nested ``Bind`` pickers),
each wiring seeded once and picked on, best of interleaved rounds; red-black trees are checked
valid first.

Columns: ns per value; ``unstaged/hand``, ``staged/hand`` (1.0 = as fast as the hand-written
loop), ``unstaged/staged`` (the gain of staging), Hypothesis's examples/s under ``@given``
(generate phase only, the same number of examples for every workload) and how many times
more values per second the staged wiring makes.
"""
from __future__ import annotations

import bisect
import functools
import itertools
import math
import random
import statistics
import time
from typing import Any, Callable

from timing import table

import synthia as sy
from synthia.pickers.grammar import Derivation, DerivedString


# -- the workloads --------------------------------------------------------------------------
class Person:
    """A record with five fields (a plain class: what ``Apply`` calls with keyword arguments)."""

    __slots__ = ("name", "age", "score", "active", "tags")

    def __init__(self, name: str, age: int, score: float, active: bool, tags: list[str]) -> None:
        self.name, self.age, self.score, self.active, self.tags = name, age, score, active, tags

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Person) and all(getattr(self, f) == getattr(other, f) for f in self.__slots__)


NAMES = ("ann", "bob", "cy", "dee")
TAGS = ("x", "y", "z")

GRAMMAR = """
<s> := <np> <vp> ;
<np> := the <n> | the <adj> <n> | <np> and <np> ;
<vp> := <v> <np> | <v> ;
<n> := fox | dog | cat | bird ;
<adj> := quick | lazy | brown ;
<v> := sees | chases | likes ;
"""

PAGES = {"home": "/", "list": "/items", "item": "/item", "cart": "/cart", "exit": "bye"}
MOVES = {
    "home": {"list": 3, "cart": 1, "exit": 1},
    "list": {"item": 4, "home": 1, "list": 1},
    "item": {"cart": 2, "list": 2, "home": 1},
    "cart": {"home": 1, "exit": 2},
    "exit": {"home": 1},
}


def _insert_all(keys: list[int]) -> Any:
    root = None
    for key in keys:
        if root is None:
            root = [key, None, None]
            continue
        node = root
        while True:
            side = 1 if key < node[0] else 2
            if node[side] is None:
                node[side] = [key, None, None]
                break
            node = node[side]
    return root


def _node(k: int, v: int, left: Any, right: Any) -> Any:
    return (k, v, left, right)


def _pair(left: Any, right: Any) -> Any:
    return (left, right)


def _cons(b: bool, rest: Any) -> Any:
    return (b, rest)


def _var(i: int) -> Any:
    return ("var", i)


def _lam(body: Any) -> Any:
    return ("lam", body)


def _app(f: Any, x: Any) -> Any:
    return ("app", f, x)


def _single_pass_bst(size: int) -> sy.Picker[Any]:
    if size == 0:
        return sy.Constant(None)
    return sy.Choice(
        None,
        sy.Apply(_node, sy.RandomInteger(0, 101), sy.RandomInteger(0, 101), _single_pass_bst(size // 2), _single_pass_bst(size // 2)),
        weights=[1, size],
    )


def build(name: str) -> sy.Picker[Any]:
    """A fresh wiring of workload ``name``."""
    if name == "int":
        return sy.RandomInteger(0, 1000)
    if name == "float":
        return sy.RandomFloat(-1.0, 1.0)
    if name == "weighted Choice":
        return sy.Choice("a", "b", "c", "d", weights=[1, 2, 3, 4])
    if name == "list":
        return sy.ComposeList(sy.RandomInteger(0, 1000), sy.RandomInteger(0, 20))
    if name == "5-field record":
        return sy.Apply(
            Person,
            name=sy.Choice(*NAMES),
            age=sy.RandomInteger(0, 100),
            score=sy.RandomFloat(0.0, 100.0),
            active=sy.RandomBoolean(0.5),
            tags=sy.ComposeList(sy.Choice(*TAGS), sy.RandomInteger(0, 4)),
        )
    if name == "recursive tree":
        leaf = sy.RandomInteger(0, 100)
        tree: sy.Picker[Any] = sy.Deferred(
            lambda: sy.Choice(leaf, sy.Apply(_pair, tree, tree)), max_depth=4, fallback=leaf
        )
        return tree
    if name == "grammar sentence":
        return sy.GrammarSentence(GRAMMAR, max_depth=6)
    if name == "Markov chain":
        return sy.MarkovChain(PAGES, MOVES, start="home")
    if name == "int pair (y <= x)":
        return sy.Bind(sy.RandomInteger(0, 101), lambda x: sy.Apply(lambda y: (x, y), sy.RandomInteger(0, x + 1)))
    if name == "int pair, Bind(cache=True)":
        # fn declared a function of its value: one inner wiring per x, kept (and staged once).
        return sy.Bind(
            sy.RandomInteger(0, 101), lambda x: sy.Apply(lambda y: (x, y), sy.RandomInteger(0, x + 1)), cache=True
        )
    if name == "bool list (cons, size 10)":
        bools: sy.Picker[Any] = sy.Deferred(lambda: sy.Choice(None, sy.Apply(_cons, sy.RandomBoolean(), bools), weights=[1, 10]))
        return bools
    if name == "BST single pass (size 10)":
        return _single_pass_bst(10)
    if name == "BST by insertion (size 10)":
        return sy.Apply(_insert_all, sy.ComposeList(sy.RandomInteger(0, 101), sy.RandomInteger(0, 11)))
    if name == "lambda terms (depth 6)":
        term: sy.Picker[Any] = sy.Deferred(
            lambda: sy.Choice(sy.Apply(_var, sy.RandomInteger(0, 3)), sy.Apply(_lam, term), sy.Apply(_app, term, term), weights=[3, 2, 1]),
            max_depth=6,
            fallback=sy.Apply(_var, sy.RandomInteger(0, 3)),
        )
        return term
    raise KeyError(name)


def hand_written(name: str, rng: random.Random) -> Callable[[], Any]:
    """The same shape, algorithm and distribution as ``build(name)``, written as a tight loop."""
    bits, unit = rng.getrandbits, rng.random

    def below(n: int, k: int) -> int:
        r = bits(k)
        while r >= n:
            r = bits(k)
        return r

    if name == "int":

        def one() -> Any:
            r = bits(10)
            while r >= 1000:
                r = bits(10)
            return r

        return one
    if name == "float":

        def one() -> Any:
            v = -1.0 + 2.0 * unit()
            return v if v < 1.0 else -1.0

        return one
    if name == "weighted Choice":

        def one() -> Any:
            t = unit() * 10.0
            return "a" if t < 1.0 else "b" if t < 3.0 else "c" if t < 6.0 else "d"

        return one
    if name == "list":

        def one() -> Any:
            n = bits(5)
            while n >= 20:
                n = bits(5)
            out = []
            for _ in range(n):
                r = bits(10)
                while r >= 1000:
                    r = bits(10)
                out.append(r)
            return out

        return one
    if name == "5-field record":

        def one() -> Any:
            name_ = NAMES[int(unit() * 4)]
            age = bits(7)
            while age >= 100:
                age = bits(7)
            score = 100.0 * unit()
            if not score < 100.0:
                score = 0.0
            active = unit() < 0.5
            tags = [TAGS[int(unit() * 3)] for _ in range(bits(2))]
            return Person(name_, age, score, active, tags)

        return one
    if name == "recursive tree":

        def tree(depth: int) -> Any:
            if depth >= 4 or unit() * 2.0 < 1.0:  # int(unit() * 2) == 0, without int()
                r = bits(7)
                while r >= 100:
                    r = bits(7)
                return r
            return _pair(tree(depth + 1), tree(depth + 1))

        return lambda: tree(0)
    if name == "grammar sentence":
        grammar = sy.Grammar(GRAMMAR)
        # The picker's derivation: the alternatives that fit the depth budget, simplest
        # first, one drawn uniformly (below(len)), precomputed per (rule, depth).
        fitting: dict[tuple[str, int], list[list[Any]]] = {}
        for rule, alternatives in grammar.rules.items():
            for depth in range(7):
                order = grammar.simplest_first[rule]
                ok = [i for i in order if depth + grammar.alternative_depth(rule, i) <= 6] or order[:1]
                fitting[rule, depth] = [
                    [(s.name if type(s).__name__ == "NonTerminal" else None, getattr(s, "text", None)) for s in alternatives[i]] for i in ok
                ]

        index_of = {
            (rule, depth): [i for i in grammar.simplest_first[rule] if depth + grammar.alternative_depth(rule, i) <= 6]
            or grammar.simplest_first[rule][:1]
            for rule in grammar.rules
            for depth in range(7)
        }

        # The value is the same as the picker's: a str subclass holding its derivation tree
        # (the tokens collected on the way down, as a tight loop would).
        def derive(rule: str, depth: int, put: Callable[[str], None]) -> Any:
            options = fitting[rule, depth]
            n = len(options)
            pick = below(n, (n - 1).bit_length()) if n > 1 else 0
            children: list[Any] = []
            for sub, text in options[pick]:
                if sub is not None:
                    children.append(derive(sub, depth + 1, put))
                else:
                    put(text)
                    children.append(text)
            return Derivation(rule, index_of[rule, depth][pick], children)

        def sentence() -> Any:
            tokens: list[str] = []
            derivation = derive(grammar.start, 0, tokens.append)
            out = DerivedString(" ".join(tokens))
            out.derivation = derivation
            return out

        return sentence
    if name == "Markov chain":
        tables = {}
        for source, targets in MOVES.items():
            names = [t for t, w in targets.items() if w > 0]
            sums, total = [], 0.0
            for t in names:
                total += float(targets[t])
                sums.append(total)
            tables[source] = (names, sums, total)
        state = ["", None]

        def step() -> Any:
            if not state[0]:
                state[0] = "home"
            else:
                names, sums, total = tables[state[0]]
                state[0] = names[bisect.bisect_right(sums, unit() * total)]
            return PAGES[state[0]]

        return step
    if name in ("int pair (y <= x)", "int pair, Bind(cache=True)"):

        def pair() -> Any:
            x = below(101, 7)
            return (x, below(x + 1, x.bit_length()))

        return pair
    if name == "bool list (cons, size 10)":

        def bools() -> Any:
            if unit() * 11.0 < 1.0:
                return None
            b = unit() < 0.5
            return _cons(b, bools())

        return bools
    if name == "BST single pass (size 10)":

        def bst(size: int) -> Any:
            if size == 0 or unit() * (1.0 + size) < 1.0:
                return None
            k = bits(7)
            while k >= 101:
                k = bits(7)
            v = bits(7)
            while v >= 101:
                v = bits(7)
            return _node(k, v, bst(size // 2), bst(size // 2))

        return lambda: bst(10)
    if name == "BST by insertion (size 10)":
        def insertion() -> Any:
            n = bits(4)
            while n >= 11:
                n = bits(4)
            keys = []
            for _ in range(n):
                k = bits(7)
                while k >= 101:
                    k = bits(7)
                keys.append(k)
            return _insert_all(keys)

        return insertion
    if name == "lambda terms (depth 6)":

        def term(depth: int) -> Any:
            if depth < 6:
                t = unit() * 6.0
                if t >= 3.0:
                    if t < 5.0:
                        return _lam(term(depth + 1))
                    return _app(term(depth + 1), term(depth + 1))
            i = bits(2)  # a variable: past max_depth (the fallback) or chosen
            while i >= 3:
                i = bits(2)
            return _var(i)

        return lambda: term(0)
    raise KeyError(name)


def strategy(name: str) -> Any:
    """The strategy a Hypothesis user would write for the same values (``None``: none natural)."""
    from hypothesis import strategies as st

    if name == "int":
        return st.integers(0, 999)
    if name == "float":
        return st.floats(-1.0, 1.0, exclude_max=True)
    if name == "weighted Choice":
        return st.sampled_from("abcd")
    if name == "list":
        return st.lists(st.integers(0, 999), max_size=19)
    if name == "5-field record":
        return st.builds(
            Person, st.sampled_from(NAMES), st.integers(0, 99), st.floats(0, 100, exclude_max=True), st.booleans(),
            st.lists(st.sampled_from(TAGS), max_size=3),
        )
    if name == "recursive tree":
        return st.recursive(st.integers(0, 99), lambda c: st.tuples(c, c), max_leaves=16)
    if name in ("int pair (y <= x)", "int pair, Bind(cache=True)"):
        return st.integers(0, 100).flatmap(lambda x: st.tuples(st.just(x), st.integers(0, x)))
    if name == "bool list (cons, size 10)":
        return st.recursive(st.none(), lambda rest: st.tuples(st.booleans(), rest), max_leaves=30)
    if name == "BST by insertion (size 10)":
        return st.lists(st.integers(0, 100), max_size=10).map(_insert_all)
    if name == "lambda terms (depth 6)":
        var = st.integers(0, 2).map(_var)
        return st.recursive(var, lambda t: st.one_of(st.builds(_lam, t), st.builds(_app, t, t)), max_leaves=20)
    return None


WORKLOADS = [
    "int",
    "float",
    "weighted Choice",
    "list",
    "5-field record",
    "recursive tree",
    "grammar sentence",
    "Markov chain",
    "int pair (y <= x)",
    "int pair, Bind(cache=True)",
    "bool list (cons, size 10)",
    "BST single pass (size 10)",
    "BST by insertion (size 10)",
    "lambda terms (depth 6)",
]


# -- measuring ------------------------------------------------------------------------------
def _loop(pick: Callable[[], Any], count: int) -> float:
    start = time.perf_counter()
    for _ in range(count):
        pick()
    return time.perf_counter() - start


def measure(picks: dict[str, Callable[[], Any]], count: int, rounds: int) -> dict[str, float]:
    """Seconds per value of each callable: the best of ``rounds`` interleaved rounds."""
    best = {k: float("inf") for k in picks}
    for _ in range(rounds):
        for key, pick in picks.items():
            best[key] = min(best[key], _loop(pick, count) / count)
    return best


def speed(quick: bool) -> None:
    from bench_core import hypothesis_rate

    count = 300 if quick else 20_000
    rounds = 2 if quick else 7
    examples = 100 if quick else 1_000
    rows = []
    for name in WORKLOADS:
        unstaged = build(name).set_seed(1)
        staged = sy.compile(build(name)).set_seed(1)
        # Staging gives exactly the same values: checked on every workload before timing.
        assert staged.take(200) == unstaged.take(200), name
        staged.set_seed(1), unstaged.set_seed(1)
        hand = hand_written(name, random.Random(1))
        t = measure({"unstaged": unstaged.pick, "staged": staged.pick, "hand": hand}, count, rounds)
        s = strategy(name)
        hyp = hypothesis_rate(s, examples) if s is not None else None
        rows.append(
            (
                name,
                f"{t['unstaged'] * 1e9:8.0f}",
                f"{t['staged'] * 1e9:8.0f}",
                f"{t['hand'] * 1e9:8.0f}",
                f"{t['unstaged'] / t['hand']:5.2f}x",
                f"{t['staged'] / t['hand']:5.2f}x",
                f"{t['unstaged'] / t['staged']:5.2f}x",
                "-" if hyp is None else f"{hyp:8,.0f}",
                "-" if hyp is None else f"{1 / t['staged'] / hyp:7,.0f}x",
            )
        )
    print("\nns per value; hand = the same algorithm written by hand on one random.Random:")
    table(rows, ("workload", "unstaged", "staged", "hand", "unstaged/hand", "staged/hand", "unstaged/staged", "hypothesis/s", "staged/hyp"))
    print("goals: unstaged/hand <= 2x (scalars, lists, records, Choice), <= 3x (trees, grammars); staged/hand <= 1.5x")


#: Every leaf of the catalog's everyday pickers (no picker input to fuse with): compiling one
#: must never make it slower (``sy.compile`` holds its own pick when staging gains nothing).
LEAVES: list[tuple[str, Callable[[], sy.Picker[Any]]]] = [
    ("RandomInteger(0, 1000)", lambda: sy.RandomInteger(0, 1000)),
    ("RandomInteger(5, 10)", lambda: sy.RandomInteger(5, 10)),
    ("RandomFloat()", lambda: sy.RandomFloat()),
    ("RandomFloat(-1, 1)", lambda: sy.RandomFloat(-1.0, 1.0)),
    ("RandomBoolean(0.3)", lambda: sy.RandomBoolean(0.3)),
    ("GaussianFloat()", lambda: sy.GaussianFloat()),
    ("BiasedRandomFloat(2.0)", lambda: sy.BiasedRandomFloat(2.0)),
    ("PoissonInteger(3.0)", lambda: sy.PoissonInteger(3.0)),
    ("AnyInteger()", lambda: sy.AnyInteger()),
    ("AnyFloat()", lambda: sy.AnyFloat()),
    ("RandomString(5, 'abc')", lambda: sy.RandomString(5, "abc")),
    ("RandomText()", lambda: sy.RandomText()),
    ("RandomBytes()", lambda: sy.RandomBytes()),
    ("RandomUUID()", lambda: sy.RandomUUID()),
    ("RandomDate()", lambda: sy.RandomDate()),
    ("Choice('a', 'b', 'c')", lambda: sy.Choice("a", "b", "c")),
    ("Choice of 4, weighted", lambda: sy.Choice("a", "b", "c", "d", weights=[1, 2, 3, 4])),
    ("Tick()", lambda: sy.Tick()),
    ("Constant(3)", lambda: sy.Constant(3)),
]


def leaves(quick: bool) -> None:
    """Each leaf compiled against the leaf itself (interleaved, best of rounds): compiling
    never makes a wiring slower, so every ratio should read 1.0x or more (within noise)."""
    count = 300 if quick else 20_000
    rounds = 2 if quick else 7
    rows = []
    for name, make in LEAVES:
        leaf, compiled = make().set_seed(1), sy.compile(make()).set_seed(1)
        assert compiled.take(100) == leaf.take(100), name  # the same values first
        t = measure({"leaf": leaf.pick, "compiled": compiled.pick}, count, rounds)
        rows.append((name, f"{t['leaf'] * 1e9:6.0f}", f"{t['compiled'] * 1e9:6.0f}", f"{t['leaf'] / t['compiled']:5.2f}x"))
    print("\nA leaf compiled against the leaf (ns per value; speed of compiled / leaf):")
    table(rows, ("leaf", "leaf ns", "compiled ns", "compiled/leaf speed"))
    print("goal: every compiled leaf at least as fast as the leaf (>= 1.0x, within noise)")


def batch(quick: bool) -> None:
    n = 100_000 if quick else 2_000_000
    rows = []
    for label, make in [
        ("RandomInteger(0, 1000)", lambda: sy.RandomInteger(0, 1000, seed=1)),
        ("RandomFloat(-1, 1)", lambda: sy.RandomFloat(-1.0, 1.0, seed=1)),
        ("GaussianFloat(0, 1)", lambda: sy.GaussianFloat(seed=1)),
        ("Choice(1, 2, 3, weights=[1, 2, 3])", lambda: sy.Choice(1, 2, 3, weights=[1, 2, 3]).set_seed(1)),
    ]:
        picker = make()
        best_array = min(_timed(lambda: picker.take_array(n)) for _ in range(3))
        small = max(n // 20, 1000)
        best_take = min(_timed(lambda: picker.take(small)) for _ in range(3)) * n / small
        rows.append((label, f"{n / best_array / 1e6:6.1f} M/s", f"{n / best_take / 1e6:6.2f} M/s", f"{best_take / best_array:5.0f}x"))
    print(f"\nBatch mode: take_array({n:,}) against take() (the same values):")
    table(rows, ("picker", "take_array", "take", "gain"))
    print("goal: take_array >= 20 M numbers/s")


def _timed(fn: Callable[[], Any]) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def harness(quick: bool) -> None:
    """``Assert`` examples/s against Hypothesis at equal counts, and time to a planted bug."""
    from hypothesis import HealthCheck, Phase, given, settings

    examples = 200 if quick else 2_000
    rows = []
    for name in ("list", "5-field record", "recursive tree"):
        for label, wiring in (("unstaged", build(name)), ("staged", sy.compile(build(name)))):
            start = time.perf_counter()
            report = sy.Assert(lambda x: True, sy.RunOptions(stop=sy.FixedCount(examples)), x=wiring).run(seed=1)
            ours = report.tried / (time.perf_counter() - start)
            rows.append((f"{name} ({label})", f"{ours:10,.0f}", ""))
        seen = [0]

        @settings(max_examples=examples, database=None, deadline=None, phases=[Phase.generate], suppress_health_check=list(HealthCheck))
        @given(strategy(name))
        def body(value: Any) -> None:
            seen[0] += 1

        start = time.perf_counter()
        body()
        hyp = seen[0] / (time.perf_counter() - start)
        rows.append((f"{name} (Hypothesis)", f"{hyp:10,.0f}", f"Assert staged: {float(rows[-1][1].replace(',', '')) / hyp:5.0f}x"))
    print(f"\nAssert on a property that always holds, {examples} examples each (examples/s):")
    table(rows, ("wiring", "examples/s", "ratio"))

    # Bugs rare enough that finding one takes thousands of inputs (so generation, not the
    # run's fixed costs, decides the time).
    bugs: list[tuple[str, str, Callable[[Any], bool]]] = [
        ("list holds 3 values >= 980", "list", lambda x: sum(1 for v in x if v >= 980) < 3),
        ("record: dee, over 97, active, 3 tags", "5-field record", lambda x: not (x.age > 97 and x.active and len(x.tags) == 3 and x.name == "dee")),
        ("tree has 15 leaves", "recursive tree", lambda x: _leaves(x) < 15),
    ]
    seeds = range(3 if quick else 10)
    rows = []
    for label, name, test in bugs:
        times = {}
        for kind in ("unstaged", "staged"):
            found = []
            for seed in seeds:
                wiring = build(name) if kind == "unstaged" else sy.compile(build(name))
                report = sy.Assert(test, sy.RunOptions(stop=sy.FixedCount(200_000)), x=wiring).run(seed=seed)
                assert report.time_to_failure is not None and report.tried > 1, (label, report.tried)
                found.append(report.time_to_failure)
            times[kind] = statistics.median(found)
        rows.append((label, f"{times['unstaged'] * 1e3:8.2f} ms", f"{times['staged'] * 1e3:8.2f} ms", f"{times['unstaged'] / times['staged']:5.2f}x"))
    print(f"\nTime to the first failure of a planted bug (median over {len(seeds)} seeds; same seed, same inputs):")
    table(rows, ("bug", "unstaged", "staged", "gain"))


def _leaves(tree: Any) -> int:
    return _leaves(tree[0]) + _leaves(tree[1]) if isinstance(tree, tuple) else 1


# -- Bind: recursive trees against a flat wiring ----------------------------------------------
def _black(left: Any, key: int, right: Any) -> Any:
    return ("B", left, key, right)


def _red(left: Any, key: int, right: Any) -> Any:
    return ("R", left, key, right)


def _fewest(black_height: int) -> int:
    """The fewest keys a red-black tree of this black height holds (``None`` has height 0)."""
    return (1 << black_height) - 1


class Constructors:
    """What a tree wiring below is written with: synthia's pickers, every ``Bind`` with or
    without ``cache``."""

    def __init__(self, cache: bool = False) -> None:
        self.Choice, self.Apply, self.Constant, self.RandomInteger = sy.Choice, sy.Apply, sy.Constant, sy.RandomInteger
        self.Bind = functools.partial(sy.Bind, cache=cache)


class BareClosures:
    """The same constructors as bare closures over one ``random.Random``: a "picker" is a
    function of no arguments, nothing is checked, nothing has a stream of its own, nothing can
    be recorded, replayed or shrunk. A wiring written with them and picked through a ``Bind``
    that calls ``fn`` at every pick is the fastest such a ``Bind`` can be in Python: the
    ceiling for a plain ``Bind``, whatever the library does."""

    def __init__(self, seed: int) -> None:
        rand = random.Random(seed).random

        def constant(value: Any) -> Callable[[], Any]:
            return lambda: value

        def lift(value: Any) -> Callable[[], Any]:
            return value if callable(value) else constant(value)

        def integer(low: int, high: int) -> Callable[[], int]:
            return lambda: low + int(rand() * (high - low))

        def choice(*alternatives: Any, weights: list[float] | None = None) -> Callable[[], Any]:
            picks = [lift(a) for a in alternatives]
            sums = list(itertools.accumulate(weights or [1] * len(picks)))
            return lambda: picks[bisect.bisect_right(sums, rand() * sums[-1])]()

        def bind(picker: Callable[[], Any], fn: Callable[[Any], Any]) -> Callable[[], Any]:
            return lambda: lift(fn(picker()))()

        def apply(fn: Callable[..., Any], *args: Any) -> Callable[[], Any]:
            picks = [lift(a) for a in args]
            return lambda: fn(*[p() for p in picks])

        self.Choice, self.Apply, self.Constant, self.RandomInteger, self.Bind = choice, apply, constant, integer, bind


def rb_any(lo: int, hi: int, bh: int, lib: Any) -> Any:
    """Red-black trees of black height ``bh`` with keys in ``[lo, hi)``, under a black parent:
    a black root, or a red one when the keys leave room for its two black children."""
    if bh == 0:
        return lib.Choice(None, rb_red(lo, hi, 0, lib)) if hi > lo else lib.Constant(None)
    if hi - lo >= 2 * _fewest(bh) + 1:
        return lib.Choice(rb_black(lo, hi, bh, lib), rb_red(lo, hi, bh, lib))
    return rb_black(lo, hi, bh, lib)


def rb_black(lo: int, hi: int, bh: int, lib: Any) -> Any:
    """A black root whose key leaves room on both sides for subtrees of black height ``bh - 1``."""
    room = _fewest(bh - 1)
    return lib.Bind(
        lib.RandomInteger(lo + room, hi - room),
        lambda k: lib.Apply(_black, rb_any(lo, k, bh - 1, lib), k, rb_any(k + 1, hi, bh - 1, lib)),
    )


def rb_red(lo: int, hi: int, bh: int, lib: Any) -> Any:
    """A red root whose children are black (``None`` at black height 0)."""
    room = _fewest(bh)
    if bh == 0:
        return lib.Apply(_red, None, lib.RandomInteger(lo, hi), None)
    return lib.Bind(
        lib.RandomInteger(lo + room, hi - room),
        lambda k: lib.Apply(_red, rb_black(lo, k, bh, lib), k, rb_black(k + 1, hi, bh, lib)),
    )


def rb_tree_bind(lib: Any, keys: int = 100) -> Any:
    """Red-black trees with keys in ``[0, keys)`` made valid by construction with ``Bind``: the
    black height (1 or 2) first, then each key drawn in the range its parent's key leaves."""
    return lib.Bind(lib.RandomInteger(1, 3), lambda bh: rb_black(0, keys, bh, lib))


def _balance(color: str, left: Any, key: int, right: Any) -> Any:
    # Okasaki's four cases: a black node with a red child that has a red child.
    if color == "B":
        if left is not None and left[0] == "R":
            ll, lr = left[1], left[3]
            if ll is not None and ll[0] == "R":
                return ("R", ("B", ll[1], ll[2], ll[3]), left[2], ("B", lr, key, right))
            if lr is not None and lr[0] == "R":
                return ("R", ("B", ll, left[2], lr[1]), lr[2], ("B", lr[3], key, right))
        if right is not None and right[0] == "R":
            rl, rr = right[1], right[3]
            if rl is not None and rl[0] == "R":
                return ("R", ("B", left, key, rl[1]), rl[2], ("B", rl[3], right[2], rr))
            if rr is not None and rr[0] == "R":
                return ("R", ("B", left, key, rl), right[2], ("B", rr[1], rr[2], rr[3]))
    return (color, left, key, right)


def _rb_insert(tree: Any, key: int) -> Any:
    def ins(t: Any) -> Any:
        if t is None:
            return ("R", None, key, None)
        color, left, k, right = t
        if key < k:
            return _balance(color, ins(left), k, right)
        if key > k:
            return _balance(color, left, k, ins(right))
        return t

    _, left, k, right = ins(tree)
    return ("B", left, k, right)


def rb_insert_all(keys: list[int]) -> Any:
    """The red-black tree of ``keys`` inserted in order (Okasaki's insertion; repeats once)."""
    tree = None
    for key in keys:
        tree = _rb_insert(tree, key)
    return tree


def rb_tree_flat(keys: int = 100) -> sy.Picker[Any]:
    """Red-black trees from a flat list of draws: up to 10 keys in ``[0, keys)``, inserted."""
    return sy.Apply(rb_insert_all, sy.ComposeList(sy.RandomInteger(0, keys), sy.RandomInteger(0, 11)))


def bst_bind(lo: int, hi: int, depth: int, lib: Any) -> Any:
    """Binary search trees with keys in ``[lo, hi)``, each key narrowing its children's range."""
    if depth == 0 or hi <= lo:
        return lib.Constant(None)
    node = lib.Bind(
        lib.RandomInteger(lo, hi),
        lambda k: lib.Apply(_red, bst_bind(lo, k, depth - 1, lib), k, bst_bind(k + 1, hi, depth - 1, lib)),
    )
    return lib.Choice(None, node, weights=[1, 3])


def _bst_insert_all(keys: list[int]) -> Any:
    def ins(t: Any, key: int) -> Any:
        if t is None:
            return ("R", None, key, None)
        if key < t[2]:
            return (t[0], ins(t[1], key), t[2], t[3])
        if key > t[2]:
            return (t[0], t[1], t[2], ins(t[3], key))
        return t

    tree = None
    for key in keys:
        tree = ins(tree, key)
    return tree


def bst_flat() -> sy.Picker[Any]:
    """Binary search trees from a flat list of draws: up to 14 keys in ``[0, 100)``, inserted."""
    return sy.Apply(_bst_insert_all, sy.ComposeList(sy.RandomInteger(0, 100), sy.RandomInteger(0, 15)))


def rb_valid(tree: Any) -> bool:
    """A red-black tree: keys in order, no red node with a red child, one black height, black root."""

    def walk(t: Any, lo: float, hi: float) -> int:
        if t is None:
            return 0
        color, left, key, right = t
        assert lo < key < hi, "keys out of order"
        if color == "R":
            assert all(c is None or c[0] == "B" for c in (left, right)), "a red node with a red child"
        height = walk(left, lo, key)
        assert height == walk(right, key, hi), "two black heights"
        return height + (color == "B")

    walk(tree, -math.inf, math.inf)
    return tree is None or tree[0] == "B"


def nodes(tree: Any) -> int:
    return 0 if tree is None else nodes(tree[1]) + 1 + nodes(tree[3])


#: (name, the flat wiring, the same trees with Bind written with the given constructors).
BIND_TREES: list[tuple[str, Callable[[], sy.Picker[Any]], Callable[[Any], Any]]] = [
    ("red-black tree", rb_tree_flat, rb_tree_bind),
    # Few enough keys that every wiring a Bind(cache=True) meets fits in what it keeps.
    ("red-black tree, keys < 20", lambda: rb_tree_flat(20), lambda lib: rb_tree_bind(lib, 20)),
    ("binary search tree", bst_flat, lambda lib: bst_bind(0, 100, 5, lib)),
]


def _rate(pick: Callable[[], Any], count: int) -> float:
    """Values per CPU second of ``count`` picks (CPU time: the machine is shared)."""
    start = time.process_time()
    for _ in range(count):
        pick()
    return count / max(time.process_time() - start, 1e-9)


def bind_trees(quick: bool) -> None:
    """Trees made valid by construction with ``Bind`` against the same kind of trees from a flat
    list of draws: inputs per CPU second of the flat wiring, of the ``Bind`` wiring written with
    bare closures (:class:`BareClosures`: the ceiling of any ``Bind`` that calls ``fn`` at every
    pick), a plain ``Bind`` and ``Bind(cache=True)`` (best of interleaved rounds, each wiring
    seeded once and picked on, so the caches fill)."""
    count = 200 if quick else 3_000
    rounds = 2 if quick else 5
    rows = []
    for name, flat, bind in BIND_TREES:
        closures = bind(BareClosures(1))
        picks = {
            "flat": flat().set_seed(1).pick,
            "closures": closures,
            "Bind": bind(Constructors()).set_seed(1).pick,
            "Bind(cache=True)": bind(Constructors(cache=True)).set_seed(1).pick,
        }
        sizes = {}
        for label, pick in picks.items():
            trees = [pick() for _ in range(300)]
            if name.startswith("red-black tree"):
                assert all(rb_valid(t) for t in trees), label
            sizes[label] = statistics.mean(nodes(t) for t in trees)
        best = {label: 0.0 for label in picks}
        for _ in range(rounds):
            for label, pick in picks.items():
                best[label] = max(best[label], _rate(pick, count))
        rows.append(
            (
                name,
                f"{best['flat']:9,.0f}",
                f"{best['closures']:9,.0f}",
                f"{best['Bind']:8,.0f}",
                f"{best['Bind(cache=True)']:8,.0f}",
                f"{best['closures'] / best['flat']:5.2f}",
                f"{best['Bind'] / best['flat']:5.3f}",
                f"{best['Bind(cache=True)'] / best['flat']:5.2f}",
                f"{best['Bind(cache=True)'] / best['Bind']:5.2f}",
                f"{sizes['flat']:.1f} / {sizes['Bind']:.1f}",
            )
        )
    print(f"\nTrees valid by construction with Bind against a flat wiring (inputs per CPU second, best of {rounds} rounds of {count}):")
    table(rows, ("trees", "flat/s", "closures/s", "Bind/s", "cache/s", "closures/flat", "Bind/flat", "cache/flat", "cache/Bind", "nodes flat / Bind"))
    print("closures: the Bind wiring as bare closures (no checks, no streams, no recording), the most a Bind calling fn at every pick can make")
    print("goals (issue 23): Bind/flat >= 0.33; cache/Bind > 1")


def run(quick: bool) -> None:
    bind_trees(quick)
    speed(quick)
    leaves(quick)
    batch(quick)
    harness(quick)
