"""Dependent wirings (Bind), values drawn inside a test (draw), and discards (assume)."""
from __future__ import annotations

import subprocess
import sys
import warnings
from typing import Any

import pytest

import synthia as sy


def list_and_index() -> sy.Picker[Any]:
    lists = sy.ComposeList(sy.RandomInteger(0, 100), sy.RandomInteger(1, 20))
    return sy.Bind(lists, lambda l: sy.Apply(lambda i: (l, i), sy.RandomInteger(0, len(l))))


def test_bind_draws_its_inner_picker_from_the_outer_value() -> None:
    for l, i in list_and_index().set_seed(1).take(200):
        assert 0 <= i < len(l)


def test_bind_replays_after_reset_and_from_its_seed_in_a_fresh_process() -> None:
    picker = list_and_index().set_seed(5)
    first = picker.take(5)
    picker.reset()
    assert picker.take(5) == first
    script = (
        "import synthia as sy\n"
        "lists = sy.ComposeList(sy.RandomInteger(0, 100), sy.RandomInteger(1, 20))\n"
        "p = sy.Bind(lists, lambda l: sy.Apply(lambda i: (l, i), sy.RandomInteger(0, len(l))))\n"
        "print(p.set_seed(5).take(5))\n"
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout
    assert out.strip() == repr(first)


def test_a_picker_bind_returns_from_elsewhere_keeps_its_state() -> None:
    counter = sy.Tick(0, 1)
    bound = sy.Bind(sy.RandomInteger(0, 3), lambda _: counter)
    assert bound.set_seed(1).take(4) == [0, 1, 2, 3]


def test_a_list_and_a_valid_index_shrink_together() -> None:
    def pop_at(l: list[int], i: int) -> list[int]:
        return l[:i] + l[i + 1 :] if i < len(l) - 1 else l  # planted bug: the last element stays

    for seed in range(5):
        report = sy.Assert(lambda p: len(pop_at(*p)) == len(p[0]) - 1, p=list_and_index()).run(seed=seed)
        assert report.smallest == {"p": ([0], 0)}


def bst(lo: int, hi: int, depth: int) -> sy.Picker[Any]:
    """Binary search trees with keys in [lo, hi): valid by construction, keys narrowing."""
    if depth == 0 or hi - lo < 1:
        return sy.Constant(None)
    node = sy.Bind(sy.RandomInteger(lo, hi), lambda k: sy.Apply(lambda l, r: (l, k, r), bst(lo, k, depth - 1), bst(k + 1, hi, depth - 1)))
    return sy.Choice(None, node)


def keys(tree: Any) -> list[int]:
    return [] if tree is None else keys(tree[0]) + [tree[1]] + keys(tree[2])


def buggy_size(tree: Any) -> int:
    """A planted bug: a node without a left child forgets its right one."""
    if tree is None:
        return 0
    left, _, right = tree
    return 1 if left is None else 1 + buggy_size(left) + buggy_size(right)


def test_narrowing_trees_are_valid_and_shrink_to_the_minimal_failing_tree() -> None:
    trees = bst(0, 100, 5)
    for tree in trees.set_seed(2).take(300):
        assert keys(tree) == sorted(set(keys(tree)))  # a BST, with no filter
    for seed in range(5):
        report = sy.Assert(lambda t: buggy_size(t) == len(keys(t)), t=bst(0, 100, 5)).run(seed=seed)
        assert report.smallest == {"t": (None, 0, (None, 1, None))}


def test_bind_explains_through_the_outer_value_and_the_inner_draws() -> None:
    picker = list_and_index().set_seed(3)
    with sy.recording(picker):
        value = picker.pick()
    e = sy.explain(picker, 0)
    leaves = [e.graph.nodes[n] for n in e.leaves()]
    drawn = [d["value"] for d in leaves if d["leaf"] == "draw"]
    assert value[1] in drawn  # the index: a draw of the inner picker
    assert len(value[0]) in drawn and set(value[0]) <= set(drawn)  # the list: the outer value's draws


def cached_bst(lo: int, hi: int, depth: int) -> sy.Picker[Any]:
    if depth == 0 or hi - lo < 1:
        return sy.Constant(None)
    node = sy.Bind(
        sy.RandomInteger(lo, hi),
        lambda k: sy.Apply(lambda l, r: (l, k, r), cached_bst(lo, k, depth - 1), cached_bst(k + 1, hi, depth - 1)),
        cache=True,
    )
    return sy.Choice(None, node)


def test_nested_binds_share_their_kept_wirings_so_the_caches_fill() -> None:
    trees = cached_bst(0, 8, 4).set_seed(1)
    root = trees.alternatives[1]
    trees.take(3000)
    family = root._family
    built = family.count
    trees.take(2000)
    assert family.count - built <= built // 10  # nearly every wiring of the next 2000 trees was kept already
    # Two Binds built in one pick with the same function (the same code and closure values) hold
    # one dict of kept wirings; a function of other closure values has its own.
    def below(n: int) -> Any:
        return lambda v: sy.RandomInteger(0, n + v)

    pairs = sy.Bind(sy.RandomInteger(0, 2), lambda _: sy.Apply(lambda a, b, c: (a, b, c), *[sy.Bind(sy.RandomInteger(1, 3), below(n), cache=True) for n in (5, 5, 6)]), cache=True)
    pairs.set_seed(1).take(20)
    a, b, c = next(iter(pairs.kept.values())).args
    assert a.kept is b.kept and a.kept is not c.kept and a.kept


def test_kept_wirings_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    from synthia.pickers import dependent

    monkeypatch.setattr(dependent, "KEPT_LIMIT", 50)
    trees = cached_bst(0, 100, 5).set_seed(3)
    first = trees.take(300)
    assert trees.alternatives[1]._family.count == 50  # beyond: built for their pick only
    assert trees.set_seed(3).take(300) == first
    assert all(keys(t) == sorted(set(keys(t))) for t in first)


def test_the_pickers_fn_builds_have_streams_of_their_own_that_replay() -> None:
    made: list[sy.Picker[Any]] = []

    def inner(n: int) -> sy.Picker[Any]:
        made.append(sy.ComposeList(sy.RandomInteger(0, 1000), n + 1))
        return made[-1]

    bound = sy.Bind(sy.RandomInteger(0, 4), inner).set_seed(2)
    values = bound.take(5)
    assert [m.duplicate().pick() for m in made] == values  # each replays alone, from its own stream
    assert type(made[0].element.stream).__name__ == "MixStream" and made[0].element.seed != made[1].element.seed


def test_a_cached_recursive_bind_records_replays_copies_and_resets() -> None:
    from synthia.core.draws import record, replay

    trees = cached_bst(0, 20, 4).set_seed(5)
    trees.take(100)  # wirings kept outside any route
    twin = trees.duplicate(with_state=True)
    value, tape = record(trees, picks=20)
    assert value == twin.take(20)[-1]  # recorded values are plain generation's
    assert len(tape.draws) > 40 and trees.take(50) == twin.take(50)  # routed and back, as the copy
    twin.reset()
    trees.set_seed(5)
    again = trees.take(120)
    assert twin.take(120) == again  # reset and set_seed replay
    assert replay(trees, tape, reset=False)[0] == value  # the kept wirings follow the replay


def test_narrowing_cached_trees_shrink_to_the_minimal_failing_tree() -> None:
    for seed in range(3):
        report = sy.Assert(lambda t: buggy_size(t) == len(keys(t)), t=cached_bst(0, 100, 5)).run(seed=seed)
        assert report.smallest == {"t": (None, 0, (None, 1, None))}


def test_a_picker_built_in_fn_and_seeded_there_gets_a_stream_of_its_own() -> None:
    bound = sy.Bind(sy.RandomInteger(0, 3), lambda _: sy.RandomInteger(0, 10**9).set_seed(7))
    alone = sy.RandomInteger(0, 10**9).set_seed(7).pick()
    assert bound.set_seed(1).take(3) == [alone] * 3


def test_a_kept_wiring_draws_from_a_mersenne_twister_and_a_nested_bind_from_a_light_stream() -> None:
    from synthia.core.random import MixStream, Stream

    nested = sy.Bind(
        sy.RandomInteger(0, 3), lambda x: sy.Bind(sy.RandomInteger(0, x + 1), lambda y: sy.RandomInteger(0, y + 1), cache=True), cache=True
    )
    first = nested.set_seed(1).take(50)
    inner = next(iter(nested.kept.values()))
    assert type(inner.stream) is MixStream and type(inner.picker.stream) is Stream  # type: ignore[attr-defined]
    assert nested.duplicate().take(50) == first


# -- draw ---------------------------------------------------------------------------------------
def test_values_drawn_inside_a_test_are_recorded_and_shrunk_with_the_arguments() -> None:
    def index_is_in_range(l: list[int]) -> bool:
        i = sy.draw(sy.RandomInteger(0, len(l) + 1))  # planted off-by-one
        j = sy.draw(sy.RandomInteger(0, 100))
        return i < len(l) or j < 50

    for seed in range(3):
        report = sy.Assert(index_is_in_range, l=sy.ComposeList(sy.RandomInteger(0, 9), sy.RandomInteger(0, 5))).run(seed=seed)
        assert report.smallest == {"l": []} and report.drawn == [0, 50]
        assert "drawn inside the test:  0, 50" in report.summary()


def test_draw_is_deterministic_from_the_seed() -> None:
    def test(x: int) -> bool:
        return x + sy.draw(sy.RandomInteger(0, 1000)) < 1500

    a = sy.Assert(test, x=sy.RandomInteger(0, 1000)).run(seed=9)
    b = sy.Assert(test, x=sy.RandomInteger(0, 1000)).run(seed=9)
    assert (a.first, a.smallest, a.drawn, a.shrink_tries) == (b.first, b.smallest, b.drawn, b.shrink_tries)
    assert a.smallest is not None and a.smallest["x"] + a.drawn[0] == 1500


def test_draw_outside_a_harness_says_where_it_works() -> None:
    with pytest.raises(RuntimeError, match="inside a test run by Assert"):
        sy.draw(sy.RandomInteger(0, 3))


def test_draw_rejects_a_non_picker_inside_a_test() -> None:
    report = sy.Assert(lambda x: sy.draw(5), x=sy.RandomInteger(0, 3)).run(seed=1)
    assert isinstance(report.exception, TypeError) and "draw needs a picker" in str(report.exception)


# -- assume -------------------------------------------------------------------------------------
def test_discarded_inputs_are_counted_apart_and_never_passes() -> None:
    def test(x: int) -> bool:
        sy.assume(x % 4 != 0)
        return True

    report = sy.Assert(test, sy.RunOptions(stop=sy.FixedCount(50)), x=sy.RandomInteger(0, 100)).run(seed=2)
    assert report.passed and report.tried == 50 and report.discarded > 0
    assert "discarded by assume" in report.summary()


def test_stopping_rules_see_only_inputs_that_reached_the_property() -> None:
    seen: list[sy.testing.Outcome] = []

    class Watch(sy.StoppingRule):
        def observe(self, outcome: sy.testing.Outcome) -> None:
            seen.append(outcome)

        def reason_to_stop(self) -> str | None:
            return "enough" if len(seen) >= 20 else None

    sy.Assert(lambda x: sy.assume(x > 30), sy.RunOptions(stop=Watch()), x=sy.RandomInteger(0, 100)).run(seed=1)
    assert len(seen) == 20 and all(o.inputs["x"] > 30 for o in seen)


def test_a_run_where_most_inputs_are_discarded_warns_and_names_the_precondition() -> None:
    def rare(x: int) -> bool:
        sy.assume(x < 10)  # the line the warning names
        return True

    with pytest.warns(sy.HealthWarning, match=r"test_dependent.py:\d+") as caught:
        report = sy.Assert(rare, x=sy.RandomInteger(0, 100)).run(seed=1)
    assert report.passed and report.health and "discarded by assume" in str(caught[0].message)


def test_a_run_where_every_input_is_discarded_is_an_error() -> None:
    report = sy.Assert(lambda x: sy.assume(x > 1000), x=sy.RandomInteger(0, 100)).run(seed=1)
    assert not report.passed and report.status == "error" and "discarded" in (report.error or "")

    @sy.given(x=sy.RandomInteger(0, 100))
    def check(x: int) -> None:
        sy.assume(False)

    with pytest.raises(sy.Unsatisfiable), warnings.catch_warnings():
        warnings.simplefilter("ignore", sy.HealthWarning)
        check()


def test_assume_inside_a_function_of_the_wiring_discards_the_input() -> None:
    def odd_half(x: int) -> int:
        sy.assume(x % 2 == 0)
        return x // 2

    halves = sy.Apply(odd_half, sy.RandomInteger(0, 100))
    passing = sy.Assert(lambda h: h < 50, sy.RunOptions(stop=sy.FixedCount(100)), h=halves).run(seed=4)
    assert passing.passed and passing.tried == 100 and passing.discarded > 50
    for seed in range(3):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", sy.HealthWarning)
            report = sy.Assert(lambda h: h < 30, h=halves).run(seed=seed)
        assert report.smallest == {"h": 30}


def test_shrinking_never_accepts_a_discarded_candidate() -> None:
    def test(a: int, b: int) -> bool:
        sy.assume(a != b)  # smaller candidates with a == b are discarded, not failures
        return a + b < 100

    for seed in range(3):
        report = sy.Assert(test, a=sy.RandomInteger(0, 100), b=sy.RandomInteger(0, 100)).run(seed=seed)
        assert report.smallest == {"a": 1, "b": 99}
