"""The Hypothesis bridge, both ways: pickers as strategies, strategies as pickers."""
from __future__ import annotations

import dataclasses
import math
import uuid
from typing import Any, Callable

import pytest
from hypothesis import HealthCheck, assume, find, given, settings
from hypothesis import strategies as st
from hypothesis.database import InMemoryExampleDatabase

import synthia as sy

from .quality.cases import CASES

FIND = settings(database=None, max_examples=1000, derandomize=True, suppress_health_check=list(HealthCheck))


@dataclasses.dataclass(frozen=True)
class Pair:
    a: int
    b: str


# -- pickers as strategies ---------------------------------------------------------------------
PICKERS: list[tuple[str, Callable[[], sy.Picker[Any]], Callable[[Any], bool]]] = [
    ("int", lambda: sy.RandomInteger(-5, 17), lambda v: isinstance(v, int) and -5 <= v < 17),
    ("float", lambda: sy.RandomFloat(0.25, 0.75), lambda v: 0.25 <= v < 0.75),
    ("boolean", lambda: sy.RandomBoolean(0.1), lambda v: isinstance(v, bool)),
    ("choice", lambda: sy.Choice("a", sy.RandomInteger(0, 3), weights=[0, 1]), lambda v: v in range(3)),
    ("list", lambda: sy.ComposeList(sy.RandomInteger(0, 9), sy.RandomInteger(2, 5)), lambda v: 2 <= len(v) < 5 and all(0 <= x < 9 for x in v)),
    ("set", lambda: sy.SetPicker(sy.RandomInteger(0, 5), 4), lambda v: len(v) == 4 and v <= set(range(5))),
    ("string", lambda: sy.RandomString(sy.RandomInteger(0, 6), alphabet="xyz"), lambda v: len(v) < 6 and set(v) <= set("xyz")),
    ("filter", lambda: sy.PickIf(sy.RandomInteger(0, 100), lambda x: x % 3 == 0), lambda v: v % 3 == 0),
    ("record", lambda: sy.Apply(Pair, a=sy.RandomInteger(0, 9), b=sy.Choice("p", "q")), lambda v: isinstance(v, Pair) and v.b in "pq"),
    ("markov", lambda: sy.ComposeList(sy.MarkovChain({"a": "a", "b": "b"}, {"a": {"b": 1}, "b": {"a": 1, "b": 1}}, start="a"), 4), lambda v: v[0] == "a" and "aa" not in "".join(v)),
    ("grammar", lambda: sy.GrammarSentence("<s> := a <s> | b ;", max_depth=4), lambda v: v.replace(" ", "").strip("a") in ("b", "")),
    ("any float", lambda: sy.AnyFloat(nan=True), lambda v: isinstance(v, float)),
]


@pytest.mark.parametrize("name, make, valid", PICKERS, ids=[p[0] for p in PICKERS])
def test_to_strategy_values_are_values_of_the_picker(name: str, make: Callable[[], sy.Picker[Any]], valid: Callable[[Any], bool]) -> None:
    seen: list[Any] = []

    @settings(max_examples=60, database=None, suppress_health_check=list(HealthCheck))
    @given(to=sy.to_strategy(make()))
    def check(to: Any) -> None:
        assert valid(to), to
        seen.append(to)

    check()
    assert len(seen) >= 2  # Hypothesis stops early once a small domain is exhausted


def test_to_strategy_never_moves_the_users_picker() -> None:
    ticks = sy.Tick()
    firsts = [find(sy.to_strategy(ticks), lambda v: True, settings=FIND) for _ in range(3)]
    assert firsts == [0, 0, 0] and ticks.pick() == 0


def _calls_until_hypothesis_stops(picker: sy.Picker[Any]) -> tuple[int, set[Any]]:
    seen: list[Any] = []

    @settings(max_examples=500, database=None, deadline=None)
    @given(sy.to_strategy(picker))
    def test(value: Any) -> None:
        seen.append(tuple(value) if isinstance(value, list) else value)

    test()
    return len(seen), set(seen)


@pytest.mark.parametrize("picker, domain", [
    (sy.Choice(*range(18)), set(range(18))),
    (sy.Choice(*"abcdefghijklmnopqr", weights=range(1, 19)), set("abcdefghijklmnopqr")),
    (sy.Choice("a", sy.Choice("b", "c"), weights=[1, 2]), {"a", "b", "c"}),
    (sy.Choice("x", "y", "z", weights=[1, 0, 1]), {"x", "z"}),
    (sy.RandomInteger(0, 18), set(range(18))),
    (sy.RandomBoolean(0.3), {False, True}),
    (sy.ComposeList(sy.RandomBoolean(), sy.RandomInteger(0, 3)), None),
])  # fmt: skip
def test_hypothesis_stops_when_a_finite_domain_is_exhausted(picker: sy.Picker[Any], domain: set[Any] | None) -> None:
    """Issue 26: a Choice of 18 values ran 500 examples (its float decision hid the end)."""
    calls, seen = _calls_until_hypothesis_stops(picker)
    if domain is None:  # lists of 0 to 2 booleans: 7 of them
        assert calls == len(seen) == 7
    else:
        assert seen == domain and calls <= len(domain) + 1


def test_a_finite_domain_shrinks_to_its_first_value() -> None:
    assert find(sy.to_strategy(sy.Choice("low", "mid", "high", weights=[1, 5, 5])), lambda v: True, settings=FIND) == "low"
    assert find(sy.to_strategy(sy.Choice(*range(10))), lambda v: v >= 4, settings=FIND) == 4


def test_a_choice_whose_decision_is_narrowed_is_not_taken_as_its_whole_domain() -> None:
    narrowed = sy.Choice("a", "b", decision=sy.RandomFloat(0.0, 0.5))
    assert narrowed.finite_values() is None
    assert _calls_until_hypothesis_stops(narrowed)[1] == {"a"}


BRIDGED = [c for c in CASES if c.strategy is not None and c.name in {
    "int at least 1000", "negative threshold", "float range above zero", "pair whose sum exceeds 1000", "dict record",
    "list sum exceeds 1000", "eleven distinct values", "set member", "tree depth", "stack actions", "JSON serializer bug",
    "product", "remainder, not monotone", "values behind a filter",
}]  # fmt: skip


def test_bridged_cases_are_the_intended_ones() -> None:
    assert len(BRIDGED) == 14


@pytest.mark.parametrize("case", BRIDGED, ids=repr)
def test_to_strategy_shrinks_no_worse_than_the_native_strategy(case: Any) -> None:
    bridged = find(sy.to_strategy(case.picker()), case.fails, settings=FIND)
    native = find(case.strategy(), case.fails, settings=FIND)
    assert case.fails(bridged)
    assert _size(bridged) <= _size(native), (bridged, native)
    if native == case.minimum:
        assert bridged == case.minimum


def _size(value: Any) -> tuple[Any, ...]:
    """Size for the comparison: length first, then the magnitudes in order."""
    if isinstance(value, (int, float)):
        return (0, abs(value), value < 0)
    if isinstance(value, dict):
        return (len(value), [_size(v) for v in value.values()])
    if isinstance(value, (list, tuple)):
        return (len(value), [_size(v) for v in value])
    if isinstance(value, (set, frozenset)):
        return (len(value), sorted(_size(v) for v in value))
    if dataclasses.is_dataclass(value):
        return (0, [_size(v) for v in dataclasses.astuple(value)])  # type: ignore[arg-type]
    return (0, repr(value))


def test_hypothesis_stores_and_replays_a_bridged_failure() -> None:
    db = InMemoryExampleDatabase()
    seen: list[list[int]] = []
    lists = sy.ComposeList(sy.RandomInteger(0, 2000), sy.RandomInteger(0, 20))

    @settings(database=db, max_examples=500, derandomize=False, suppress_health_check=list(HealthCheck))
    @given(l=sy.to_strategy(lists))
    def prop(l: list[int]) -> None:
        seen.append(l)
        assert sum(l) <= 1000

    with pytest.raises(AssertionError):
        prop()
    assert seen[-1] == [1001]
    assert db.data, "Hypothesis saved the failing choices"
    seen.clear()
    with pytest.raises(AssertionError):
        prop()  # the saved failure is tried first
    assert seen[0] == [1001]


# -- strategies as pickers ---------------------------------------------------------------------
STRATEGIES: list[tuple[str, Any, Callable[[Any], bool]]] = [
    ("integers", st.integers(), lambda v: isinstance(v, int)),
    ("bounded integers", st.integers(-3, 40), lambda v: -3 <= v <= 40),
    ("half-bounded integers", st.integers(min_value=10), lambda v: v >= 10),
    ("floats", st.floats(), lambda v: isinstance(v, float)),
    ("bounded floats", st.floats(-1.5, 2.5, exclude_min=True), lambda v: -1.5 < v <= 2.5),
    ("floats without subnormals", st.floats(allow_subnormal=False, allow_nan=False), lambda v: v == 0 or abs(v) >= 2.2250738585072014e-308),
    ("booleans", st.booleans(), lambda v: isinstance(v, bool)),
    ("text", st.text(), lambda v: isinstance(v, str)),
    ("text from an alphabet", st.text("abc", min_size=2, max_size=5), lambda v: 2 <= len(v) <= 5 and set(v) <= set("abc")),
    ("binary", st.binary(max_size=8), lambda v: isinstance(v, bytes) and len(v) <= 8),
    ("lists", st.lists(st.integers(0, 9), min_size=1, max_size=6), lambda v: 1 <= len(v) <= 6),
    ("unique lists", st.lists(st.integers(0, 20), unique=True, max_size=6), lambda v: len(set(v)) == len(v)),
    ("dictionaries", st.dictionaries(st.text(max_size=3), st.integers()), lambda v: isinstance(v, dict)),
    ("tuples", st.tuples(st.booleans(), st.none()), lambda v: v[1] is None),
    ("one_of", st.one_of(st.just(1), st.text(max_size=2)), lambda v: v == 1 or isinstance(v, str)),
    ("sampled_from", st.sampled_from(["x", "y", "z"]), lambda v: v in "xyz"),
    ("filtered", st.integers(0, 100).filter(lambda x: x % 5 == 0), lambda v: v % 5 == 0),
    ("mapped", st.integers(0, 9).map(str), lambda v: v.isdigit()),
    ("flatmap", st.integers(1, 3).flatmap(lambda n: st.lists(st.just(n), min_size=n, max_size=n)), lambda v: len(v) == v[0]),
    ("builds", st.builds(Pair, a=st.integers(), b=st.text(max_size=2)), lambda v: isinstance(v, Pair)),
    ("recursive", st.recursive(st.booleans(), lambda c: st.lists(c, max_size=3), max_leaves=8), lambda v: True),
    ("datetimes", st.datetimes(), lambda v: v.year >= 1),
    ("uuids", st.uuids(), lambda v: isinstance(v, uuid.UUID)),
    ("regex", st.from_regex(r"[a-c]{2,4}", fullmatch=True), lambda v: 2 <= len(v) <= 4),
    ("fractions", st.fractions(max_denominator=10), lambda v: v.denominator <= 10),
    ("decimals", st.decimals(allow_nan=False), lambda v: v.is_finite() or v.is_infinite()),
]


@pytest.mark.parametrize("name, strategy, valid", STRATEGIES, ids=[s[0] for s in STRATEGIES])
def test_from_strategy_gives_values_of_the_strategy_and_replays(name: str, strategy: Any, valid: Callable[[Any], bool]) -> None:
    picker = sy.from_strategy(strategy, seed=7)
    values = picker.take(40)
    assert all(valid(v) for v in values), [v for v in values if not valid(v)][:3]
    picker.reset()
    assert _same(picker.take(40), values)
    twin = sy.from_strategy(strategy, seed=7).duplicate()
    assert _same(twin.take(40), values)
    # All-minimal draws give the strategy's simplest value, the one Hypothesis shrinks to
    # (decimals: Hypothesis prefers Infinity, made by fewer choices than 0).
    simplest, _ = sy.replay(sy.from_strategy(strategy), [])
    assert valid(simplest)
    if name != "decimals":
        assert _same([simplest], [find(strategy, lambda v: True, settings=FIND)])



@st.composite
def _ordered_pair(draw: Any) -> tuple[int, int]:
    a = draw(st.integers(0, 100))
    b = draw(st.integers(a, 200))
    assume(b != a + 1)
    return (a, b)


@st.composite
def _interactive(draw: Any) -> list[str]:
    n = draw(st.integers(0, 3))
    return [draw(st.text("xy", max_size=n)) for _ in range(n)]


_TREE = st.deferred(lambda: st.none() | st.tuples(_TREE, _TREE))


def _numpy_arrays() -> Any:
    import numpy as np
    from hypothesis.extra import numpy as hnp

    return hnp.arrays(np.int16, hnp.array_shapes(max_dims=2, max_side=4))

#: Strategies that reach the corners of Hypothesis's data object (spans, discards,
#: rejection, shared state, nested data, depth), drawn by the lean data object.
CORNERS = STRATEGIES + [
    ("composite with assume", _ordered_pair(), lambda v: v[0] <= v[1] != v[0] + 1),
    ("composite drawing in a loop", _interactive(), lambda v: all(set(s) <= set("xy") for s in v)),
    ("deferred tree", _TREE, lambda v: v is None or len(v) == 2),
    ("unique_by", st.lists(st.tuples(st.integers(0, 5), st.booleans()), unique_by=lambda t: t[0]), lambda v: len({t[0] for t in v}) == len(v)),
    ("sets", st.sets(st.integers(0, 10)), lambda v: v <= set(range(11))),
    ("fixed_dictionaries with optional keys", st.fixed_dictionaries({"a": st.integers(0, 3)}, optional={"b": st.none()}), lambda v: set(v) <= {"a", "b"}),
    ("filtered sampled_from", st.sampled_from(range(100)).filter(lambda x: x % 7 == 0), lambda v: v % 7 == 0),
    ("shared", st.tuples(st.shared(st.integers(0, 9), key="k"), st.shared(st.integers(0, 9), key="k")), lambda v: v[0] == v[1]),
    ("randoms", st.randoms(use_true_random=False).map(lambda r: r.randint(0, 100)), lambda v: 0 <= v <= 100),
    ("timezone-aware datetimes", st.datetimes(timezones=st.timezones()), lambda v: v.tzinfo is not None),
    ("emails", st.emails(), lambda v: "@" in v),
    ("from_type", st.from_type(list[int]), lambda v: all(isinstance(x, int) for x in v)),
    ("permutations", st.permutations([1, 2, 3, 4]), lambda v: sorted(v) == [1, 2, 3, 4]),
    ("functions", st.functions(like=lambda x: x, returns=st.integers(0, 5)).map(lambda f: f(1)), lambda v: 0 <= v <= 5),
    ("runner", st.runner(default=3), lambda v: v == 3),
    ("nothing or just", st.nothing() | st.just(5), lambda v: v == 5),
    ("builds with inferred arguments", st.builds(Pair), lambda v: isinstance(v, Pair)),
    ("numpy arrays", _numpy_arrays(), lambda v: v.ndim in (1, 2)),
]


@pytest.mark.parametrize("name, strategy, valid", CORNERS, ids=[s[0] for s in CORNERS])
def test_the_lean_data_object_gives_the_values_of_hypothesis_own(name: str, strategy: Any, valid: Callable[[Any], bool], monkeypatch: pytest.MonkeyPatch) -> None:
    # The picker draws on a lean stand-in for Hypothesis's ConjectureData; the same picker
    # drawing on a real ConjectureData (its path for strategies that need more) takes the
    # same draws and so gives the same values.
    lean = sy.from_strategy(strategy, seed=11)
    values = lean.take(30)
    assert all(valid(v) for v in values), [v for v in values if not valid(v)][:3]
    monkeypatch.setattr(sy.StrategyPicker, "pick", lambda self: self._pick_on_real_data(self._stream))
    assert _same(sy.from_strategy(strategy, seed=11).take(30), values)


def test_the_lean_data_object_serves_every_strategy_of_hypothesis(monkeypatch: pytest.MonkeyPatch) -> None:
    # What Hypothesis's own strategies read of their data object is all there: none of
    # them falls back on a real ConjectureData (which works, at a fraction of the speed).
    # A new Hypothesis that reads more shows up here.
    fallbacks: list[str] = []
    real = sy.StrategyPicker._pick_on_real_data

    def counted(self: sy.StrategyPicker, stream: Any) -> Any:
        fallbacks.append(repr(self.strategy))
        return real(self, stream)

    monkeypatch.setattr(sy.StrategyPicker, "_pick_on_real_data", counted)
    for _, strategy, _ in CORNERS:
        sy.from_strategy(strategy, seed=3).take(20)
    assert fallbacks == []


class _ReadsTheChoices(st.SearchStrategy):  # type: ignore[misc]
    """A strategy that reads what only Hypothesis's own data object has."""

    def do_draw(self, data: Any) -> Any:
        first = data.draw_integer(0, 9)
        return (first, len(data.choices))


def test_a_strategy_that_needs_hypothesis_own_data_object_is_drawn_on_it() -> None:
    picker = sy.from_strategy(st.lists(_ReadsTheChoices(), min_size=1, max_size=3), seed=2)
    values = picker.take(20)
    # The choices a real data object saw: the list's booleans and the integers before.
    assert all(len(v) >= 1 and all(0 <= a <= 9 and n >= 1 for a, n in v) for v in values)
    picker.reset()
    assert picker.take(20) == values
    twin = picker.duplicate(with_state=True)
    assert twin.take(5) == picker.take(5)
    assert sy.find(sy.from_strategy(_ReadsTheChoices()), lambda v: v[0] >= 3, seed=1)[0] == 3


def _same(a: list[Any], b: list[Any]) -> bool:
    return repr(a) == repr(b)


SHRINKS = [
    (st.integers(), lambda n: n > 1000),
    (st.integers(), lambda n: n < -50),
    (st.floats(allow_nan=False), lambda x: x > 2.5),
    (st.lists(st.integers(0, 100)), lambda l: sum(l) > 300),
    (st.text(), lambda s: len(s) >= 3),
    # A character is recorded as its category and its rank in it: 'À' lowers to 'A', 'ß' to 'a'.
    (st.text(st.characters(min_codepoint=32, max_codepoint=255)), lambda s: any(c.isupper() for c in s)),
    (st.text(), lambda s: any(c.islower() for c in s)),
    (st.dictionaries(st.integers(0, 9), st.booleans()), lambda d: len(d) >= 2),
    (st.lists(st.integers(0, 1000), unique=True), lambda l: len(l) >= 4),
    (st.tuples(st.integers(0, 1000), st.integers(0, 1000)), lambda t: t[0] + t[1] > 1000),
    (_ordered_pair(), lambda t: t[1] - t[0] > 50),
    (st.integers(1, 5).flatmap(lambda n: st.lists(st.integers(0, 9), min_size=n, max_size=n)), lambda l: sum(l) > 20),
    (st.one_of(st.none(), st.integers(0, 1000), st.text()), lambda v: isinstance(v, int) and v > 100),
    (st.lists(st.sampled_from("abcde")), lambda l: l.count("d") >= 2),
    (st.builds(Pair, a=st.integers(), b=st.text()), lambda p: p.a > 10 and len(p.b) >= 1),
    (st.recursive(st.integers(0, 9), lambda c: st.lists(c, max_size=4), max_leaves=20), lambda v: isinstance(v, list) and len(v) >= 2),
    (st.fixed_dictionaries({"name": st.text(max_size=8), "age": st.integers(0, 120)}), lambda d: d["age"] > 60 and d["name"] != ""),
    (st.lists(st.integers(0, 100)).map(sorted), lambda l: len(l) >= 3 and l[-1] > 50),
]


@pytest.mark.parametrize("strategy, condition", SHRINKS, ids=[repr(s[0])[:40] for s in SHRINKS])
def test_from_strategy_shrinks_in_synthia_like_hypothesis(strategy: Any, condition: Callable[[Any], bool]) -> None:
    ours = sy.find(sy.from_strategy(strategy), condition, seed=3)
    theirs = find(strategy, condition, settings=FIND)
    assert condition(ours)
    assert ours == theirs


def test_a_strategy_picker_inside_a_wiring_shrinks_with_it() -> None:
    wiring = sy.ComposeList(sy.from_strategy(st.integers(0, 1000)), sy.RandomInteger(0, 10))
    assert sy.find(wiring, lambda l: sum(l) > 1500, seed=1) == [501, 1000]


def test_a_rejecting_strategy_gives_up() -> None:
    picker = sy.from_strategy(st.integers(0, 10).filter(lambda x: x > 100), max_tries=5, seed=1)
    with pytest.raises(sy.GiveUp):
        picker.pick()


def test_strategy_picker_checks_its_arguments_and_reads_like_the_wiring() -> None:
    with pytest.raises(TypeError, match="strategy"):
        sy.from_strategy(42)
    with pytest.raises(ValueError, match="max_tries"):
        sy.from_strategy(st.integers(), max_tries=0)
    with pytest.raises(TypeError, match="picker"):
        sy.to_strategy(st.integers())
    assert repr(sy.from_strategy(st.integers(0, 3))) == "StrategyPicker(integers(min_value=0, max_value=3))"


def test_hypothesis_spans_become_spans_of_the_tape() -> None:
    _, tape = sy.record(sy.from_strategy(st.lists(st.integers(0, 9), min_size=3, max_size=3), seed=1))
    assert tape.spans[0].label == 0 and len(tape.spans[0]) == len(tape)
    inner = [s for s in tape.spans if s.depth > 0]
    assert inner and all(s.label[0] == "hypothesis" for s in inner)
    assert all(s.index >= 0 for s in tape.spans)  # every span was closed


def test_infinite_floats_nan_and_negative_zero_come_from_a_permissive_strategy() -> None:
    values = sy.from_strategy(st.floats(), seed=5).take(2000)
    assert any(math.isnan(v) for v in values)
    assert math.inf in values and -math.inf in values
    assert any(v == 0.0 and math.copysign(1.0, v) < 0 for v in values)


def test_a_strategy_picker_gets_copied_parts_too() -> None:
    # One picker, but its draws open a part per strategy draw: two integers of one strategy
    # are two parts of one kind, so a copied part makes them equal (Hypothesis's own mutator).
    pairs = sy.from_strategy(st.tuples(st.integers(min_value=1), st.integers(min_value=1)))
    reports = [sy.Assert(lambda p: not (p[0] >= 10 and p[0] == p[1]), sy.FixedCount(1000), p=pairs).run(seed=s) for s in range(4)]
    assert [r.smallest for r in reports] == [{"p": (10, 10)}] * 4
