"""numpy dtypes and array shapes, as ``hypothesis.extra.numpy`` names them:
:func:`scalar_dtypes` and the ``*_dtypes`` of each kind, :func:`array_dtypes`,
:func:`nested_dtypes`, :func:`array_shapes`.

Each is a wiring of the catalog's pickers (a :class:`~synthia.Choice` among dtypes, an
:class:`~synthia.Apply` that makes one from drawn sizes), so a dtype shrinks like any value:
towards the first alternative (the smallest size, the native byte order, the longest unit).
"""
from __future__ import annotations

import sys
from typing import Any, Sequence

from ..core.checks import check_bool, check_int, check_values
from ..core.picker import Picker
from .basic import Apply, Choice, Constant
from .deferred import Deferred
from .collections import ComposeList
from .filters import PickIf
from .scalars import RandomInteger
from .tuples import ArrayPicker

__all__ = [
    "array_shapes",
    "scalar_dtypes",
    "boolean_dtypes",
    "integer_dtypes",
    "unsigned_integer_dtypes",
    "floating_dtypes",
    "complex_number_dtypes",
    "datetime64_dtypes",
    "timedelta64_dtypes",
    "byte_string_dtypes",
    "unicode_string_dtypes",
    "array_dtypes",
    "nested_dtypes",
]

#: The most dimensions a numpy array has.
MAX_DIMS = 32
#: The time units of numpy, longest first.
TIME_UNITS = ("Y", "M", "W", "D", "h", "m", "s", "ms", "us", "ns", "ps", "fs", "as")


class Shape:
    """The tuple of the sides picked (what ``array_shapes`` applies)."""

    __name__ = "tuple"

    def __call__(self, sides: list[int]) -> tuple[int, ...]:
        return tuple(sides)


def array_shapes(*, min_dims: int = 1, max_dims: int | None = None, min_side: int = 1, max_side: int | None = None) -> Picker[tuple[int, ...]]:
    """Shapes (tuples of sides) of ``min_dims`` to ``max_dims`` dimensions (default
    ``min_dims + 2``), each side from ``min_side`` to ``max_side`` (default ``min_side + 5``).
    Shrinks to fewer dimensions, then smaller sides.

    >>> import synthia as sy
    >>> sy.array_shapes().set_seed(2).take(4)
    [(1,), (1, 4, 1), (2,), (2, 4, 4)]
    """
    min_dims = check_int(min_dims, "min_dims", minimum=0, maximum=MAX_DIMS)
    max_dims = min(min_dims + 2, MAX_DIMS) if max_dims is None else check_int(max_dims, "max_dims", minimum=0, maximum=MAX_DIMS)
    if max_dims < min_dims:
        raise ValueError(f"max_dims must be at least min_dims, got min_dims={min_dims}, max_dims={max_dims}")
    min_side = check_int(min_side, "min_side", minimum=0)
    max_side = min_side + 5 if max_side is None else check_int(max_side, "max_side", minimum=0)
    if max_side < min_side:
        raise ValueError(f"max_side must be at least min_side, got min_side={min_side}, max_side={max_side}")
    return Apply(Shape(), ComposeList(RandomInteger(min_side, max_side + 1), RandomInteger(min_dims, max_dims + 1)))


def _orders(endianness: str, name: str = "endianness") -> list[str]:
    if endianness not in ("?", "<", ">", "="):
        raise ValueError(f"{name} must be one of '?', '<', '>', '=', got {endianness!r}")
    if endianness == "?":
        return ["=", ">" if sys.byteorder == "little" else "<"]  # native first (the simplest), then swapped
    return [endianness]


def _choice_of(dtypes: list[Any]) -> Picker[Any]:
    unique: list[Any] = []
    for d in dtypes:
        if d not in unique:
            unique.append(d)
    return Choice(*unique) if len(unique) > 1 else Constant(unique[0])


def _sized(code: str, endianness: str, sizes: int | Sequence[int], allowed: tuple[int, ...], name: str = "sizes") -> Picker[Any]:
    import numpy as np

    values = [sizes] if type(sizes) is int else check_values(sizes, name)  # one size, as Hypothesis takes it
    if not values:
        raise ValueError(f"{name} must not be empty, got {sizes!r}")
    out = []
    for size in sorted(values):
        if size not in allowed:
            raise ValueError(f"{name} must be among {allowed}, got {size!r}")
        for order in _orders(endianness):
            try:
                out.append(np.dtype(f"{order}{code}{size // 8}"))
            except TypeError:
                raise ValueError(f"{name}: numpy has no {code}{size // 8} dtype on this machine, got {size!r}") from None
    return _choice_of(out)


def boolean_dtypes() -> Picker[Any]:
    """The boolean dtype.

    >>> boolean_dtypes().pick()
    dtype('bool')
    """
    import numpy as np

    return Constant(np.dtype(bool))


def integer_dtypes(*, endianness: str = "?", sizes: int | Sequence[int] = (8, 16, 32, 64)) -> Picker[Any]:
    """Signed integer dtypes of the ``sizes`` (in bits; one size or several) and byte order ``endianness``
    (``"<"``, ``">"``, ``"="`` native, ``"?"`` either).

    >>> integer_dtypes(sizes=(8, 32), endianness="<").set_seed(1).take(3)
    [dtype('int8'), dtype('int8'), dtype('int32')]
    >>> {d.itemsize for d in integer_dtypes(sizes=16).set_seed(1).take(5)}
    {2}
    """
    return _sized("i", endianness, sizes, (8, 16, 32, 64))


def unsigned_integer_dtypes(*, endianness: str = "?", sizes: int | Sequence[int] = (8, 16, 32, 64)) -> Picker[Any]:
    """Unsigned integer dtypes (see :func:`integer_dtypes`)."""
    return _sized("u", endianness, sizes, (8, 16, 32, 64))


def floating_dtypes(*, endianness: str = "?", sizes: int | Sequence[int] = (16, 32, 64)) -> Picker[Any]:
    """Float dtypes of the ``sizes`` in bits (16, 32, 64; 96 or 128 where numpy has them)."""
    return _sized("f", endianness, sizes, (16, 32, 64, 96, 128))


def complex_number_dtypes(*, endianness: str = "?", sizes: int | Sequence[int] = (64, 128)) -> Picker[Any]:
    """Complex dtypes of the ``sizes`` in bits (64, 128; 192 or 256 where numpy has them)."""
    return _sized("c", endianness, sizes, (64, 128, 192, 256))


def _units(code: str, max_period: str, min_period: str, endianness: str) -> Picker[Any]:
    import numpy as np

    for name, unit in (("max_period", max_period), ("min_period", min_period)):
        if unit not in TIME_UNITS:
            raise ValueError(f"{name} must be one of {TIME_UNITS}, got {unit!r}")
    first, last = TIME_UNITS.index(max_period), TIME_UNITS.index(min_period)
    if first > last:
        raise ValueError(f"max_period must be a unit at least as long as min_period, got max_period={max_period!r}, min_period={min_period!r}")
    return _choice_of([np.dtype(f"{order}{code}8[{unit}]") for unit in TIME_UNITS[first : last + 1] for order in _orders(endianness)])


def datetime64_dtypes(*, max_period: str = "Y", min_period: str = "ns", endianness: str = "?") -> Picker[Any]:
    """``datetime64`` dtypes with a unit from ``max_period`` (longest) to ``min_period``.

    >>> datetime64_dtypes(max_period="D", min_period="s", endianness="=").set_seed(2).take(3)
    [dtype('<M8[h]'), dtype('<M8[s]'), dtype('<M8[D]')]
    """
    return _units("M", max_period, min_period, endianness)


def timedelta64_dtypes(*, max_period: str = "Y", min_period: str = "ns", endianness: str = "?") -> Picker[Any]:
    """``timedelta64`` dtypes (see :func:`datetime64_dtypes`)."""
    return _units("m", max_period, min_period, endianness)


class StringDtype:
    """A string dtype of a drawn length and byte order."""

    def __init__(self, code: str) -> None:
        self.code = code
        self.__name__ = f"{code} dtype"

    def __call__(self, order: str, length: int) -> Any:
        import numpy as np

        return np.dtype(f"{order}{self.code}{length}")


#: The longest string dtype the ``*_string_dtypes`` make (numpy refuses much longer ones).
MAX_STRING_LENGTH = 10**6
#: The most fields a structured dtype of :func:`array_dtypes` has.
MAX_FIELDS = 100


def _sizes(low: Any, high: Any, names: tuple[str, str], minimum: int, maximum: int) -> tuple[int, int]:
    lo = check_int(low, names[0], minimum=minimum, maximum=maximum)
    hi = check_int(high, names[1], minimum=minimum, maximum=maximum)
    if hi < lo:
        raise ValueError(f"{names[1]} must be at least {names[0]}, got {names[0]}={lo}, {names[1]}={hi}")
    return lo, hi


class AsDtype:
    """A picked value as a ``numpy.dtype`` (a clear error naming the argument otherwise)."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.__name__ = "dtype"

    def __call__(self, value: Any) -> Any:
        import numpy as np

        try:
            if isinstance(value, (bool, int, float)) or value is None:
                raise TypeError
            return np.dtype(value)
        except (TypeError, ValueError):
            raise TypeError(f"{self.name} must pick numpy dtypes, got {value!r} ({type(value).__name__})") from None


def _dtype_input(picker: Any, name: str) -> Picker[Any]:
    if picker is None:
        return scalar_dtypes()
    if not isinstance(picker, Picker):  # a plain dtype stands for itself (checked now)
        return Constant(AsDtype(name)(picker))
    return Apply(AsDtype(name), picker)


def _strings(code: str, endianness: str, min_len: int, max_len: int) -> Picker[Any]:
    low, high = _sizes(min_len, max_len, ("min_len", "max_len"), 1, MAX_STRING_LENGTH)
    orders = _orders(endianness)
    return Apply(StringDtype(code), Choice(*orders) if len(orders) > 1 else orders[0], RandomInteger(low, high + 1))


def byte_string_dtypes(*, endianness: str = "?", min_len: int = 1, max_len: int = 16) -> Picker[Any]:
    """Byte string dtypes ``S1`` ... ``S16`` (``min_len`` to ``max_len`` bytes)."""
    _orders(endianness)
    return _strings("S", "=", min_len, max_len)


def unicode_string_dtypes(*, endianness: str = "?", min_len: int = 1, max_len: int = 16) -> Picker[Any]:
    """Unicode string dtypes ``U1`` ... ``U16`` of either byte order.

    >>> unicode_string_dtypes(endianness="<").set_seed(1).take(2)
    [dtype('<U11'), dtype('<U11')]
    """
    return _strings("U", endianness, min_len, max_len)


def scalar_dtypes() -> Picker[Any]:
    """Any scalar dtype: boolean, integer, unsigned, float, complex, ``datetime64``,
    ``timedelta64`` (in this order of simplicity).

    >>> len({str(d) for d in scalar_dtypes().set_seed(3).take(200)}) > 20
    True
    """
    return Choice(
        boolean_dtypes(), integer_dtypes(), unsigned_integer_dtypes(), floating_dtypes(), complex_number_dtypes(),
        datetime64_dtypes(), timedelta64_dtypes(),
    )  # fmt: skip


class Structured:
    """A structured dtype of the fields picked (``f0``, ``f1``, ...; a field may have a shape)."""

    __name__ = "structured dtype"

    def __call__(self, fields: list[Any]) -> Any:
        import numpy as np

        spec = []
        for i, field in enumerate(fields):
            if isinstance(field, tuple):
                dtype, shape = field
                spec.append((f"f{i}", dtype) if shape is None else (f"f{i}", dtype, shape))
            else:
                spec.append((f"f{i}", field))
        try:
            return np.dtype(spec)
        except (TypeError, ValueError) as error:
            raise ValueError(f"subtype_strategy picked dtypes that cannot be the fields of a structured dtype ({spec}): {error}") from None


def array_dtypes(
    subtype_strategy: Any = None, *, min_size: int = 1, max_size: int = 5, allow_subarrays: bool = False
) -> Picker[Any]:
    """Structured dtypes of ``min_size`` to ``max_size`` fields named ``f0``, ``f1``, ...,
    each of a dtype of ``subtype_strategy`` (default :func:`scalar_dtypes`); with
    ``allow_subarrays``, a field may have a shape of up to 2 dimensions of side 2.

    >>> array_dtypes(integer_dtypes(endianness="="), max_size=2).set_seed(4).pick()
    dtype([('f0', '<i2')])
    """
    subtype = _dtype_input(subtype_strategy, "subtype_strategy")
    low, high = _sizes(min_size, max_size, ("min_size", "max_size"), 1, MAX_FIELDS)
    check_bool(allow_subarrays, "allow_subarrays")
    field: Picker[Any] = subtype
    if allow_subarrays:
        field = ArrayPicker(subtype, Choice(None, array_shapes(max_dims=2, max_side=2)))
    return Apply(Structured(), ComposeList(field, RandomInteger(low, high + 1)))


class _Leaves:
    def __init__(self, max_leaves: int, max_itemsize: int | None) -> None:
        self.max_leaves, self.max_itemsize = max_leaves, max_itemsize
        self.__name__ = f"at most {max_leaves} leaves" + ("" if max_itemsize is None else f" and {max_itemsize} bytes")

    def __call__(self, dtype: Any) -> bool:
        return _count_leaves(dtype) <= self.max_leaves and (self.max_itemsize is None or dtype.itemsize <= self.max_itemsize)


def _count_leaves(dtype: Any) -> int:
    if dtype.fields is None:
        return 1
    return sum(_count_leaves(dtype.fields[name][0]) for name in dtype.names)


class _Nested:
    """What a nested dtype's ``Deferred`` builds: a scalar dtype, or a record of nested ones."""

    def __init__(self, subtype: Picker[Any]) -> None:
        self.subtype = subtype
        self.deferred: Picker[Any] | None = None
        self.__name__ = "nested dtype"

    def __call__(self) -> Picker[Any]:
        assert self.deferred is not None
        return Choice(self.subtype, array_dtypes(self.deferred, max_size=3))


def nested_dtypes(subtype_strategy: Any = None, *, max_leaves: int = 10, max_itemsize: int | None = None) -> Picker[Any]:
    """Dtypes whose fields may be structured dtypes in turn (two levels deep), with at most
    ``max_leaves`` scalar fields in all and at most ``max_itemsize`` bytes.

    >>> all(d.itemsize <= 64 for d in nested_dtypes(max_itemsize=64).set_seed(1).take(50))
    True
    """
    subtype = _dtype_input(subtype_strategy, "subtype_strategy")
    leaves = check_int(max_leaves, "max_leaves", minimum=1)
    size = None if max_itemsize is None else check_int(max_itemsize, "max_itemsize", minimum=1)
    build = _Nested(subtype)
    nested: Deferred[Any] = Deferred(build, max_depth=2, fallback=subtype)
    build.deferred = nested
    return PickIf(nested, _Leaves(leaves, size))
