"""Contract cases for the data domains (dates, text, exact numbers, records, arrays) and the
Hypothesis bridge's picker."""
from __future__ import annotations

import collections
import dataclasses
import datetime as dt
from fractions import Fraction
from typing import Any

import numpy as np
from hypothesis import strategies as st

import synthia as sy

from ..registry import BadArgument, Case, Signature


@dataclasses.dataclass(frozen=True)
class Person:
    name: str
    age: int
    email: str = "-"


Point = collections.namedtuple("Point", "x y")


def _same_float(a: float, b: float) -> bool:
    return repr(a) == repr(b)


def _same_array(a: Any, b: Any) -> bool:
    return a.shape == b.shape and a.dtype == b.dtype and bool(np.array_equal(a, b))


CASES = [
    Case("AnyFloat", sy.AnyFloat, lambda: sy.AnyFloat()),
    Case("AnyFloat all specials", sy.AnyFloat, lambda: sy.AnyFloat(nan=True, infinity=True, subnormal=True, signed_zero=True), compare=_same_float),
    Case("AnyFloat bounded", sy.AnyFloat, lambda: sy.AnyFloat(-2.5, 1e10)),
    Case("AnyInteger", sy.AnyInteger, lambda: sy.AnyInteger()),
    Case("AnyInteger above zero", sy.AnyInteger, lambda: sy.AnyInteger(100, 10**12)),
    Case("AnyInteger below zero", sy.AnyInteger, lambda: sy.AnyInteger(-(2**40), -7)),
    Case("AnySize", sy.AnySize, lambda: sy.AnySize()),
    Case("AnySize bounded", sy.AnySize, lambda: sy.AnySize(3, 9)),
    Case("AnySize list", sy.AnySize, lambda: sy.ComposeList(sy.RandomBoolean(), sy.AnySize(2))),
    Case("RandomDate", sy.RandomDate, lambda: sy.RandomDate()),
    Case("RandomDate bounded", sy.RandomDate, lambda: sy.RandomDate(dt.date(2024, 1, 1), dt.date(2024, 3, 1))),
    Case("RandomTime", sy.RandomTime, lambda: sy.RandomTime(dt.time(8), dt.time(18), tz=dt.timezone.utc)),
    Case("RandomDatetime naive", sy.RandomDatetime, lambda: sy.RandomDatetime()),
    Case("RandomDatetime aware", sy.RandomDatetime, lambda: sy.RandomDatetime(timezones=["UTC", "Europe/Paris", dt.timezone(dt.timedelta(hours=-3))])),
    Case("RandomTimedelta", sy.RandomTimedelta, lambda: sy.RandomTimedelta()),
    Case("RandomText", sy.RandomText, lambda: sy.RandomText(sy.RandomInteger(0, 12))),
    Case("RandomText letters and a range", sy.RandomText, lambda: sy.RandomText(6, categories=["L"], ranges=[(0x1F600, 0x1F64F)], nasty=0.3)),
    Case("RandomBytes", sy.RandomBytes, lambda: sy.RandomBytes(sy.RandomInteger(0, 9))),
    Case("RandomUUID", sy.RandomUUID, lambda: sy.RandomUUID()),
    Case("RandomUUID raw", sy.RandomUUID, lambda: sy.RandomUUID(version=None)),
    Case("RandomDecimal", sy.RandomDecimal, lambda: sy.RandomDecimal("-10", "10.5", places=3)),
    Case("RandomFraction", sy.RandomFraction, lambda: sy.RandomFraction(Fraction(-1, 2), 3, max_denominator=12)),
    Case("Struct dataclass", sy.Struct, lambda: sy.Struct(Person, name=sy.Choice("ada", "alan"), age=sy.RandomInteger(0, 100))),
    Case("Struct namedtuple", sy.Struct, lambda: sy.Struct(Point, x=sy.RandomFloat(), y=sy.Tick())),
    Case("Struct dict template", sy.Struct, lambda: sy.Struct({"id": sy.RandomUUID(), "on": sy.RandomBoolean(), "n": 3})),
    Case("DictPicker", sy.DictPicker, lambda: sy.DictPicker(sy.RandomString(2, "abc"), sy.RandomInteger(0, 9), sy.RandomInteger(0, 5))),
    Case("NumpyArray ints", sy.NumpyArray, lambda: sy.NumpyArray("int16", sy.Choice((2, 2), (3,), ())), compare=_same_array),
    Case("NumpyArray floats", sy.NumpyArray, lambda: sy.NumpyArray(np.float32, 4, low=-1, high=1), compare=_same_array),
    Case("NumpyArray from a picker", sy.NumpyArray, lambda: sy.NumpyArray(bool, (2, 2), sy.RandomBoolean(0.3)), compare=_same_array),
    Case("Permutation", sy.Permutation, lambda: sy.Permutation(range(8))),
    Case("StrategyPicker integers", sy.StrategyPicker, lambda: sy.from_strategy(st.integers())),
    Case("StrategyPicker lists of text", sy.StrategyPicker, lambda: sy.from_strategy(st.lists(st.text(max_size=3), max_size=4))),
    Case("StrategyPicker floats", sy.StrategyPicker, lambda: sy.from_strategy(st.floats()), compare=_same_float),
    Case(
        "StrategyPicker inside a wiring",
        sy.StrategyPicker,
        lambda: sy.ComposeList(sy.from_strategy(st.integers(0, 9) | st.none()), sy.RandomInteger(0, 4)),
    ),
]

BAD_ARGUMENTS = [
    BadArgument("AnyFloat empty", lambda: sy.AnyFloat(1.0, 1.0), ValueError, "high"),
    BadArgument("AnyFloat infinity on a finite range", lambda: sy.AnyFloat(0, 1, infinity=True), ValueError, "infinity"),
    BadArgument("AnyFloat nan flag", lambda: sy.AnyFloat(nan=1), TypeError, "nan"),
    BadArgument("AnyInteger empty", lambda: sy.AnyInteger(5, 5), ValueError, "high"),
    BadArgument("AnyInteger float bound", lambda: sy.AnyInteger(0.5, 10), TypeError, "low"),
    BadArgument("AnySize negative", lambda: sy.AnySize(-1), ValueError, "low"),
    BadArgument("AnySize empty", lambda: sy.AnySize(4, 4), ValueError, "high"),
    BadArgument("AnySize float", lambda: sy.AnySize(2.5), TypeError, "low"),
    BadArgument("RandomDate type", lambda: sy.RandomDate("2020-01-01"), TypeError, "low"),
    BadArgument("RandomDate empty", lambda: sy.RandomDate(dt.date(2020, 1, 1), dt.date(2020, 1, 1)), ValueError, "high"),
    BadArgument("RandomDate datetime", lambda: sy.RandomDate(dt.datetime(2020, 1, 1)), TypeError, "low"),
    BadArgument("RandomTime empty", lambda: sy.RandomTime(dt.time(9), dt.time(8)), ValueError, "high"),
    BadArgument("RandomDatetime zone", lambda: sy.RandomDatetime(timezones=["Mars/Olympus"]), ValueError, "Mars/Olympus"),
    BadArgument("RandomDatetime no zones", lambda: sy.RandomDatetime(timezones=[]), ValueError, "timezones"),
    BadArgument("RandomDatetime aware bound", lambda: sy.RandomDatetime(dt.datetime(2000, 1, 1, tzinfo=dt.timezone.utc)), ValueError, "naive"),
    BadArgument("RandomTimedelta type", lambda: sy.RandomTimedelta(5), TypeError, "low"),
    BadArgument("RandomText category", lambda: sy.RandomText(3, categories=["Qq"]), ValueError, "Qq"),
    BadArgument("RandomText range", lambda: sy.RandomText(3, ranges=[(5, 1)]), ValueError, "ranges"),
    BadArgument("RandomText length", lambda: sy.RandomText(-1), ValueError, "length"),
    BadArgument("RandomText nasty", lambda: sy.RandomText(2, nasty=2), ValueError, "nasty"),
    BadArgument("RandomBytes length", lambda: sy.RandomBytes("x"), TypeError, "length"),
    BadArgument("RandomUUID version", lambda: sy.RandomUUID(version=7), ValueError, "version"),
    BadArgument("RandomUUID version True", lambda: sy.RandomUUID(True), ValueError, "True"),
    BadArgument("RandomDecimal float", lambda: sy.RandomDecimal(0.1, 1), TypeError, "low"),
    BadArgument("RandomDecimal empty", lambda: sy.RandomDecimal("1.001", "1.005", places=2), ValueError, "high"),
    BadArgument("RandomDecimal places", lambda: sy.RandomDecimal(places=-1), ValueError, "places"),
    BadArgument("RandomFraction denominator", lambda: sy.RandomFraction(max_denominator=0), ValueError, "max_denominator"),
    BadArgument("RandomFraction float", lambda: sy.RandomFraction(0.5, 1), TypeError, "low"),
    BadArgument("Struct unknown field", lambda: sy.Struct(Person, nom="x", age=1), TypeError, "nom"),
    BadArgument("Struct no field", lambda: sy.Struct(dict), ValueError, "field"),
    BadArgument("Struct not a class", lambda: sy.Struct(3, a=1), TypeError, "cls"),
    BadArgument("DictPicker keys", lambda: sy.DictPicker(["a", "b"], 1, 2), TypeError, "keys"),
    BadArgument("DictPicker size", lambda: sy.DictPicker(sy.Tick(), 1, -2), ValueError, "size"),
    BadArgument("NumpyArray dtype", lambda: sy.NumpyArray("nope", 3), TypeError, "dtype"),
    BadArgument("NumpyArray shape", lambda: sy.NumpyArray("int8", (2, -1)), ValueError, "shape"),
    BadArgument("NumpyArray objects need elements", lambda: sy.NumpyArray(object, 2), ValueError, "elements"),
    BadArgument("Permutation picker", lambda: sy.Permutation(sy.Tick()), TypeError, "values"),
    BadArgument("from_strategy not a strategy", lambda: sy.from_strategy([1, 2]), TypeError, "strategy"),
    BadArgument("from_strategy max_tries", lambda: sy.from_strategy(st.none(), max_tries=0), ValueError, "max_tries"),
]


CASES += [
    Case("Faker name", sy.Faker, lambda: sy.Faker("name", locale="fr_FR")),
    Case("Faker with arguments", sy.Faker, lambda: sy.Faker("pyint", min_value=10, max_value=10**6)),
    Case("Faker in a record", sy.Faker, lambda: sy.Struct(dict, email=sy.Faker("email"), city=sy.Faker("city", locale="de_DE"))),
]
BAD_ARGUMENTS += [
    BadArgument("Faker method", lambda: sy.Faker("nope"), ValueError, "nope"),
    BadArgument("Faker method type", lambda: sy.Faker(3), TypeError, "method"),
    BadArgument("Faker locale", lambda: sy.Faker("name", locale="xx_XX"), ValueError, "xx_XX"),
]

CASES += [
    Case("Mimesis first name", sy.Mimesis, lambda: sy.Mimesis("person.first_name", locale="de")),
    Case("Mimesis with arguments", sy.Mimesis, lambda: sy.Mimesis("numeric.integer_number", start=-5, end=10**6)),
    Case("Mimesis in a record", sy.Mimesis, lambda: sy.Struct(dict, email=sy.Mimesis("email"), city=sy.Mimesis("address.city", locale="fr"))),
]
BAD_ARGUMENTS += [
    BadArgument("Mimesis method", lambda: sy.Mimesis("person.nope"), ValueError, "nope"),
    BadArgument("Mimesis provider", lambda: sy.Mimesis("nope.first_name"), ValueError, "nope.first_name"),
    BadArgument("Mimesis ambiguous method", lambda: sy.Mimesis("title"), ValueError, "several"),
    BadArgument("Mimesis method type", lambda: sy.Mimesis(3), TypeError, "method"),
    BadArgument("Mimesis locale", lambda: sy.Mimesis("person.name", locale="xx"), ValueError, "xx"),
]

SIGNATURES = [
    Signature(sy.AnyFloat, lambda C: C(-2.5, 1e10, nan=False, subnormal=True, seed=1)),
    Signature(sy.AnyInteger, lambda C: C(-3, 10**9, seed=1)),
    Signature(sy.AnySize, lambda C: C(1, 40, seed=1)),
    Signature(sy.RandomDate, lambda C: C(dt.date(2024, 1, 1), dt.date(2024, 3, 1), seed=1)),
    Signature(sy.RandomTime, lambda C: C(dt.time(8), dt.time(18), tz=dt.timezone.utc, seed=1)),
    Signature(sy.RandomDatetime, lambda C: C(timezones=["UTC", "Europe/Paris"], seed=1)),
    Signature(sy.RandomTimedelta, lambda C: C(dt.timedelta(0), dt.timedelta(days=3), seed=1)),
    Signature(sy.RandomText, lambda C: C(sy.RandomInteger(0, 12), categories=["L"], nasty=0.2, seed=1)),
    Signature(sy.RandomBytes, lambda C: C(sy.RandomInteger(0, 9), seed=1)),
    Signature(sy.RandomUUID, lambda C: C(4, seed=1)),
    Signature(sy.RandomDecimal, lambda C: C("-10", "10.5", places=3, seed=1)),
    Signature(sy.RandomFraction, lambda C: C(Fraction(-1, 2), 3, max_denominator=12, seed=1)),
    Signature(sy.Struct, lambda C: C(Person, name=sy.Choice("ada", "alan"), age=sy.RandomInteger(0, 100))),
    Signature(sy.DictPicker, lambda C: C(sy.RandomString(2, "abc"), sy.RandomInteger(0, 9), sy.RandomInteger(0, 5), max_tries=100)),
    Signature(sy.NumpyArray, lambda C: C("int16", (2, 3), low=-5, high=5, seed=1)),
    Signature(sy.Permutation, lambda C: C(range(8), seed=1)),
    Signature(sy.StrategyPicker, lambda C: C(st.integers(0, 9), max_tries=10, seed=1)),
    Signature(sy.Faker, lambda C: C("name", locale="fr_FR", seed=1)),
    Signature(sy.Mimesis, lambda C: C("person.first_name", locale="de", seed=1)),
]

# The answers the constructor fuzzer asked for (each was an unclear error or a hang before).
BAD_ARGUMENTS += [
    BadArgument("RandomText exclude not text", lambda: sy.RandomText(3, exclude=["a"]), TypeError, "exclude"),
    BadArgument("RandomText range not a pair", lambda: sy.RandomText(3, ranges=[5]), TypeError, "ranges[0]"),
    BadArgument("RandomText range past Unicode", lambda: sy.RandomText(3, ranges=[(0, 2**40)]), ValueError, "ranges[0]"),
    BadArgument("RandomDecimal places huge", lambda: sy.RandomDecimal(places=10**30), ValueError, "places"),
    BadArgument("Struct cls that takes no fields", lambda: sy.Struct(lambda: 0, name="x"), TypeError, "cls"),
    BadArgument("DictPicker unhashable keys (at the first pick)", lambda: sy.DictPicker(sy.Constant([1]), 1, 1).pick(), TypeError, "keys"),
    BadArgument("NumpyArray low below the dtype", lambda: sy.NumpyArray("int8", 2, low=-1000), ValueError, "low"),
    BadArgument("NumpyArray high above the dtype", lambda: sy.NumpyArray("uint8", 2, high=1000), ValueError, "high"),
    BadArgument("NumpyArray float bound beyond the dtype", lambda: sy.NumpyArray("float16", 2, high=1e300), ValueError, "high"),
    BadArgument("NumpyArray too many elements", lambda: sy.NumpyArray("int8", (10**5, 10**5)), ValueError, "shape"),
    BadArgument("NumpyArray elements that cannot be the dtype", lambda: sy.NumpyArray("int8", 2, "text"), ValueError, "elements"),
]
