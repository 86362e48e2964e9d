"""Contract cases for the behaviour pickers: recording, sharing, knitting, Markov chains,
behaviour trees, grammars and structures."""
from __future__ import annotations

import networkx as nx

import synthia as sy

from ..registry import BadArgument, Case, Signature

GRAMMAR = """
<expr> := <num> | <expr> + <num> | ( <expr> ) ;
<num> := ^[1-9][0-9]?$ ;
"""


def _knit() -> sy.Picker:
    visitor = sy.Apply(lambda n, k: sy.Bound(sy.Tick(n * 1000, 1), k), sy.Tick(1, 1), sy.RandomInteger(1, 6))
    return sy.Knit(visitor, spawn=sy.RandomBoolean(0.3))


def _chain() -> sy.Picker:
    return sy.MarkovChain(
        {"a": sy.RandomInteger(0, 10**6), "b": "B", "c": sy.Tick(0, 1)},
        {"a": {"b": 1, "c": 2}, "b": {"a": 1}, "c": {"a": 1, "c": 1}},
        start="a",
    )


def _tree() -> sy.Picker:
    return sy.BehaviorTree(
        sy.Sequence(sy.Leaf("start"), sy.Selector(sy.Sequence("x", "y"), sy.Leaf(sy.Bound(sy.RandomInteger(0, 10**6), 3)))),
        repeat=True,
    )


def _shared() -> sy.Picker:
    a = sy.Share(sy.RandomInteger(0, 10**6))
    b = a.another()
    return sy.Apply(lambda x, y: (x, y), a, sy.ComposeList(b, 2))


CASES = [
    Case("Record", sy.Record, lambda: sy.Record(sy.RandomInteger(0, 10**6))),
    Case("Share", sy.Share, _shared),
    Case("Knit", sy.Knit, _knit),
    Case("MarkovChain", sy.MarkovChain, _chain),
    Case("MarkovChain ending", sy.MarkovChain, lambda: sy.MarkovReader(nx.path_graph(4).to_directed(), start=0, picker_for=lambda n: sy.Tick(n * 10**6, sy.RandomInteger(1, 10**6)))),
    Case("BehaviorTree", sy.BehaviorTree, _tree, extra_covers=(sy.Sequence, sy.Selector, sy.Leaf)),
    Case("BehaviorTree once", sy.BehaviorTree, lambda: sy.BehaviorTree(sy.Selector("a", sy.Sequence("b", "c"), weights=[1, 2])), random=False, bounded=True),
    Case("Sequence", sy.Sequence, lambda: sy.Sequence("a", sy.Bound(sy.RandomInteger(0, 10**6), 4), "z"), bounded=True),
    Case("Selector", sy.Selector, lambda: sy.Selector(sy.Bound(sy.RandomInteger(0, 10**6), 3), sy.Bound(sy.RandomFloat(), 3)), bounded=True),
    Case("Leaf", sy.Leaf, lambda: sy.Leaf(sy.Bound(sy.RandomInteger(0, 10**6), 3)), bounded=True),
    Case("GrammarSentence", sy.GrammarSentence, lambda: sy.GrammarSentence(GRAMMAR, max_depth=6)),
    Case("GrammarSequence", sy.GrammarSequence, lambda: sy.GrammarSequence(GRAMMAR, max_depth=6)),
    Case("TreePicker", sy.TreePicker, lambda: sy.TreePicker(sy.RandomInteger(0, 100), sy.RandomInteger(0, 4), sy.RandomInteger(0, 3)), compare=nx.utils.graphs_equal),
    Case("GraphPicker", sy.GraphPicker, lambda: sy.GraphPicker(size=sy.RandomInteger(2, 12), p=0.3), compare=nx.utils.graphs_equal),
    Case("BarabasiAlbert", sy.BarabasiAlbert, lambda: sy.BarabasiAlbert(size=30, m=2), compare=nx.utils.graphs_equal),
]

BAD_ARGUMENTS = [
    BadArgument("Knit instances", lambda: sy.Knit(5), TypeError, "instances"),
    BadArgument("Knit spawn probability", lambda: sy.Knit(sy.Tick(), spawn=0.3), TypeError, "RandomBoolean(0.3)"),
    BadArgument("Knit spawn picker of numbers", lambda: sy.Knit(sy.Tick(), spawn=sy.RandomInteger(0, 2)), TypeError, "spawn must be a picker of booleans"),
    BadArgument("Knit replace picker of numbers", lambda: sy.Knit(sy.Tick(), replace=sy.Constant(1)), TypeError, "replace"),
    BadArgument("Knit chooser range", lambda: sy.Knit(sy.Tick(), chooser=sy.RandomInteger(5, 10)), ValueError, "chooser"),
    BadArgument("Knit max_tries", lambda: sy.Knit(sy.Tick(), max_tries=0), ValueError, "max_tries"),
    BadArgument("Knit shared", lambda: sy.Knit(sy.Tick(), shared=[3]), TypeError, "shared[0]"),
    BadArgument("Knit seed_instances", lambda: sy.Knit(sy.Tick(), seed_instances=1), TypeError, "seed_instances"),
    BadArgument("MarkovChain start", lambda: sy.MarkovChain({"a": 1}, start="b"), ValueError, "start"),
    BadArgument("MarkovChain unknown target", lambda: sy.MarkovChain({"a": 1}, {"a": {"z": 1}}), ValueError, "'z'"),
    BadArgument("MarkovChain negative weight", lambda: sy.MarkovChain({"a": 1}, {"a": {"a": -1}}), ValueError, "weight"),
    BadArgument("MarkovReader graph", lambda: sy.MarkovReader([1, 2]), TypeError, "graph"),
    BadArgument("Sequence empty", lambda: sy.Sequence(), ValueError, "child"),
    BadArgument("Selector weights", lambda: sy.Selector("a", "b", weights=[1]), ValueError, "weights"),
    BadArgument("BehaviorTree repeat", lambda: sy.BehaviorTree("a", repeat=1), TypeError, "repeat"),
    BadArgument("Grammar undefined rule", lambda: sy.GrammarSentence("<a> := <b> ;"), ValueError, "<b>"),
    BadArgument("Grammar no rule", lambda: sy.GrammarSentence("hello"), ValueError, "line 1"),
    BadArgument("Grammar recursion", lambda: sy.GrammarSentence("<a> := x <a> ;"), ValueError, "<a>"),
    BadArgument("Grammar bad regex", lambda: sy.GrammarSentence("<a> := ^[a-$ ;"), ValueError, "line 1"),
    BadArgument("Grammar max_depth", lambda: sy.GrammarSequence("<a> := <b> ; <b> := x ;", max_depth=1), ValueError, "max_depth"),
    BadArgument("TreePicker depth", lambda: sy.TreePicker(sy.Tick(), -1, 2), ValueError, "depth"),
    BadArgument("GraphPicker p", lambda: sy.GraphPicker(size=3, p=2), ValueError, "p"),
    BadArgument("BarabasiAlbert m", lambda: sy.BarabasiAlbert(size=3, m=0), ValueError, "m"),
]

SIGNATURES = [
    Signature(sy.Record, lambda C: C(sy.RandomInteger(0, 100))),
    Signature(sy.Share, lambda C: C(sy.RandomInteger(0, 100))),
    Signature(
        sy.Knit,
        lambda C: C(
            sy.Apply(lambda n: sy.Bound(sy.Tick(n, 1), 3), sy.Tick(1, 1)),
            sy.RandomBoolean(0.3),
            sy.RandomBoolean(0.5),
            sy.RandomFloat(),
            max_tries=100,
            seed_instances=True,
            shared=[sy.Tick()],
            seed=1,
        ),
    ),
    Signature(sy.MarkovChain, lambda C: C({"a": sy.RandomInteger(0, 9), "b": "B"}, {"a": {"a": 1, "b": 2}, "b": {"a": 1}}, "a", sy.RandomFloat())),
    Signature(sy.MarkovReader, lambda C: C(nx.path_graph(3), lambda n: n * 10, 0, sy.RandomFloat())),
    Signature(sy.BehaviorTree, lambda C: C(sy.Sequence("a", sy.Selector("b", "c")), repeat=True)),
    Signature(sy.Sequence, lambda C: C("a", sy.Bound(sy.RandomInteger(0, 9), 2), "z")),
    Signature(sy.Selector, lambda C: C("a", sy.Sequence("b", "c"), weights=[1, 2], decision=sy.RandomFloat())),
    Signature(sy.Leaf, lambda C: C(sy.Bound(sy.RandomInteger(0, 9), 3))),
    Signature(sy.Grammar, lambda C: C(GRAMMAR)),
    Signature(sy.RegexGenerator, lambda C: C("^[a-c]{2}-[0-9]+$", max_repeat=4)),
    Signature(sy.GrammarSentence, lambda C: C(GRAMMAR, 6, " ", seed=1)),
    Signature(sy.GrammarSequence, lambda C: C(GRAMMAR, 6, str.upper, seed=1)),
    Signature(sy.TreePicker, lambda C: C(sy.RandomInteger(0, 100), sy.RandomInteger(0, 4), 2, seed=1)),
    Signature(sy.GraphPicker, lambda C: C(sy.Tick(), sy.RandomInteger(2, 12), 0.3, seed=1)),
    Signature(sy.BarabasiAlbert, lambda C: C(sy.Tick(), 30, 2, seed=1)),
]
