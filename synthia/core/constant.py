"""The two elementary pickers the core itself relies on: :class:`Constant` and :class:`Nothing`.

Shrinking returns :class:`Nothing` when no smaller value exists, and
:mod:`synthia.core.inputs` wraps plain values in a :class:`Constant`,
so both live in the core; the catalog re-exports them.
"""
from __future__ import annotations

import math
from typing import Any, TypeVar

from .exceptions import NoMoreElements
from .picker import Bounded, Shrinkable

__all__ = ["Constant", "Nothing"]

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

    def value_range(self) -> tuple[Any, Any] | None:
        value: Any = self.value
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            return None
        if isinstance(value, int):
            return value, value + 1
        if math.isnan(value):
            return None
        return value, math.nextafter(value, math.inf)

    def arguments(self) -> tuple[list[Any], dict[str, Any]]:
        return [self.value], {}
