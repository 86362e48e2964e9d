"""The elementary pickers the core itself relies on: :class:`Constant`, and :class:`Nothing`
(defined beside shrinking, which returns it when no smaller value exists).

:mod:`synthia.core.inputs` wraps plain values in a :class:`Constant`, so both live in the
core; the catalog re-exports them.
"""
from __future__ import annotations

import math
from typing import Any, TypeVar

from .parsing import Parse, same_value
from .shrinking import Nothing, Shrinkable

__all__ = ["Constant", "Nothing"]

T = TypeVar("T")


class Constant(Shrinkable[T]):
    """Always the same value.

    >>> Constant("a").take(3)
    ['a', 'a', 'a']
    """

    #: Its pick neither draws nor changes anything: the stager writes its value anywhere.
    pure = True

    def __init__(self, value: T) -> None:
        self.value = value

    def stage(self, emitter: Any, out: list[str], ind: str) -> str:
        """The stager's code of a pick: the value itself (bound, never spliced into the code)."""
        return emitter.constant(self, self.value)  # type: ignore[no-any-return]

    def _pick(self) -> T:
        return self.value

    def parse_draws(self, value: Any, parse: Parse) -> list[Any] | None:
        """No draws, for its own value (:mod:`synthia.core.parsing`)."""
        return [] if same_value(self.value, value) else None

    def wiring_repr(self) -> str:
        # Inside a wiring a constant reads as the plain value the user typed.
        return repr(self.value)

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
