"""Mutators of lists: delete, insert, swap, or mutate one element. Each returns a new list.

Positions come from pickers of floats in ``[0, 1)`` (or such a float; a fresh
:class:`~synthia.RandomFloat` by default): a float ``u`` designates position
``floor(u * n)`` of a list of ``n`` elements (``floor(u * (n + 1))`` for an
insertion point). The list to mutate is the ``input``, given last by keyword.
"""
from __future__ import annotations

from typing import Any, Sequence

from ..core.checks import describe, pick_index
from ..core.inputs import unit_input, value_input
from ..core.picker import Picker
from ..pickers.scalars import RandomFloat
from .base import Mutator, apply_mutation, check_mutator

__all__ = ["DeleteElement", "InsertElement", "Swap", "MutateElement"]


def _position_input(position: Any, name: str) -> Picker[float]:
    return RandomFloat() if position is None else unit_input(position, name)


def _index(picker: Picker[float], n: int, name: str) -> int:
    return pick_index(picker, n, name, if_list="the list to mutate is the input, given last by keyword (input=...)")


def _list_input(input: Any) -> Picker[Any] | None:
    """The input of a list mutator: a picker of lists, or a list (``None``: none yet)."""
    if input is None:
        return None
    if isinstance(input, Picker):
        bounds = input.value_range()
        if bounds is not None:
            raise TypeError(f"input must pick lists, got {input!r}, whose values are numbers in [{bounds[0]}, {bounds[1]})")
        return input
    _as_list(input)
    return value_input(input, "input")


def _as_list(value: Any) -> list[Any]:
    if not isinstance(value, Sequence) or isinstance(value, (str, bytes)):
        raise TypeError(f"list mutators need a sequence as input, got {describe(value)}")
    return list(value)


class DeleteElement(Mutator[list[Any]]):
    """A copy of the list without the element at a random position (an empty list stays empty).

    >>> DeleteElement(position=0.5).mutate([1, 2, 3, 4])
    [1, 2, 4]
    """

    inputs_fields = ("position", "input")

    def __init__(self, position: Any = None, *, input: Any = None) -> None:
        self.position = _position_input(position, "position")
        self.input = _list_input(input)

    def mutate(self, value: Any) -> list[Any]:
        out = _as_list(value)
        if out:
            del out[_index(self.position, len(out), "position")]
        return out

    def arguments(self) -> tuple[list[Any], dict[str, Any]]:
        return [], self._with_input({"position": self.position})


class InsertElement(Mutator[list[Any]]):
    """A copy of the list with a pick of ``element`` inserted at a random point (ends included).

    >>> InsertElement("x", position=0.0).mutate([1, 2])
    ['x', 1, 2]
    """

    inputs_fields = ("element", "position", "input")

    def __init__(self, element: Any, position: Any = None, *, input: Any = None) -> None:
        self.element = value_input(element, "element")
        self.position = _position_input(position, "position")
        self.input = _list_input(input)

    def mutate(self, value: Any) -> list[Any]:
        out = _as_list(value)
        out.insert(_index(self.position, len(out) + 1, "position"), self.element.pick())
        return out

    def arguments(self) -> tuple[list[Any], dict[str, Any]]:
        return [self.element], self._with_input({"position": self.position})


class Swap(Mutator[list[Any]]):
    """A copy of the list with the elements at two random positions exchanged.

    >>> Swap(first=0.0, second=0.9).mutate([1, 2, 3])
    [3, 2, 1]
    """

    inputs_fields = ("first", "second", "input")

    def __init__(self, first: Any = None, second: Any = None, *, input: Any = None) -> None:
        self.first = _position_input(first, "first")
        self.second = _position_input(second, "second")
        self.input = _list_input(input)

    def mutate(self, value: Any) -> list[Any]:
        out = _as_list(value)
        if out:
            i = _index(self.first, len(out), "first")
            j = _index(self.second, len(out), "second")
            out[i], out[j] = out[j], out[i]
        return out

    def arguments(self) -> tuple[list[Any], dict[str, Any]]:
        return [], self._with_input({"first": self.first, "second": self.second})


class MutateElement(Mutator[list[Any]]):
    """A copy of the list whose element at a random position is transformed by ``mutator``.

    ``mutator`` is a Mutator or a :class:`~synthia.Choice` of mutators.

    >>> from synthia.mutators import Offset
    >>> MutateElement(Offset(100), position=0.0).mutate([1, 2])
    [101, 2]
    """

    inputs_fields = ("mutator", "position", "input")

    def __init__(self, mutator: Any, position: Any = None, *, input: Any = None) -> None:
        self.mutator = check_mutator(mutator, "mutator")
        self.position = _position_input(position, "position")
        self.input = _list_input(input)

    def mutate(self, value: Any) -> list[Any]:
        out = _as_list(value)
        if out:
            i = _index(self.position, len(out), "position")
            out[i] = apply_mutation(self.mutator, out[i])
        return out

    def arguments(self) -> tuple[list[Any], dict[str, Any]]:
        return [self.mutator], self._with_input({"position": self.position})
