"""Mutators of single values: :class:`Offset` and :class:`Replace`."""
from __future__ import annotations

from typing import Any

from ..core.picker import Picker, as_picker
from .base import Mutator

__all__ = ["Offset", "Replace"]


class Offset(Mutator[Any]):
    """``value + offset``, with ``offset`` a number or a picker of numbers.

    Any number type works (ints stay ints with int offsets; floats, ``Fraction``,
    ``Decimal``), and so does anything that supports ``+``.

    >>> from synthia import Tick
    >>> Offset(10, input=Tick(0, 1)).take(3)
    [10, 11, 12]
    >>> Offset(0.5).mutate(2)
    2.5
    """

    inputs_fields = ("offset", "input")

    def __init__(self, offset: Any, input: Picker[Any] | None = None) -> None:
        self.offset = as_picker(offset, "offset")
        self._set_input(input)

    def mutate(self, value: Any) -> Any:
        return value + self.offset.pick()

    def _arguments(self) -> tuple[list[Any], dict[str, Any]]:
        return [self.offset], self._with_input({})


class Replace(Mutator[Any]):
    """Replaces every value by a pick of ``replacement`` (a value or a picker).

    >>> Replace(0).mutate([1, 2])
    0
    """

    inputs_fields = ("replacement", "input")

    def __init__(self, replacement: Any, input: Picker[Any] | None = None) -> None:
        self.replacement = as_picker(replacement, "replacement", anything=True)
        self._set_input(input)

    def mutate(self, value: Any) -> Any:
        return self.replacement.pick()

    def _arguments(self) -> tuple[list[Any], dict[str, Any]]:
        return [self.replacement], self._with_input({})
