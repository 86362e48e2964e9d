"""Parsing (``sy.parse``), checked on every wiring of the registry: a parse, when there is
one, replays to the value it was asked for; the pickers documented as parseable parse at least
95% of their own values (docs/catalog.md, "Parsing")."""
from __future__ import annotations

import pathlib
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import synthia as sy
from synthia.core.parsing import same_value

from .registry import Case, all_cases

CASES = all_cases()
#: The cases whose pickers docs/catalog.md lists as parsing their values (each at least 95%).
PARSEABLE = {
    "SetPicker", "PickSmaller", "RandomString", "RandomPrefix", "RandomSuffix", "RandomInteger", "RandomInteger(high)",
    "RandomFloat", "RandomBoolean", "Constant", "Choice of values", "Freeze", "Once", "ComposeList", "PickIf",
    "AnyFloat", "AnyFloat all specials", "AnyFloat bounded", "AnyInteger", "AnyInteger above zero", "AnyInteger below zero",
    "AnySize", "AnySize bounded", "AnySize list",
    "RandomDate", "RandomDate bounded", "RandomTime", "RandomDatetime naive", "RandomDatetime aware", "RandomTimedelta",
    "RandomText", "RandomText letters and a range", "RandomBytes", "RandomUUID", "RandomUUID raw", "Struct dataclass",
    "Struct dict template", "DictPicker", "from_type dataclass", "from_type recursive", "from_type pydantic", "from_type attrs",
    "from_type NamedTuple", "from_type typing", "from_type Annotated", "builds with an override", "Struct filling its fields",
    "from_dtype structured", "scalar_dtypes",
}  # fmt: skip
COUNT = 40


def _values(case: Case, seeds: list[int]) -> list[Any]:
    """The first value of a fresh wiring per seed (parsing makes a first pick)."""
    out = []
    for seed in seeds:
        try:
            out.append(case.factory().set_seed(seed).pick())
        except sy.PickerError:
            continue
    return out


def _equal(case: Case, a: Any, b: Any) -> bool:
    return case.compare(a, b) if case.compare is not None else same_value(a, b)


def _check(case: Case, values: list[Any]) -> int:
    """How many of ``values`` parse; each parse replayed on a fresh wiring gives its value."""
    parsed = 0
    for value in values:
        tape = sy.parse(case.factory(), value)
        if tape is None:
            continue
        parsed += 1
        made, again = sy.replay(case.factory(), tape)
        assert _equal(case, made, value), f"{case.name}: the parse of {value!r} replays to {made!r}"
        assert sy.parse(case.factory(), made) is not None
    return parsed


@pytest.mark.parametrize("case", CASES, ids=repr)
def test_a_parse_replays_to_its_value_and_the_parseable_parse_their_values(case: Case) -> None:
    values = _values(case, list(range(COUNT)))
    parsed = _check(case, values)
    if case.name in PARSEABLE:
        assert parsed >= 0.95 * len(values) and values, f"{case.name}: {parsed} of {len(values)} values parsed"


@pytest.mark.parametrize("case", [c for c in CASES if c.name in PARSEABLE], ids=repr)
@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=-(2**64), max_value=2**64))
def test_parses_replay_for_any_seed(case: Case, seed: int) -> None:
    values = _values(case, [seed + i for i in range(3)])
    assert _check(case, values) >= len(values) - 1


def test_every_parseable_name_is_a_case_and_the_catalog_lists_its_pickers() -> None:
    names = {c.name for c in CASES}
    assert PARSEABLE <= names, sorted(PARSEABLE - names)
    catalog = (pathlib.Path(__file__).parents[2] / "docs" / "catalog.md").read_text()
    section = catalog.split("## Parsing", 1)[1]
    for case in CASES:
        if case.name in PARSEABLE and not case.name.startswith(("from_", "builds", "scalar_dtypes")):
            assert case.covers.__name__ in section, f"docs/catalog.md's Parsing section does not name {case.covers.__name__}"
