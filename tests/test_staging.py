"""Staging: ``sy.compile(p)`` gives exactly ``p``'s values, seeds, resets and copies like it,
and never makes different draws while draws are recorded, replayed or shrunk."""
from __future__ import annotations

import copy
from typing import Any

import pytest

import synthia as sy
import synthia.core.draws as sd
from synthia.staging import stage
from synthia.core.emitter import Instrumented

from .contract.registry import Case, all_cases

CASES = all_cases()


def _stageable(case: Case) -> bool:
    try:
        source, _ = stage(case.factory())
    except Instrumented:  # pragma: no cover - a fresh wiring is never routed
        return False
    return "0 pickers staged" not in source


STAGEABLE = [c for c in CASES if _stageable(c)]
OTHERS = [c for c in CASES if c not in STAGEABLE]


def _same(case: Case, a: list[Any], b: list[Any]) -> bool:
    if case.compare is None:
        return a == b
    return len(a) == len(b) and all(case.compare(x, y) for x, y in zip(a, b))


def test_most_of_the_registry_is_stageable() -> None:
    assert len(STAGEABLE) >= 12
    names = {c.name for c in STAGEABLE}
    assert {"RandomInteger", "Choice of values", "ComposeList", "Apply", "Deferred tree"} <= names


def _check_seeds(case: Case, seeds: range, count: int) -> None:
    plain = case.factory()
    staged = sy.compile(case.factory())
    for seed in seeds:
        expected = plain.set_seed(seed).take(count)
        got = staged.set_seed(seed).take(count)
        assert _same(case, got, expected), (case.name, seed, got, expected)


@pytest.mark.parametrize("case", STAGEABLE, ids=repr)
def test_a_thousand_seeds_give_the_same_values(case: Case) -> None:
    _check_seeds(case, range(-500, 500), 6 if case.max_values > 6 else case.max_values)


@pytest.mark.parametrize("case", OTHERS, ids=repr)
def test_pickers_called_as_they_are_give_the_same_values_too(case: Case) -> None:
    _check_seeds(case, range(20), case.max_values)


@pytest.mark.parametrize("case", STAGEABLE, ids=repr)
def test_reset_duplicate_and_set_seed_follow_the_wiring(case: Case) -> None:
    staged = sy.compile(case.factory()).set_seed(12)
    first = staged.take(case.max_values)
    staged.reset()
    assert _same(case, staged.take(case.max_values), first)
    staged.reset()
    staged.take(3)
    twin = staged.duplicate(with_state=True)
    assert _same(case, twin.take(case.max_values), staged.take(case.max_values))
    fresh = staged.duplicate()
    assert _same(case, fresh.take(case.max_values), first)
    # the copy has its own streams: picking from it does not move the original
    staged.reset()
    other = staged.duplicate()
    other.take(case.max_values)
    assert _same(case, staged.take(case.max_values), first)


def test_the_source_is_readable_and_cached_per_shape() -> None:
    from synthia.core import emitter as compiler

    a = sy.compile(sy.ComposeList(sy.RandomInteger(0, 100), sy.RandomInteger(0, 5)))
    b = sy.compile(sy.ComposeList(sy.RandomInteger(0, 100), sy.RandomInteger(0, 5)))
    assert a.source == b.source
    assert "getrandbits" in a.source and "for _ in range(" in a.source
    a.pick()
    cached = len(compiler._MAKERS)
    b.pick()
    assert len(compiler._MAKERS) == cached  # the same shape compiles once


def test_user_strings_are_never_spliced_into_the_source() -> None:
    evil = "x'); import os; os._exit(3); ('"
    wiring = sy.Apply(dict, **{"ok": sy.Choice(evil, "b"), "k": sy.Constant(evil)})
    source = sy.compile(wiring).source
    assert evil not in source and "os" not in source
    fast = sy.compile(wiring.duplicate()).set_seed(1)
    assert fast.take(5) == wiring.set_seed(1).take(5)


def test_user_pickers_and_functions_are_called_as_they_are() -> None:
    class Twice(sy.Picker[int]):
        inputs_fields = ("inner",)

        def __init__(self, inner: sy.Picker[int]) -> None:
            self.inner = inner

        def pick(self) -> int:
            return 2 * self.inner.pick()

    calls = []

    def record(a: int, b: int) -> tuple[int, int]:
        calls.append((a, b))
        return a, b

    wiring = sy.Apply(record, Twice(sy.RandomInteger(0, 10)), sy.RandomInteger(0, 10))
    staged = sy.compile(wiring)
    assert "called as it is" in staged.source
    assert staged.set_seed(4).take(20) == wiring.set_seed(4).take(20)
    assert len(calls) == 40


def test_long_choices_and_zero_weights() -> None:
    letters = sy.Choice(*"abcdefghijklmnopqrstuvwxyz")
    mixed = sy.Choice(*[sy.RandomInteger(0, i + 2) for i in range(20)], weights=[0, 1] * 10)
    zero_last = sy.Choice(1, 2, 3, weights=[2, 1, 0])
    odd_decision = sy.Choice(1, 2, 3, decision=sy.Playback([0.1, 0.5, 0.9, 0.4]))
    for wiring in (letters, mixed, zero_last, odd_decision):
        assert sy.compile(wiring.duplicate()).set_seed(5).take(300) == wiring.set_seed(5).take(300)


def test_bad_lengths_fail_as_in_the_wiring() -> None:
    wiring = sy.ComposeList(1, sy.Playback([2, -1]))
    staged = sy.compile(wiring.duplicate())
    assert staged.pick() == [1, 1]
    with pytest.raises(ValueError, match="length must pick non-negative ints"):
        staged.pick()


def test_a_plain_value_compiles_to_a_constant() -> None:
    assert sy.compile(3).take(2) == [3, 3]  # type: ignore[arg-type]
    assert sy.Compiled([1]).pick() == [1]  # type: ignore[arg-type]


def test_compile_is_idempotent_and_nests() -> None:
    inner = sy.compile(sy.RandomInteger(0, 10))
    assert sy.compile(inner) is inner
    outer = sy.ComposeList(inner, 3)
    plain = sy.ComposeList(sy.RandomInteger(0, 10), 3)
    assert sy.compile(outer).set_seed(2).take(5) == plain.set_seed(2).take(5)


# -- recording, replaying, shrinking: the same draws -----------------------------------------
def _record_tree() -> sy.Picker[Any]:
    tree: sy.Picker[Any] = sy.Deferred(
        lambda: sy.Choice(sy.RandomInteger(0, 50), sy.Apply(lambda l, r: [l, r], tree, tree), weights=[2, 1]),
        max_depth=4,
        fallback=0,
    )
    return sy.ComposeList(tree, sy.RandomInteger(0, 4))


def test_recording_a_compiled_wiring_records_the_wiring_s_draws() -> None:
    for seed in range(30):
        plain = _record_tree().set_seed(seed)
        staged = sy.compile(_record_tree()).set_seed(seed)
        value, tape = sy.record(plain, picks=3)
        staged_value, staged_tape = sy.record(staged, picks=3)
        assert staged_value == value
        assert staged_tape.draws == tape.draws
        # after the recording the fast path is back, and still in step
        assert staged.take(4) == plain.take(4)
        assert sy.replay(staged, tape)[0] == sy.replay(plain, tape)[0] == value


def test_routing_without_spans_falls_back_to_the_graph() -> None:
    plain = _record_tree().set_seed(3)
    staged = sy.compile(_record_tree()).set_seed(3)
    expected = plain.take(2)
    recorder = sd.Recorder()
    with sd.routed(staged, recorder, spans=False):
        got = staged.take(2)
    assert got == expected and len(recorder.tape.draws) > 2


def test_provenance_recording_sees_every_picker() -> None:
    def explained(root: sy.Picker[Any], inner: sy.Picker[Any]) -> tuple[Any, list[Any]]:
        with sy.recording(root):
            value = root.pick()
        explanation = sy.explain(inner)
        return value, sorted(explanation.graph.nodes[leaf]["value"] for leaf in explanation.leaves())

    wiring = sy.ComposeList(sy.RandomInteger(0, 9), sy.RandomInteger(1, 4)).set_seed(1)
    twin = wiring.duplicate()
    staged = sy.compile(twin)
    assert explained(staged, twin) == explained(wiring, wiring)


def test_shrinking_a_compiled_wiring_gives_the_uncompiled_result() -> None:
    def test(xs: list[Any]) -> bool:
        return sum(1 for x in xs if isinstance(x, list)) < 2

    for seed in (1, 2, 3):
        reports = []
        for wiring in (_record_tree(), sy.compile(_record_tree())):
            reports.append(sy.Assert(test, sy.RunOptions(stop=sy.FixedCount(300)), xs=wiring).run(seed=seed))
        plain, staged = reports
        assert plain.passed == staged.passed
        if not plain.passed:
            assert staged.smallest == plain.smallest  # type: ignore[attr-defined]
            assert staged.tried == plain.tried  # type: ignore[attr-defined]


def test_a_copy_of_a_routed_compiled_picker_is_fast_again_outside() -> None:
    staged = sy.compile(_record_tree()).set_seed(9)
    with sd.routed(staged, sd.Recorder()):
        twin = copy.deepcopy(staged)
    assert twin.take(3) == staged.take(3)


def test_a_compiled_wiring_works_as_a_hypothesis_strategy() -> None:
    from hypothesis import given, settings

    seen: list[Any] = []

    @settings(max_examples=30, database=None, deadline=None)
    @given(sy.to_strategy(sy.compile(sy.ComposeList(sy.RandomInteger(0, 10), sy.RandomInteger(0, 4)))))
    def body(xs: list[int]) -> None:
        seen.append(xs)
        assert all(0 <= x < 10 for x in xs) and len(xs) < 4

    body()
    assert len(seen) >= 10


# -- Bind(cache=True): staged, the kept wirings compiled once ---------------------------------
def _pairs() -> sy.Picker[Any]:
    return sy.Bind(sy.RandomInteger(0, 40), lambda x: sy.Apply(lambda y: (x, y), sy.RandomInteger(0, x + 1)), cache=True)


def test_a_cached_bind_is_staged_and_gives_the_same_values() -> None:
    staged = sy.compile(_pairs())
    assert "Bind(cache=True)" in staged.source and "called as it is" not in staged.source.split("\n", 1)[1]
    plain = _pairs()
    for seed in range(-300, 300):
        assert staged.set_seed(seed).take(12) == plain.set_seed(seed).take(12), seed
    # the kept wirings are compiled once and dropped with the wirings at a reset
    assert staged.wiring.compiled and set(staged.wiring.compiled) == {key[1] for key in staged.wiring.kept}  # type: ignore[attr-defined]
    staged.reset()
    assert not staged.wiring.compiled and not staged.wiring.kept  # type: ignore[attr-defined]


def test_a_bind_without_cache_is_called_as_it_is() -> None:
    wiring = sy.Bind(sy.RandomInteger(0, 40), lambda x: sy.RandomInteger(0, x + 1))
    assert "called as it is" in sy.compile(wiring).source


def test_a_cached_bind_records_replays_and_shrinks_as_unstaged() -> None:
    for seed in range(20):
        plain, staged = _pairs().set_seed(seed), sy.compile(_pairs()).set_seed(seed)
        plain.take(7), staged.take(7)
        value, tape = sy.record(plain, picks=3)
        staged_value, staged_tape = sy.record(staged, picks=3)
        assert staged_value == value and staged_tape.draws == tape.draws and len(tape.draws) == 6
        assert staged.take(9) == plain.take(9)  # after the route, in step and fast again
        assert sy.replay(staged, tape)[0] == sy.replay(plain, tape)[0] == value
    for seed in (1, 2, 3):
        reports = [sy.Assert(lambda p: p[1] < 30, sy.RunOptions(stop=sy.FixedCount(500)), p=w).run(seed=seed) for w in (_pairs(), sy.compile(_pairs()))]
        assert not reports[0].passed
        assert reports[1].smallest == reports[0].smallest == {"p": (30, 30)}  # type: ignore[attr-defined]


def test_a_cached_bind_copies_and_refuses_unhashable_values() -> None:
    staged = sy.compile(_pairs()).set_seed(4)
    staged.take(5)
    twin = staged.duplicate(with_state=True)
    assert twin.take(40) == staged.take(40)
    other = staged.duplicate()
    other.take(50)
    assert staged.duplicate().take(10) == other.set_seed(4).take(10)
    lists = sy.Bind(sy.ComposeList(1, 2), lambda l: sy.RandomInteger(0, 3), cache=True)
    for picker in (lists, sy.compile(lists.duplicate())):
        with pytest.raises(TypeError, match="picker must pick hashable values"):
            picker.pick()


# -- grammars: one local function per rule ---------------------------------------------------
SENTENCES = """
<s> := <np> <vp> ;
<np> := the <n> | the <adj> <n> | <np> and <np> ;
<vp> := <v> <np> | <v> ;
<n> := fox | dog | "big cat" | ^[a-c]{1,3}$ ;
<adj> := quick | lazy | ε ;
<v> := sees | chases | likes ;
"""


@pytest.mark.parametrize(
    "make",
    [
        lambda: sy.GrammarSentence(SENTENCES, max_depth=7),
        lambda: sy.GrammarSentence(SENTENCES, max_depth=3, separator="_"),
        lambda: sy.GrammarSequence("<e> := <n> | <e> + <n> | ( <e> ) ; <n> := ^[1-9][0-9]?$ ;", max_depth=8, to_object=str.upper),
        lambda: sy.GrammarSentence("<a> := x <b> ; <b> := y | ε | <a> ;", max_depth=9),
    ],
)
def test_grammars_are_staged_with_the_same_values_and_derivations(make: Any) -> None:
    plain, staged = make(), sy.compile(make())
    assert "a rule of the grammar" in staged.source and "called as it is" not in staged.source.split("\n", 1)[1]
    for seed in range(-500, 500):
        expected, got = plain.set_seed(seed).take(3), staged.set_seed(seed).take(3)
        assert got == expected and [g.derivation for g in got] == [e.derivation for e in expected], seed
    assert type(got[0]) is type(expected[0])


def test_grammar_rule_names_and_words_are_never_spliced_into_the_source() -> None:
    grammar = sy.GrammarSentence('<start> := "import os" <x-y> ; <x-y> := "\\nos._exit(3)" | zzz ;', max_depth=4)
    source = sy.compile(grammar).source
    assert "import os" not in source and "_exit" not in source and "zzz" not in source and "x-y" not in source


def test_a_staged_grammar_records_the_same_draws_and_spans() -> None:
    plain, staged = sy.GrammarSentence(SENTENCES, max_depth=7).set_seed(4), sy.compile(sy.GrammarSentence(SENTENCES, max_depth=7)).set_seed(4)
    value, tape = sy.record(plain, picks=2)
    staged_value, staged_tape = sy.record(staged, picks=2)
    assert staged_value == value and staged_tape.draws == tape.draws
    assert [s.label for s in staged_tape.spans if isinstance(s.label, tuple)] == [s.label for s in tape.spans if isinstance(s.label, tuple)]
    assert staged.take(5) == plain.take(5)


def test_a_cached_bind_is_guided_like_a_plain_one() -> None:
    def wiring() -> sy.Picker[Any]:
        return sy.Bind(sy.RandomInteger(1, 6), lambda n: sy.Apply(lambda i: (n, i), sy.RandomInteger(0, n)), cache=True)

    plain = sy.guided(wiring(), valid=lambda p: p[1] == p[0] - 1, seed=2)
    staged = sy.guided(sy.compile(wiring()), valid=lambda p: p[1] == p[0] - 1, seed=2)
    values = plain.take(100)
    assert staged.take(100) == values and all(i == n - 1 for n, i in values)
    assert {(0, n) for n in range(2, 6)} <= {key[1] for key in plain.guide.tables}  # the kept inner ranges are guided


def test_a_recorded_or_replayed_pick_keeps_the_generated_function() -> None:
    # The end of a route restores the wiring as it was: restaging it there (three times per
    # copied part in a harness) would be pure cost.
    fast = sy.compile(sy.ComposeList(sy.RandomInteger(0, 9), sy.RandomInteger(1, 4)))
    from synthia.core.emitter import fast_code

    fast.set_seed(2).pick()
    built = fast_code(fast)
    value, tape = sy.record(fast)
    assert fast_code(fast) is built
    assert sy.replay(fast, tape.draws)[0] == value
    assert fast_code(fast) is built
    assert fast.set_seed(5).take(3) == sy.ComposeList(sy.RandomInteger(0, 9), sy.RandomInteger(1, 4)).set_seed(5).take(3)


# -- the stager is the only fast path ---------------------------------------------------------
def test_compiling_a_leaf_holds_the_leaf_s_own_pick() -> None:
    # Generated code around one call could only slow it: the compiled picker holds what the
    # leaf holds (its sampler, C code for RandomFloat()) or the picker called as it is.
    from synthia.core.emitter import fast_code

    for leaf in (sy.RandomFloat(), sy.Tick(), sy.RandomString(5, "abc"), sy.GaussianFloat(), sy.Constant(3)):
        compiled = sy.compile(leaf)
        leaf.take(2)  # a leaf holds its sampler from its second pick
        assert fast_code(compiled) in (leaf.pick, fast_code(leaf)), leaf
        assert compiled.set_seed(4).take(5) == leaf.set_seed(4).take(5)
    # Where the generated code does more than call (the rejection loop inlined), it is kept.
    assert _generated(fast_code(sy.compile(sy.RandomInteger(0, 1000))))


def _generated(fn: Any) -> bool:
    return getattr(getattr(fn, "__code__", None), "co_filename", "").startswith("<synthia-staged-")


def test_choice_and_apply_hold_the_stager_s_code_from_their_second_pick() -> None:
    from synthia.core.emitter import fast_code

    for picker in (sy.Choice("a", "b", weights=[1, 3]), sy.Apply(lambda a: a + 1, sy.RandomInteger(0, 9))):
        picker.pick()  # picked once (a Bind's per-value wiring): nothing generated
        assert not _generated(fast_code(picker))
        picker.pick()
        assert _generated(fast_code(picker))
        assert not _generated(fast_code(picker.duplicate()))  # a copy makes its own


def _counter() -> Any:
    count = iter(range(10**6))
    return lambda: next(count)


def _record(name: str, age: int, score: float = 0.0) -> tuple[str, int, float]:
    return (name, age, score)


LEAN = [
    lambda: sy.Choice("a", "b", "c"),
    lambda: sy.Choice("a", "b", "c", "d", weights=[1, 0, 3, 0]),
    lambda: sy.Choice(sy.RandomInteger(0, 5), "x", weights=[2, 5]),
    lambda: sy.Choice(sy.RandomInteger(0, 5), sy.Tick()),
    lambda: sy.Choice(*range(20)),
    lambda: sy.Choice(*[sy.RandomInteger(0, i + 1) for i in range(14)], weights=list(range(1, 15))),
    lambda: sy.Choice(*[sy.RandomInteger(0, i + 1) for i in range(14)]),
    lambda: sy.Choice("a", "b", "c", decision=sy.BiasedRandomFloat(2.0)),
    lambda: sy.Choice("a", "b", decision=sy.RandomFloat(0.25, 0.75)),
    lambda: sy.Choice("only"),
    lambda: sy.Apply(lambda a, b: a + b, sy.RandomInteger(0, 10), 100),
    lambda: sy.Apply(dict, x=sy.RandomInteger(0, 5), y="fixed"),
    lambda: sy.Apply(_counter()),
    lambda: sy.Apply(_record, age=sy.RandomInteger(0, 99), name=sy.Choice("ann", "bob")),
    lambda: sy.Apply(_record, sy.Choice("ann", "bob"), score=sy.RandomFloat(), age=sy.RandomInteger(0, 9)),
    lambda: sy.Apply(lambda *xs, **kw: (xs, kw), *[sy.RandomInteger(0, 3) for _ in range(7)], k=sy.RandomBoolean()),
    lambda: sy.Struct(dict, a=sy.RandomInteger(0, 3), b=sy.Choice("x", "y")),
]


@pytest.mark.parametrize("make", LEAN, ids=range(len(LEAN)))
def test_generated_lean_picks_give_the_reference_path_s_values(make: Any) -> None:
    from synthia.core.instrument import intercept

    lean, reference = make().set_seed(9), make().set_seed(9)
    expected = []
    with intercept(reference, lambda picker, pick: pick):  # every picker on its class's pick
        for _ in range(60):
            expected.append(reference.pick())
    assert lean.take(60) == expected
