"""Contract cases for the pickers made from types (``from_type``, ``builds``, ``Struct`` filling
its fields), the numpy pickers (``arrays``, ``from_dtype``, dtypes, shapes, indices) and
``randoms``: each function's wiring goes through every contract (reset, copies, seeds, repr)."""
from __future__ import annotations

import dataclasses
import enum
from typing import Annotated, Any, Callable, NamedTuple, Optional, TypedDict

import annotated_types as at
import attrs
import numpy as np
import pydantic

import synthia as sy
from synthia.pickers import resolve
from synthia.pickers.randoms import Randoms

from ..registry import BadArgument, Case, Signature


@dataclasses.dataclass(frozen=True)
class Line:
    sku: Annotated[str, at.Len(1, 8)]
    quantity: Annotated[int, at.Ge(1), at.Le(99)] = 1


@dataclasses.dataclass(frozen=True)
class Order:
    id: int
    lines: list[Line]
    note: Optional[str] = None


@dataclasses.dataclass
class Tree:
    value: int
    children: "list[Tree]" = dataclasses.field(default_factory=list)


class Colour(enum.Enum):
    RED = 1
    GREEN = 2


class Pair(NamedTuple):
    left: int
    right: Colour = Colour.RED


class Movie(TypedDict, total=False):
    title: str
    year: int


class Account(pydantic.BaseModel):
    owner: str = pydantic.Field(min_length=1, max_length=12)
    balance: int = pydantic.Field(ge=0, le=10_000)
    rate: float = pydantic.Field(gt=0, lt=1)


@attrs.define
class Part:
    name: str = attrs.field(validator=attrs.validators.in_(["bolt", "nut"]))
    size: int = attrs.field(validator=attrs.validators.gt(0), default=3)


@dataclasses.dataclass
class Handler:
    callback: Callable[[int], int]


class _Registered:
    """A type only the fuzzer registers."""


def _restoring_registered_types(thunk: Callable[[], Any]) -> Any:
    """Make the call, then put the registered types back as they were (a fuzzed
    ``register_type`` may register anything hashable)."""
    saved = dict(resolve._REGISTRY)
    try:
        return thunk()
    finally:
        resolve._REGISTRY.clear()
        resolve._REGISTRY.update(saved)


def _pair(draw: Callable[[Any], Any]) -> tuple[Any, Any]:
    first = draw(sy.RandomInteger(0, 9))
    return first, draw(sy.RandomInteger(first, 20))


def _build_and_pick(factory: Any) -> Any:
    """Call what ``composite`` made and pick from the picker it builds."""
    return factory().take(3)


def _same_array(a: Any, b: Any) -> bool:
    # Byte for byte: NaN and NaT compare unequal to themselves, and the same draws make the same bytes.
    if a.dtype.kind == "O":
        return a.shape == b.shape and repr(a) == repr(b)
    return a.shape == b.shape and a.dtype == b.dtype and a.tobytes() == b.tobytes()


def _same_arrays(a: Any, b: Any) -> bool:
    return len(a) == len(b) and all(_same_array(x, y) for x, y in zip(a, b))


def _same_repr(a: Any, b: Any) -> bool:
    return repr(a) == repr(b)


def _same_random(a: Any, b: Any) -> bool:
    # Two Randoms are the same if their streams are (compared without drawing: a value is
    # compared more than once); a true Random by its state.
    if type(a).__name__ == "DrawnRandom":
        return type(b) is type(a) and a._draws.getstate() == b._draws.getstate()
    return a.getstate() == b.getstate()


CASES = [
    Case("from_type dataclass", sy.Struct, lambda: sy.from_type(Order), compare=_same_repr),
    Case("from_type recursive", sy.Struct, lambda: sy.from_type(Tree)),
    Case("from_type pydantic", sy.Struct, lambda: sy.from_type(Account)),
    Case("from_type attrs", sy.Struct, lambda: sy.from_type(Part)),
    Case("from_type NamedTuple", sy.Struct, lambda: sy.from_type(Pair)),
    Case("from_type TypedDict", sy.Struct, lambda: sy.from_type(Movie)),
    Case("from_type typing", sy.ComposeList, lambda: sy.from_type(list[Optional[tuple[int, str]]]), compare=_same_repr),
    Case("from_type Annotated", sy.AnyInteger, lambda: sy.from_type(Annotated[int, at.Interval(ge=-5, lt=5)])),
    Case("builds with an override", sy.Struct, lambda: sy.builds(Line, sku=sy.Choice("pen", "ink"))),
    Case("Struct filling its fields", sy.Struct, lambda: sy.Struct(Order, id=sy.RandomInteger(0, 10)), compare=_same_repr),
    Case("arrays ints", sy.NumpyArray, lambda: sy.arrays("int16", sy.array_shapes(max_dims=2)), compare=_same_array),
    Case("arrays floats, unique", sy.NumpyArray, lambda: sy.arrays("float32", 5, unique=True), compare=_same_array),
    Case("arrays with fill", sy.NumpyArray, lambda: sy.arrays("int8", (4, 5), fill=sy.Constant(7)), compare=_same_array),
    Case("arrays batched", sy.NumpyArray, lambda: sy.arrays("int64", 20, elements=sy.RandomInteger(-9, 9)), compare=_same_array),
    Case("arrays strings", sy.NumpyArray, lambda: sy.arrays("U5", 3), compare=_same_array),
    Case("arrays of a dtype picker", sy.Bind, lambda: sy.arrays(sy.scalar_dtypes(), 3), compare=_same_array),
    Case("from_dtype datetime", sy.Choice, lambda: sy.from_dtype("datetime64[s]"), compare=_same_repr),
    Case("from_dtype complex", sy.Apply, lambda: sy.from_dtype("complex64"), compare=_same_repr),
    Case("from_dtype structured", sy.ArrayPicker, lambda: sy.from_dtype(np.dtype([("a", "i4"), ("b", "f8")])), compare=_same_repr),
    Case("scalar_dtypes", sy.Choice, lambda: sy.scalar_dtypes()),
    Case("nested_dtypes", sy.PickIf, lambda: sy.nested_dtypes()),
    Case("byte_string_dtypes", sy.Apply, lambda: sy.byte_string_dtypes()),
    Case("array_shapes", sy.Apply, lambda: sy.array_shapes(min_dims=0, max_side=3)),
    Case("basic_indices", sy.PickIf, lambda: sy.basic_indices((3, 4, 0), allow_newaxis=True), compare=_same_repr),
    Case("integer_array_indices", sy.Bind, lambda: sy.integer_array_indices((4, 5)), compare=_same_arrays),
    Case("broadcastable_shapes", sy.Apply, lambda: sy.broadcastable_shapes((3, 1, 4))),
    Case("mutually_broadcastable_shapes", sy.Apply, lambda: sy.mutually_broadcastable_shapes(3, base_shape=(2, 1))),
    Case("valid_tuple_axes", sy.PickIf, lambda: sy.valid_tuple_axes(4, min_size=1)),
    Case("randoms", Randoms, lambda: sy.randoms(), compare=_same_random),
    Case("randoms, true random", Randoms, lambda: sy.randoms(use_true_random=True), compare=_same_random),
]

BAD_ARGUMENTS = [
    BadArgument("from_type of what it cannot build", lambda: sy.from_type(Handler), TypeError, "Handler.callback"),
    BadArgument("from_type max_depth", lambda: sy.from_type(int, max_depth=-1), ValueError, "max_depth"),
    BadArgument("from_type of a name that does not resolve", lambda: sy.from_type("Nowhere"), TypeError, "Nowhere"),
    BadArgument("builds an unknown argument", lambda: sy.builds(Line, colour="red"), TypeError, "colour"),
    BadArgument("builds not callable", lambda: sy.builds(3), TypeError, "target"),
    BadArgument("register_type not a type", lambda: sy.register_type(3, sy.RandomInteger(0, 9)), TypeError, "type_"),
    BadArgument("Struct field of a type it cannot build", lambda: sy.Struct(Handler), TypeError, "callback"),
    BadArgument("arrays dtype", lambda: sy.arrays("nope", 3), TypeError, "dtype"),
    BadArgument("arrays unique with fill", lambda: sy.arrays("int8", 3, unique=True, fill=0), ValueError, "fill"),
    BadArgument("from_dtype bounds", lambda: sy.from_dtype("int8", min_value=5, max_value=1), ValueError, "min_value"),
    BadArgument("from_dtype nan with bounds", lambda: sy.from_dtype("float64", min_value=0, allow_nan=True), ValueError, "allow_nan"),
    BadArgument("from_dtype infinity without an infinite bound", lambda: sy.from_dtype("float64", min_value=0, max_value=1, allow_infinity=True), ValueError, "allow_infinity"),
    BadArgument("from_dtype generic datetime", lambda: sy.from_dtype("datetime64"), ValueError, "unit"),
    BadArgument("array_shapes dims", lambda: sy.array_shapes(min_dims=3, max_dims=1), ValueError, "max_dims"),
    BadArgument("integer_dtypes sizes", lambda: sy.integer_dtypes(sizes=(12,)), ValueError, "sizes"),
    BadArgument("integer_dtypes endianness", lambda: sy.integer_dtypes(endianness="big"), ValueError, "endianness"),
    BadArgument("datetime64_dtypes periods", lambda: sy.datetime64_dtypes(max_period="ns", min_period="Y"), ValueError, "max_period"),
    BadArgument("basic_indices min_dims", lambda: sy.basic_indices((2, 2), min_dims=5), ValueError, "min_dims"),
    BadArgument("integer_array_indices empty side", lambda: sy.integer_array_indices((3, 0)), ValueError, "shape"),
    BadArgument("mutually_broadcastable_shapes signature", lambda: sy.mutually_broadcastable_shapes(2, signature="(m,n)->(n)"), TypeError, "signature"),
    BadArgument("randoms flag", lambda: sy.randoms(use_true_random=1), TypeError, "use_true_random"),  # type: ignore[arg-type]
]

SIGNATURES = [
    Signature(Randoms, lambda C: C(note_method_calls=True, seed=1)),
    Signature(sy.randoms, lambda C: C(note_method_calls=False, use_true_random=False)),
    Signature(sy.from_type, lambda C: C(Order, max_depth=2)),
    Signature(sy.builds, lambda C: C(Order, id=sy.RandomInteger(0, 9))),
    Signature(sy.arrays, lambda C: C("int8", (2, 3), elements=sy.RandomInteger(0, 9), fill=None, unique=False)),
    Signature(sy.from_dtype, lambda C: C("float32", min_value=0.0, max_value=1.0, allow_nan=False, allow_infinity=False, allow_subnormal=True)),
    Signature(sy.array_shapes, lambda C: C(min_dims=1, max_dims=3, min_side=1, max_side=4)),
    Signature(sy.basic_indices, lambda C: C((3, 4), min_dims=0, max_dims=2, allow_newaxis=False, allow_ellipsis=True)),
    Signature(sy.integer_array_indices, lambda C: C((3, 4), result_shape=sy.array_shapes(max_dims=2), dtype="int32")),
    Signature(sy.broadcastable_shapes, lambda C: C((3, 1), min_dims=0, max_dims=3, min_side=1, max_side=4)),
    Signature(sy.mutually_broadcastable_shapes, lambda C: C(2, base_shape=(2, 1), min_dims=0, max_dims=3, min_side=1, max_side=4)),
    Signature(sy.valid_tuple_axes, lambda C: C(3, min_size=0, max_size=2)),
    Signature(sy.integer_dtypes, lambda C: C(endianness="<", sizes=(8, 16))),
    Signature(sy.floating_dtypes, lambda C: C(endianness="=", sizes=(32, 64))),
    Signature(sy.datetime64_dtypes, lambda C: C(max_period="D", min_period="s", endianness="=")),
    Signature(sy.unicode_string_dtypes, lambda C: C(endianness="<", min_len=1, max_len=4)),
    Signature(sy.array_dtypes, lambda C: C(sy.integer_dtypes(), min_size=1, max_size=3, allow_subarrays=True)),
    Signature(sy.unsigned_integer_dtypes, lambda C: C(endianness=">", sizes=(8, 32))),
    Signature(sy.complex_number_dtypes, lambda C: C(endianness="<", sizes=(64,))),
    Signature(sy.byte_string_dtypes, lambda C: C(endianness="=", min_len=1, max_len=4)),
    Signature(sy.timedelta64_dtypes, lambda C: C(max_period="D", min_period="s", endianness="=")),
    Signature(sy.register_type, lambda C: C(_Registered, sy.Constant(_Registered())), around=_restoring_registered_types),
    Signature(sy.composite, lambda C: C(_pair), use=_build_and_pick),
    Signature(sy.nested_dtypes, lambda C: C(sy.integer_dtypes(), max_leaves=4, max_itemsize=64)),
]
