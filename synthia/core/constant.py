"""The two elementary pickers the core itself relies on: :class:`Constant` and :class:`Nothing`.

Shrinking returns :class:`Nothing` when no smaller value exists, and
:mod:`synthia.core.inputs` wraps plain values in a :class:`Constant`,
so both live in the core; the catalog re-exports them.
"""
from __future__ import annotations

import math
from typing import Any, TypeVar

from .exceptions import NoMoreElements
from .picker import Bounded, Picker, Shrinkable

__all__ = ["Constant", "Nothing", "NothingPicker"]

T = TypeVar("T")


class Nothing(Bounded[Any], Shrinkable[Any]):
    """The empty picker: every :meth:`pick` raises :class:`~synthia.NoMoreElements`.

    It is what :meth:`~synthia.Shrinkable.shrink` returns when nothing smaller exists.

    >>> Nothing().take(3)
    []
    >>> Nothing().is_done()
    True
    """

    def pick(self) -> Any:
        raise NoMoreElements("Nothing() never has a value")

    def is_done(self) -> bool:
        return True

    def in_domain(self, value: Any) -> bool:
        return False

    def shrink(self, value: Any, decision: Picker[float] | None = None, magnitude: float = 1.0) -> "Nothing":
        """``Nothing`` has no values, so nothing is smaller: it shrinks to itself."""
        return self


#: The Java name of :class:`Nothing`.
NothingPicker = Nothing


class Constant(Shrinkable[T]):
    """Always the same value.

    >>> Constant("a").take(3)
    ['a', 'a', 'a']
    """

    def __init__(self, value: T) -> None:
        self.value = value

    def pick(self) -> T:
        return self.value

    def finite_values(self) -> tuple[Any, ...]:
        return (self.value,)

    def in_domain(self, value: Any) -> bool:
        try:
            return bool(value == self.value)
        except Exception:  # values whose == is not a bool (numpy arrays)
            return value is self.value

    def value_range(self) -> tuple[Any, Any] | None:
        value: Any = self.value
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            return None
        if isinstance(value, int):
            return value, value + 1
        if math.isnan(value):
            return None
        return value, math.nextafter(value, math.inf)

    def shrink(self, value: T, decision: Picker[float] | None = None, magnitude: float = 1.0) -> Picker[T]:
        """A constant's domain has a single value, so nothing is smaller: :class:`Nothing`."""
        return Nothing()

    def _arguments(self) -> tuple[list[Any], dict[str, Any]]:
        return [self.value], {}
