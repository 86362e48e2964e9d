"""Tuples built from pickers: :class:`ArrayPicker`."""
from __future__ import annotations

from typing import Any

from ..core.inputs import variadic_inputs
from ..core.shrinking import Shrinkable

__all__ = ["ArrayPicker"]


class ArrayPicker(Shrinkable[tuple[Any, ...]]):
    """A tuple with one value from each picker, in order.

    Plain values stand for themselves: ``ArrayPicker("push", RandomInteger(0, 9))``
    gives ``("push", n)``.

    Shrinking lowers each component's draws.

    >>> from synthia import Tick, Constant
    >>> ArrayPicker(Tick(0, 1), Constant("x")).take(2)
    [(0, 'x'), (1, 'x')]
    """

    inputs_fields = ("pickers",)

    def __init__(self, *pickers: Any) -> None:
        if not pickers:
            raise ValueError("ArrayPicker needs at least one picker, got none")
        self.pickers = variadic_inputs(pickers, "pickers", "ArrayPicker")

    def _pick(self) -> tuple[Any, ...]:
        return tuple([p.pick() for p in self.pickers])

    def arguments(self) -> tuple[list[Any], dict[str, Any]]:
        return list(self.pickers), {}


