"""The randomness module: the documented mapping, seed derivation, fresh seeds."""
from __future__ import annotations

import collections

import pytest
from scipy import stats

import synthia as sy
from synthia.core import upstream
from synthia.core.random import Stream, derive_seed, fresh_seed, shuffle, stream_seed, weighted_index


def test_stream_seed_is_pinned() -> None:
    # BLAKE2b of a fixed text: the same on every Python and platform.
    assert stream_seed(0) == stream_seed(0)
    assert stream_seed(1) != stream_seed(-1)
    assert 0 <= stream_seed(12345) < 2**64


def test_below_stays_in_range_and_is_uniform() -> None:
    stream = Stream(stream_seed(3))
    counts = collections.Counter(stream.below(7) for _ in range(14_000))
    assert set(counts) == set(range(7))
    assert stats.chisquare([counts[i] for i in range(7)]).pvalue > 1e-4


def test_below_matches_getrandbits_rejection() -> None:
    a, b = Stream(99), Stream(99)
    for n in (1, 2, 3, 1000, 1024, 2**40 + 3, 2**63):
        k = (n - 1).bit_length()  # a power of two draws exactly its bits, never rejected
        r = b.getrandbits(k)
        while r >= n:
            r = b.getrandbits(k)
        assert a.below(n) == r


def test_typed_draws_follow_the_documented_mapping() -> None:
    a, b = Stream(7), Stream(7)
    assert a.integer(-5, 5) == -5 + b.below(10)
    u = b.random()
    assert a.floating(2.0, 4.0) == 2.0 + 2.0 * u
    assert a.boolean(0.3) == (b.random() < 0.3)
    assert a.weighted([1.0, 3.0]) == weighted_index(b.random(), [1.0, 3.0])
    assert a.unit() == b.random()


def test_a_width_that_overflows_still_gives_uniform_floats() -> None:
    stream = Stream(stream_seed(2))
    values = [stream.floating(-1e308, 1e308) for _ in range(2000)]
    assert all(-1e308 <= v < 1e308 for v in values)
    assert stats.kstest([v / 1e308 for v in values], stats.uniform(-1, 2).cdf).pvalue > 1e-4


def test_weighted_index_respects_weights_and_zero_weights() -> None:
    cumulative = [0.0, 1.0, 1.0, 4.0]  # weights 0, 1, 0, 3
    stream = Stream(stream_seed(8))
    counts = collections.Counter(stream.weighted(cumulative) for _ in range(8000))
    assert set(counts) == {1, 3}
    assert stats.binomtest(counts[3], 8000, 0.75).pvalue > 1e-4
    assert weighted_index(0.0, cumulative) == 1
    assert weighted_index(0.9999999999999999, cumulative) == 3


def test_shuffle_is_a_permutation_and_uniform() -> None:
    stream = Stream(stream_seed(5))
    counts: collections.Counter[tuple[int, ...]] = collections.Counter()
    for _ in range(6000):
        xs = [0, 1, 2]
        shuffle(stream, xs)
        counts[tuple(xs)] += 1
    assert len(counts) == 6
    assert stats.chisquare(list(counts.values())).pvalue > 1e-4


def test_derive_seed_root_and_keys() -> None:
    assert derive_seed(5, "") == 5
    assert len({derive_seed(5, k) for k in ("a", "b", "a/b", "b/a")}) == 4


def test_fresh_seeds_differ_and_are_readable() -> None:
    assert fresh_seed() != fresh_seed()
    p = sy.RandomInteger(0, 10**9)
    replay = sy.RandomInteger(0, 10**9, seed=p.seed)
    assert p.take(10) == replay.take(10)


def test_leaf_seed_in_a_wiring_replays_the_leaf() -> None:
    leaf = sy.RandomInteger(0, 10**9)
    wiring = sy.ComposeList(leaf, 4).set_seed(77)
    values = [x for xs in wiring.take(3) for x in xs]
    assert sy.RandomInteger(0, 10**9).set_seed(leaf.seed).take(12) == values


def test_adding_a_picker_elsewhere_keeps_the_other_values() -> None:
    def wiring(extra: bool) -> sy.Picker:
        kwargs = {"x": sy.RandomInteger(0, 10**6), "y": sy.RandomFloat()}
        if extra:
            kwargs["z"] = sy.RandomBoolean()
        return sy.Apply(dict, **kwargs)

    plain = [(d["x"], d["y"]) for d in wiring(False).set_seed(1).take(10)]
    extended = [(d["x"], d["y"]) for d in wiring(True).set_seed(1).take(10)]
    assert plain == extended


def test_keys_name_the_inputs() -> None:
    x = sy.RandomInteger(0, 3)
    wiring = sy.Choice(x, sy.Tick(0, x))
    assert [k for k, _ in upstream(wiring)] == [
        "",
        "alternatives[0]",
        "alternatives[1]",
        "alternatives[1]/start",
        "decision",
    ]


def test_set_seed_resets_state_and_chains() -> None:
    clock = sy.Tick(0, sy.RandomInteger(1, 5))
    first = clock.set_seed(4).take(5)
    clock.take(10)
    assert clock.set_seed(4).take(5) == first
    assert clock.seed == 4


def test_set_seed_rejects_non_ints() -> None:
    with pytest.raises(TypeError, match="seed"):
        sy.Tick().set_seed("1")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="seed"):
        sy.Tick().set_seed(True)
