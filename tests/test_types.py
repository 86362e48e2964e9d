"""Pickers from types: ``sy.from_type``, ``sy.builds``, ``sy.register_type`` and ``Struct``
filling its fields -- every kind of type they read, the values they make, how those shrink,
and the errors that name where a type cannot be built."""
from __future__ import annotations

import dataclasses
import datetime as dt
import decimal
import enum
import fractions
import ipaddress
import math
import pathlib
import re
import typing
import uuid
from typing import Annotated, Any, Generic, Literal, NamedTuple, NewType, Optional, TypedDict, TypeVar, Union

import annotated_types as at
import attrs
import pydantic
import pytest
from typing_extensions import NotRequired, Required

import synthia as sy


def sample(tp: Any, n: int = 300, seed: int = 1) -> list[Any]:
    return sy.from_type(tp).set_seed(seed).take(n)


# -- dataclasses ---------------------------------------------------------------------------
@dataclasses.dataclass
class Item:
    sku: str
    quantity: int = 1
    tags: list[str] = dataclasses.field(default_factory=list)
    total: int = dataclasses.field(default=-1, init=False)

    def __post_init__(self) -> None:
        self.total = self.quantity * 2


def test_a_dataclass_gets_every_field_and_its_defaults_half_of_the_time() -> None:
    items = sample(Item)
    assert all(isinstance(i, Item) and isinstance(i.sku, str) and isinstance(i.quantity, int) for i in items)
    assert all(i.total == i.quantity * 2 for i in items)  # init=False: left to the class
    defaults = sum(i.quantity == 1 for i in items)
    assert 100 < defaults < 200  # the default half of the time, a drawn int otherwise
    assert any(i.tags for i in items) and any(not i.tags for i in items)


def test_a_default_factory_makes_a_new_value_each_time() -> None:
    items = [i for i in sample(Item) if not i.tags]
    items[0].tags.append("changed")
    assert all(i.tags == [] for i in items[1:])


def test_a_defaulted_field_shrinks_to_its_default() -> None:
    report = sy.Assert(lambda item: len(item.sku) < 3, item=sy.from_type(Item)).run(seed=2)
    assert report.smallest == {"item": Item(sku=report.smallest["item"].sku)}  # quantity 1, tags []
    assert len(report.smallest["item"].sku) == 3


@dataclasses.dataclass(frozen=True)
class Point:
    x: int
    y: int


def test_a_failure_shrinks_through_the_fields_draws() -> None:
    report = sy.Assert(lambda p: p.x + p.y < 1000, p=sy.from_type(Point)).run(seed=3)
    assert report.smallest == {"p": Point(0, 1000)}


def test_struct_fills_the_required_fields_it_is_not_given_and_keeps_defaults() -> None:
    assert repr(sy.Struct(Point, y=5)) == "Struct(Point, x=AnyInteger(), y=5)"
    assert repr(sy.Struct(Item)) == "Struct(Item, sku=RandomText(AnySize()))"
    assert all(i.quantity == 1 for i in sy.Struct(Item).set_seed(1).take(50))  # left out: the class's default
    assert repr(sy.builds(Item)) == (
        "Struct(Item, sku=RandomText(AnySize()), quantity=Choice(1, AnyInteger()), "
        "tags=Choice(Apply(list), ComposeList(RandomText(AnySize()), length=AnySize())))"
    )


@dataclasses.dataclass
class WithInitVar:
    x: int
    scale: dataclasses.InitVar[int] = 2

    def __post_init__(self, scale: int) -> None:
        self.x *= scale


def test_an_init_var_is_an_argument() -> None:
    picker = sy.from_type(WithInitVar)
    assert "scale=Choice(2, AnyInteger())" in repr(picker)
    assert all(isinstance(v, WithInitVar) for v in picker.set_seed(1).take(50))


# -- attrs -----------------------------------------------------------------------------------
@attrs.define
class Part:
    name: str = attrs.field(validator=attrs.validators.in_(["bolt", "nut", "washer"]))
    size: int = attrs.field(validator=[attrs.validators.ge(1), attrs.validators.lt(20)])
    code: str = attrs.field(validator=attrs.validators.matches_re(r"[A-Z]{2}-\d{3}"))
    label: Optional[str] = attrs.field(default=None, validator=attrs.validators.optional(attrs.validators.instance_of(str)))
    weight = attrs.field(converter=float, default=1)
    _secret: int = attrs.field(default=7)


def test_attrs_validators_and_converters_are_respected() -> None:
    parts = sample(Part)
    assert all(isinstance(p, Part) for p in parts)  # attrs ran every validator
    assert {p.name for p in parts} == {"bolt", "nut", "washer"}
    assert all(1 <= p.size < 20 and re.fullmatch(r"[A-Z]{2}-\d{3}", p.code) for p in parts)
    assert any(p.label is None for p in parts) and any(isinstance(p.label, str) for p in parts)
    assert all(isinstance(p.weight, float) for p in parts)
    assert "secret=Choice(7, AnyInteger())" in repr(sy.from_type(Part))  # the private field by its alias


# -- NamedTuple, TypedDict, enums ------------------------------------------------------------
class Pair(NamedTuple):
    left: int
    right: str = "r"


class Movie(TypedDict, total=False):
    title: Required[str]
    year: int


class Song(TypedDict):
    title: str
    length: NotRequired[float]


def test_named_tuples_and_typed_dicts() -> None:
    pairs = sample(Pair)
    assert all(isinstance(p, Pair) and isinstance(p.left, int) for p in pairs)
    assert {p.right == "r" for p in pairs} == {True, False}
    movies = sample(Movie)
    assert all(isinstance(m["title"], str) for m in movies)  # Required, total=False all the same
    assert {"year" in m for m in movies} == {True, False}
    songs = sample(Song)
    assert all(set(s) <= {"title", "length"} and "title" in s for s in songs)
    assert {"length" in s for s in songs} == {True, False}


def test_an_absent_key_is_the_simplest() -> None:
    report = sy.Assert(lambda m: len(m["title"]) < 2, m=sy.from_type(Movie)).run(seed=1)
    assert set(report.smallest["m"]) == {"title"}


class Colour(enum.Enum):
    RED = "r"
    GREEN = "g"
    BLUE = "b"


class Access(enum.Flag):
    READ = 1
    WRITE = 2
    RUN = 4


def test_enums_and_flags() -> None:
    assert set(sample(Colour)) == set(Colour)
    flags = sample(Access)
    assert Access(0) in flags and Access.READ | Access.WRITE | Access.RUN in flags
    report = sy.Assert(lambda c: c is not Colour.BLUE, c=sy.from_type(Colour)).run(seed=1)
    assert report.smallest == {"c": Colour.BLUE}
    report = sy.Assert(lambda a: Access.WRITE not in a, a=sy.from_type(Access)).run(seed=1)
    assert report.smallest == {"a": Access.WRITE}


# -- pydantic ----------------------------------------------------------------------------------
class Address(pydantic.BaseModel):
    street: str = pydantic.Field(min_length=1, max_length=30)
    zip_code: str = pydantic.Field(pattern=r"^\d{5}$")


class Customer(pydantic.BaseModel):
    model_config = pydantic.ConfigDict(populate_by_name=False)

    id: int = pydantic.Field(gt=0)
    name: str = pydantic.Field(min_length=2, max_length=20)
    score: float = pydantic.Field(ge=0, le=100, multiple_of=0.25)
    ratio: float = pydantic.Field(gt=0, lt=1)
    credit: decimal.Decimal = pydantic.Field(max_digits=6, decimal_places=2, ge=0)
    tags: list[str] = pydantic.Field(default_factory=list, max_length=3)
    age: pydantic.conint(ge=18, le=120) = 30  # type: ignore[valid-type]
    address: Address
    email: Optional[str] = pydantic.Field(default=None, alias="mail")
    step: int = pydantic.Field(default=0, multiple_of=5, ge=-50, le=50)


def test_every_pydantic_value_validates_and_meets_its_constraints() -> None:
    customers = sample(Customer, 500)
    for c in customers:
        again = Customer.model_validate(c.model_dump(by_alias=True))  # validates again, strictly
        assert again == c
        assert 0 < c.ratio < 1 and 0 <= c.score <= 100 and c.score * 4 == int(c.score * 4)
        assert 2 <= len(c.name) <= 20 and len(c.tags) <= 3 and 18 <= c.age <= 120 and c.step % 5 == 0
        assert re.fullmatch(r"\d{5}", c.address.zip_code)
    assert any(c.email is not None for c in customers) and any(c.email is None for c in customers)


def test_a_pydantic_failure_shrinks_and_explains_by_field() -> None:
    report = sy.Assert(lambda c: c.score * c.age < 3000, c=sy.from_type(Customer)).run(seed=1)
    smallest = report.smallest["c"]
    assert smallest.score * smallest.age >= 3000
    assert smallest.id == 1 and smallest.name == "00" and smallest.tags == []  # the rest at their simplest
    text = str(report.explain())
    assert "score: output 0 of" in text and "age: output 0 of" in text


# -- typing --------------------------------------------------------------------------------------
UserId = NewType("UserId", int)
Bounded = TypeVar("Bounded", bound=float)
Either = TypeVar("Either", int, str)
T = TypeVar("T")


@dataclasses.dataclass
class Box(Generic[T]):
    item: T
    items: list[T]


def test_typing_constructs() -> None:
    assert all(isinstance(v, list) and all(isinstance(x, int) for x in v) for v in sample(list[int]))
    assert all(isinstance(v, dict) and all(isinstance(k, str) and isinstance(x, bool) for k, x in v.items()) for v in sample(dict[str, bool]))
    sets = sample(set[Colour])
    assert all(isinstance(v, set) and len(v) <= 3 for v in sets) and set().union(*sets) == set(Colour)
    assert all(isinstance(v, frozenset) for v in sample(frozenset[int]))
    assert all(isinstance(v, tuple) and len(v) == 2 and isinstance(v[0], int) and isinstance(v[1], str) for v in sample(tuple[int, str]))
    assert {len(v) for v in sample(tuple[bool, ...])} >= {0, 1, 2, 5}
    assert sample(tuple[()], 3) == [(), (), ()]
    assert all(isinstance(v, tuple) for v in sample(tuple)) and all(isinstance(v, dict) for v in sample(dict))
    assert {type(v) for v in sample(Optional[int])} == {int, type(None)}
    assert {type(v) for v in sample(Union[int, str, bytes])} == {int, str, bytes}
    assert {type(v) for v in sample(int | None)} == {int, type(None)}
    assert set(sample(Literal["a", "b", 3])) == {"a", "b", 3}
    assert all(isinstance(v, int) for v in sample(UserId))
    assert all(isinstance(v, float) for v in sample(Bounded))
    assert {type(v) for v in sample(Either)} == {int, str}
    assert all(isinstance(b.item, str) and all(isinstance(i, str) for i in b.items) for b in sample(Box[str]))
    assert all(isinstance(v, typing.Hashable) for v in sample(typing.Any))
    assert all(isinstance(v, collections_abc_sequence()) for v in sample(typing.Sequence[int]))


def collections_abc_sequence() -> type:
    import collections.abc

    return collections.abc.Sequence


def test_annotated_types_constraints() -> None:
    assert all(0 < v < 10 for v in sample(Annotated[int, at.Gt(0), at.Lt(10)]))
    assert all(-3 <= v <= 3 for v in sample(Annotated[int, at.Interval(ge=-3, le=3)]))
    assert all(v % 7 == 0 and 0 <= v <= 70 for v in sample(Annotated[int, at.MultipleOf(7), at.Ge(0), at.Le(70)]))
    assert all(0.0 <= v <= 1.0 for v in sample(Annotated[float, at.Ge(0), at.Le(1)]))
    assert all(0.0 < v for v in sample(Annotated[float, at.Gt(0)]))  # NaN is not above 0: never made
    assert all(2 <= len(v) <= 4 for v in sample(Annotated[str, at.Len(2, 4)]))
    assert all(len(v) >= 3 for v in sample(Annotated[list[int], at.MinLen(3)]))
    assert all(len(v) <= 1 for v in sample(Annotated[bytes, at.MaxLen(1)]))
    assert all(v % 2 == 0 for v in sample(Annotated[int, at.Predicate(lambda x: x % 2 == 0)]))
    assert all(dt.date(2024, 1, 1) <= v < dt.date(2024, 2, 1) for v in sample(Annotated[dt.date, at.Ge(dt.date(2024, 1, 1)), at.Lt(dt.date(2024, 2, 1))]))
    assert all(decimal.Decimal(0) < v <= decimal.Decimal(5) for v in sample(Annotated[decimal.Decimal, at.Gt(0), at.Le(5)]))
    assert all(v > fractions.Fraction(1, 3) for v in sample(Annotated[fractions.Fraction, at.Gt(fractions.Fraction(1, 3))]))
    assert sample(Annotated[int, sy.Constant(4)], 3) == [4, 4, 4]  # a picker as the metadata


def test_the_standard_scalar_types() -> None:
    for kind in (int, float, str, bytes, bool, complex, decimal.Decimal, fractions.Fraction, dt.datetime, dt.date,
                 dt.time, dt.timedelta, uuid.UUID, pathlib.Path, ipaddress.IPv4Address, ipaddress.IPv6Address,
                 ipaddress.IPv4Network, ipaddress.IPv6Network, ipaddress.IPv4Interface):  # fmt: skip
        values = sample(kind, 50)
        assert all(isinstance(v, kind) for v in values), kind
        assert len({repr(v) for v in values}) > (1 if kind is bool else 10), kind
    assert sample(None, 2) == [None, None]
    floats = sample(float, 2000)
    assert any(math.isnan(f) for f in floats) and math.inf in floats and -math.inf in floats  # as st.floats()


# -- recursion and forward references ---------------------------------------------------------
@dataclasses.dataclass
class Tree:
    value: int
    children: list["Tree"] = dataclasses.field(default_factory=list)


@dataclasses.dataclass
class Node:
    label: str
    next: Optional["Node"]


def _depth(tree: Tree) -> int:
    return 1 + max((_depth(c) for c in tree.children), default=0)


Json = Union[None, bool, int, str, list["Json"], dict[str, "Json"]]


def test_recursive_types_are_bounded_and_shrink() -> None:
    trees = sample(Tree, 200)
    assert max(_depth(t) for t in trees) == 4 and any(_depth(t) > 2 for t in trees)  # max_depth=3 nestings
    assert max(_depth(t) for t in sy.from_type(Tree, max_depth=1).set_seed(1).take(100)) == 2
    chain = sample(Node, 100)
    assert all(n.next is None or isinstance(n.next, Node) for n in chain)
    report = sy.Assert(lambda t: _depth(t) < 3, t=sy.from_type(Tree)).run(seed=1)
    assert report.smallest == {"t": Tree(0, [Tree(0, [Tree(0)])])}


def test_a_recursive_alias_through_forward_references() -> None:
    values = sample(Json, 200)
    assert any(isinstance(v, list) and v for v in values) and any(isinstance(v, dict) and v for v in values)


@dataclasses.dataclass
class Loop:
    again: "Loop"


def test_a_recursive_type_without_a_way_out_is_refused() -> None:
    with pytest.raises(TypeError, match=r"Loop is recursive and each of its values holds another one"):
        sy.from_type(Loop)


# -- register_type, errors, repr ----------------------------------------------------------------
class Celsius(float):
    pass


class Stack(Generic[T]):
    def __init__(self, items: list[T]) -> None:
        self.items = items


def test_register_type_with_a_picker_or_a_function_of_the_type() -> None:
    sy.register_type(Celsius, sy.Apply(Celsius, sy.RandomFloat(-40.0, 50.0)))
    sy.register_type(Stack, lambda t: sy.Apply(Stack, sy.ComposeList(sy.from_type(typing.get_args(t)[0]), 2)))
    try:
        temps = sample(list[Celsius], 50)
        assert all(isinstance(c, Celsius) and -40 <= c < 50 for t in temps for c in t)
        picker = sy.from_type(tuple[Celsius, Celsius])
        assert picker.pickers[0] is not picker.pickers[1]  # each use a copy: no shared state
        stacks = sample(Stack[bool], 20)
        assert all(len(s.items) == 2 and all(isinstance(b, bool) for b in s.items) for s in stacks)
        sy.register_type(int, sy.Constant(5))  # a standard type can be given another picker
        assert sample(Point, 2) == [Point(5, 5), Point(5, 5)]
    finally:
        for kind in (Celsius, Stack, int):
            sy.register_type(kind, None)
    assert sample(int, 1) != [5]


@dataclasses.dataclass
class Line:
    sku: typing.Callable[[], str]


@dataclasses.dataclass
class Order:
    lines: list[Line]


def test_a_type_it_cannot_build_is_named_with_its_path() -> None:
    with pytest.raises(TypeError, match=re.escape("cannot build a value of Callable[[], str] for Order.lines[].sku")):
        sy.from_type(Order)
    with pytest.raises(TypeError, match="type_ must be a type"):
        sy.from_type(5)
    overridden = sy.builds(Order, lines=sy.ComposeList(sy.builds(Line, sku=str), 1))
    assert overridden.set_seed(1).pick().lines[0].sku is str


def test_the_wiring_prints_as_pickers() -> None:
    assert repr(sy.from_type(dict[str, Optional[Point]])) == (
        "DictPicker(RandomText(AnySize()), Choice(None, Struct(Point, x=AnyInteger(), y=AnyInteger())), AnySize())"
    )


def test_builds_with_positional_arguments_and_functions() -> None:
    def area(width: int, height: Annotated[int, at.Ge(1)], /, unit: str = "m") -> str:
        return f"{width * height}{unit}"

    picker = sy.builds(area, sy.RandomInteger(0, 3))
    assert repr(picker).startswith("Apply(area, RandomInteger(0, 3), AnyInteger(1,")
    assert all(isinstance(v, str) for v in picker.set_seed(1).take(20))
    with pytest.raises(TypeError, match="target Point has no argument 'z'"):
        sy.builds(Point, z=1)


def test_builds_calls_a_builtin_whose_arguments_cannot_be_read_with_what_it_is_given() -> None:
    # As Hypothesis's builds(int) and builds(timezone, offsets): nothing to infer, no error.
    assert sy.builds(int).set_seed(1).take(3) == [0, 0, 0]
    offsets = sy.RandomTimedelta(dt.timedelta(hours=-23), dt.timedelta(hours=23))
    zones = sy.builds(dt.timezone, offsets).set_seed(1).take(5)
    assert all(isinstance(z, dt.timezone) for z in zones) and len(set(zones)) == 5
    with pytest.raises(TypeError, match="cannot build a value of timezone"):
        sy.from_type(dt.timezone)  # a type to infer, not a call with its arguments given


def test_the_tour_chapter_on_types_runs() -> None:
    import io

    from synthia.tour import run

    out = io.StringIO()
    run(out, only="ch11")
    text = out.getvalue()
    assert "smallest: {'order': Order(id=0, lines=[Line(sku='', quantity=-1)], coupon=None)}" in text
    assert "balance: output 0 of AnyInteger(0, 10001) = 2000 [random draw] [matters]" in text
    assert "zip_code: output 0 of RegexString" in text and "[free: any value works]" in text
