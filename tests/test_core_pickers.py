"""Semantics of the core and of the first pickers (the generic contract is in tests/contract)."""
from __future__ import annotations

import collections
import copy
from typing import Any

import pytest
from scipy import stats

import synthia as sy
from synthia.core import UNSET, upstream


def test_iteration_ends_at_no_more_elements() -> None:
    assert list(sy.Playback([1, 2, 3], loop=False)) == [1, 2, 3]
    assert list(sy.Nothing()) == []


def test_take_validates_its_count() -> None:
    with pytest.raises(ValueError, match="n must"):
        sy.Tick().take(-1)


def test_random_integer_range_and_uniformity() -> None:
    values = sy.RandomInteger(-3, 4, seed=1).take(7000)
    counts = collections.Counter(values)
    assert set(counts) == set(range(-3, 4))
    assert stats.chisquare([counts[i] for i in range(-3, 4)]).pvalue > 1e-4


def test_random_integer_tell_moves_the_upper_bound() -> None:
    p = sy.RandomInteger(0, 100, seed=2)
    p.tell(2)
    assert set(p.take(200)) == {0, 1}
    with pytest.raises(ValueError, match="high"):
        p.tell(0)


def test_random_float_is_uniform_in_half_open_range() -> None:
    values = sy.RandomFloat(2.0, 4.0, seed=3).take(4000)
    assert all(2.0 <= v < 4.0 for v in values)
    assert stats.kstest(values, stats.uniform(loc=2.0, scale=2.0).cdf).pvalue > 1e-4


def test_random_boolean_probability() -> None:
    values = sy.RandomBoolean(0.2, seed=4).take(5000)
    assert stats.binomtest(sum(values), 5000, 0.2).pvalue > 1e-4
    assert not any(sy.RandomBoolean(0.0, seed=1).take(100))
    assert all(sy.RandomBoolean(1.0, seed=1).take(100))


def test_choice_weights_are_normalised() -> None:
    values = sy.Choice("a", "b", weights=[3, 1]).set_seed(5).take(4000)
    assert stats.binomtest(values.count("a"), 4000, 0.75).pvalue > 1e-4


def test_choice_never_takes_a_zero_weight() -> None:
    assert set(sy.Choice("a", "b", "c", weights=[0, 1, 0]).set_seed(6).take(500)) == {"b"}


def test_choice_picks_from_picker_alternatives() -> None:
    counter = sy.Tick(100, 1)
    values = sy.Choice(counter, "x", decision=sy.Playback([0.1, 0.9, 0.2])).take(6)
    assert values == [100, "x", 101, 102, "x", 103]


def test_choice_rejects_decisions_outside_the_unit_interval() -> None:
    with pytest.raises(ValueError, match="decision"):
        sy.Choice("a", decision=sy.Constant(1.0)).pick()


def test_freeze_repicks_after_reset() -> None:
    source = sy.Tick(0, 1)
    frozen = sy.Freeze(source)
    assert frozen.take(3) == [0, 0, 0]
    frozen.reset()
    assert frozen.take(2) == [0, 0]  # the source is reset too: its first value again


def test_once_gives_one_value_then_ends() -> None:
    once = sy.Once(sy.Tick(7, 1))
    assert not once.is_done()
    assert once.take(3) == [7]
    assert once.is_done()
    once.reset()
    assert once.take(3) == [7]


def test_tick_types_follow_inputs() -> None:
    assert sy.Tick(0, 2).take(3) == [0, 2, 4]
    assert sy.Tick(0.5, 0.25).take(3) == [0.5, 0.75, 1.0]


def test_playback_loop_survives_duplication() -> None:
    looping = sy.Playback([1, 2])
    looping.take(1)
    assert looping.duplicate().take(5) == [1, 2, 1, 2, 1]
    assert looping.duplicate(with_state=True).take(3) == [2, 1, 2]


def test_playback_start_and_played() -> None:
    p = sy.Playback("abc", start=2)
    assert p.take(4) == ["c", "a", "b", "c"]
    assert p.played == ["c", "a", "b", "c"]
    assert sy.Playback([]).is_done()


def test_compose_list_rejects_negative_lengths_at_pick() -> None:
    with pytest.raises(ValueError, match="length"):
        sy.ComposeList(sy.Tick(), sy.Constant(-2)).pick()


def test_pick_if_gives_up_after_max_tries() -> None:
    never = sy.PickIf(sy.RandomInteger(0, 10), lambda x: x > 100, max_tries=50)
    with pytest.raises(sy.GiveUp, match="50"):
        never.pick()


def test_pick_if_filters() -> None:
    odd = sy.PickIf(sy.RandomInteger(0, 100), lambda x: x % 2).set_seed(1).take(200)
    assert all(x % 2 for x in odd)


def test_apply_with_positional_and_named_inputs() -> None:
    point = sy.Apply(lambda x, y, label: (label, x, y), sy.Tick(0, 1), sy.Tick(10, -1), label="p")
    assert point.take(2) == [("p", 0, 10), ("p", 1, 9)]


def test_shared_picker_is_drawn_once_per_consumer_pick() -> None:
    shared = sy.Tick(0, 1)
    pair = sy.Apply(lambda a, b: (a, b), shared, shared)
    assert pair.take(2) == [(0, 1), (2, 3)]


def test_deferred_recursion_is_bounded_and_copyable() -> None:
    def depth(t: object) -> int:
        return 0 if t == "leaf" else 1 + max(depth(t[0]), depth(t[1]))  # type: ignore[index]

    tree = sy.Deferred(
        lambda: sy.Choice("leaf", sy.Apply(lambda l, r: (l, r), tree, tree), weights=[1, 3]),
        max_depth=5,
        fallback="leaf",
    )
    trees = tree.set_seed(3).take(50)
    assert max(depth(t) for t in trees) == 5
    twin = tree.duplicate()
    assert twin.take(50) == trees
    # the copy is a cycle of its own, with no cable back into the original
    assert not ({id(p) for _, p in upstream(twin)} & {id(p) for _, p in upstream(tree)})


def test_deferred_copied_before_first_use_does_not_share_the_original() -> None:
    loop = sy.Deferred(lambda: sy.Apply(lambda x: x, sy.RandomInteger(0, 10**6)))
    twin = loop.duplicate()
    assert {id(p) for _, p in upstream(twin)}.isdisjoint({id(p) for _, p in upstream(loop)})


def test_deferred_requires_fallback_with_max_depth() -> None:
    with pytest.raises(ValueError, match="fallback"):
        sy.Deferred(sy.Tick, max_depth=2)


def test_unset_survives_copies() -> None:
    assert copy.deepcopy(UNSET) is UNSET and copy.copy(UNSET) is UNSET


def test_repr_reads_like_the_wiring() -> None:
    wiring = sy.ComposeList(sy.Choice("a", "b", weights=[1, 3]), length=sy.RandomInteger(0, 5))
    assert repr(wiring) == "ComposeList(Choice('a', 'b', weights=[1, 3]), length=RandomInteger(0, 5))"
    assert repr(sy.Tick(0, sy.Freeze(sy.RandomInteger(1, 3)))) == "Tick(0, Freeze(RandomInteger(1, 3)))"
    assert repr(sy.PickIf(sy.RandomFloat(), abs, max_tries=5)) == "PickIf(RandomFloat(), abs, max_tries=5)"


def test_repr_survives_cycles() -> None:
    loop = sy.Deferred(lambda: sy.Apply(lambda x: x, loop))
    loop.target
    assert "Deferred" in repr(loop.target)


def test_a_sampler_is_the_pick_unless_a_subclass_picks_its_own() -> None:
    class Die(sy.RandomPicker[int]):
        def __init__(self, *, seed: int | None = None) -> None:
            self._init_stream(seed)

        def sampler(self) -> Any:
            return self.stream.integer_sampler(1, 7)

    class Loaded(Die):
        def pick(self) -> int:
            return 6

    class Empty(sy.RandomPicker[int]):
        def __init__(self) -> None:
            self._init_stream(1)

    plain = Die(seed=1).take(20)
    assert set(plain) <= set(range(1, 7)) and len(set(plain)) > 3
    watched = Die(seed=1)
    with sy.recording(watched):  # a wrapper sees each pick: the reference path, same values
        assert watched.take(20) == plain
    value, tape = sy.record(Die(seed=1), picks=20)
    assert tape.values() == plain  # each pick is one typed draw
    assert Loaded(seed=1).take(3) == [6, 6, 6]
    with pytest.raises(NotImplementedError, match="Empty must define pick"):
        Empty().pick()


def test_a_choice_among_many_values_holds_them_as_data_and_behaves_as_one_among_constants() -> None:
    # Issue 33: Choice(*range(65536)) made a Constant per value and a copy copied them all.
    from synthia.core.draws import record

    big = sy.Choice(*range(65_536))
    assert [key for key, _ in sy.core.upstream(big)] == ["", "decision"]  # two pickers, not 65,537
    twin = big.duplicate()
    assert twin.values is big.values and twin.decision is not big.decision  # values shared, not copied
    # The same values, draws, repr, shrinking, staging and explanation as a choice among pickers
    # (Constants given as pickers keep the old representation).
    values = ["a", "b", "c", None, 7, (1, 2)]
    data, pickers = sy.Choice(*values, weights=[1, 2, 3, 4, 5, 6]), sy.Choice(*map(sy.Constant, values), weights=[1, 2, 3, 4, 5, 6])
    assert data.values is not None and pickers.values is None
    assert repr(data) == repr(pickers) == "Choice('a', 'b', 'c', None, 7, (1, 2), weights=[1, 2, 3, 4, 5, 6])"
    for seed in range(5):
        assert data.set_seed(seed).take(30) == pickers.set_seed(seed).take(30)
        assert sy.compile(data).set_seed(seed).take(30) == pickers.set_seed(seed).take(30)
        assert record(data.set_seed(seed), picks=5)[1] == record(pickers.set_seed(seed), picks=5)[1]
    assert sy.Choice(*range(20)).set_seed(3).take(40) == sy.Choice(*map(sy.Constant, range(20))).set_seed(3).take(40)
    smallest = sy.Assert(lambda x: x < 40_000, x=big).run(seed=2).smallest
    assert smallest == {"x": 40_000}
    with sy.recording(data.set_seed(1)):
        value = data.pick()
    text = sy.explain(data, 0).describe()  # the decision's draw, and the value it chose
    assert "output 0 of RandomFloat() = " in text and f"alternative [{values.index(value)}] of Choice(" in text
    # Values that can change inside (lists, objects) stay Constant pickers: each copy has its own.
    lists = sy.Choice([1], [2])
    assert lists.values is None and lists.duplicate().pick() is not lists.duplicate().pick()
