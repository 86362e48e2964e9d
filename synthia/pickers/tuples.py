"""Tuples built from pickers: :class:`ArrayPicker`, and the :class:`SmallerTuple` that
shrinking any tuple picker gives (:class:`~synthia.PrismPicker` shrinks the same way)."""
from __future__ import annotations

from typing import Any

from ..core.checks import check_magnitude
from ..core.constant import Nothing
from ..core.exceptions import GiveUp, NoMoreElements
from ..core.inputs import variadic_inputs
from ..core.picker import Picker, RandomPicker, Shrinkable
from ..core.shrinking import shrink_seed, simplicity
from .collections import _StreamDecision

__all__ = ["ArrayPicker", "PickArray"]


class SmallerTuple(RandomPicker[tuple[Any, ...]], Shrinkable[tuple[Any, ...]]):
    """Tuples lexicographically smaller than ``reference``: what shrinking a tuple picker gives.

    Each pick shrinks **one** component through its own picker's ``shrink`` and keeps
    the others, so one argument can shrink while another stays (the Java
    ``ArrayPicker`` required every component to shrink at once). Components that
    cannot shrink are never chosen.
    """

    inputs_fields = ("components",)

    def __init__(self, components: list[Picker[Any]], reference: tuple[Any, ...], magnitude: float = 1.0, *, seed: int | None = None) -> None:
        # Copies: nothing done to the shrunk tuple picker reaches the picker that was shrunk.
        self.components = [c.duplicate() for c in components]
        self.reference = tuple(reference)
        self.magnitude = magnitude
        self._init_stream(seed)
        self._decision = _StreamDecision(self._stream)
        self._movable = [
            i for i, (c, v) in enumerate(zip(components, self.reference))
            if isinstance(c, Shrinkable) and not isinstance(c.shrink(v), Nothing)
        ]

    def pick(self) -> tuple[Any, ...]:
        if not self._movable:
            raise NoMoreElements(f"no component of {self.reference!r} can shrink")
        for _ in range(100):
            i = self._movable[self._stream.below(len(self._movable))]
            try:
                value = self.components[i].shrink(self.reference[i], self._decision, self.magnitude).pick()  # type: ignore[attr-defined]
            except (NoMoreElements, GiveUp):
                continue
            return self.reference[:i] + (value,) + self.reference[i + 1 :]
        raise GiveUp(f"found no tuple smaller than {self.reference!r}")

    def in_domain(self, value: Any) -> bool | None:
        return tuple_in_domain(self.components, value)

    def shrink_key(self, value: Any) -> Any:
        return tuple_key(self.components, value)

    def shrink(self, value: Any, decision: Picker[float] | None = None, magnitude: float = 1.0) -> Picker[Any]:
        return shrink_tuple(self.components, value, decision, magnitude)

    def _arguments(self) -> tuple[list[Any], dict[str, Any]]:
        return [self.components, self.reference], {}


def tuple_in_domain(components: list[Picker[Any]], value: Any) -> bool | None:
    """Whether ``value`` is a tuple each of whose items its component can produce."""
    if not isinstance(value, tuple) or len(value) != len(components):
        return False
    verdicts = [c.in_domain(v) for c, v in zip(components, value)]
    return False if False in verdicts else (None if None in verdicts else True)


def tuple_key(components: list[Picker[Any]], value: tuple[Any, ...]) -> tuple[Any, ...]:
    """The lexicographic order of tuples, each item in its component's order."""
    return tuple(c.shrink_key(v) if isinstance(c, Shrinkable) else simplicity(v) for c, v in zip(components, value))


def shrink_tuple(
    components: list[Picker[Any]], value: tuple[Any, ...], decision: Picker[float] | None, magnitude: float
) -> Picker[tuple[Any, ...]]:
    """A :class:`SmallerTuple`, or ``Nothing`` when no component can shrink."""
    check_magnitude(magnitude)
    smaller = SmallerTuple(components, tuple(value), magnitude, seed=shrink_seed(decision))
    return smaller if smaller._movable else Nothing()


class ArrayPicker(Shrinkable[tuple[Any, ...]]):
    """A tuple with one value from each picker, in order (alias ``PickArray``).

    Plain values stand for themselves: ``ArrayPicker("push", RandomInteger(0, 9))``
    gives ``("push", n)``.

    Shrinking order: lexicographic, each item in its picker's order; a shrunk
    array changes one component at a time (:class:`SmallerTuple`).

    >>> from synthia import Tick, Constant
    >>> ArrayPicker(Tick(0, 1), Constant("x")).take(2)
    [(0, 'x'), (1, 'x')]
    """

    inputs_fields = ("pickers",)

    def __init__(self, *pickers: Any) -> None:
        if not pickers:
            raise ValueError("ArrayPicker needs at least one picker, got none")
        self.pickers = variadic_inputs(pickers, "pickers", "ArrayPicker")

    def pick(self) -> tuple[Any, ...]:
        return tuple([p.pick() for p in self.pickers])

    def in_domain(self, value: Any) -> bool | None:
        return tuple_in_domain(self.pickers, value)

    def shrink_key(self, value: Any) -> Any:
        return tuple_key(self.pickers, value)

    def shrink(self, value: Any, decision: Picker[float] | None = None, magnitude: float = 1.0) -> Picker[Any]:
        return shrink_tuple(self.pickers, value, decision, magnitude)

    def _arguments(self) -> tuple[list[Any], dict[str, Any]]:
        return list(self.pickers), {}


PickArray = ArrayPicker
