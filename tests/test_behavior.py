"""Semantics of the behaviour pickers (fixed seeds; alpha 1e-4 so nothing flakes)."""
from __future__ import annotations

import collections
import re

import networkx as nx
import numpy as np
import pytest
from scipy import stats

import synthia as sy
from synthia.pickers.grammar import Derivation, Grammar, GrammarError
from synthia.core.shrinking import simplicity

ALPHA = 1e-4


def test_record_keeps_the_trace() -> None:
    record = sy.Record(sy.Tick(0, 1))
    record.take(10)
    assert record.recorded == list(range(10))
    record.reset()
    assert record.recorded == []


def test_share_broadcasts_one_stream() -> None:
    source = sy.RandomInteger(0, 10**6).set_seed(1)
    expected = source.duplicate().take(6)
    a = sy.Share(source)
    b = a.another()
    assert a.take(2) == expected[:2]
    assert b.take(6) == expected
    assert a.take(4) == expected[2:]
    a.reset()
    assert b.take(2) == expected[:2]  # the broadcast restarted for every consumer


def test_share_drops_values_every_consumer_has_read() -> None:
    a = sy.Share(sy.Tick(0, 1))
    b = a.another()
    assert a.take(2000) == list(range(2000))
    assert b.take(1000) == list(range(1000))
    assert len(a.hub.buffer) <= 1000 + 257  # only what b has not read yet, and a little slack
    assert b.take(1000) == list(range(1000, 2000))


def test_knit_interleaves_and_retires_instances() -> None:
    started = []

    def visitor(n: int) -> sy.Picker:
        started.append(n)
        return sy.Playback([f"{n}:{i}" for i in range(3)], loop=False)

    knit = sy.Knit(sy.Apply(visitor, sy.Tick(0, 1)), spawn=sy.RandomBoolean(0.3)).set_seed(4)
    values = knit.take(60)
    by_visitor = collections.defaultdict(list)
    for v in values:
        n, i = v.split(":")
        by_visitor[int(n)].append(int(i))
    assert all(steps == sorted(steps) for steps in by_visitor.values())  # each in its own order
    assert any(steps == [0, 1, 2] for steps in by_visitor.values())  # and retired after its end
    owners = [int(v.split(":")[0]) for v in values]
    assert any(a > b for a, b in zip(owners, owners[1:]))  # interleaved, not one after another


def test_knit_coins_must_be_booleans() -> None:
    """Issue 26: a picker of numbers or strings as spawn was read as truthy (2 and "no" said yes)."""
    visitors = sy.Apply(lambda n: sy.Playback([n], loop=False), sy.Tick())
    with pytest.raises(TypeError, match=r"spawn must be a picker of booleans, got RandomInteger\(0, 2\), which picks numbers"):
        sy.Knit(visitors, spawn=sy.RandomInteger(0, 2))
    with pytest.raises(TypeError, match=r"replace must be a picker of booleans.*RandomBoolean\(p\)"):
        sy.Knit(visitors, replace=sy.Constant(1))
    knit = sy.Knit(visitors, spawn=sy.Choice("yes", "no")).set_seed(1)
    with pytest.raises(TypeError, match=r"spawn must pick booleans, got '(yes|no)' \(str\) from Choice\('yes', 'no'\)"):
        knit.take(3)
    numpy_coin = sy.Apply(np.bool_, sy.RandomBoolean())
    assert len(sy.Knit(visitors, spawn=numpy_coin).set_seed(1).take(20)) == 20


def test_knit_ends_when_the_source_ends() -> None:
    knit = sy.Knit(sy.Playback([sy.Playback("ab", loop=False), sy.Playback("cd", loop=False)], loop=False))
    assert sorted(knit.set_seed(1).take(10)) == ["a", "b", "c", "d"]


def test_markov_transition_frequencies() -> None:
    chain = sy.MarkovChain(
        {s: s for s in "abc"},
        {"a": {"a": 1, "b": 2, "c": 1}, "b": {"a": 1, "c": 3}, "c": {"a": 2, "b": 1, "c": 1}},
        start="a",
    ).set_seed(6)
    walk = chain.take(20_000)
    counts = collections.Counter(zip(walk, walk[1:]))
    for source in "abc":
        targets = [t for t in "abc" if chain.probability(source, t) > 0]
        observed = [counts[(source, t)] for t in targets]
        expected = [sum(observed) * chain.probability(source, t) for t in targets]
        assert stats.chisquare(observed, expected).pvalue > ALPHA
        assert all(counts[(source, t)] == 0 for t in "abc" if t not in targets)


def test_markov_dead_end_ends_the_stream_and_reset_restarts() -> None:
    chain = sy.MarkovChain({"a": sy.Tick(0, 1), "z": "end"}, {"a": {"z": 1}}, start="a")
    assert chain.take(5) == [0, "end"]
    chain.reset()
    assert chain.take(5) == [0, "end"]  # the state picker was reset too


def test_markov_dot_and_reader() -> None:
    chain = sy.MarkovReader(nx.DiGraph([("home", "about"), ("home", "shop"), ("shop", "home")]), start="home")
    assert chain.probability("home", "shop") == 0.5
    dot = chain.to_dot()
    assert dot.startswith("digraph") and "0.50" in dot and "doublecircle" in dot


def test_behavior_tree_traversal_order() -> None:
    tree = sy.BehaviorTree(sy.Sequence("a", sy.Sequence("b", "c"), sy.Leaf(sy.Playback([1, 2], loop=False)), "d"))
    assert tree.take(10) == ["a", "b", "c", 1, 2, "d"]
    selector = sy.Selector(sy.Sequence("x1", "x2"), "y", weights=[1, 0])
    assert sy.BehaviorTree(selector).take(5) == ["x1", "x2"]  # a selector sticks to its choice


def test_behavior_tree_repeats_with_new_choices() -> None:
    tree = sy.BehaviorTree(sy.Sequence("in", sy.Selector("buy", "browse"), "out"), repeat=True).set_seed(2)
    values = tree.take(60)
    rounds = [values[i : i + 3] for i in range(0, 60, 3)]
    assert all(r[0] == "in" and r[2] == "out" for r in rounds)
    assert {r[1] for r in rounds} == {"buy", "browse"}


ARITHMETIC = """
<expr> := <term> | <expr> + <term> | <expr> - <term> ;
<term> := <factor> | <term> * <factor> ;
<factor> := <number> | ( <expr> ) ;
<number> := ^[1-9][0-9]{0,2}$ ;
"""


def recognise(tokens: list[str]) -> bool:
    """A recursive-descent recogniser for ARITHMETIC (written independently of the picker)."""
    position = 0

    def peek() -> str:
        return tokens[position] if position < len(tokens) else ""

    def expr() -> bool:
        nonlocal position
        if not term():
            return False
        while peek() in ("+", "-"):
            position += 1
            if not term():
                return False
        return True

    def term() -> bool:
        nonlocal position
        if not factor():
            return False
        while peek() == "*":
            position += 1
            if not factor():
                return False
        return True

    def factor() -> bool:
        nonlocal position
        if peek() == "(":
            position += 1
            if not expr() or peek() != ")":
                return False
            position += 1
            return True
        if re.fullmatch(r"[1-9][0-9]{0,2}", peek()):
            position += 1
            return True
        return False

    return expr() and position == len(tokens)


def test_grammar_outputs_parse_back() -> None:
    sequences = sy.GrammarSequence(ARITHMETIC, max_depth=8).set_seed(1).take(300)
    assert all(recognise(tokens) for tokens in sequences)
    assert max(len(t) for t in sequences) > 10


def test_grammar_generation_terminates_within_the_depth_budget() -> None:
    def depth(d: Derivation) -> int:
        return 1 + max((depth(c) for c in d.children if isinstance(c, Derivation)), default=0)

    picker = sy.GrammarSequence(ARITHMETIC, max_depth=6).set_seed(2)
    assert all(depth(v.derivation) <= 6 for v in picker.take(300))


def test_grammar_sentence_keeps_its_derivation() -> None:
    sentence = sy.GrammarSentence(ARITHMETIC, max_depth=5).set_seed(3).pick()
    assert sentence == " ".join(sentence.derivation.tokens()) and sentence.derivation.rule == "expr"


def test_grammar_shrinks_to_valid_smaller_derivations() -> None:
    picker = sy.GrammarSequence(ARITHMETIC, max_depth=8).set_seed(4)
    value = max(picker.take(50), key=len)
    for _ in range(100):
        smaller = picker.shrink(value, sy.RandomFloat(seed=len(value)))
        if isinstance(smaller, sy.Nothing):
            break
        candidate = smaller.pick()
        assert recognise(candidate) and simplicity(candidate) < simplicity(value)
        value = candidate
    assert len(value) == 1


def test_grammar_errors_name_rule_and_position() -> None:
    with pytest.raises(GrammarError, match=r"rule <b> \(line 2, column 1\) uses undefined rule <c>"):
        Grammar("<a> := <b> ;\n<b> := <c> ;")
    with pytest.raises(GrammarError, match="defined twice"):
        Grammar("<a> := x ;\n<a> := y ;")


def test_tree_picker_depth_and_degrees() -> None:
    trees = sy.TreePicker(sy.Tick(0, 1), sy.RandomInteger(1, 5), 3).set_seed(5).take(50)
    for tree in trees:
        assert nx.is_arborescence(tree)
        assert all(d in (0, 3) for _, d in tree.out_degree())


def test_barabasi_albert_has_a_heavy_tail() -> None:
    graph = sy.BarabasiAlbert(size=2000, m=2).set_seed(7).pick()
    degrees = [d for _, d in graph.degree()]
    mean = sum(degrees) / len(degrees)
    assert nx.is_connected(graph) and graph.number_of_edges() == 1 + 2 * (2000 - 2)
    assert max(degrees) > 10 * mean


def test_graph_picker_edge_density() -> None:
    graphs = sy.GraphPicker(size=30, p=0.2).set_seed(8).take(30)
    edges = sum(g.number_of_edges() for g in graphs)
    assert stats.binomtest(edges, 30 * 435, 0.2).pvalue > ALPHA


def test_graph_to_dot() -> None:
    tree = sy.TreePicker(sy.Constant("n"), 2, 2).set_seed(1).pick()
    dot = sy.graph_to_dot(tree)
    assert dot.startswith("digraph") and dot.count("->") == tree.number_of_edges() == tree.number_of_nodes() - 1
    assert dot.count('[label="n"]') == tree.number_of_nodes()
