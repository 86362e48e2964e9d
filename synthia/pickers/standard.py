"""The pickers :func:`~synthia.from_type` gives the standard scalar types, under the
constraints of their ``Annotated`` metadata (:mod:`synthia.pickers.constraints`).

Each type gets the catalog's picker for it, so every value shrinks through its draws:

============================  ===================================================================
type                          picker (no constraint)
============================  ===================================================================
``bool``, ``None``            ``RandomBoolean()``, ``Constant(None)``
``int``                       ``AnyInteger()``: every magnitude up to 2**64, edge values included
``float``                     ``AnyFloat(nan=True, infinity=True, subnormal=True, signed_zero=True)``
                              (Hypothesis's ``floats()``); bounds leave NaN out
``complex``                   two such floats
``str``, ``bytes``            ``RandomText(n)``, ``RandomBytes(n)``: ``n`` from ``min_length`` to
                              ``min_length + 10`` (a tenth of the time up to ``max_length``)
``Decimal``, ``Fraction``     ``RandomDecimal(places=2)``, ``RandomFraction()``
dates and times               ``RandomDate()``, ``RandomDatetime()``, ``RandomTime()``, ``RandomTimedelta()``
``UUID``                      ``RandomUUID()``
``Path`` (any ``PurePath``)   up to 3 parts of ``[a-z0-9_.-]``
``ipaddress`` types           an address as one integer (and a prefix length for networks)
============================  ===================================================================

Bounds (``gt``, ``ge``, ``lt``, ``le``), ``multiple_of`` (numbers: ``k * m`` for a drawn ``k``),
lengths and ``pattern`` (strings: :class:`~synthia.RegexString`) are built into the picker;
a constraint a type's picker cannot build in (``multiple_of`` on a ``Fraction``) and every
``Predicate`` become a :class:`~synthia.PickIf` filter, so every value meets them all.
"""
from __future__ import annotations

import datetime as dt
import decimal
import fractions
import ipaddress
import math
import pathlib
import string
import uuid
from typing import Any

from ..core.constant import Constant
from ..core.picker import Picker
from .basic import Apply, Choice
from .collections import ComposeList
from .constraints import Check, Constraints, integer_bounds
from .filters import PickIf
from .floats import AnyFloat
from .integers import AnyInteger, AnySize
from .numbers import RandomDecimal, RandomFraction, RandomUUID
from .regex import RegexString
from .scalars import RandomBoolean, RandomInteger
from .strings import RandomString
from .text import RandomBytes, RandomText
from .times import RandomDate, RandomDatetime, RandomTime, RandomTimedelta

__all__: list[str] = []

#: How much longer than ``min_length`` a string or collection usually is when a ``max_length``
#: lies further: lengths up to ``min_length + SHORT``, and a tenth of the time up to
#: ``max_length`` (no ``max_length``: ``AnySize``, Hypothesis's sizes).
SHORT = 10


class Unsupported(TypeError):
    """A constraint a type's picker cannot meet (a pattern outside the regex subset)."""


def lengths(low: int | None, high: int | None) -> Picker[int]:
    """A picker of lengths in ``[low, high]`` (``None``: 0, and no bound), short ones most.

    >>> lengths(None, None), lengths(3, None), lengths(2, 5)
    (AnySize(), AnySize(3), RandomInteger(2, 6))
    >>> lengths(0, 100)
    Choice(RandomInteger(0, 11), RandomInteger(0, 101), weights=[9, 1])
    """
    lo = 0 if low is None else low
    if high is not None and high < lo:
        raise Unsupported(f"no length satisfies min_length={low}, max_length={high}")
    if high is None:
        return AnySize(lo)
    short = min(high, lo + SHORT)
    if high <= short:
        return RandomInteger(lo, short + 1)
    return Choice(RandomInteger(lo, short + 1), RandomInteger(lo, high + 1), weights=[9, 1])


class Times:
    """``k * m``: a value a multiple of ``m`` from the integer ``k`` (what ``Apply`` shows)."""

    def __init__(self, m: Any) -> None:
        self.m = m
        self.__name__ = f"times {m}"

    def __call__(self, k: int) -> Any:
        value = k * self.m
        return float(value) if isinstance(self.m, float) else value


def _any_integer(low: int | None, high: int | None) -> AnyInteger:
    """``AnyInteger`` over the inclusive ``[low, high]`` (``None``: 2**64 away from the other end)."""
    wide = 2**64
    if low is None and high is None:
        return AnyInteger()
    if high is None:
        assert low is not None
        return AnyInteger(low) if low < wide else AnyInteger(low, low + wide)
    if low is None:
        return AnyInteger(min(-wide, high - wide), high + 1)
    if low > high:
        raise Unsupported(f"no integer lies in [{low}, {high}]")
    return AnyInteger(low, high + 1)


def _integers(c: Constraints, handled: set[str]) -> Picker[Any]:
    low, high = integer_bounds(c)
    handled.update(("gt", "ge", "lt", "le"))
    m = c.multiple_of
    if isinstance(m, int) and not isinstance(m, bool) and m != 0:
        handled.add("multiple_of")
        m = abs(m)
        k_low = None if low is None else -((-low) // m)
        k_high = None if high is None else high // m
        return Apply(Times(m), _any_integer(k_low, k_high))
    return _any_integer(low, high)


def _floats(c: Constraints, handled: set[str]) -> Picker[Any]:
    low, high = -math.inf, math.inf  # AnyFloat's range: [low, high)
    if c.ge is not None:
        low = float(c.ge)
    if c.gt is not None:
        low = max(low, math.nextafter(float(c.gt), math.inf))
    if c.le is not None:
        high = math.nextafter(float(c.le), math.inf)
    if c.lt is not None:
        high = min(high, float(c.lt))
    handled.update(("gt", "ge", "lt", "le"))
    special = c.allow_inf_nan is not False
    m = c.multiple_of
    if m is not None and not isinstance(m, bool) and isinstance(m, (int, float)) and m != 0:
        handled.add("multiple_of")
        m = abs(float(m))
        k_low = None if low == -math.inf else math.ceil(low / m)
        k_high = None if high == math.inf else math.ceil(high / m) - 1
        return Apply(Times(m), _any_integer(k_low, k_high))
    if not low < high:
        raise Unsupported(f"no float satisfies {c!r}")
    unbounded = low == -math.inf or high == math.inf
    return AnyFloat(
        low, high, nan=special and not c.bounded, infinity=special and unbounded, subnormal=True, signed_zero=True
    )


def _decimals(c: Constraints, handled: set[str]) -> Picker[Any]:
    places = 2 if c.decimal_places is None else int(c.decimal_places)
    if c.max_digits is not None:
        places = min(places, int(c.max_digits))
    unit = decimal.Decimal(1).scaleb(-places)
    low, high = decimal.Decimal(-1_000_000), decimal.Decimal(1_000_000)
    if c.max_digits is not None:
        top = decimal.Decimal(10) ** (int(c.max_digits) - places)
        low, high = max(low, -top + unit), min(high, top)
    for name in ("ge", "gt", "le", "lt"):
        bound = getattr(c, name)
        if bound is None:
            continue
        d = decimal.Decimal(str(bound)) if isinstance(bound, float) else decimal.Decimal(bound)
        if name == "ge":
            low = max(low, d)
        elif name == "gt":
            low = max(low, d + unit)
        elif name == "le":
            high = min(high, d + unit)
        else:
            high = min(high, d)
    handled.update(("gt", "ge", "lt", "le", "max_digits", "decimal_places"))
    try:
        return RandomDecimal(str(low), str(high), places=places)
    except ValueError as error:
        raise Unsupported(f"no Decimal satisfies {c!r}: {error}") from None


def _fractions(c: Constraints, handled: set[str]) -> Picker[Any]:
    low, high = fractions.Fraction(-1000), fractions.Fraction(1000)
    if c.ge is not None or c.gt is not None:
        low = fractions.Fraction(max(b for b in (c.ge, c.gt) if b is not None))
        high = max(high, low + 2000)
    if c.le is not None or c.lt is not None:
        high = fractions.Fraction(min(b for b in (c.le, c.lt) if b is not None)) + (1 if c.lt is None else 0)
        low = min(low, high - 2000)
    handled.update(("ge", "lt"))  # gt and le: kept as filters (the range is half-open)
    return RandomFraction(low, high)


def _between(kind: type, c: Constraints, default: tuple[Any, Any], unit: Any) -> tuple[Any, Any]:
    """The half-open range of a date, datetime or timedelta picker under the bounds."""
    low, high = default
    if c.ge is not None:
        low = max(low, c.ge)
    if c.gt is not None:
        low = max(low, c.gt + unit)
    if c.le is not None:
        high = min(high, c.le + unit)
    if c.lt is not None:
        high = min(high, c.lt)
    if not low < high:
        raise Unsupported(f"no {kind.__name__} satisfies {c!r}")
    return low, high


def _dates(kind: type, c: Constraints, handled: set[str]) -> Picker[Any]:
    handled.update(("gt", "ge", "lt", "le"))
    if kind is dt.datetime:
        if not c.bounded:
            return RandomDatetime()
        naive = all(getattr(b, "tzinfo", None) is None for b in (c.gt, c.ge, c.lt, c.le) if b is not None)
        if not naive:
            handled.difference_update(("gt", "ge", "lt", "le"))  # aware bounds: filtered
            return RandomDatetime()
        return RandomDatetime(*_between(kind, c, (dt.datetime.min, dt.datetime.max), dt.timedelta(microseconds=1)))
    if kind is dt.date:
        if not c.bounded:
            return RandomDate()
        return RandomDate(*_between(kind, c, (dt.date.min, dt.date.max), dt.timedelta(days=1)))
    if kind is dt.timedelta:
        if not c.bounded:
            return RandomTimedelta()
        return RandomTimedelta(*_between(kind, c, (dt.timedelta(days=-10_000), dt.timedelta(days=10_000)), dt.timedelta(microseconds=1)))
    handled.difference_update(("gt", "ge", "lt", "le"))  # times: filtered
    return RandomTime()


def _text(c: Constraints, handled: set[str]) -> Picker[Any]:
    if c.pattern is not None:
        from .regex import RegexError

        handled.add("pattern")
        try:
            return RegexString(str(c.pattern))
        except RegexError as error:
            raise Unsupported(
                f"its pattern {c.pattern!r} is outside the regular expressions synthia generates ({error}): "
                "give the field a picker (Annotated[str, sy.RegexString(...)], or an override of sy.builds)"
            ) from None
    handled.update(("min_length", "max_length"))
    bounded = c.min_length is not None or c.max_length is not None
    return RandomText(lengths(c.min_length, c.max_length), nasty=0.0 if bounded else 0.1)


def _binary(kind: type, c: Constraints, handled: set[str]) -> Picker[Any]:
    handled.update(("min_length", "max_length"))
    data = RandomBytes(lengths(c.min_length, c.max_length))
    return data if kind is bytes else Apply(kind, data)


#: The characters of the parts of a generated path.
PATH_CHARACTERS = string.ascii_lowercase + string.digits + "_.-"


class MakePath:
    """``kind(*parts)``: a path of the given class from its parts (what ``Apply`` shows)."""

    def __init__(self, kind: type) -> None:
        self.kind = kind
        self.__name__ = kind.__name__

    def __call__(self, parts: list[str]) -> Any:
        return self.kind(*parts)


class MakeNetwork:
    """An ``ipaddress`` network or interface from an address (an int) and a prefix length."""

    def __init__(self, kind: Any) -> None:
        self.kind = kind
        self.__name__ = kind.__name__

    def __call__(self, address: int, prefix: int) -> Any:
        if issubclass(self.kind, (ipaddress.IPv4Network, ipaddress.IPv6Network)):
            return self.kind((address, prefix), strict=False)
        return self.kind((address, prefix))


def _addresses(kind: type) -> Picker[Any]:
    bits = 32 if kind.__name__.startswith("IPv4") else 128
    address = RandomInteger(0, 2**bits)
    if kind in (ipaddress.IPv4Address, ipaddress.IPv6Address):
        return Apply(kind, address)
    return Apply(MakeNetwork(kind), address, RandomInteger(0, bits + 1))


def _plain(kind: type, c: Constraints, handled: set[str]) -> Picker[Any] | None:
    """The picker of a standard type with no constraint of its own, or ``None``."""
    if kind is bool:
        return RandomBoolean()
    if kind is type(None):
        return Constant(None)
    if kind is uuid.UUID:
        return RandomUUID()
    if kind is complex:
        part = _floats(c, set())
        return Apply(complex, part, _floats(c, set()))
    if isinstance(kind, type) and issubclass(kind, pathlib.PurePath):
        return Apply(MakePath(kind), ComposeList(RandomString(RandomInteger(1, 9), PATH_CHARACTERS), RandomInteger(0, 4)))
    if kind in _ADDRESSES:
        return _addresses(kind)
    return None


_ADDRESSES = (
    ipaddress.IPv4Address, ipaddress.IPv6Address, ipaddress.IPv4Network, ipaddress.IPv6Network,
    ipaddress.IPv4Interface, ipaddress.IPv6Interface,
)  # fmt: skip

#: The types this module builds, in the order they are looked up (``bool`` before ``int``).
STANDARD: tuple[type, ...] = (
    bool, type(None), int, float, complex, str, bytes, bytearray, decimal.Decimal, fractions.Fraction,
    dt.datetime, dt.date, dt.time, dt.timedelta, uuid.UUID, *_ADDRESSES,
)  # fmt: skip


def is_standard(kind: Any) -> bool:
    """Whether :func:`standard_picker` builds ``kind`` (a path class counts).

    >>> is_standard(int), is_standard(pathlib.PosixPath), is_standard(list)
    (True, True, False)
    """
    return kind in STANDARD or (isinstance(kind, type) and issubclass(kind, pathlib.PurePath))


def standard_picker(kind: type, c: Constraints) -> Picker[Any]:
    """The picker of the standard type ``kind`` under the constraints ``c``; a constraint
    its picker does not build in becomes a filter (``Unsupported`` when none can meet them).

    >>> from synthia.pickers.constraints import Constraints
    >>> standard_picker(int, Constraints(ge=0, lt=10, multiple_of=3))
    Apply(times 3, AnyInteger(0, 4))
    >>> standard_picker(str, Constraints(min_length=2, max_length=4))
    RandomText(RandomInteger(2, 5), nasty=0.0)
    """
    handled: set[str] = set()
    picker: Picker[Any] | None
    if kind is int:
        picker = _integers(c, handled)
    elif kind is float:
        picker = _floats(c, handled)
    elif kind is str:
        picker = _text(c, handled)
    elif kind in (bytes, bytearray):
        picker = _binary(kind, c, handled)
    elif kind is decimal.Decimal:
        picker = _decimals(c, handled)
    elif kind is fractions.Fraction:
        picker = _fractions(c, handled)
    elif kind in (dt.datetime, dt.date, dt.time, dt.timedelta):
        picker = _dates(kind, c, handled)
    else:
        picker = _plain(kind, c, handled)
    if picker is None:
        raise TypeError(f"{kind!r} is not a standard type")  # pragma: no cover - is_standard first
    return filtered(picker, c, handled)


def filtered(picker: Picker[Any], c: Constraints, handled: set[str] = frozenset()) -> Picker[Any]:  # type: ignore[assignment]
    """``picker`` with a :class:`~synthia.PickIf` for each constraint of ``c`` not in
    ``handled`` and for each predicate (the picker given as metadata, if any, makes the values).

    >>> from synthia.pickers.constraints import Constraints
    >>> filtered(RandomInteger(0, 10), Constraints(gt=2, predicates=[callable]))
    PickIf(PickIf(RandomInteger(0, 10), gt 2), callable)
    """
    for check in c.checks():
        if isinstance(check, Check) and check.kind not in handled:
            picker = PickIf(picker, check)
    for predicate in c.predicates:
        picker = PickIf(picker, predicate)
    return picker


def sized(c: Constraints) -> Picker[int]:
    """The lengths a collection under ``c`` may have (``min_length``/``max_length``)."""
    return lengths(c.min_length, c.max_length)
