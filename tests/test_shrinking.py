"""Shrinking: the contract over the whole registry, and the quality of shrunk failures."""
from __future__ import annotations

import itertools
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import synthia as sy
from synthia.core.draws import replay
from synthia.core.shrinking import simplicity

from .contract.registry import Case, all_cases

SHRINKABLE = [c for c in all_cases() if isinstance(c.factory(), sy.Shrinkable)]


def test_most_pickers_shrink() -> None:
    assert len(SHRINKABLE) >= 30


def _simplest(picker: sy.Picker[Any]) -> Any:
    """The value of ``picker``'s simplest draws (a fresh copy, so ``picker`` is left alone)."""
    return replay(picker.duplicate(), [], spans=False)[0]


@pytest.mark.parametrize("case", SHRINKABLE, ids=repr)
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), which=st.integers(0, 9), shrink_seed=st.integers(0, 2**32))
def test_shrink_gives_simpler_values_and_terminates(case: Case, seed: int, which: int, shrink_seed: int) -> None:
    """One mechanism for every picker: ``shrink(v)`` gives values strictly simpler than ``v``
    (or ``Nothing``), and shrinking again and again ends."""
    picker = case.factory().set_seed(seed)
    values = picker.take(10)
    if not values:
        return
    value = values[which % len(values)]
    decision = sy.RandomFloat(seed=shrink_seed)
    for step in itertools.count():
        assert step < 500, "repeated shrinking must terminate"
        smaller = picker.shrink(value, decision)
        if isinstance(smaller, sy.Nothing):
            break
        try:
            candidates = smaller.take(5)
        except sy.GiveUp:  # a filter cannot know that nothing simpler passes it (odd numbers below 1)
            break
        assert candidates, f"{picker!r}.shrink({value!r}) is not Nothing, so it has values"
        for candidate in candidates:
            assert simplicity(candidate) < simplicity(value), f"{candidate!r} is not simpler than {value!r}"
        value = candidates[-1]


@pytest.mark.parametrize("case", SHRINKABLE, ids=repr)
def test_shrink_is_deterministic(case: Case) -> None:
    picker = case.factory().set_seed(3)
    values = picker.take(5)
    if not values:
        return
    a = picker.shrink(values[-1], sy.RandomFloat(seed=9))
    b = picker.shrink(values[-1], sy.RandomFloat(seed=9))
    assert a.take(5) == b.take(5)


@pytest.mark.parametrize("case", SHRINKABLE, ids=repr)
def test_the_simplest_value_shrinks_to_nothing(case: Case) -> None:
    picker = case.factory().set_seed(5)
    try:
        simplest = _simplest(picker)
    except (sy.GiveUp, sy.NoMoreElements):
        return
    assert isinstance(picker.shrink(simplest), sy.Nothing)


def test_integers_shrink_towards_zero_positive_first() -> None:
    assert sorted([3, -3, 0, -1, 1], key=simplicity) == [0, 1, -1, 3, -3]
    assert set(sy.RandomInteger(-10, 10).shrink(-2).take(200)) == {0, 1, -1, 2}
    assert isinstance(sy.RandomInteger(5, 10).shrink(5), sy.Nothing)
    assert set(sy.RandomInteger(-10, -3).shrink(-7).take(200)) == {-4, -5, -6}  # the Java bug went the other way


def test_a_smaller_magnitude_gives_simpler_values() -> None:
    wide = sy.RandomInteger(0, 10**6).shrink(10**5, magnitude=1.0).take(300)
    narrow = sy.RandomInteger(0, 10**6).shrink(10**5, magnitude=0.1).take(300)
    assert sum(narrow) < 0.75 * sum(wide) and max(wide) < 10**5


def test_shrunk_values_are_values_of_the_picker() -> None:
    # Made from the picker's own draws: a filter's values pass it, an affine map's keep its
    # parity, a list keeps its element and length pickers' domains.
    odd = sy.PickIf(sy.RandomInteger(0, 10**6), lambda x: x % 2 == 1)
    assert all(v % 2 == 1 and v < 999_999 for v in odd.shrink(999_999).take(100))
    lists = sy.ComposeList(sy.RandomInteger(0, 100), sy.AffineTransform(sy.RandomInteger(0, 20), 2, 1))
    assert all(len(v) % 2 == 1 and all(0 <= x < 100 for x in v) for v in lists.shrink([50] * 9).take(100))
    assert set(sy.RandomBoolean().shrink(True).take(3)) == {False}
    assert isinstance(sy.RandomBoolean(1.0).shrink(True), sy.Nothing)  # False is not in the domain


def test_shrink_never_leaves_the_picker_it_was_called_on_changed_or_shared() -> None:
    frozen = sy.Freeze(sy.RandomInteger(0, 100)).set_seed(4)
    before = frozen.pick()
    smaller = frozen.shrink(50)
    assert len(set(smaller.take(5))) >= 1 and frozen.pick() == before


def _wrong_sort(values: list[int]) -> list[int]:
    out = sorted(values)
    if len(values) > 4 and values[3] + values[4] > 1000:
        out[0], out[-1] = out[-1], out[0]
    return out


def _is_prime(n: int) -> bool:
    return n >= 2 and all(n % d for d in range(2, int(n**0.5) + 1))


@pytest.mark.parametrize("seed", range(5))
def test_prime_shrinks_to_zero(seed: int) -> None:
    report = sy.Assert(lambda x: _is_prime(x), x=sy.RandomInteger(0, 2**31)).run(seed=seed)
    assert not report.passed and report.smallest == {"x": 0}


@pytest.mark.parametrize("seed", range(8))
def test_sort_shrinks_to_the_smallest_counterexample(seed: int) -> None:
    lists = sy.ComposeList(sy.RandomInteger(0, 1000), sy.RandomInteger(0, 2000))
    report = sy.Assert(lambda l: _wrong_sort(l) == sorted(l), l=lists).run(seed=seed)
    smallest = report.smallest["l"]  # type: ignore[index]
    assert len(smallest) == 5 and smallest[:3] == [0, 0, 0] and smallest[3] + smallest[4] == 1001


def test_a_long_list_whose_length_fails_shrinks_within_the_budget() -> None:
    # Each replay of 1,200 elements costs milliseconds: deleting or merging units one by one
    # (each failing: the length is what fails) and lowering them one by one used up the time
    # budget and left a list of 0s, 1s and 2s.
    lists = sy.ComposeList(sy.RandomInteger(0, 3), sy.RandomInteger(0, 2000))
    report = sy.Assert(lambda l: len(l) < 1200, sy.FixedCount(1000), l=lists).run(seed=1)
    assert report.smallest == {"l": [0] * 1200}
    assert report.shrink_reason == "a full round of passes found nothing smaller"


@pytest.mark.parametrize("seed", range(4))
def test_a_float_failing_arbitrarily_close_to_zero_shrinks_to_the_closest_float(seed: int) -> None:
    # Halving the value 24 times from 0.005 ends anywhere near 1e-10; halving the bit pattern
    # ends at the float closest to zero that fails: the smallest normal float where
    # subnormals are not allowed (AnyFloat's default), the smallest subnormal where they are.
    # (In (-1, 1) floats are ordered by magnitude: a Choice's decision picks by it.)
    report = sy.Assert(lambda x: not (0 < x < 0.01), sy.FixedCount(1000), x=sy.AnyFloat()).run(seed=seed)
    assert report.smallest == {"x": 2.2250738585072014e-308}
    report = sy.Assert(lambda x: not (-0.01 < x < 0), sy.FixedCount(1000), x=sy.RandomFloat(-1, 1)).run(seed=seed)
    assert report.smallest == {"x": -5e-324}


@pytest.mark.parametrize("seed", range(4))
def test_a_float_that_must_not_be_an_integer_shrinks_to_a_short_fraction(seed: int) -> None:
    # Above the next integer by one ulp (2.0000000000000004) was the end by magnitude; a short
    # fraction is simpler: 1.5, as Hypothesis ends.
    fractions = sy.PickIf(sy.RandomFloat(0.0, 10.0), lambda x: not x.is_integer())
    report = sy.Assert(lambda x: x < 1, sy.FixedCount(1000), x=fractions).run(seed=seed)
    assert report.smallest == {"x": 1.5}
    report = sy.Assert(lambda x: not (x > 2 and not x.is_integer()), sy.FixedCount(1000), x=sy.AnyFloat()).run(seed=seed)
    assert report.smallest == {"x": 2.5}


@pytest.mark.parametrize("seed", range(20))
def test_a_length_followed_by_another_argument_loses_two_elements_at_once(seed: int) -> None:
    # An odd length cannot lose one element, and lowering the length alone shifts the
    # elements' draws into the argument after it: two elements go at once, the length with them.
    report = sy.Assert(
        lambda xs, n: len(xs) % n == 0,
        sy.FixedCount(1000),
        xs=sy.ComposeList(sy.AnyInteger(), sy.RandomInteger(0, 20)),
        n=sy.RandomInteger(1, 10),
    ).run(seed=seed)
    assert report.smallest == {"xs": [0], "n": 2}


@pytest.mark.parametrize("length", [1000, 10_000])
def test_a_long_list_with_one_bad_element_shrinks_to_it_in_few_replays(length: int) -> None:
    # The failing input is given (a tape): a list of ``length`` elements below 900 but one.
    # Either half of a long run goes while the failure stays: replays of decreasing lengths.
    import random

    from synthia.core.draws import replay

    rnd = random.Random(length)
    lists = sy.ComposeList(sy.RandomInteger(0, 1000), sy.RandomInteger(0, 10_001))
    elements = [rnd.randrange(900) for _ in range(length)]
    elements[rnd.randrange(length)] = 950
    _, tape = replay(lists, [length, *elements])
    report = sy.Assert(lambda l: not any(x >= 900 for x in l), sy.FixedCount(1), l=lists).run(seed=0, tapes=[tape])
    assert report.smallest == {"l": [900]}
    assert report.shrink_tries < 200


@pytest.mark.parametrize("n", [5, 8, 12])
def test_a_bind_value_lowered_with_one_of_the_draws_it_sets_changed(n: int) -> None:
    # One boolean per ordered pair of n nodes, an edge where it is False; the test assumes the
    # graph acyclic and fails when it has an edge. From every forward edge of n nodes,
    # lowering n alone reads the pairs' draws misaligned (a cycle: discarded); lowering it
    # with one of the next draws flipped reaches two nodes and one edge.
    from synthia.core.draws import replay

    from .quality.cases import _acyclic, _graphs

    def no_edges(g: Any) -> None:
        nodes, edges = g
        sy.assume(_acyclic(nodes, edges))
        assert not edges

    graphs = _graphs()
    _, tape = replay(graphs, [n, *[i > j for i, j in itertools.permutations(range(n), 2)]])
    report = sy.Assert(no_edges, sy.FixedCount(1), g=graphs).run(seed=0, tapes=[tape])
    assert report.smallest == {"g": (2, [(0, 1)])}


@pytest.mark.parametrize("seed", range(20))
def test_a_huge_special_float_shrinks_as_a_float(seed: int) -> None:
    # A special value of AnyFloat (here -1.7976931348623155e+308) is in its float draw as
    # well as in its index: lowering the mode keeps it, and it shrinks as an integral float
    # does. It stayed a special value on several of these seeds, the index's order not being the
    # order of the failing values.
    report = sy.Assert(lambda x: not x < -1e6, sy.FixedCount(1000), x=sy.AnyFloat()).run(seed=seed)
    assert report.smallest == {"x": -1000001.0}




@pytest.mark.parametrize("condition, minimum", [(lambda x: x > 0, 1.0), (lambda x: x < 0, -1.0), (lambda x: x != 0, 1.0)])
def test_a_float_that_must_not_be_zero_ends_at_one_on_every_seed(condition: Any, minimum: float) -> None:
    # A tiny value from AnyFloat's wide mode stayed tiny (the smallest normal float) on about
    # one seed in ten: halving keeps its sign, and the whole number towards zero is 0.0.
    # The whole number on the far side (1.0) is simpler than any fraction.
    ends = {sy.Assert(lambda x: not condition(x), sy.FixedCount(1000), x=sy.AnyFloat()).run(seed=s).smallest["x"] for s in range(50)}
    assert ends == {minimum}


def _accepts(picker: sy.Picker[Any]) -> Any:
    """What a filtered picker's values pass: a ``PickIf``'s predicate, and for a shrunk one
    (``Smaller`` of a filter) also being simpler than the value it was shrunk from."""
    from synthia.core.shrinking import Smaller

    if isinstance(picker, Smaller):
        inner, bound = _accepts(picker.picker), simplicity(picker.value)
        return lambda v: inner(v) and simplicity(v) < bound
    assert isinstance(picker, sy.PickIf)
    return picker.predicate


def _filtered(case: Case) -> bool:
    from synthia.core.shrinking import Smaller

    picker = case.factory()
    while isinstance(picker, Smaller):
        picker = picker.picker
    return isinstance(picker, sy.PickIf)


FILTERED = [c for c in all_cases() if _filtered(c)]


def test_the_registry_has_filtered_pickers() -> None:
    assert {c.name for c in FILTERED} >= {"PickIf", "PickSmaller", "shrunk PickIf"}


@pytest.mark.parametrize("case", FILTERED, ids=repr)
@pytest.mark.parametrize("seed", range(4))
def test_a_filtered_picker_shrinks_to_simpler_values_its_filter_accepts(case: Case, seed: int) -> None:
    # A value-based shrink keeps the filter's domain: odd numbers shrink to smaller odd numbers
    # (PickIf(RandomInteger(0, 1000), odd).shrink(15) once gave up instead). A shrunk filter
    # (a Smaller: no shrink of its own) gives values its filter accepts, simpler than its value.
    picker = case.factory().set_seed(seed)
    accepts = _accepts(picker)
    values = picker.take(200)
    assert all(accepts(v) for v in values)
    if not isinstance(picker, sy.Shrinkable):
        return
    simplest = min(values, key=simplicity)  # an accepted value as simple as plain picking finds
    distinct = list({repr(v): v for v in values}.values())  # (slices and arrays are unhashable)
    the_report = [15] if all(type(v) is int for v in values) else []  # a filter sees only its picker's kind of value
    for value in sorted(distinct, key=simplicity, reverse=True)[:4] + the_report:
        if not accepts(value) or not simplicity(simplest) < simplicity(value):
            continue  # (15 for the filters of ints that accept it: the case of the report)
        shrunk = picker.shrink(value, sy.RandomFloat(seed=seed)).take(20)
        assert len(shrunk) == 20
        for v in shrunk:
            assert accepts(v) and simplicity(v) < simplicity(value), (value, v)
