"""The picker contract, checked generically on every wiring of the registry.

Seeds come from Hypothesis; each property holds for every public picker class.
"""
from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import synthia as sy
from synthia.core import upstream

from .registry import Case, all_bad_arguments, all_cases, public_picker_classes

CASES = all_cases()
SEEDS = st.integers(min_value=-(2**70), max_value=2**70)
CONTRACT = settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def same(case: Case, a: list[Any], b: list[Any]) -> bool:
    if case.compare is None:
        return a == b
    return len(a) == len(b) and all(case.compare(x, y) for x, y in zip(a, b))


def values(case: Case, picker: sy.Picker[Any]) -> list[Any]:
    return picker.take(case.max_values)


def test_registry_covers_every_public_picker() -> None:
    covered = {c.covers for c in CASES} | {t for c in CASES for t in c.extra_covers}
    missing = sorted(cls.__name__ for cls in public_picker_classes() - covered)
    assert not missing, f"public picker classes without a contract case: {missing}"


def test_registry_has_a_diamond_under_both_duplicates() -> None:
    shared = sy.RandomInteger(0, 100)
    wiring = sy.Apply(lambda a, b: (a, b), sy.Apply(abs, shared), sy.Apply(abs, shared))
    for with_state in (False, True):
        twin = wiring.duplicate(with_state)
        assert twin.args[0].args[0] is twin.args[1].args[0]
        assert twin.args[0].args[0] is not shared


@pytest.mark.parametrize("case", CASES, ids=repr)
@CONTRACT
@given(seed=SEEDS)
def test_reset_replays(case: Case, seed: int) -> None:
    picker = case.factory().set_seed(seed)
    first = values(case, picker)
    picker.reset()
    assert same(case, values(case, picker), first)


@pytest.mark.parametrize("case", CASES, ids=repr)
@CONTRACT
@given(seed=SEEDS, skip=st.integers(0, 5))
def test_duplicate_without_state_replays_from_start(case: Case, seed: int, skip: int) -> None:
    picker = case.factory().set_seed(seed)
    first = values(case, picker)
    picker.reset()
    picker.take(skip)
    twin = picker.duplicate()
    assert same(case, values(case, twin), first)


@pytest.mark.parametrize("case", CASES, ids=repr)
@CONTRACT
@given(seed=SEEDS, skip=st.integers(0, 5))
def test_duplicate_with_state_continues(case: Case, seed: int, skip: int) -> None:
    picker = case.factory().set_seed(seed)
    picker.take(skip)
    twin = picker.duplicate(with_state=True)
    assert same(case, values(case, twin), values(case, picker))


@pytest.mark.parametrize("case", CASES, ids=repr)
@CONTRACT
@given(seed=SEEDS, skip=st.integers(0, 5))
def test_copies_are_independent(case: Case, seed: int, skip: int) -> None:
    expected = _replay(case, seed, skip)
    picker = case.factory().set_seed(seed)
    picker.take(skip)
    twin = picker.duplicate(with_state=True)
    twin.take(case.max_values)  # picking from the copy...
    assert same(case, values(case, picker), expected)  # ...does not move the original
    picker = case.factory().set_seed(seed)
    picker.take(skip)
    twin = picker.duplicate(with_state=True)
    picker.take(case.max_values)  # picking from the original...
    assert same(case, values(case, twin), expected)  # ...does not move the copy


def _replay(case: Case, seed: int, skip: int) -> list[Any]:
    picker = case.factory().set_seed(seed)
    picker.take(skip)
    return values(case, picker)


@pytest.mark.parametrize("case", CASES, ids=repr)
@pytest.mark.parametrize("with_state", [False, True])
def test_duplicate_keeps_the_shape_of_the_wiring(case: Case, with_state: bool) -> None:
    picker = case.factory().set_seed(11)
    picker.take(3)
    twin = picker.duplicate(with_state)
    originals = [(k, type(p)) for k, p in upstream(picker)]
    copies = [(k, type(p)) for k, p in upstream(twin)]
    # The same pickers in the same places: sharing kept (no extra nodes), nothing merged.
    assert copies == originals
    original_ids = {id(p) for _, p in upstream(picker)}
    assert not any(id(p) in original_ids for _, p in upstream(twin))


@pytest.mark.parametrize("case", CASES, ids=repr)
@CONTRACT
@given(seed=SEEDS)
def test_same_seed_same_values(case: Case, seed: int) -> None:
    a = values(case, case.factory().set_seed(seed))
    b = values(case, case.factory().set_seed(seed))
    assert same(case, a, b)


@pytest.mark.parametrize("case", [c for c in CASES if c.random], ids=repr)
@CONTRACT
@given(seed=SEEDS)
def test_different_seeds_differ(case: Case, seed: int) -> None:
    a = values(case, case.factory().set_seed(seed))
    b = values(case, case.factory().set_seed(seed + 1))
    assert not same(case, a, b)


@pytest.mark.parametrize("case", [c for c in CASES if c.factory().finite_values() is not None], ids=repr)
def test_finite_values_list_every_value_picked(case: Case) -> None:
    picker = case.factory().set_seed(3)
    listed = picker.finite_values()
    assert listed, "finite_values is None or lists values"
    assert all(any(same(case, [v], [u]) for u in listed) for v in picker.take(200))


def test_some_cases_have_finite_values() -> None:
    assert any(c.factory().finite_values() is not None for c in CASES)


@pytest.mark.parametrize("case", [c for c in CASES if c.bounded], ids=repr)
def test_bounded_pickers_end_with_no_more_elements(case: Case) -> None:
    picker = case.factory().set_seed(5)
    produced = picker.take(case.max_values)
    assert len(produced) < case.max_values, "a bounded case must end within max_values"
    assert picker.is_done()
    with pytest.raises(sy.NoMoreElements):
        picker.pick()
    assert same(case, list(case.factory().set_seed(5)), produced)  # iteration ends there too


@pytest.mark.parametrize("bad", all_bad_arguments(), ids=repr)
def test_bad_arguments_fail_at_construction(bad: Any) -> None:
    with pytest.raises(bad.error) as info:
        bad.call()
    assert bad.mentions in str(info.value)


@pytest.mark.parametrize("case", CASES, ids=repr)
def test_repr_names_the_class(case: Case) -> None:
    text = repr(case.factory())
    assert text.startswith(type(case.factory()).__name__ + "(")


SHRINKABLE = [c for c in CASES if isinstance(c.factory(), sy.Shrinkable)]


@pytest.mark.parametrize("case", SHRINKABLE, ids=repr)
@CONTRACT
@given(seed=SEEDS, skip=st.integers(1, 5))
def test_shrink_never_changes_the_original(case: Case, seed: int, skip: int) -> None:
    """``p.shrink(v)``, and anything done to what it returns, leaves ``p`` where it was:
    ``p`` goes on exactly as a stateful duplicate taken before."""
    picker = case.factory().set_seed(seed)
    produced = picker.take(skip)
    if not produced:
        return
    twin = picker.duplicate(with_state=True)
    smaller = picker.shrink(produced[-1])
    for step in (lambda: smaller.take(5), smaller.reset, lambda: smaller.set_seed(seed + 1), lambda: smaller.take(5)):
        try:
            step()
        except (sy.GiveUp, sy.NoMoreElements):
            pass
    assert same(case, values(case, picker), values(case, twin))
