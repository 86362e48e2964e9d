"""Pickers that produce sequences over time: :class:`Tick`, :class:`Playback` and
:class:`Scramble` (another picker's values, shuffled)."""
from __future__ import annotations

from typing import Any, Iterable, TypeVar, overload

from ..core.checks import MAX_ITEMS, check_bool, check_count_pick, check_int, check_values, describe
from ..core.exceptions import GiveUp, NoMoreElements
from ..core.inputs import count_input, ending_input, number_input, value_input
from ..core.picker import UNSET, Bounded, Picker, Seedable
from ..core.shrinking import Shrinkable
from ..core.random import shuffle
from .bounded import ends

__all__ = ["Tick", "Playback", "Scramble"]

T = TypeVar("T")


class Tick(Shrinkable[Any]):
    """A counter: the first value is a pick of ``start``, each next one adds a pick of ``increment``.

    Shrinking (in the numbers' order, closest to zero first) falls back on
    :class:`~synthia.PickSmaller` over a fresh copy: the earlier values of the
    counter that are simpler than the one given.

    ``start`` and ``increment`` are finite numbers or pickers of numbers; values stay
    ints when both give ints.

    >>> Tick(10, 5).take(4)
    [10, 15, 20, 25]
    >>> from synthia import RandomInteger
    >>> Tick(0, RandomInteger(1, 3, seed=1)).take(5)
    [0, 2, 3, 4, 5]
    """

    inputs_fields = ("start", "increment")

    def __init__(self, start: Any = 0, increment: Any = 1) -> None:
        self.start = number_input(start, "start")
        self.increment = number_input(increment, "increment")
        self._current: Any = UNSET

    def _pick(self) -> Any:
        if self._current is UNSET:
            self._current = self.start.pick()
        else:
            step = self.increment.pick()
            try:
                self._current = self._current + step
            except TypeError:
                raise TypeError(
                    f"Tick adds increment to the last value: got {describe(step)} from increment {self.increment!r}"
                    f" and {describe(self._current)} from start {self.start!r}"
                ) from None
        return self._current

    def _reset_self(self) -> None:
        self._current = UNSET

    def arguments(self) -> tuple[list[Any], dict[str, Any]]:
        return [self.start, self.increment], {}


class Playback(Bounded[T], Shrinkable[T]):
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
        self.values = check_values(values)
        self.loop = check_bool(loop, "loop")
        self.start_index = check_int(start, "start", minimum=0)
        if self.values and self.start_index >= len(self.values):
            raise ValueError(f"start must be an index of values (< {len(self.values)}), got {start!r}")
        if not self.values and self.start_index:
            raise ValueError(f"start must be 0 for empty values, got {start!r}")
        self._index = self.start_index
        self._count = 0

    def _pick(self) -> T:
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

    def ends(self) -> bool:
        return not self.loop or not self.values

    @property
    def played(self) -> list[T]:
        """The values played since the last reset, in order."""
        n, values, start = self._count, self.values, self.start_index
        return [values[(start + i) % len(values)] for i in range(n)] if values else []

    def _reset_self(self) -> None:
        self._index = self.start_index
        self._count = 0

    def arguments(self) -> tuple[list[Any], dict[str, Any]]:
        kwargs: dict[str, Any] = {}
        if not self.loop:
            kwargs["loop"] = False
        if self.start_index:
            kwargs["start"] = self.start_index
        return [self.values], kwargs


class Scramble(Seedable[T], Bounded[T]):
    """Values of ``picker`` played back in shuffled batches.

    Each batch takes ``count`` values (an int or a picker of ints) from the input,
    shuffles them with this picker's stream, and plays them back. With
    ``count=None`` the batch is the whole input, which must end (a bounded picker
    that does not loop, checked at construction): the input's values in a random
    order, then :class:`~synthia.NoMoreElements`.

    >>> from synthia import Playback
    >>> Scramble(Playback([1, 2, 3, 4], loop=False), seed=5).take(10)
    [2, 1, 4, 3]
    >>> Scramble(Playback("abc"), count=3, seed=1).take(6)
    ['b', 'a', 'c', 'b', 'c', 'a']
    """

    inputs_fields = ("picker", "count")

    @overload
    def __init__(self, picker: Picker[T], count: Any = None, *, seed: int | None = None) -> None: ...
    @overload
    def __init__(self, picker: T, count: Any = None, *, seed: int | None = None) -> None: ...
    def __init__(self, picker: Any, count: Any = None, *, seed: int | None = None) -> None:
        if count is None:
            hint = "Scramble without count shuffles the whole input; give count=n to shuffle batches of n values"
            self.picker: Picker[T] = ending_input(value_input(picker, "picker"), "picker", hint)
            self.count: Picker[int] | None = None
        else:
            self.picker = value_input(picker, "picker")
            self.count = count_input(count, "count")
        self._batch: list[T] = []
        self._position = 0
        self._exhausted = False
        self._init_stream(seed)

    def _fill(self) -> None:
        if self.count is None:
            batch: list[T] = []
            try:
                while len(batch) <= MAX_ITEMS:
                    batch.append(self.picker.pick())
                raise ValueError(f"picker gave more than {MAX_ITEMS} values: does it loop? got {self.picker!r}")
            except NoMoreElements:
                self._exhausted = True
        else:
            n = check_count_pick(self.count.pick(), "count", self.count)
            batch = []
            try:
                for _ in range(n):
                    batch.append(self.picker.pick())
            except NoMoreElements:
                self._exhausted = True
        shuffle(self._stream, batch)
        self._batch, self._position = batch, 0

    def _pick(self) -> T:
        empty = 0
        while self._position >= len(self._batch):
            if self._exhausted:
                raise NoMoreElements(f"{self!r} has played every value of its input")
            self._fill()
            empty += 1
            if empty > 1000:
                raise GiveUp(f"{self!r}: count picked 0 for 1000 batches in a row")
        value = self._batch[self._position]
        self._position += 1
        return value

    def is_done(self) -> bool:
        return self._exhausted and self._position >= len(self._batch)

    def ends(self) -> bool:
        return self.count is None or ends(self.picker)

    def _reset_self(self) -> None:
        super()._reset_self()
        self._batch, self._position, self._exhausted = [], 0, False

    def arguments(self) -> tuple[list[Any], dict[str, Any]]:
        return [self.picker], ({} if self.count is None else {"count": self.count})
