"""Guided pickers (issue 12): RLCheck's learner, exactly; determinism over the contract
registry; the BST gain; harnesses with guided inputs."""
from __future__ import annotations

import copy
import json
from typing import Any

import pytest

import synthia as sy
from synthia.rl.bst import bst_wiring, canonical, is_bst, size
from synthia.core.draws import Recorder, record, replay, routed
from synthia.rl import Guide, digest

from .contract.registry import Case, all_cases


# -- the learner -------------------------------------------------------------------------------
def test_q_is_the_running_average_of_the_rewards_of_every_visit() -> None:
    guide = Guide(epsilon=1.0, seed=5)
    given: dict[int, list[float]] = {0: [], 1: [], 2: []}
    for reward in [20.0, -1.0, 0.0, 20.0, -1.0, -1.0, 0.0, 20.0] * 5:
        first = guide.choose("k", 3)
        second = guide.choose("k", 3)  # two visits of the same entry in one episode: both count
        guide.learn(reward)
        given[first].append(reward)
        given[second].append(reward)
    for action, rewards in given.items():
        assert guide.counts("k")[action] == len(rewards)
        assert guide.q("k")[action] == pytest.approx(sum(rewards) / len(rewards), abs=1e-12)


def test_greedy_takes_the_best_action_and_breaks_ties_at_random() -> None:
    guide = Guide(epsilon=0.0, seed=1)
    guide.tables["k"] = [[1.0, 5.0, 5.0, -1.0], [1, 1, 1, 1]]
    picks = [guide.choose("k", 4) for _ in range(200)]
    guide.learn(0.0)
    assert set(picks) == {1, 2}
    assert 50 < picks.count(1) < 150


def test_a_never_updated_state_is_uniform_and_epsilon_explores() -> None:
    fresh = Guide(epsilon=0.0, seed=2)
    assert {fresh.choose("new", 5) for _ in range(300)} == {0, 1, 2, 3, 4}
    guide = Guide(epsilon=0.25, seed=3)
    guide.tables["k"] = [[9.0, 0.0, 0.0, 0.0], [1, 1, 1, 1]]
    picks = [guide.choose("k", 4) for _ in range(4000)]
    # greedy 0.75 + exploring 0.25 * 1/4
    assert picks.count(0) / 4000 == pytest.approx(0.8125, abs=0.03)


def test_learner_reset_copy_and_state_round_trip() -> None:
    guide = Guide(seed=4)
    for r in (20.0, -1.0, 0.0):
        guide.choose(("p", (0, 3), ()), 3)
        guide.learn(r)
    twin = copy.deepcopy(guide)
    assert [twin.choose("x", 4) for _ in range(30)] == [guide.choose("x", 4) for _ in range(30)]
    loaded = Guide.from_state(json.loads(json.dumps(guide.to_state())))
    assert loaded.tables.keys() == guide.tables.keys()
    assert loaded.q(("p", (0, 3), ())) == guide.q(("p", (0, 3), ()))
    guide.reset()
    assert len(guide) == 0 and guide.episodes == 0


def test_rewards_are_20_for_new_valid_0_for_seen_valid_and_minus_1_for_invalid() -> None:
    coin = sy.RandomBoolean()
    g = sy.guided(coin, valid=lambda b: True, only_valid=False, epsilon=1.0, seed=1)
    values = g.take(40)
    q = g.guide.q((0, "boolean", ()))
    for action, value in enumerate((False, True)):
        n = values.count(value)
        assert q[action] == pytest.approx(20.0 / n)  # one 20, then zeros
    bad = sy.guided(sy.RandomBoolean(), valid=lambda b: b, only_valid=False, epsilon=1.0, seed=1)
    values = bad.take(40)
    q = bad.guide.q((0, "boolean", ()))
    assert q[0] == -1.0 and q[1] == pytest.approx(20.0 / values.count(True))
    assert bad.valid_count == values.count(True) and bad.unique_count == 1


def test_a_property_failure_counts_as_a_new_valid_input() -> None:
    g = sy.guided(sy.RandomBoolean(), only_valid=False, epsilon=1.0, seed=3)
    values = g.take(2)
    while g.guide.last_reward != 0.0 or len(values) < 6:
        values.append(g.pick())  # until the last episode is a repeat
    g.on_failure()
    last = values[-1]
    rewards = [20.0] + [0.0] * (values.count(last) - 2) + [20.0]
    assert g.guide.q((0, "boolean", ()))[int(last)] == pytest.approx(sum(rewards) / len(rewards))
    g.on_failure()  # the same episode: nothing more
    assert g.guide.q((0, "boolean", ()))[int(last)] == pytest.approx(sum(rewards) / len(rewards))


def test_to_strategy_replays_a_guided_picker_under_hypothesis() -> None:
    from hypothesis import given, settings

    g = sy.guided(sy.ComposeList(sy.RandomInteger(0, 10), sy.RandomInteger(0, 5)), valid=lambda xs: sorted(xs) == xs, seed=1)
    seen: list[Any] = []

    @settings(max_examples=30, database=None, deadline=None)
    @given(sy.to_strategy(g))
    def check(xs: list[int]) -> None:
        assert sorted(xs) == xs
        seen.append(xs)

    check()
    assert len(seen) == 30


def test_uniqueness_is_a_64_bit_digest_of_the_canonical_form() -> None:
    assert digest("abc") == digest(b"abc") and len(digest("abc")) == 8
    parity = sy.guided(sy.RandomInteger(0, 10), canonical=lambda x: str(x % 2), only_valid=False, seed=1)
    parity.take(50)
    assert parity.unique_count == 2


def test_a_canonical_form_that_is_not_text_is_refused() -> None:
    """Issue 31: a canonical returning ints was taken silently (its str() was digested)."""
    ints = sy.guided(sy.RandomInteger(0, 10), canonical=lambda x: x % 2, only_valid=False, seed=1)
    with pytest.raises(TypeError, match=r"canonical must return a str or bytes .*got 1 \(int\)|canonical must return a str or bytes .*got 0 \(int\)"):
        ints.take(3)


# -- choice points ---------------------------------------------------------------------------
def test_dynamic_domains_are_guided_per_domain() -> None:
    wiring = sy.Bind(sy.RandomInteger(1, 6), lambda n: sy.Apply(lambda i: (n, i), sy.RandomInteger(0, n)))
    g = sy.guided(wiring, valid=lambda p: p[1] == p[0] - 1, seed=2)
    values = g.take(200)
    assert all(i == n - 1 for n, i in values)
    domains = {key[1] for key in g.guide.tables}
    assert {(0, n) for n in range(2, 6)} <= domains  # the inner range depends on the first draw
    later = [v for v in values[100:]]
    assert g.episodes < 200 * 4  # it learnt: far fewer invalid tries than 1 in n


def test_points_select_the_guided_choice_points_by_picker_or_by_name() -> None:
    value, length = sy.RandomInteger(0, 10), sy.RandomInteger(1, 4)
    lists = sy.ComposeList(value, length)
    by_picker = sy.guided(sy.ComposeList(value, length), points=[length], only_valid=False, seed=1)
    by_picker.take(20)
    assert {key[1] for key in by_picker.guide.tables} == {(1, 4)}
    by_name = sy.guided(lists.duplicate(), points=["element"], only_valid=False, seed=1)
    by_name.take(20)
    assert {key[1] for key in by_name.guide.tables} == {(0, 10)}


def test_wide_ranges_are_bucketed_and_floats_can_stay_random() -> None:
    wide = sy.guided(sy.RandomInteger(0, 1000), valid=lambda x: x >= 900, max_actions=10, seed=1)
    values = wide.take(100)
    assert all(900 <= v < 1000 for v in values) and len(set(values)) > 30
    assert wide.guide.counts((0, (0, 1000), ()))[9] >= 100  # the last bucket, [900, 1000)
    floats = sy.guided(sy.Apply(lambda f, b: (f, b), sy.RandomFloat(), sy.RandomBoolean()), float_buckets=0,
                       only_valid=False, seed=1)
    floats.take(10)
    assert {key[1] for key in floats.guide.tables} == {"boolean"}
    plain = sy.RandomFloat().set_seed(4)
    assert [f for f, _ in sy.guided(sy.Apply(lambda f, b: (f, b), plain.duplicate(), sy.RandomBoolean()),
                                     float_buckets=0, only_valid=False, seed=1).take(5)] == plain.take(5)


def test_weighted_draws_choose_among_positive_weights() -> None:
    from synthia.rl import GuideSource

    g = sy.guided(sy.RandomInteger(0, 2), seed=1)
    source: GuideSource = g.source
    source.begin()
    picks = {source.weighted(None, [0.0, 1.0, 1.0, 3.0]) for _ in range(50)}
    assert picks == {1, 3}  # index 0 and 2 have weight 0


def test_grammar_rules_are_choice_points_named_by_rule() -> None:
    grammar = sy.GrammarSentence("<s> := <n> | <s> + <n> ; <n> := 1 | 2 | 3 ;", max_depth=6)
    g = sy.guided(grammar, valid=lambda s: s.count("+") == 2, points=["s"], seed=1)
    assert all(s.count("+") == 2 for s in g.take(30))
    assert {key[0][1] for key in g.guide.tables} == {("rule", "s")}


# -- determinism over the registry ---------------------------------------------------------------
def _registry() -> list[Case]:
    return [c for c in all_cases() if c.random and not c.bounded and c.covers is not sy.GuidedPicker]


def _same(case: Case, a: list[Any], b: list[Any]) -> bool:
    if case.compare is None:
        return a == b
    return len(a) == len(b) and all(case.compare(x, y) for x, y in zip(a, b))


@pytest.mark.parametrize("case", _registry(), ids=repr)
def test_guided_registry_pickers_replay_duplicate_and_freeze(case: Case) -> None:
    try:
        first = sy.guided(case.factory(), only_valid=False, seed=7)
        values = first.take(8)
    except (sy.GiveUp, sy.NoMoreElements):
        pytest.skip("the wiring gives up or ends under a guide")
    again = sy.guided(case.factory(), only_valid=False, seed=7)
    assert _same(case, again.take(8), values)  # same seed, same sequence
    first.reset()
    assert _same(case, first.take(8), values)  # reset restores the learner
    half = sy.guided(case.factory(), only_valid=False, seed=7)
    half.take(4)
    twin = half.duplicate(with_state=True)
    assert _same(case, twin.take(4), values[4:]) and _same(case, half.take(4), values[4:])
    frozen = first.freeze()
    frozen_values = frozen.take(6)
    frozen.reset()
    assert _same(case, frozen.take(6), frozen_values)  # a frozen guide is an ordinary picker
    assert _same(case, frozen.duplicate().take(6), frozen_values)


# -- compiled guided pickers (synthia.compile) ---------------------------------------------------
def _fused(g: Any) -> bool:
    from synthia.rl.guide_stager import NotFusable, guided_source

    try:
        guided_source(g)
    except NotFusable:
        return False
    return True


def test_one_uniform_draw_decides_to_explore_and_which_action() -> None:
    from synthia.rl.learning import explored, greedy

    n, epsilon, steps = 7, 0.25, 70_000
    actions = [explored(i * epsilon / steps, epsilon, n) for i in range(steps)]
    assert [actions.count(a) for a in range(n)] == [steps // n] * n  # u / epsilon is uniform again
    assert explored(0.25 - 2**-54, 0.25, n) == n - 1  # never n, even at the edge
    assert greedy([1.0, 4.0, -1.0], lambda k: 0) == 1
    assert {greedy([3.0, 1.0, 3.0, 3.0], lambda k, r=r: r) for r in range(3)} == {0, 2, 3}  # ties in order


def test_a_choice_is_one_choice_point_with_an_action_per_alternative_of_positive_weight() -> None:
    g = sy.guided(sy.Choice("a", "b", "c", weights=[1, 0, 3]), valid=lambda x: x == "c", only_valid=False, seed=3)
    values = g.take(400)
    assert set(values) == {"a", "c"} and values[200:].count("c") > 120  # epsilon 0.25 keeps exploring "a"
    (entry,) = g.guide.tables.values()
    assert len(entry[0]) == 2  # two actions, whatever float_buckets is (8 by default)
    # A decision another picker reads too is a plain float: bucketed, the value drawn inside the bucket.
    shared = sy.RandomFloat()
    both = sy.guided(sy.Apply(lambda c, u: (c, u), sy.Choice("x", "y", decision=shared), shared), only_valid=False, seed=3)
    both.take(20)
    assert {len(e[0]) for e in both.guide.tables.values()} == {8}


def test_uniqueness_never_depends_on_where_a_value_lives_in_memory() -> None:
    # A networkx graph's repr is its address: the default canonical form pickles such values,
    # so the 8 graphs on 3 nodes are 8 distinct values, however many times each is made.
    g = sy.guided(sy.GraphPicker(size=3, p=0.5), only_valid=False, seed=1)
    graphs = g.take(300)
    assert g.unique_count == len({tuple(sorted(x.edges)) for x in graphs}) <= 8


def _same_learner(a: Any, b: Any) -> bool:
    ga, gb = a.guide, b.guide
    return ga.tables.keys() == gb.tables.keys() and all(
        ga.q(k) == gb.q(k) and ga.counts(k) == gb.counts(k) for k in ga.tables
    )


@pytest.mark.parametrize("state", ["sequence", "tree"])
@pytest.mark.parametrize("case", _registry(), ids=repr)
def test_a_compiled_guided_picker_makes_the_same_decisions(case: Case, state: str) -> None:
    try:
        plain = sy.guided(case.factory(), only_valid=False, state=state, float_buckets=2, seed=11)
        expected = plain.take(150)
    except (sy.GiveUp, sy.NoMoreElements):
        pytest.skip("the wiring gives up or ends under a guide")
    guided = sy.guided(case.factory(), only_valid=False, state=state, float_buckets=2, seed=11)
    fast = sy.compile(guided)
    assert _same(case, fast.take(150), expected)
    assert _same_learner(guided, plain) and guided.unique_count == plain.unique_count


@pytest.mark.parametrize("make", [
    lambda: sy.Apply(lambda a, b, c: (a, b, c), sy.RandomInteger(-50, 1000), sy.RandomFloat(-2.0, 3.5), sy.RandomBoolean(0.3)),
    lambda: sy.ComposeList(sy.Choice("a", "b", sy.RandomInteger(0, 40), weights=[1, 0, 3]), length=sy.RandomInteger(0, 6)),
    lambda: sy.MarkovChain({"s": {"s": 1, "t": 2}, "t": {"s": 1}}, start="s"),
    lambda: sy.ArrayPicker(sy.RandomBoolean(), sy.Choice(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)),
], ids=["wide ranges", "weighted choice in a list", "Markov chain", "long choice"])
@pytest.mark.parametrize("state", ["sequence", "tree"])
def test_compiled_guided_wide_ranges_weights_and_chains(make: Any, state: str) -> None:
    plain = sy.guided(make(), only_valid=False, state=state, seed=4)
    guided = sy.guided(make(), only_valid=False, state=state, seed=4)
    assert _fused(guided)
    assert sy.compile(guided).take(300) == plain.take(300)
    assert _same_learner(guided, plain)


@pytest.mark.parametrize("state", ["sequence", "tree"])
def test_a_compiled_guided_grammar_makes_the_same_decisions(state: str) -> None:
    text = """
    <stmt> := <simple> | "while " <expr> ": " <simple> | "def f(): " <simple>
    <simple> := "pass" | "break" | "return " <expr> | <name> " = " <expr> | <expr>
    <expr> := <name> | "0" | <expr> " + " <expr> | "(" <expr> ")"
    <name> := x | y
    """

    def make() -> Any:
        return sy.guided(sy.GrammarSentence(text, max_depth=6, separator=""), valid=lambda s: "break" not in s or "while" in s,
                         canonical=str, only_valid=False, state=state, seed=8)

    plain, guided = make(), make()
    assert _fused(guided)
    assert sy.compile(guided).take(400) == plain.take(400)
    assert _same_learner(guided, plain)
    assert not _fused(sy.guided(sy.GrammarSentence("<s> := ^[a-c]{1,3}$ | <s> <s>", max_depth=4)))  # pattern terminals


def test_most_random_registry_wirings_compile_under_a_guide() -> None:
    fused = [c.name for c in _registry() if _fused(sy.guided(c.factory(), state="tree", float_buckets=2))]
    assert {"RandomInteger", "RandomFloat", "RandomBoolean", "Choice of values", "ComposeList"} <= set(fused), fused
    assert len(fused) >= 9, fused
    assert _fused(sy.guided(_bst(), state="tree", float_buckets=2))
    assert not _fused(sy.guided(sy.Choice(sy.Tick(), sy.RandomInteger(0, 3))))  # a picker called as it is
    assert not _fused(sy.guided(sy.RandomInteger(0, 9), points=["x"]))  # selected points
    assert not _fused(sy.guided(sy.RandomFloat(), float_buckets=0))  # floats left random


def test_a_compiled_guided_picker_resets_duplicates_and_reseeds_like_the_guided_picker() -> None:
    def make(seed: int = 2) -> Any:
        return sy.guided(_bst(), valid=is_bst, canonical=canonical, state="tree", float_buckets=2, seed=seed)

    fast = sy.compile(make())
    values = fast.take(200)
    assert values == make().take(200)
    fast.reset()
    assert fast.take(200) == values
    half = sy.compile(make())
    half.take(100)
    twin = half.duplicate(with_state=True)
    assert twin.take(100) == values[100:] == half.take(100)
    assert sy.compile(make(2)).set_seed(9).take(50) == make(2).set_seed(9).take(50)
    assert "GuidedPicker: its wiring compiled" in fast.source and "entry_of(ctx" in fast.source


def test_compiled_pickers_pickle_and_continue_where_they_were() -> None:
    import pickle

    lists = sy.ComposeList(sy.RandomInteger(0, 10), sy.RandomInteger(0, 5))
    for picker in (sy.compile(lists.duplicate()), sy.compile(sy.guided(lists.duplicate(), state="tree", seed=5))):
        picker.take(7)
        copy_ = pickle.loads(pickle.dumps(picker))  # Dask ships wirings to its workers this way
        assert copy_.take(20) == picker.take(20)


def test_a_compiled_guided_picker_inside_assert_gives_the_guided_picker_s_report() -> None:
    def check(t: Any) -> None:
        assert size(t) < 7

    def run(compiled: bool) -> Any:
        tree = sy.guided(_bst(), valid=is_bst, canonical=canonical, state="tree", float_buckets=2, seed=5)
        return sy.Assert(check, sy.RunOptions(stop=sy.FixedCount(20_000)), t=sy.compile(tree) if compiled else tree).run(seed=1)

    plain, fast = run(False), run(True)
    assert not fast.passed and fast.tried == plain.tried
    assert fast.smallest == plain.smallest and size(fast.smallest["t"]) == 7
    assert fast.notes == plain.notes


def test_a_frozen_guide_replays_through_its_draws_and_saves_as_json() -> None:
    tree = _bst()
    g = sy.guided(tree, valid=is_bst, canonical=canonical, state="tree", float_buckets=2, seed=3)
    g.take(300)
    frozen = g.freeze()
    value, tape = record(frozen)
    assert replay(frozen, tape)[0] == value  # the replayer dictates every draw
    text = g.to_json()
    other = sy.guided(_bst(), valid=is_bst, canonical=canonical, state="tree", float_buckets=2, seed=3).from_json(text)
    assert other.freeze().take(20) == g.freeze().take(20)
    with pytest.raises(ValueError, match="window"):
        sy.guided(_bst(), state="tree", window=3, float_buckets=2).from_json(text)
    with sy.recording(frozen):
        frozen.pick()
    explanation = sy.explain(frozen, 0)
    assert any(data.get("picker") is not None and type(data["picker"]).__name__ == "RandomInteger"
               for _, data in explanation.graph.nodes(data=True))


def test_a_grammar_learner_round_trips_through_json() -> None:
    def make() -> sy.Picker:
        grammar = sy.GrammarSentence("<s> := <n> | <s> + <n> ; <n> := 1 | 2 | 3 ;", max_depth=6)
        return sy.guided(grammar, valid=lambda s: s.count("+") == 2, state="tree", seed=6)

    g = make()
    g.take(50)
    loaded = make().from_json(g.to_json())
    assert loaded.guide.tables.keys() == g.guide.tables.keys()
    assert loaded.freeze().take(20) == g.freeze().take(20)


def test_recording_does_not_change_what_the_learner_chooses() -> None:
    grammar = sy.GrammarSentence("<s> := <n> | <s> + <n> ; <n> := 1 | 2 | 3 ;", max_depth=6)
    plain = sy.guided(grammar, valid=lambda s: len(s) > 5, state="tree", seed=4)
    expected = plain.take(30)
    recorded = plain.duplicate()
    recorder = Recorder()
    with routed(recorded, recorder):
        got = [recorded.pick() for _ in range(30)]
    assert got == expected
    assert any(not isinstance(span.label, int) for span in recorder.tape.spans)


# -- the BST case ------------------------------------------------------------------------------
_bst = bst_wiring


def test_the_tree_state_finds_several_times_more_distinct_valid_bsts_than_random() -> None:
    trials = 10_000
    plain = _bst().set_seed(1)
    random_unique = {canonical(t) for t in plain.take(trials) if is_bst(t)}
    g = sy.guided(_bst(), valid=is_bst, canonical=canonical, state="tree", float_buckets=2, only_valid=False, seed=1)
    g.take(trials)
    assert g.unique_count >= 2.5 * len(random_unique)
    assert g.valid_count > 0.35 * trials  # random: about 32%
    assert g.history[-1] == (trials, g.valid_count, g.unique_count)


def test_assert_finds_a_bug_behind_a_strict_precondition_and_reports_the_rates() -> None:
    def check(t: Any) -> None:
        assert size(t) < 8  # a bug in an operation on valid BSTs of 8+ nodes: random makes none in 100,000

    tree = sy.guided(_bst(), valid=is_bst, canonical=canonical, state="tree", float_buckets=2, seed=5)
    report = sy.Assert(check, sy.RunOptions(stop=sy.FixedCount(20_000)), t=tree).run(seed=1)
    assert not report.passed and report.tried < 20_000
    assert size(report.smallest["t"]) == 8 and is_bst(report.smallest["t"])
    assert any(note.startswith("guided Deferred:") and "unique valid" in note for note in report.notes)


def test_monkey_takes_guided_action_arguments() -> None:
    class Counter:
        def __init__(self) -> None:
            self.n = 0

        def add(self, k: int) -> None:
            self.n += k
            assert self.n != 7

    amounts = sy.guided(sy.RandomInteger(0, 4), valid=lambda k: k > 0, seed=2)
    report = sy.Monkey(Counter, [sy.Action("add", k=amounts)]).run(seed=3)
    assert not report.passed


def test_a_monkey_carries_a_guided_argument_from_trace_to_trace_and_replays_the_failing_trace() -> None:
    class TreeStore:
        """Stores valid BSTs; a bug when one of 7+ nodes is added (random makes 7+ almost never)."""

        def __init__(self) -> None:
            self.trees: list[Any] = []

        def add(self, t: Any) -> None:
            assert size(t) < 7, "add() loses nodes of a tree of 7+ nodes"
            self.trees.append(t)

    def run() -> Any:
        tree = sy.guided(_bst(), valid=is_bst, canonical=canonical, state="tree", float_buckets=2, seed=5)
        return sy.Monkey(TreeStore, [sy.Action("add", t=tree)], stop=sy.FixedCount(20_000), max_steps=3).run(seed=4)

    report = run()
    assert not report.passed and not report.flaky
    # Three steps a trace: the guide learns across traces, or it would never get to 7 nodes.
    note = next(n for n in report.notes if n.startswith("guided Deferred:"))
    assert int(note.split(": ")[1].split(" episodes")[0]) > 3 * 100
    assert report.tried > 100
    smallest = report.trace[-1].args["t"]
    assert is_bst(smallest) and size(smallest) == 7 and len(report.trace) == 1
    assert report.replay() is False  # the shrunk trace still fails, from its draws
    again = run()
    assert again.program == report.program and again.tried == report.tried
    # A picker of actions holding the guided argument: the same carrying over.
    tree = sy.guided(_bst(), valid=is_bst, canonical=canonical, state="tree", float_buckets=2, seed=5)
    actions = sy.Choice(sy.Action("add", t=tree), sy.Action("__init__"))
    picked = sy.Monkey(TreeStore, actions, stop=sy.FixedCount(20_000), max_steps=3).run(seed=4)
    assert not picked.passed and size(picked.trace[-1].args["t"]) == 7
    assert any(n.startswith("guided Deferred:") for n in picked.notes)


def test_the_example_runs() -> None:
    import pathlib
    import runpy

    path = pathlib.Path(__file__).resolve().parent.parent / "examples" / "guided_bst.py"
    runpy.run_path(str(path), run_name="guided_bst")["main"](trials=3000)


def test_the_tour_chapter_runs() -> None:
    import io

    from synthia.tour import run

    out = io.StringIO()
    run(out, only="guided")
    text = out.getvalue()
    assert "distinct valid BSTs in 4000 guided trees" in text and "smallest failing BST" in text


def test_the_steps_of_an_integer_by_draw_are_choice_points() -> None:
    # AnyInteger records one integer, but the learner steers the mode, width and magnitude
    # that make it: small values stay reachable (a plain integer of 2**65 values is not).
    lists = sy.guided(sy.ComposeList(sy.AnyInteger(), 3), valid=lambda l: all(abs(x) < 100 for x in l), only_valid=False, seed=1)
    for _ in range(3000):
        lists.pick()
    assert lists.valid_count > 100 and lists.unique_count > 50


def test_a_saved_learner_that_cannot_be_trusted_is_one_value_error() -> None:
    import json

    def make() -> Any:
        return sy.guided(_bst(), valid=is_bst, state="tree", float_buckets=2, seed=3)

    g = make()
    g.take(100)
    saved = json.loads(g.to_json())
    assert saved["guide"]["tables"], "the learner learned something"

    def spoiled(change: Any) -> str:
        data = json.loads(json.dumps(saved))
        change(data["guide"])
        return json.dumps(data)

    bad = {
        "a NaN q value": spoiled(lambda guide: guide["tables"][0][1].__setitem__(0, float("nan"))),
        "a negative count": spoiled(lambda guide: guide["tables"][0][2].__setitem__(0, -1)),
        "a row cut short": spoiled(lambda guide: guide["tables"][0].pop()),
        "q values and counts of other lengths": spoiled(lambda guide: guide["tables"][0][2].append(1)),
        "no tables": spoiled(lambda guide: guide.pop("tables")),
        "not JSON": "{not json",
        "nested too deep": "[" * 100_000 + "]" * 100_000,
    }
    for why, text in bad.items():
        with pytest.raises(ValueError):
            make().from_json(text)
    assert make().from_json(g.to_json()).freeze().take(5) == g.freeze().take(5)
