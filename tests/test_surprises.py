"""Regression tests for every case of issue 14 ("a catalog that never surprises"): hangs,
silently wrong values, wrong exception types and the promise that plain values work where
pickers are expected."""
from __future__ import annotations

import collections
import inspect
import math
from typing import Any

import pytest

import synthia as sy
from synthia.core.checks import cumulative

from .contract.fuzz import time_limit
from .contract.registry import picker_signatures

# -- hangs -----------------------------------------------------------------------------


@pytest.mark.parametrize("make", [sy.Choice, sy.Selector], ids=["Choice", "Selector"])
def test_weights_given_as_a_picker_are_refused_at_once(make: Any) -> None:
    with time_limit(2.0), pytest.raises(TypeError, match="weights must be a sequence of numbers"):
        make("a", "b", weights=sy.RandomFloat())


@pytest.mark.parametrize("make", [sy.Choice, sy.Selector], ids=["Choice", "Selector"])
def test_weights_from_an_endless_iterator_are_refused_at_once(make: Any) -> None:
    def endless() -> Any:
        while True:
            yield 1

    with time_limit(2.0), pytest.raises(TypeError, match="weights"):
        make("a", "b", weights=endless())


def test_scrambling_an_endless_picker_is_refused_at_construction() -> None:
    with time_limit(2.0), pytest.raises(TypeError, match="picker must be a bounded picker .* give count=n"):
        sy.Scramble(sy.RandomInteger(0, 10))
    with pytest.raises(ValueError, match="picker must end, but Playback"):
        sy.Scramble(sy.Playback([1, 2, 3]))  # loops by default
    assert sorted(sy.Scramble(sy.Playback([1, 2, 3], loop=False)).set_seed(1).take(5)) == [1, 2, 3]


def test_a_repetition_whose_maximum_is_below_its_minimum_is_a_grammar_error() -> None:
    with time_limit(2.0), pytest.raises(sy.GrammarError, match=r"line 1, column 10: bad repetition \{3,1\}"):
        sy.GrammarSentence("<a> := ^a{3,1}$")


def test_grammar_errors_name_the_line_and_column_of_the_token() -> None:
    text = "<s> := <w> ;\n<w> := ok | ^[z-a]$ ;"
    with pytest.raises(sy.GrammarError, match=r"line 2, column 15: bad range z-a"):
        sy.Grammar(text)
    with pytest.raises(sy.GrammarError, match=r"malformed symbol '<w' at line 2, column 8"):
        sy.Grammar("<s> := x ;\n<t> := <w ;")


# -- silently wrong values for valid arguments ------------------------------------------


def test_the_widest_float_range_gives_values_across_it() -> None:
    values = sy.RandomFloat(-1e308, 1e308, seed=3).take(200)
    assert all(-1e308 <= v < 1e308 for v in values)
    assert sum(v < 0 for v in values) > 50 and sum(v > 0 for v in values) > 50


def test_huge_weights_keep_their_proportions() -> None:
    counts = collections.Counter(sy.Choice("a", "b", "c", weights=[1e308, 1e308, 1]).set_seed(1).take(2000))
    assert counts["a"] > 800 and counts["b"] > 800 and counts["c"] == 0
    counts = collections.Counter(sy.Choice("a", "b", weights=[10**400, 3 * 10**400]).set_seed(1).take(2000))
    assert 350 < counts["a"] < 650


def test_huge_weights_in_selectors_and_markov_chains() -> None:
    chosen = collections.Counter(sy.Selector("a", "b", "c", weights=[1e308, 1e308, 1]).set_seed(s).pick() for s in range(400))
    assert chosen["a"] > 150 and chosen["b"] > 150
    chain = sy.MarkovChain({"s": "s", "a": "a", "b": "b"}, {"s": {"a": 1e308, "b": 1e308}, "a": {"s": 1}, "b": {"s": 1}})
    visits = collections.Counter(chain.set_seed(2).take(2000))
    assert visits["a"] > 400 and visits["b"] > 400
    assert chain.probability("s", "a") == pytest.approx(0.5)


def test_weights_map_a_draw_as_before_when_they_do_not_overflow() -> None:
    assert cumulative([1, 2, 3]) == [1.0, 3.0, 6.0]
    assert cumulative([0.1, 0.2]) == [0.1, 0.1 + 0.2]
    scaled = cumulative([1e308, 1e308, 1.0])
    assert scaled[0] * 2 == scaled[1] and math.isfinite(scaled[-1])


@pytest.mark.parametrize("decision", [sy.RandomInteger(5, 10), sy.RandomFloat(-1, 1), 1.5, -0.1])
def test_a_decision_outside_the_unit_interval_is_refused_at_construction(decision: Any) -> None:
    with pytest.raises(ValueError, match="decision"):
        sy.Selector("a", "b", decision=decision)
    with pytest.raises(ValueError, match="decision"):
        sy.Choice("a", "b", decision=decision)


def test_a_decision_picking_wrong_values_is_named_at_the_first_pick() -> None:
    selector = sy.Selector("a", "b", decision=sy.Choice("x", "y"))
    with pytest.raises(ValueError, match=r"decision must pick floats in \[0, 1\), got 'x'|decision must pick floats in \[0, 1\), got 'y'"):
        selector.pick()


def test_as_string_needs_a_template_with_a_field() -> None:
    with pytest.raises(ValueError, match="format must be a template with a field"):
        sy.AsString(sy.Tick(), "abc")
    assert sy.AsString(sy.Tick(), "<{}>").take(2) == ["<0>", "<1>"]


def test_a_markov_state_named_none_is_a_state() -> None:
    chain = sy.MarkovChain({None: "none", "x": "x"}, {None: {"x": 1}, "x": {None: 1}})
    assert chain.start is None
    assert chain.set_seed(1).take(4) == ["none", "x", "none", "x"]
    chain = sy.MarkovChain({"x": "x", None: "none"}, {"x": {None: 1}}, start=None)
    assert chain.take(3) == ["none"]


@pytest.mark.parametrize("bad", [math.nan, math.inf, -math.inf])
@pytest.mark.parametrize(
    "make, name",
    [
        (lambda v: sy.Tick(v), "start"),
        (lambda v: sy.Tick(0, v), "increment"),
        (lambda v: sy.SineWave(v, sy.Tick()), "amplitude"),
        (lambda v: sy.SineWave(1, v), "argument"),
        (lambda v: sy.SineWave(1, sy.Tick(), v), "phase"),
        (lambda v: sy.Offset(v), "offset"),
        (lambda v: sy.PrismPicker(1, v), "coordinates[1]"),
        (lambda v: sy.HyperspherePicker(v, 1.0), "radius"),
        (lambda v: sy.HyperspherePicker(1, v), "angles[0]"),
        (lambda v: sy.Delay(v), "seconds"),
    ],
    ids=["Tick start", "Tick increment", "SineWave amplitude", "SineWave argument", "SineWave phase", "Offset", "PrismPicker", "Hypersphere radius", "Hypersphere angle", "Delay"],
)
def test_nan_and_infinities_are_refused(make: Any, name: str, bad: float) -> None:
    with pytest.raises(ValueError, match=name.replace("[", r"\[").replace("]", r"\]")):
        make(bad)


def test_a_picker_of_infinities_is_named_at_the_first_pick() -> None:
    with pytest.raises(ValueError, match="argument must pick finite numbers, got inf"):
        sy.SineWave(1, sy.Constant(math.inf)).pick()


# -- wrong exception types ----------------------------------------------------------------


@pytest.mark.parametrize("states", ["abc", [1, 2], 3, sy.Tick()])
def test_markov_states_must_be_a_dict(states: Any) -> None:
    with pytest.raises(TypeError, match="states must be a dict"):
        sy.MarkovChain(states)


def test_markov_transitions_must_be_dicts_of_dicts() -> None:
    with pytest.raises(TypeError, match="transitions must be a dict"):
        sy.MarkovChain({"a": 1}, [("a", "a")])
    with pytest.raises(TypeError, match=r"transitions\['a'\] must be a dict"):
        sy.MarkovChain({"a": 1}, {"a": 1})
    with pytest.raises(TypeError, match="start must be hashable"):
        sy.MarkovChain({"a": 1}, start=["a"])


@pytest.mark.parametrize("separator", [None, 3, ["-"]])
def test_a_grammar_separator_must_be_a_string(separator: Any) -> None:
    with pytest.raises(TypeError, match="separator must be a string"):
        sy.GrammarSentence("<a> := x y ;", separator=separator)


@pytest.mark.parametrize("weights", [math.nan, 3, "ab", {1: 2}])
def test_weights_that_are_not_a_sequence_name_weights(weights: Any) -> None:
    with pytest.raises(TypeError, match="weights must be a sequence of numbers"):
        sy.Choice("a", "b", weights=weights)


def test_nan_weights_are_refused() -> None:
    with pytest.raises(ValueError, match=r"weights\[1\] must be a number, got NaN"):
        sy.Choice("a", "b", weights=[1, math.nan])


# -- plain values where pickers are expected -------------------------------------------------


def test_plain_values_become_constants() -> None:
    assert sy.ComposeList(7, 3).pick() == [7, 7, 7]
    assert sy.ArrayPicker("push", sy.RandomInteger(0, 9, seed=1)).pick()[0] == "push"
    assert sy.Freeze(3).take(2) == [3, 3] and sy.Once("x").take(3) == ["x"]
    assert sy.Record(None).take(2) == [None, None]
    assert sy.Bound("a", 2).take(5) == ["a", "a"]
    assert sy.Tick(1.5, 1).take(2) == [1.5, 2.5]
    assert sy.Merge("a", sy.AllIntegers(0, 2), "z").take(9) == ["a", 0, 1, "z"]
    assert sy.AllPickers(sy.AllBooleans(), "x").take(5) == [(False, "x"), (True, "x")]
    assert sy.DeleteElement(0.0, input=[1, 2, 3]).pick() == [2, 3]
    assert sy.Knit(sy.Apply(lambda: sy.Once("v")), spawn=True).take(2) == ["v", "v"]


def test_none_is_the_natural_leaf_of_a_recursive_tree() -> None:
    tree = sy.Deferred(lambda: sy.Choice(None, sy.Apply(lambda l, r: [l, r], tree, tree)), max_depth=2, fallback=None)
    values = tree.set_seed(3).take(20)
    assert None in values and all(v is None or isinstance(v, list) for v in values)
    with pytest.raises(ValueError, match="fallback is required when max_depth is given"):
        sy.Deferred(lambda: sy.Tick(), max_depth=2)


@pytest.mark.parametrize("collection", [[1, 2, 3], (1, 2), range(3), {1, 2}])
def test_a_collection_alone_is_ambiguous_and_says_what_to_write(collection: Any) -> None:
    with pytest.raises(TypeError, match=r"Choice\(.*\) is ambiguous: write Choice\(\*.*\) to choose one element, or Choice\(Constant\("):
        sy.Choice(collection)
    with pytest.raises(TypeError, match=r"write Choice\(\*.*\) for elements chosen from it, or Constant\("):
        sy.ComposeList(collection, 3)
    with pytest.raises(TypeError, match=r"ArrayPicker\(\*"):
        sy.ArrayPicker(collection)
    assert sy.Choice(*collection).set_seed(1).pick() in collection
    assert sy.Choice(sy.Constant(collection)).pick() == collection


def test_empty_integer_ranges_are_refused_like_random_integer() -> None:
    with pytest.raises(ValueError, match=r"half-open like range\(\): \[3, 3\) is empty"):
        sy.AllIntegers(3, 3)
    with pytest.raises(ValueError, match=r"half-open like range\(\): \[5, 5\) is empty"):
        sy.RandomInteger(5, 5)


def test_a_probability_where_a_coin_is_expected_says_what_to_write() -> None:
    with pytest.raises(TypeError, match=r"write RandomBoolean\(0\.3\)"):
        sy.Knit(sy.Tick(), spawn=0.3)


#: Inputs where a plain value cannot stand in for the picker, and why.
NOT_PLAIN = {
    ("Knit", "instances"): "its values must be pickers",
    ("Mutate", "mutator"): "a mutator, not a value",
    ("MutateElement", "mutator"): "a mutator, not a value",
}


def _parameter_at(target: Any, position: int) -> str:
    """The name of the parameter that receives positional argument ``position``."""
    positional = [p for p in inspect.signature(target).parameters.values() if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD, p.VAR_POSITIONAL)]
    for i, p in enumerate(positional):
        if p.kind == p.VAR_POSITIONAL or i == position:
            return p.name
    raise AssertionError(f"no parameter for position {position} of {target}")


@pytest.mark.parametrize(
    "call",
    [lambda: sy.Knit(5), lambda: sy.Mutate(sy.Constant([1]), 3), lambda: sy.MutateElement(3)],
    ids=["Knit instances", "Mutate mutator", "MutateElement mutator"],
)
def test_the_documented_exceptions_refuse_a_plain_value(call: Any) -> None:
    with pytest.raises(TypeError, match="instances must be a picker|mutator must be a Mutator"):
        call()


def _picker_arguments() -> list[tuple[Any, str, Any]]:
    out = []
    for signature in picker_signatures():
        captured: list[tuple[list[Any], dict[str, Any]]] = []
        signature.call(lambda *a, **k: captured.append((list(a), dict(k))))
        args, kwargs = captured[0]
        slots = [(i, None) for i, a in enumerate(args) if isinstance(a, sy.Picker)]
        slots += [(None, k) for k, v in kwargs.items() if isinstance(v, sy.Picker)]
        for position, key in slots:
            name = key if key is not None else _parameter_at(signature.target, position)
            if (signature.name, name) not in NOT_PLAIN:
                out.append((signature, f"{signature.name}:{name}", (position, key)))
    return out


@pytest.mark.parametrize("signature, label, where", _picker_arguments(), ids=lambda x: x if isinstance(x, str) else "")
def test_a_plain_value_works_wherever_a_picker_is_expected(signature: Any, label: str, where: tuple[Any, Any]) -> None:
    """Each picker argument of each registry signature, replaced by a value it picks."""
    captured: list[tuple[list[Any], dict[str, Any]]] = []
    signature.call(lambda *a, **k: captured.append((list(a), dict(k))))
    args, kwargs = captured[0]
    position, key = where
    picker = args[position] if key is None else kwargs[key]
    value = picker.duplicate().set_seed(1).pick()
    if key is None:
        args[position] = value
    else:
        kwargs[key] = value
    built = signature.target(*args, **kwargs)
    if isinstance(built, sy.Picker):
        try:
            built.set_seed(2).take(signature.picks)
        except sy.GiveUp:  # a set of distinct values of a constant, a filter of one value: documented
            pass

