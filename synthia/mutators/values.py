"""Mutators of single values: :class:`Offset` and :class:`Replace`."""
from __future__ import annotations

from typing import Any

from ..core.checks import describe
from ..core.inputs import number_input, value_input
from .base import Mutator

__all__ = ["Offset", "Replace"]


class Offset(Mutator[Any]):
    """``value + offset``, with ``offset`` a finite number or a picker.

    Any number type works (ints stay ints with int offsets; floats, ``Fraction``,
    ``Decimal``); an offset picker may give anything the input's values can be added
    to (strings to strings). Values that cannot be added raise ``TypeError`` naming both.

    >>> from synthia import Tick
    >>> Offset(10, input=Tick(0, 1)).take(3)
    [10, 11, 12]
    >>> Offset(0.5).mutate(2)
    2.5
    """

    inputs_fields = ("offset", "input")

    def __init__(self, offset: Any, *, input: Any = None) -> None:
        self.offset = number_input(offset, "offset")
        self._set_input(input)

    def mutate(self, value: Any) -> Any:
        offset = self.offset.pick()
        try:
            return value + offset
        except TypeError:
            raise TypeError(f"Offset cannot add {describe(offset)} from offset {self.offset!r} to the input value {describe(value)}") from None
        except OverflowError:  # a numpy integer that cannot hold the sum, a float range left
            raise ValueError(f"Offset: the input value {describe(value)} plus {describe(offset)} from offset {self.offset!r} overflows its type") from None

    def arguments(self) -> tuple[list[Any], dict[str, Any]]:
        return [self.offset], self._with_input({})


class Replace(Mutator[Any]):
    """Replaces every value by a pick of ``replacement`` (a value or a picker).

    >>> Replace(0).mutate([1, 2])
    0
    """

    inputs_fields = ("replacement", "input")

    def __init__(self, replacement: Any, *, input: Any = None) -> None:
        self.replacement = value_input(replacement, "replacement")
        self._set_input(input)

    def mutate(self, value: Any) -> Any:
        return self.replacement.pick()

    def arguments(self) -> tuple[list[Any], dict[str, Any]]:
        return [self.replacement], self._with_input({})
