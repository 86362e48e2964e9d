"""Pickers that produce sequences over time: :class:`Tick` and :class:`Playback`."""
from __future__ import annotations

from typing import Any, Iterable, TypeVar

from ..core.checks import check_bool, check_int
from ..core.exceptions import NoMoreElements
from ..core.picker import UNSET, Bounded, Picker, as_picker

__all__ = ["Tick", "Playback"]

T = TypeVar("T")


class Tick(Picker[Any]):
    """A counter: the first value is a pick of ``start``, each next one adds a pick of ``increment``.

    ``start`` and ``increment`` are numbers or pickers of numbers; values stay
    ints when both give ints.

    >>> Tick(10, 5).take(4)
    [10, 15, 20, 25]
    >>> from synthia import RandomInteger
    >>> Tick(0, RandomInteger(1, 3, seed=1)).take(5)
    [0, 2, 4, 6, 8]
    """

    inputs_fields = ("start", "increment")

    def __init__(self, start: Any = 0, increment: Any = 1) -> None:
        self.start = as_picker(start, "start")
        self.increment = as_picker(increment, "increment")
        self._current: Any = UNSET

    def pick(self) -> Any:
        if self._current is UNSET:
            self._current = self.start.pick()
        else:
            self._current = self._current + self.increment.pick()
        return self._current

    def _reset_self(self) -> None:
        self._current = UNSET

    def _arguments(self) -> tuple[list[Any], dict[str, Any]]:
        from ..core.constant import Constant

        return [p.value if type(p) is Constant else p for p in (self.start, self.increment)], {}


class Playback(Bounded[T]):
    """Plays back a fixed list of values, looping by default.

    ``start`` is the index of the first value. A non-looping playback raises
    :class:`~synthia.NoMoreElements` after the last value; an empty one is done
    at once.

    >>> Playback([0, 1, -1]).take(5)
    [0, 1, -1, 0, 1]
    >>> Playback("abc", loop=False, start=1).take(5)
    ['b', 'c']
    """

    def __init__(self, values: Iterable[T], loop: bool = True, start: int = 0) -> None:
        if isinstance(values, Picker):
            raise TypeError(f"values must be an iterable of values, got the picker {values!r}")
        try:
            self.values = list(values)
        except TypeError:
            raise TypeError(f"values must be iterable, got {values!r} ({type(values).__name__})") from None
        self.loop = check_bool(loop, "loop")
        self.start_index = check_int(start, "start", minimum=0)
        if self.values and self.start_index >= len(self.values):
            raise ValueError(f"start must be an index of values (< {len(self.values)}), got {start!r}")
        if not self.values and self.start_index:
            raise ValueError(f"start must be 0 for empty values, got {start!r}")
        self._index = self.start_index
        self._count = 0

    def pick(self) -> T:
        values = self.values
        i = self._index
        if i >= len(values):
            if not self.loop or not values:
                raise NoMoreElements(f"{self!r} has played all its values")
            i = 0
        self._index = i + 1
        self._count += 1
        return values[i]

    def is_done(self) -> bool:
        return not self.values or (not self.loop and self._index >= len(self.values))

    @property
    def played(self) -> list[T]:
        """The values played since the last reset, in order."""
        n, values, start = self._count, self.values, self.start_index
        return [values[(start + i) % len(values)] for i in range(n)] if values else []

    def _reset_self(self) -> None:
        self._index = self.start_index
        self._count = 0

    def _arguments(self) -> tuple[list[Any], dict[str, Any]]:
        kwargs: dict[str, Any] = {}
        if not self.loop:
            kwargs["loop"] = False
        if self.start_index:
            kwargs["start"] = self.start_index
        return [self.values], kwargs
