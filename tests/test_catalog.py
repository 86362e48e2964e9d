"""Semantics and distributions of the value catalog (fixed seeds; alpha 1e-4 so nothing flakes)."""
from __future__ import annotations

import collections
import itertools
import math
import time

import pytest
from scipy import stats

import synthia as sy

ALPHA = 1e-4


def chi_square_uniform(values: list, support: list) -> float:
    counts = collections.Counter(values)
    assert set(counts) <= set(support)
    return stats.chisquare([counts[s] for s in support]).pvalue


# -- distributions -------------------------------------------------------------------
@pytest.mark.parametrize("bias", [0.5, 1.0, 3.0])
def test_biased_float_follows_its_distribution(bias: float) -> None:
    values = sy.BiasedRandomFloat(bias, seed=1).take(3000)
    assert all(0.0 <= v < 1.0 for v in values)
    assert stats.kstest(values, lambda x: x**bias).pvalue > ALPHA


def test_gaussian_float_is_normal() -> None:
    values = sy.GaussianFloat(5.0, 2.0, seed=2).take(4000)
    assert stats.kstest(values, stats.norm(5.0, 2.0).cdf).pvalue > ALPHA


@pytest.mark.parametrize("lam", [0.3, 4.0, 29.0, 30.0, 180.0, 5000.0])
def test_poisson_integer_matches_the_pmf(lam: float) -> None:
    values = sy.PoissonInteger(lam, seed=3).take(5000)
    assert all(isinstance(v, int) and v >= 0 for v in values)
    low, high = int(stats.poisson.ppf(0.001, lam)), int(stats.poisson.ppf(0.999, lam))
    edges = sorted(set(int(x) for x in stats.poisson.ppf([i / 10 for i in range(1, 10)], lam)))
    bins = [-1, *edges, 10**9]
    observed = [sum(1 for v in values if a < v <= b) for a, b in zip(bins, bins[1:])]
    expected = [len(values) * (stats.poisson.cdf(b, lam) - stats.poisson.cdf(a, lam)) for a, b in zip(bins, bins[1:])]
    assert stats.chisquare(observed, expected).pvalue > ALPHA, (low, high)


def test_poisson_tell_changes_the_mean() -> None:
    p = sy.PoissonInteger(2.0, seed=4)
    p.tell(100.0)
    assert abs(sum(p.take(2000)) / 2000 - 100.0) < 1.5


def test_affine_transform_maps_and_inverts() -> None:
    source = sy.RandomInteger(0, 100, seed=5)
    expected = [3 * x - 7 for x in source.duplicate().take(50)]
    affine = sy.AffineTransform(source, 3, -7)
    values = affine.take(50)
    assert values == expected and all(isinstance(v, int) for v in values)
    assert [affine.inverse(v) for v in values] == [(v + 7) // 3 for v in values]
    assert sy.AffineTransform(sy.Constant(0.5), 2.0, 1.0).inverse(2.0) == 0.5


# -- conversions ---------------------------------------------------------------------
def test_as_int_and_as_string() -> None:
    assert sy.AsInt(sy.Playback([1.9, -1.9, "7"])).take(3) == [1, -1, 7]
    with pytest.raises(ValueError, match="'x'"):
        sy.AsInt(sy.Constant("x")).pick()
    assert sy.AsString(sy.Playback([1, None])).take(2) == ["1", "None"]


def test_delay_sleeps_for_the_picked_time() -> None:
    start = time.perf_counter()
    assert sy.Delay(0.02).pick() == 0.02
    assert time.perf_counter() - start >= 0.02


# -- collections ---------------------------------------------------------------------
def test_list_picker_round_robin() -> None:
    assert sy.ListPicker(sy.Tick(0, 1), sy.Constant("x"), length=5).pick() == [0, "x", 1, "x", 2]
    assert sy.ListPicker(sy.Constant(1), sy.Constant(2)).pick() == [1, 2]


def test_set_picker_gives_distinct_values_of_the_size() -> None:
    sets = sy.SetPicker(sy.RandomInteger(0, 20), sy.RandomInteger(0, 15)).set_seed(6).take(200)
    assert all(isinstance(s, set) and s <= set(range(20)) for s in sets)
    assert {len(s) for s in sets} == set(range(15))


def test_set_picker_gives_up_on_a_too_small_domain() -> None:
    with pytest.raises(sy.GiveUp, match="only 3 distinct"):
        sy.SetPicker(sy.RandomInteger(0, 3), 4, max_tries=200).set_seed(1).pick()


def test_array_picker_is_a_tuple_of_one_pick_each() -> None:
    assert sy.ArrayPicker(sy.Tick(0, 1), sy.Tick(10, -1)).take(2) == [(0, 10), (1, 9)]


def test_random_sub_list_keeps_order_and_rate() -> None:
    subs = sy.RandomSubList(range(10), keep=0.3, seed=7).take(1000)
    assert all(s == sorted(s) and set(s) <= set(range(10)) for s in subs)
    kept = sum(len(s) for s in subs)
    assert stats.binomtest(kept, 10_000, 0.3).pvalue > ALPHA


def test_random_sub_list_keeps_each_element_independently() -> None:
    # Drawn as "one more?" and the next kept position, the law is still one coin per element.
    subs = [frozenset(s) for s in sy.RandomSubList(range(4), keep=0.3, seed=3).take(6000)]
    counts = collections.Counter(subs)
    subsets = [frozenset(c) for k in range(5) for c in itertools.combinations(range(4), k)]
    expected = [6000 * 0.3 ** len(c) * 0.7 ** (4 - len(c)) for c in subsets]
    assert stats.chisquare([counts[c] for c in subsets], expected).pvalue > ALPHA


@pytest.mark.parametrize("n", [0, 1, 7, 300])
@pytest.mark.parametrize("keep", [0.0, 1e-9, 0.3, 0.5, 0.97, 1 - 1e-12, 1.0])
def test_random_sub_list_plain_generation_makes_the_recorded_draws(n: int, keep: float) -> None:
    # Plain generation locates each position in closed form; recording bisects the running
    # sums of the weighted draw: the same values, and the tape replays them.
    for seed in range(20):
        plain = sy.RandomSubList(range(n), keep=keep, seed=seed).pick()
        value, tape = sy.record(sy.RandomSubList(range(n), keep=keep, seed=seed))
        assert value == plain
        assert sy.replay(sy.RandomSubList(range(n), keep=keep), tape)[0] == plain


def test_random_sub_list_reaches_every_position_of_a_long_list() -> None:
    # The chance of the next kept position falls as keep * skip**k; its running sum rounds to
    # 1.0 past k ~ 53, and so did the chance of one more element: every later position had
    # zero weight (a replayed position 150 moved back to 53) and no sub-list could end 54
    # before the end of the list (a replayed False became True). A failure needing [150]
    # shrank to [42, 96, 150], and one that any sub-list meets to [146] instead of [].
    values = list(range(200))
    for position in (0, 53, 54, 150, 199):
        value, _ = sy.replay(sy.RandomSubList(values), [True, position, False])
        assert value == [position]
    assert sy.replay(sy.RandomSubList(values), [False])[0] == []
    late = sy.Assert(lambda l: not any(x >= 150 for x in l), sy.FixedCount(1000), l=sy.RandomSubList(values)).run(seed=0)
    assert late.smallest == {"l": [150]}
    anything = sy.Assert(lambda l: False, sy.FixedCount(10), l=sy.RandomSubList(values)).run(seed=0)
    assert anything.smallest == {"l": []}


def test_scramble_plays_a_uniform_permutation() -> None:
    orders = [tuple(sy.Scramble(sy.Playback("abc", loop=False), seed=s).take(5)) for s in range(3000)]
    assert all(sorted(o) == ["a", "b", "c"] for o in orders)
    assert chi_square_uniform(orders, list(itertools.permutations("abc"))) > ALPHA


def test_scramble_batches_repeat() -> None:
    values = sy.Scramble(sy.Tick(0, 1), count=4, seed=2).take(12)
    assert [sorted(values[i : i + 4]) for i in (0, 4, 8)] == [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]]


# -- bounded and exhaustive ----------------------------------------------------------
def test_bound_and_is_done() -> None:
    bound = sy.Bound(sy.Tick(), 3)
    assert not bound.is_done()
    assert bound.take(5) == [0, 1, 2] and bound.is_done()


def test_unbound_replays_distinct_values_after_the_end() -> None:
    u = sy.Unbound(sy.Playback([1, 2, 2, 3], loop=False)).set_seed(8)
    head = u.take(4)
    tail = u.take(3000)
    assert head == [1, 2, 2, 3]
    assert chi_square_uniform(tail, [1, 2, 3]) > ALPHA
    u.reset()
    assert u.take(4) == [1, 2, 2, 3]  # reset forgets that the source ended (the Java bug)


def test_all_integers_and_booleans() -> None:
    assert sy.AllIntegers(-2, 3).take(10) == [-2, -1, 0, 1, 2]
    assert sy.AllBooleans().take(3) == [False, True]
    drawn = sy.AllIntegers(0, 1000, scramble=True, seed=9).take(2000)
    assert sorted(drawn) == list(range(1000)) and drawn != sorted(drawn)


def test_all_elements_loop_reshuffles() -> None:
    values = sy.AllElements(range(6), scramble=True, loop=True, seed=3).take(60)
    passes = [values[i : i + 6] for i in range(0, 60, 6)]
    assert all(sorted(p) == list(range(6)) for p in passes)
    assert len({tuple(p) for p in passes}) > 1


@pytest.mark.parametrize("scramble", [False, True])
def test_all_pickers_enumerates_every_combination_once(scramble: bool) -> None:
    combos = sy.AllPickers(sy.AllBooleans(), sy.AllIntegers(0, 3), sy.AllElements("xy"), scramble=scramble).set_seed(1)
    got = combos.take(100)
    assert len(got) == 12 and len(set(got)) == 12
    assert set(got) == set(itertools.product([False, True], range(3), "xy"))
    if not scramble:
        assert got[:3] == [(False, 0, "x"), (True, 0, "x"), (False, 1, "x")]  # first changes fastest


def test_enumerate_rejects_looping_inputs_at_construction() -> None:
    with pytest.raises(ValueError, match=r"pickers\[0\] must end, but Playback\(\[1, 2\]\) never does"):
        sy.AllPickers(sy.Playback([1, 2]))
    with pytest.raises(TypeError, match=r"pickers\[0\] must be a bounded picker"):
        sy.AllPickers(sy.RandomInteger(0, 3))


def test_enumerate_stops_draining_an_input_that_claims_to_end_but_loops() -> None:
    class Liar(sy.Playback):  # says it ends, loops all the same
        def ends(self) -> bool:
            return True

    with pytest.raises(ValueError, match="looping"):
        sy.AllPickers(Liar([1, 2])).pick()


def test_merge_concatenates() -> None:
    merged = sy.Merge(sy.AllIntegers(0, 2), sy.Nothing(), sy.AllElements("ab"))
    assert merged.take(10) == [0, 1, "a", "b"] and merged.is_done()


def test_pick_smaller() -> None:
    assert all(v < 10 for v in sy.PickSmaller(sy.RandomInteger(0, 100), 10).set_seed(1).take(100))
    with pytest.raises(sy.GiveUp):
        sy.PickSmaller(sy.RandomInteger(5, 10), 5, max_tries=100).set_seed(1).pick()


# -- strings -------------------------------------------------------------------------
def test_random_string_alphabet_and_lengths() -> None:
    strings = sy.RandomString(sy.RandomInteger(0, 5), alphabet="xyz").set_seed(10).take(2000)
    assert {len(s) for s in strings} == set(range(5))
    assert chi_square_uniform(list("".join(strings)), list("xyz")) > ALPHA


def test_string_pattern_formats() -> None:
    pattern = sy.StringPattern("{0}:{1:02d}", sy.Constant("id"), sy.Tick(7, 1))
    assert pattern.take(2) == ["id:07", "id:08"]
    assert sy.StringPattern("{} and {}", 1, 2).pick() == "1 and 2"


def test_string_pieces_stay_inside_the_text() -> None:
    text = "synthia!"
    prefixes = sy.RandomPrefix(text, seed=1).take(2000)
    assert all(text.startswith(p) for p in prefixes)
    assert chi_square_uniform([len(p) for p in prefixes], list(range(len(text) + 1))) > ALPHA
    assert all(text.endswith(s) for s in sy.RandomSuffix(text, seed=1).take(200))
    assert all(t in text for t in sy.RandomTrim(text, seed=1).take(200))
    subs = sy.RandomSubString(text, seed=1).take(500)
    assert all(s in text for s in subs) and "" in subs and text in subs


# -- geometry and signals ------------------------------------------------------------
@pytest.mark.parametrize("dimension", [2, 3, 7])
def test_hypersphere_points_have_the_radius_as_norm(dimension: int) -> None:
    radius = sy.RandomFloat(0.5, 3.0)
    angles = [sy.RandomFloat(0, math.pi) for _ in range(dimension - 2)] + [sy.RandomFloat(0, 2 * math.pi)]
    sphere = sy.HyperspherePicker(radius, *angles).set_seed(dimension)
    radii = radius.duplicate(with_state=False)  # replays the radius picks
    for point in sphere.take(300):
        assert len(point) == dimension
        assert math.isclose(math.sqrt(sum(x * x for x in point)), radii.pick(), rel_tol=1e-12)


def test_hypersphere_covers_every_coordinate() -> None:
    points = sy.HyperspherePicker(1.0, sy.RandomFloat(0, math.pi), sy.RandomFloat(0, 2 * math.pi)).set_seed(1).take(500)
    for axis in range(3):
        assert min(p[axis] for p in points) < -0.9 and max(p[axis] for p in points) > 0.9


def test_sine_wave() -> None:
    wave = sy.SineWave(3.0, sy.Tick(0.0, math.pi / 6), math.pi / 2)
    assert [round(v, 9) for v in wave.take(4)] == [round(3 * math.cos(k * math.pi / 6), 9) for k in range(4)]


# -- mutators ------------------------------------------------------------------------
def test_mutators_never_modify_what_they_receive() -> None:
    original = [5, 6, 7, 8]
    snapshot = list(original)
    for mutator in [sy.DeleteElement(), sy.InsertElement(0), sy.Swap(), sy.MutateElement(sy.Offset(1))]:
        mutator.set_seed(3)
        for _ in range(20):
            out = mutator.mutate(original)
            assert out is not original
        assert original == snapshot


def test_figure_4_outcomes_are_equally_likely() -> None:
    base = [10, 20, 30, 40]
    mutate = sy.Mutate(
        sy.Constant(base),
        sy.Choice(sy.MutateElement(sy.Choice(sy.Offset(sy.RandomFloat()), sy.Replace(0))), sy.Swap(), sy.DeleteElement()),
    ).set_seed(11)
    kinds = []
    for out in mutate.take(3000):
        if len(out) == 3:
            kinds.append("delete")
        elif sorted(out) == sorted(base):
            kinds.append("swap")
        else:
            kinds.append("element")
    assert chi_square_uniform(kinds, ["delete", "swap", "element"]) > ALPHA
    assert base == [10, 20, 30, 40]


def test_delete_positions_are_uniform() -> None:
    deleted = []
    mutator = sy.DeleteElement().set_seed(12)
    for _ in range(4000):
        out = mutator.mutate([0, 1, 2, 3])
        deleted.append(({0, 1, 2, 3} - set(out)).pop())
    assert chi_square_uniform(deleted, [0, 1, 2, 3]) > ALPHA


def test_offset_keeps_number_types() -> None:
    from fractions import Fraction

    assert sy.Offset(2).mutate(3) == 5
    assert sy.Offset(Fraction(1, 3)).mutate(Fraction(1, 3)) == Fraction(2, 3)
    assert isinstance(sy.Offset(0.5).mutate(1), float)


def test_a_mutator_without_input_says_so() -> None:
    with pytest.raises(TypeError, match="no input"):
        sy.Swap().pick()
