"""Typed draws, their order, tapes, the recorder, the replayer and routing.

The contract over the whole registry: recording changes no value, a recorded tape replays
to the same value and the same tape, and all-minimal draws give a value whose draws are
all at their simplest.
"""
from __future__ import annotations

import json
import math
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import synthia as sy
import synthia.core.draws as sd
from synthia.core.draws import (
    BOOLEAN,
    FLOAT,
    INTEGER,
    WEIGHTED,
    DrawSource,
    Overrun,
    Recorder,
    Replayer,
    clamp,
    outer_source,
    routed,
    simplest,
    sort_key,
)
from synthia.core.random import Stream, shuffle, stream_seed
from synthia.core.tapes import fraction_bits

from .contract.registry import Case, all_cases

CASES = [c for c in all_cases()]
CONTRACT = settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _same(case: Case, a: Any, b: Any) -> bool:
    return case.compare(a, b) if case.compare is not None else a == b


# -- the order of each kind ------------------------------------------------------------------
@given(st.integers(-(10**6), 10**6), st.integers(-(10**6), 10**6))
def test_integer_order_is_closest_to_zero_positive_first(a: int, b: int) -> None:
    assert (sort_key(INTEGER, a) < sort_key(INTEGER, b)) == ((abs(a), a < 0) < (abs(b), b < 0))


@given(st.floats(-1e6, 1e6, allow_nan=False), st.floats(-1e6, 1e6, allow_nan=False))
def test_float_order_puts_integral_values_first(a: float, b: float) -> None:
    if a.is_integer() and not b.is_integer():
        assert sort_key(FLOAT, a) < sort_key(FLOAT, b)
    if a.is_integer() or b.is_integer():
        return
    # Fractions: in (-1, 1) by magnitude; beyond, by integer part, then binary fraction
    # length, then magnitude.
    wa, wb = math.floor(abs(a)), math.floor(abs(b))
    if wa < wb or (wa == wb == 0 and abs(a) < abs(b)):
        assert sort_key(FLOAT, a) < sort_key(FLOAT, b)
    if wa == wb > 0 and (fraction_bits(a), abs(a)) < (fraction_bits(b), abs(b)):
        assert sort_key(FLOAT, a) < sort_key(FLOAT, b)


@given(st.floats(-1e6, 1e6, allow_nan=False), st.floats(1e-9, 100.0))
def test_the_simplest_float_is_the_minimum_of_its_range(low: float, width: float) -> None:
    high = low + width
    if not low < high:
        return
    best = simplest(FLOAT, (low, high))
    assert low <= best < high
    probes = [low, math.nextafter(high, -math.inf)] + [low + width * k / 64 for k in range(64)]
    assert all(sort_key(FLOAT, best) <= sort_key(FLOAT, v) for v in probes if low <= v < high)


@given(st.integers(-1000, 1000), st.integers(1, 1000))
def test_the_simplest_integer_is_the_minimum_of_its_range(low: int, width: int) -> None:
    high = low + width
    best = simplest(INTEGER, (low, high))
    assert low <= best < high
    assert all(sort_key(INTEGER, best) <= sort_key(INTEGER, v) for v in range(low, high))


@given(st.floats(-1e6, 1e6, allow_nan=False), st.floats(1e-3, 1e6, allow_nan=False))
def test_the_simplest_float_is_in_range_and_below_every_sample(low: float, width: float) -> None:
    high = low + width
    if not low < high:
        return
    best = simplest(FLOAT, (low, high))
    assert low <= best < high
    stream = Stream(stream_seed(int(low * 1000) % 97))
    assert all(sort_key(FLOAT, best) <= sort_key(FLOAT, stream.floating(low, high)) for _ in range(50))


def test_simplest_values_of_each_kind() -> None:
    assert simplest(INTEGER, (5, 10)) == 5 and simplest(INTEGER, (-10, -3)) == -4 and simplest(INTEGER, (-5, 5)) == 0
    assert simplest(FLOAT, (0.5, 10.0)) == 1.0 and simplest(FLOAT, (-3.5, -2.5)) == -3.0
    assert simplest(FLOAT, (0.25, 0.75)) == 0.25 and simplest(FLOAT, (-0.75, -0.25)) == math.nextafter(-0.25, -1)
    assert simplest(FLOAT, (1.2, 1.8)) == 1.5 and simplest(FLOAT, (-3.9, -3.1)) == -3.5
    assert simplest(BOOLEAN, (0.5,)) is False and simplest(BOOLEAN, (1.0,)) is True
    assert simplest(WEIGHTED, ((0.0, 0.0, 2.0, 3.0),)) == 2


def test_clamping_brings_values_into_their_new_range() -> None:
    assert clamp(INTEGER, (0, 10), -4) == (0, True)
    assert clamp(FLOAT, (0.0, 1.0), 1.0) == (math.nextafter(1.0, 0.0), True)
    assert clamp(FLOAT, (0.0, 1.0), "x") == (0.0, True)
    assert clamp(BOOLEAN, (1.0,), False) == (True, True)
    assert clamp(WEIGHTED, ((1.0, 1.0, 3.0),), 1) == (0, True)  # index 1 has no weight
    assert clamp(WEIGHTED, ((1.0, 1.0, 3.0),), 7) == (2, True)


# -- the mapping: all-minimal draws give the simplest values -------------------------------------
@pytest.mark.parametrize(
    "picker, expected",
    [
        (sy.RandomInteger(5, 10), 5),
        (sy.RandomInteger(-10, -3), -4),
        (sy.RandomInteger(-10, 10), 0),
        (sy.RandomFloat(0.5, 10.0), 1.0),
        (sy.RandomFloat(-5.0, 5.0), 0.0),
        (sy.RandomBoolean(0.9), False),
        (sy.Choice("first", "second", weights=[1, 9]), "first"),
        (sy.ComposeList(sy.RandomInteger(0, 9), sy.RandomInteger(0, 9)), []),
        (sy.RandomString(sy.RandomInteger(0, 9), alphabet="xyz"), ""),
        (sy.RandomString(3, alphabet="xyz"), "xxx"),
        (sy.GaussianFloat(10.0, 2.0), 10.0),
        (sy.PoissonInteger(3.5), 0),
        (sy.PoissonInteger(250), 250),
        (sy.BiasedRandomFloat(3.0), 0.0),
        (sy.RandomSubList([1, 2, 3]), []),
        (sy.RandomPrefix("synthia"), ""),
        (sy.Scramble(sy.Playback([1, 2, 3, 4]), count=4), 1),
        (sy.AllIntegers(0, 10, scramble=True), 0),
        (sy.GrammarSentence("<s> := <s> and <s> | word | <s> or <s>"), "word"),
    ],
    ids=repr,
)
def test_all_minimal_draws_give_the_simplest_value(picker: sy.Picker[Any], expected: Any) -> None:
    value, tape = sy.replay(picker, [])
    assert value == expected
    assert all(d.value == d.simplest for d in tape.draws)


def test_minimal_draws_leave_a_shuffle_in_order() -> None:
    class Zeros:
        def below(self, n: int) -> int:
            return 0

    items = list(range(8))
    shuffle(Zeros(), items)  # type: ignore[arg-type]
    assert items == list(range(8))


def test_a_recursive_wiring_with_minimal_draws_is_a_leaf() -> None:
    tree: sy.Picker[Any] = sy.Deferred(
        lambda: sy.Choice(sy.RandomInteger(0, 9), sy.Apply(lambda a, b: [a, b], tree, tree)), max_depth=5, fallback=0
    )
    assert sy.replay(tree, [])[0] == 0


# -- the contract over the registry --------------------------------------------------------------
@pytest.mark.parametrize("case", CASES, ids=repr)
@CONTRACT
@given(seed=st.integers(0, 2**40), picks=st.integers(1, 4))
def test_recording_changes_no_value_and_the_tape_replays(case: Case, seed: int, picks: int) -> None:
    plain = case.factory().set_seed(seed).take(picks)
    picker = case.factory().set_seed(seed)
    try:
        value, tape = sy.record(picker, picks)
    except sy.NoMoreElements:
        assert len(plain) < picks  # a bounded picker ended in the plain run too
        return
    assert len(plain) == picks and _same(case, value, plain[-1])
    again, replayed = sy.replay(picker, tape)
    assert _same(case, again, value)
    assert replayed == tape and replayed.key() == tape.key()
    assert all(d.kind in (INTEGER, FLOAT, BOOLEAN, WEIGHTED) for d in tape.draws)


@pytest.mark.parametrize("case", CASES, ids=repr)
def test_minimal_draws_make_a_minimal_tape(case: Case) -> None:
    picker = case.factory().set_seed(1)
    try:
        value, tape = sy.replay(picker, [], max_draws=10_000)
    except (sy.NoMoreElements, sy.GiveUp):
        return  # a filter that rejects the simplest value, or a bounded picker with nothing
    assert all(d.value == d.simplest for d in tape.draws)
    again, replayed = sy.replay(picker, tape)  # the tape of a replay replays to itself
    assert replayed == tape and _same(case, again, value)


# -- the replayer ----------------------------------------------------------------------------
def test_the_replayer_clamps_and_continues_with_minimal_draws() -> None:
    lists = sy.ComposeList(sy.RandomInteger(10, 20), sy.RandomInteger(0, 5))
    value, tape = sy.replay(lists, [3, 99, 15])
    assert value == [19, 15, 10]
    assert tape.values() == [3, 19, 15, 10]


def test_a_draw_of_another_kind_becomes_the_simplest() -> None:
    value, _ = sy.replay(sy.RandomInteger(5, 9), [sd.Draw(FLOAT, 0.5, (0.0, 1.0))])
    assert value == 5


def test_replay_knows_whether_a_sequence_fits() -> None:
    picker = sy.ComposeList(sy.RandomInteger(0, 9), sy.RandomInteger(0, 5))
    _, tape = sy.record(picker.set_seed(4))
    exact = Replayer(tape.draws)
    with routed(picker, exact):
        picker.reset()
        picker.pick()
    assert exact.fits
    short = Replayer(tape.draws[:-1] if len(tape) > 1 else [sd.Draw(INTEGER, 3, (0, 5))])
    with routed(picker, short):
        picker.reset()
        picker.pick()
    assert not short.fits


def test_a_replay_over_its_budget_overruns() -> None:
    filtered = sy.PickIf(sy.RandomInteger(0, 100), lambda x: x > 50)
    with pytest.raises(Overrun):
        sy.replay(filtered, [], max_draws=20)


def test_a_flex_block_replaces_one_span_and_keeps_the_rest_aligned() -> None:
    element = sy.ComposeList(sy.RandomInteger(0, 9), sy.RandomInteger(0, 4))
    outer = sy.ComposeList(element, 3)
    value, tape = sy.record(outer.set_seed(11))
    label = [s.label for s in tape.spans if s.depth == 1 and len(s)][0]  # the inner lists' picker
    first = [s for s in tape.spans if s.label == label][0]
    edited = tape.draws[: first.start] + [sd.Flex(label, ())] + tape.draws[first.end :]
    replaced, _ = sy.replay(outer, edited)
    assert replaced == [[], *value[1:]]


# -- spans -----------------------------------------------------------------------------------
def test_spans_show_each_element_and_number_outputs_as_provenance_does() -> None:
    lists = sy.ComposeList(sy.RandomInteger(0, 9), 3)
    _, tape = sy.record(lists.set_seed(2))
    elements = [s for s in tape.spans if s.depth == 1 and len(s) == 1]
    assert [(s.start, s.end) for s in elements] == [(0, 1), (1, 2), (2, 3)]
    assert [s.index for s in elements] == [0, 1, 2]
    assert [c for c in tape.children(0)] == [i for i, s in enumerate(tape.spans) if s.parent == 0]


def test_grammar_derivations_are_spans() -> None:
    grammar = sy.GrammarSentence("<e> := <n> | <e> + <n> ; <n> := ^[1-9]$ ;", max_depth=4)
    value, tape = sy.record(grammar.set_seed(0))
    rules = [s for s in tape.spans if s.label == ("rule", "n")]
    assert len(rules) == len(value.split(" + "))


# -- routing -----------------------------------------------------------------------------------
def test_pickers_made_while_picking_are_routed_then_released() -> None:
    made: list[sy.Picker[Any]] = []

    def instance(n: int) -> sy.Picker[Any]:
        made.append(sy.RandomInteger(0, 1000))
        return made[-1]

    knit = sy.Knit(sy.Apply(instance, sy.Tick()), spawn=sy.RandomBoolean(0.5)).set_seed(3)
    value, tape = sy.record(knit, 4)
    assert value in tape.values()  # the instance's draw was recorded
    assert type(made[0]._stream) is not Recorder  # after the block it draws on its own
    assert 0 <= made[0].pick() < 1000


def test_an_inner_source_defers_to_one_that_dictates_and_reports_to_one_that_observes() -> None:
    class Always7(DrawSource):
        def integer(self, stream: Any, low: int, high: int) -> int:
            outer = outer_source(stream)
            if outer is not None and outer.dictates:
                return stream.integer(low, high)
            if outer is not None:
                outer.observe(INTEGER, (low, high), 7)
            return 7

    class Guided(sy.Picker[int]):
        inputs_fields = ("inner",)

        def __init__(self) -> None:
            self.inner = sy.RandomInteger(0, 10)

        def pick(self) -> int:
            with routed(self.inner, Always7(), spans=False):
                return self.inner.pick()

    guided = Guided()
    assert guided.pick() == 7
    value, tape = sy.record(guided)
    assert value == 7 and tape.values() == [7]  # the recorder saw the inner choice
    assert sy.replay(guided, [3])[0] == 3  # the replayer dictates


# -- JSON --------------------------------------------------------------------------------------
@pytest.mark.parametrize("case", [c for c in CASES if c.random], ids=repr)
def test_tapes_survive_json(case: Case) -> None:
    try:
        _, tape = sy.record(case.factory().set_seed(5), 2)
    except sy.NoMoreElements:
        return
    back = sd.Tape.from_json(json.loads(json.dumps(tape.to_json())))
    assert back == tape and back.key() == tape.key() and back.pick_starts == tape.pick_starts


@pytest.mark.parametrize(
    "data",
    [None, {}, {"draws": "x"}, {"draws": [["nope", 1, 0, 2]]}, {"draws": [["integer", 1, 0]]}, {"picks": 0, "draws": []},
     {"draws": [["weighted", 1, "x"]]}, {"draws": [["integer", 1, 0, 2]], "atoms": [[0, 5]]}, {"draws": [], "atoms": "x"}],
    ids=repr,
)
def test_malformed_tapes_are_refused(data: Any) -> None:
    with pytest.raises(ValueError):
        sd.Tape.from_json(data)


# -- an integer draw with a distribution of its own ------------------------------------------
class _Evens(sy.RandomPicker[int]):
    """Even integers of [0, 100), made by a sample of their own and drawn as one integer."""

    def __init__(self) -> None:
        self._init_stream(None)

    def pick(self) -> int:
        return self._stream.integer_by(0, 100, lambda stream: 2 * stream.integer(0, 50))


def test_integer_by_is_recorded_and_replayed_as_one_integer_draw() -> None:
    plain = _Evens().set_seed(4).take(20)
    assert all(v % 2 == 0 for v in plain)
    recorded = _Evens().set_seed(4)
    tapes = [sy.record(recorded)[1] for _ in range(20)]
    assert [[(d.kind, d.value, d.args) for d in t.draws] for t in tapes] == [[(INTEGER, v, (0, 100))] for v in plain]
    assert sy.replay(_Evens(), [37])[0] == 37  # a replay gives the value itself: one draw, any value of the range
    assert sy.replay(_Evens(), [250])[0] == 99  # clamped to the range like any integer draw
    assert sy.AnyInteger(-10**6, 10**6).set_seed(3).take(30) == [
        sy.record(picker)[0] for picker in [sy.AnyInteger(-10**6, 10**6).set_seed(3)] for _ in range(30)
    ]


def test_equal_any_integers_shrink_together() -> None:
    # One made at an edge (15), one small: as values, both shrink as one to the minimum.
    pair = sy.Apply(lambda x, y: (x, y), sy.AnyInteger(1), sy.AnyInteger(1))
    reports = [sy.Assert(lambda p: not (p[0] >= 10 and p[0] == p[1]), p=pair).run(seed=seed) for seed in range(6)]
    assert [r.smallest for r in reports] == [{"p": (10, 10)}] * 6


def test_a_constant_alternative_chosen_is_one_choice_an_empty_atom() -> None:
    """A Choice's constant alternative draws nothing but is one choice (an empty atom), so the
    earlier alternative making the same value is the simpler input; tapes keep it in JSON."""
    import synthia as sy
    from synthia.core.draws import Tape, replay

    wiring = sy.Choice(sy.RandomText(sy.RandomInteger(0, 21)), "xyzzy-plover")
    constant, tape = replay(wiring, [0.75])
    assert constant == "xyzzy-plover"
    assert tape.atoms == [(1, 1)] and tape.choices == 2
    text, text_tape = replay(wiring.duplicate(), [0.0, False, 5] + [0, 23] * 5)
    assert len(text) == 5 and text_tape.choices == 2
    assert text_tape.key() < tape.key()  # the earlier alternative, though it draws more
    again = Tape.from_json(tape.to_json())
    assert again.atoms == [(1, 1)] and again.key() == tape.key()
    # A constant that is not an alternative (an argument of Apply) is no choice.
    _, plain = replay(sy.Apply(lambda a, b: a + b, sy.RandomInteger(0, 9), 3), [4])
    assert plain.atoms == [] and plain.choices == 1


def test_a_first_constant_alternative_is_no_extra_choice() -> None:
    """``None`` first (a tree's leaf) stays the fewest choices: only later constant
    alternatives count as a choice of their own."""
    import synthia as sy
    from synthia.core.draws import replay

    leaf_first = sy.Choice(None, sy.RandomInteger(0, 9))
    _, tape = replay(leaf_first, [0.0])
    assert tape.atoms == [] and tape.choices == 1
