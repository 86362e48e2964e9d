"""The data domains shrink to their simplest failing values, through their draws alone.

Each picker of the domains (dates, times, text, bytes, exact numbers, records, arrays,
permutations, the Hypothesis bridge) has no shrinking code: its draws are mapped so that
all-minimal draws give its simplest value, and the generic shrinker does the rest. The
minimum is asserted exactly, for three seeds.
"""
from __future__ import annotations

import dataclasses
import datetime as dt
import math
import uuid
from decimal import Decimal
from fractions import Fraction
from typing import Any

import numpy as np
import pytest
from hypothesis import strategies as st

import synthia as sy

from .cases import QualityCase

PARIS = "Europe/Paris"


@dataclasses.dataclass(frozen=True)
class Person:
    name: str
    age: int


DOMAIN_CASES = [
    QualityCase("date after a leap day", lambda: sy.RandomDate(), lambda d: d > dt.date(2024, 2, 29), dt.date(2024, 3, 1)),
    QualityCase("date before the pivot", lambda: sy.RandomDate(), lambda d: d.year < 1990, dt.date(1989, 12, 31)),
    QualityCase("date in a range above the pivot", lambda: sy.RandomDate(dt.date(2024, 1, 1), dt.date(2025, 1, 1)), lambda d: d.weekday() == 6, dt.date(2024, 1, 7)),
    QualityCase("afternoon datetime", lambda: sy.RandomDatetime(), lambda d: d.hour >= 13, dt.datetime(1999, 12, 31, 23, 59, 59, 999999)),
    QualityCase("datetime after the pivot", lambda: sy.RandomDatetime(), lambda d: d >= dt.datetime(2000, 1, 1, 13), dt.datetime(2000, 1, 1, 13)),
    QualityCase(
        "datetime in the second zone",
        lambda: sy.RandomDatetime(timezones=["UTC", PARIS]),
        lambda d: str(d.tzinfo) == PARIS,
        dt.datetime(2000, 1, 1, tzinfo=__import__("zoneinfo").ZoneInfo(PARIS)),
    ),
    QualityCase("time of the morning", lambda: sy.RandomTime(), lambda t: t.hour >= 6, dt.time(6)),
    QualityCase("negative duration", lambda: sy.RandomTimedelta(), lambda d: d < -dt.timedelta(days=1), -dt.timedelta(days=1, microseconds=1)),
    QualityCase("text length", lambda: sy.RandomText(sy.RandomInteger(0, 20), nasty=0.0), lambda s: len(s) >= 3, "000"),
    # Characters shrink by general category (digits, uppercase, lowercase, then the others),
    # each category's ASCII letters and digits first: the first character past ASCII is the
    # first digit that is not an ASCII one.
    QualityCase("text beyond ASCII", lambda: sy.RandomText(sy.RandomInteger(0, 20), nasty=0.0), lambda s: any(ord(c) > 127 for c in s), "\u0660"),
    # A nasty string is spelled by plain draws: it shrinks as a plain string does.
    QualityCase("nasty text", lambda: sy.RandomText(sy.RandomInteger(0, 20)), lambda s: "\u202e" in s, "\u202e"),
    QualityCase("uppercase text", lambda: sy.RandomText(sy.RandomInteger(0, 20), categories=["Lu"], nasty=0.0), lambda s: "Z" in s, "Z"),
    QualityCase("high byte", lambda: sy.RandomBytes(sy.RandomInteger(0, 20)), lambda b: any(x >= 128 for x in b), b"\x80"),
    QualityCase("UUID first digit", lambda: sy.RandomUUID(), lambda u: u.hex[0] != "0", uuid.UUID("10000000-0000-4000-8000-000000000000")),
    QualityCase("decimal threshold", lambda: sy.RandomDecimal(places=2), lambda x: x > Decimal("10.5"), Decimal("10.51")),
    QualityCase("fraction threshold", lambda: sy.RandomFraction(), lambda x: x > Fraction(21, 2), Fraction(11)),
    QualityCase("fraction that is not whole", lambda: sy.RandomFraction(), lambda x: x.denominator > 2, Fraction(1, 3)),
    QualityCase("any float threshold", lambda: sy.AnyFloat(), lambda x: x > 2.5, 3.0),
    QualityCase("any float infinite", lambda: sy.AnyFloat(infinity=True), math.isinf, math.inf),
    QualityCase("any float not a number", lambda: sy.AnyFloat(nan=True), math.isnan, math.nan),
    QualityCase("any int threshold", lambda: sy.AnyInteger(), lambda x: x >= 1000, 1000),
    QualityCase("any int below a threshold", lambda: sy.AnyInteger(), lambda x: x < -5000, -5001),
    QualityCase("any int, a remainder above a threshold", lambda: sy.AnyInteger(), lambda x: x % 7 == 3 and x > 100, 101),
    QualityCase("any int16 that overflows when doubled", lambda: sy.AnyInteger(-(2**15), 2**15), lambda x: not -(2**15) <= 2 * x < 2**15, 2**14),
    QualityCase("any ints summed in a list", lambda: sy.ComposeList(sy.AnyInteger(), sy.RandomInteger(0, 10)), lambda l: sum(l) > 1000, [1001]),
    QualityCase("record field by field", lambda: sy.Struct(Person, name=sy.Choice("ada", "alan", "grace"), age=sy.RandomInteger(0, 120)), lambda p: p.age >= 50 and p.name != "ada", Person("alan", 50)),
    QualityCase("dict record", lambda: sy.Struct({"id": sy.RandomInteger(0, 10**6), "tags": sy.ComposeList(sy.RandomString(1, "xyz"), sy.RandomInteger(0, 5))}), lambda r: "z" in r["tags"], {"id": 0, "tags": ["z"]}),
    QualityCase("dictionary size", lambda: sy.DictPicker(sy.RandomInteger(0, 100), sy.RandomInteger(0, 100), sy.RandomInteger(0, 10)), lambda d: len(d) >= 2, {0: 0, 1: 0}),
    QualityCase("dictionary value", lambda: sy.DictPicker(sy.RandomInteger(0, 100), sy.RandomInteger(0, 100), sy.RandomInteger(0, 10)), lambda d: sum(d.values()) > 150, {0: 52, 1: 99}),
    QualityCase("permutation out of order", lambda: sy.Permutation(range(8)), lambda p: p != sorted(p), [0, 1, 2, 3, 4, 5, 7, 6]),
    QualityCase("permutation with 7 first", lambda: sy.Permutation(range(8)), lambda p: p[0] == 7, [7, 1, 2, 3, 4, 5, 6, 0]),
    QualityCase("sublist length", lambda: sy.RandomSubList(range(10)), lambda s: len(s) >= 3, [0, 1, 2]),
    QualityCase("sublist sum", lambda: sy.RandomSubList(range(10)), lambda s: sum(s) >= 12, [3, 9]),
    QualityCase("sublist members", lambda: sy.RandomSubList(range(12), keep=0.8), lambda s: 5 in s and 9 in s, [5, 9]),
    QualityCase("sublist spread", lambda: sy.RandomSubList(range(10), keep=0.8), lambda s: len(s) >= 2 and s[-1] - s[0] >= 6, [0, 6]),
    QualityCase("strategy list sum", lambda: sy.from_strategy(st.lists(st.integers(0, 1000))), lambda l: sum(l) > 1000, [1, 1000]),
    QualityCase("strategy text", lambda: sy.from_strategy(st.text()), lambda s: len(s) >= 2, "00"),
    QualityCase(
        "filtered strategy above a threshold",  # Hypothesis's own shrinker stops at 374
        lambda: sy.from_strategy(st.integers(0, 10000).filter(lambda x: x % 7 == 3)), lambda x: x > 100, 101,
    ),
    QualityCase("strategy floats", lambda: sy.from_strategy(st.floats()), lambda x: x > 2.5, 3.0),
]

ARRAY_CASES = [
    ("array sum", lambda: sy.NumpyArray("int8", 3), lambda a: int(a.sum()) > 100, [0, 0, 101]),
    ("array shape", lambda: sy.NumpyArray("float64", sy.Choice((), (1,), (2, 2))), lambda a: a.ndim == 2, [[0.0, 0.0], [0.0, 0.0]]),
]


def test_names_are_distinct() -> None:
    names = [c.name for c in DOMAIN_CASES] + [name for name, *_ in ARRAY_CASES]
    assert len(names) == len(set(names)) >= 30


@pytest.mark.parametrize("case", DOMAIN_CASES, ids=repr)
@pytest.mark.parametrize("seed", range(3))
def test_the_domain_shrinks_to_its_simplest_failing_value(case: QualityCase, seed: int) -> None:
    report = sy.Assert(lambda v: not case.fails(v), sy.FixedCount(1000), v=case.picker()).run(seed=seed)
    assert not report.passed, f"no failure found in 1000 inputs with seed {seed}"
    smallest = report.smallest["v"]  # type: ignore[index]
    assert repr(smallest) == repr(case.minimum)
    assert smallest == case.minimum or smallest != smallest  # NaN is its own minimum


@pytest.mark.parametrize("name, make, fails, minimum", ARRAY_CASES, ids=[c[0] for c in ARRAY_CASES])
@pytest.mark.parametrize("seed", range(3))
def test_arrays_shrink_to_their_simplest_failing_value(name: str, make: Any, fails: Any, minimum: Any, seed: int) -> None:
    report = sy.Assert(lambda v: not fails(v), sy.FixedCount(1000), v=make()).run(seed=seed)
    assert not report.passed
    assert report.smallest["v"].tolist() == minimum  # type: ignore[index]


@pytest.mark.parametrize(
    "make, simplest",
    [
        (lambda: sy.RandomDate(), dt.date(2000, 1, 1)),
        (lambda: sy.RandomDate(dt.date(2030, 5, 1), dt.date(2031, 1, 1)), dt.date(2030, 5, 1)),
        (lambda: sy.RandomDatetime(), dt.datetime(2000, 1, 1)),
        (lambda: sy.RandomTime(dt.time(9), dt.time(17)), dt.time(9)),
        (lambda: sy.RandomTimedelta(), dt.timedelta(0)),
        (lambda: sy.RandomText(sy.RandomInteger(2, 5)), "00"),
        (lambda: sy.RandomBytes(3), b"\x00\x00\x00"),
        (lambda: sy.RandomUUID(), uuid.UUID("00000000-0000-4000-8000-000000000000")),
        (lambda: sy.RandomDecimal("-5", "-1.5"), Decimal("-1.51")),  # half-open: -1.50 is out
        (lambda: sy.RandomFraction(Fraction(1, 3), 5), Fraction(1)),
        (lambda: sy.AnyFloat(), 0.0),
        (lambda: sy.AnyFloat(0.25, 0.75), 0.25),  # no integer, in (-1, 1): the nearest zero
        (lambda: sy.AnyFloat(1.2, 1.8), 1.5),  # no integer, beyond: the shortest binary fraction
        (lambda: sy.AnyFloat(-math.inf, -3.5), -4.0),
        (lambda: sy.AnyInteger(), 0),
        (lambda: sy.AnyInteger(100, 200), 100),
        (lambda: sy.AnyInteger(-50, -7), -8),
        (lambda: sy.Permutation("abc"), ["a", "b", "c"]),
        (lambda: sy.DictPicker(sy.RandomInteger(0, 5), 1, sy.RandomInteger(0, 4)), {}),
    ],
)
def test_all_minimal_draws_give_the_simplest_value(make: Any, simplest: Any) -> None:
    value, _ = sy.replay(make(), [])
    assert repr(value) == repr(simplest)
    assert np.all(np.asarray(sy.replay(sy.NumpyArray("int32", (2, 2)), [])[0]) == 0)
@pytest.mark.parametrize(
    "make",
    [
        lambda: sy.RandomText(sy.RandomInteger(0, 12), nasty=0.5),
        lambda: sy.RandomText(5, nasty=0.3),
        lambda: sy.RandomText(sy.RandomInteger(0, 6), ranges=[(32, 255)], nasty=0.5),
        lambda: sy.RandomText(sy.RandomInteger(1, 4), categories=["Lu", "Nd"], exclude="AB"),
    ],
)
def test_text_records_the_values_of_plain_generation(make: Any) -> None:
    # Recorded, a character is two draws (its category and its rank in it) and a nasty
    # string the characters that spell it: the values are those of plain generation, and
    # the tape replays them.
    for seed in range(40):
        plain = make().set_seed(seed).take(3)
        picker = make().set_seed(seed)
        for value in plain:
            recorded, tape = sy.record(picker)
            assert recorded == value
            assert sy.replay(make(), tape)[0] == value


def test_a_nasty_string_is_spelled_by_the_draws_of_a_plain_one() -> None:
    # Lowering the nasty flag keeps the string: the length's draw reads its number of
    # characters (when the length allows it), and each character is drawn as a plain one.
    text = sy.RandomText(sy.RandomInteger(0, 12), nasty=1.0)
    for seed in range(60):
        value, tape = sy.record(text.set_seed(seed))
        assert tape.draws[0].value is True
        if len(value) > 11:
            continue
        plain = [tape.draws[0]._replace(value=False), *tape.draws[1:]]
        assert sy.replay(sy.RandomText(sy.RandomInteger(0, 12), nasty=1.0), plain)[0] == value


def test_a_character_is_its_category_and_its_rank_in_it() -> None:
    # The rank lowered to 0 gives the category's simplest character: an accented capital
    # shrinks to 'A', where halving an index between '0' and 'À' stopped at 'À'.
    text = sy.RandomText(sy.RandomInteger(0, 10), ranges=[(32, 255)], nasty=0.0)
    for seed in range(10):
        report = sy.Assert(lambda s: not any(c.isupper() for c in s), sy.FixedCount(1000), s=text).run(seed=seed)
        assert report.smallest == {"s": "A"}


