"""Pickers that hold their input's first value: :class:`Freeze` (forever) and :class:`Once`
(then nothing more)."""
from __future__ import annotations

from typing import Any, TypeVar, overload

from ..core.constant import Constant
from ..core.exceptions import NoMoreElements
from ..core.inputs import value_input
from ..core.parsing import Parse
from ..core.picker import UNSET, Bounded, Picker
from ..core.shrinking import Shrinkable

__all__ = ["Freeze", "Once"]

T = TypeVar("T")


class Freeze(Shrinkable[T]):
    """The first value of its input, forever (until reset, which picks it again).

    Shrinking: a ``Freeze`` of the input shrunk around the frozen value (the Java
    original always gave up here).

    >>> from synthia import RandomInteger
    >>> Freeze(RandomInteger(0, 100, seed=5)).take(4)
    [62, 62, 62, 62]
    """

    inputs_fields = ("picker",)

    @overload
    def __init__(self, picker: Picker[T]) -> None: ...
    @overload
    def __init__(self, picker: T) -> None: ...
    def __init__(self, picker: Any) -> None:
        self.picker = value_input(picker, "picker")
        self._value: Any = UNSET

    def _pick(self) -> T:
        if self._value is UNSET:
            self._value = self.picker.pick()
        return self._value

    def _reset_self(self) -> None:
        self._value = UNSET

    def parse_draws(self, value: Any, parse: Parse) -> list[Any] | None:
        """Its input's draws for ``value`` (its first pick, from the initial state)."""
        return parse(self.picker, value)

    def value_range(self) -> tuple[Any, Any] | None:
        return self.picker.value_range()


class Once(Bounded[T]):
    """The first value of its input, then :class:`~synthia.NoMoreElements`.

    >>> Once(Constant(3)).take(5)
    [3]
    """

    inputs_fields = ("picker",)

    @overload
    def __init__(self, picker: Picker[T]) -> None: ...
    @overload
    def __init__(self, picker: T) -> None: ...
    def __init__(self, picker: Any) -> None:
        self.picker = value_input(picker, "picker")
        self._done = False

    def _pick(self) -> T:
        if self._done:
            raise NoMoreElements(f"{self!r} already gave its value")
        value = self.picker.pick()
        self._done = True
        return value

    def is_done(self) -> bool:
        return self._done

    def _reset_self(self) -> None:
        self._done = False

    def parse_draws(self, value: Any, parse: Parse) -> list[Any] | None:
        """Its input's draws for ``value`` (its one value)."""
        return parse(self.picker, value)
