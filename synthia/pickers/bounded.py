"""Bounded and exhaustive pickers: finite streams, enumerations and their combinations.

Every picker here ends with :class:`~synthia.NoMoreElements` and answers
``is_done()`` exactly. Ranges are half-open, like :func:`range`.
"""
from __future__ import annotations

import math
from typing import Any, Iterable, TypeVar

from ..core.checks import check_bool, check_int, check_values
from ..core.exceptions import NoMoreElements
from ..core.constant import Nothing
from ..core.picker import UNSET, Bounded, Picker, Seedable, Shrinkable, as_picker
from ..core.random import next_of_permutation
from ..core.shrinking import shrink_seed, simplicity
from .scalars import RandomFloat, check_magnitude, shrink_integer

__all__ = ["Bound", "Unbound", "AllBooleans", "AllIntegers", "AllElements", "AllPickers", "Enumerate", "Merge"]

T = TypeVar("T")

#: More values than this from one input of AllPickers means it does not end (a looping Playback).
_MAX_ENUMERATED = 1_000_000


class Bound(Bounded[T], Shrinkable[T]):
    """The first ``length`` values of ``picker``, then :class:`~synthia.NoMoreElements`.

    Shrinking: a ``Bound`` of the input shrunk around the value (same length).

    ``length`` is an int or a picker; a picker is drawn once, at the first pick
    after construction or reset (so a reset draws a new length from the reset
    picker: the same one, since the length picker replays too).

    >>> from synthia import Tick
    >>> Bound(Tick(0, 1), 3).take(10)
    [0, 1, 2]
    """

    inputs_fields = ("picker", "length")

    def __init__(self, picker: Picker[T], length: Any) -> None:
        self.picker = as_picker(picker, "picker", numbers=False)
        if not isinstance(length, Picker):
            check_int(length, "length", minimum=0)
        self.length = as_picker(length, "length")
        self._limit: Any = UNSET
        self._count = 0

    def _current_limit(self) -> int:
        if self._limit is UNSET:
            n = self.length.pick()
            if isinstance(n, bool) or not isinstance(n, int) or n < 0:
                raise ValueError(f"length must pick non-negative ints, got {n!r} from {self.length!r}")
            self._limit = n
        return self._limit

    def pick(self) -> T:
        if self._count >= self._current_limit():
            raise NoMoreElements(f"{self!r} gave its {self._limit} values")
        value = self.picker.pick()
        self._count += 1
        return value

    def is_done(self) -> bool:
        if self._count >= self._current_limit():
            return True
        return isinstance(self.picker, Bounded) and self.picker.is_done()

    def _reset_self(self) -> None:
        self._limit = UNSET
        self._count = 0

    def in_domain(self, value: Any) -> bool | None:
        return self.picker.in_domain(value)

    def shrink_key(self, value: Any) -> Any:
        return self.picker.shrink_key(value) if isinstance(self.picker, Shrinkable) else simplicity(value)

    def shrink(self, value: T, decision: Picker[float] | None = None, magnitude: float = 1.0) -> Picker[T]:
        check_magnitude(magnitude)
        if not isinstance(self.picker, Shrinkable):
            return Nothing()
        smaller = self.picker.shrink(value, decision, magnitude)
        return smaller if isinstance(smaller, Nothing) else Bound(smaller, self.length.duplicate())


class Unbound(Picker[T]):
    """Relays a bounded ``picker``; once it ends, picks again among the distinct values it gave.

    The choice among remembered values (in order of first appearance) is made by
    ``decision``, a picker of floats in ``[0, 1)`` (a fresh :class:`RandomFloat`
    by default). ``reset()`` forgets the values *and* that the source ended.

    >>> from synthia import Playback
    >>> u = Unbound(Playback([1, 2, 2], loop=False))
    >>> u.set_seed(3).take(7)
    [1, 2, 2, 1, 1, 2, 1]
    """

    inputs_fields = ("picker", "decision")

    def __init__(self, picker: Picker[T], decision: Picker[float] | None = None) -> None:
        self.picker = as_picker(picker, "picker", numbers=False)
        self.decision = RandomFloat() if decision is None else as_picker(decision, "decision", numbers=False)
        self._seen: list[T] = []
        self._ended = False

    def pick(self) -> T:
        if not self._ended:
            try:
                value = self.picker.pick()
            except NoMoreElements:
                self._ended = True
            else:
                if value not in self._seen:
                    self._seen.append(value)
                return value
        if not self._seen:
            raise NoMoreElements(f"{self!r}: the source ended without giving any value")
        u = self.decision.pick()
        return self._seen[min(int(u * len(self._seen)), len(self._seen) - 1)]

    def _reset_self(self) -> None:
        self._seen = []
        self._ended = False


class _Enumeration(Seedable[T], Bounded[T], Shrinkable[T]):
    """Shared machinery: the items of a sequence of ``size`` positions, in order or shuffled.

    Shrinking gives the items simpler than the value, each once, in a random order.
    """

    def shrink(self, value: T, decision: Picker[float] | None = None, magnitude: float = 1.0) -> Picker[T]:
        check_magnitude(magnitude)
        smaller = [item for item in self._items() if simplicity(item) < simplicity(value)]
        return AllElements(smaller, scramble=True, seed=shrink_seed(decision)) if smaller else Nothing()

    def in_domain(self, value: Any) -> bool:
        return any(value == item for item in self._items())

    def _items(self) -> list[T]:
        return [self._item(i) for i in range(self._size)]

    def _init_enumeration(self, size: int, scramble: bool, loop: bool, seed: int | None) -> None:
        self.scramble = check_bool(scramble, "scramble")
        self.loop = check_bool(loop, "loop")
        self._size = size
        self._position = 0
        self._swaps: dict[int, int] = {}
        self._init_stream(seed)

    def _item(self, index: int) -> T:  # pragma: no cover - interface
        raise NotImplementedError

    def pick(self) -> T:
        if self._position >= self._size:
            if not self.loop or self._size == 0:
                raise NoMoreElements(f"{self!r} has enumerated all its values")
            self._position, self._swaps = 0, {}
        i = self._position
        index = next_of_permutation(self._stream, self._size, i, self._swaps) if self.scramble else i
        self._position = i + 1
        return self._item(index)

    def is_done(self) -> bool:
        return self._size == 0 or (not self.loop and self._position >= self._size)

    def _reset_self(self) -> None:
        super()._reset_self()
        self._position, self._swaps = 0, {}

    def _flags(self) -> dict[str, Any]:
        flags: dict[str, Any] = {}
        if self.scramble:
            flags["scramble"] = True
        if self.loop:
            flags["loop"] = True
        return flags


class AllBooleans(_Enumeration[bool]):
    """``False``, ``True`` (or both in a random order with ``scramble=True``), then the end.

    >>> AllBooleans().take(3)
    [False, True]
    """

    def __init__(self, scramble: bool = False, loop: bool = False, *, seed: int | None = None) -> None:
        self._init_enumeration(2, scramble, loop, seed)

    def _item(self, index: int) -> bool:
        return bool(index)

    def _arguments(self) -> tuple[list[Any], dict[str, Any]]:
        return [], self._flags()


class AllIntegers(_Enumeration[int]):
    """Every integer of ``[low, high)`` once: in order, or drawn without replacement.

    Scrambling is lazy, so a huge range costs memory only for the values drawn.

    >>> AllIntegers(3, 7).take(10)
    [3, 4, 5, 6]
    >>> sorted(AllIntegers(0, 5, scramble=True, seed=1).take(10))
    [0, 1, 2, 3, 4]
    """

    def __init__(
        self, low: int, high: int, scramble: bool = False, loop: bool = False, *, seed: int | None = None
    ) -> None:
        self.low = check_int(low, "low")
        self.high = check_int(high, "high")
        if self.high < self.low:
            raise ValueError(f"high must be >= low, got low={low}, high={high}")
        self._init_enumeration(self.high - self.low, scramble, loop, seed)

    def _item(self, index: int) -> int:
        return self.low + index

    def in_domain(self, value: Any) -> bool:
        return isinstance(value, int) and not isinstance(value, bool) and self.low <= value < self.high

    def shrink(self, value: int, decision: Picker[float] | None = None, magnitude: float = 1.0) -> Picker[int]:
        return shrink_integer(value, self.low, self.high, decision, magnitude)

    def _arguments(self) -> tuple[list[Any], dict[str, Any]]:
        return [self.low, self.high], self._flags()


class AllElements(_Enumeration[T]):
    """Every element of ``values`` once, in order or shuffled; ``loop=True`` starts again
    (with a new order when scrambled).

    >>> AllElements("abc").take(5)
    ['a', 'b', 'c']
    >>> AllElements([1, 2, 3], scramble=True, loop=True, seed=2).take(6)
    [1, 2, 3, 1, 3, 2]
    """

    def __init__(
        self, values: Iterable[T], scramble: bool = False, loop: bool = False, *, seed: int | None = None
    ) -> None:
        self.values = check_values(values)
        self._init_enumeration(len(self.values), scramble, loop, seed)

    def _item(self, index: int) -> T:
        return self.values[index]

    def _arguments(self) -> tuple[list[Any], dict[str, Any]]:
        return [self.values], self._flags()


class AllPickers(_Enumeration[tuple[Any, ...]]):
    """The cartesian product of bounded pickers: every combination exactly once (alias ``Enumerate``).

    Combinations are tuples, in odometer order (the first picker changes fastest),
    or in a random order without repetition with ``scramble=True``. Each input is
    run to its end once, at the first pick, to learn its values.

    >>> AllPickers(AllBooleans(), AllIntegers(0, 2)).take(10)
    [(False, 0), (True, 0), (False, 1), (True, 1)]
    """

    inputs_fields = ("pickers",)

    def __init__(self, *pickers: Bounded[Any], scramble: bool = False, loop: bool = False, seed: int | None = None) -> None:
        if not pickers:
            raise ValueError("AllPickers needs at least one picker, got none")
        for i, p in enumerate(pickers):
            if not isinstance(p, Bounded):
                raise TypeError(f"pickers[{i}] must be a bounded picker, got {p!r}")
        self.pickers = list(pickers)
        self._values: list[list[Any]] | None = None
        self._init_enumeration(0, scramble, loop, seed)

    def _learn(self) -> None:
        if self._values is None:
            self._values = []
            for i, p in enumerate(self.pickers):
                values = p.take(_MAX_ENUMERATED + 1)
                if len(values) > _MAX_ENUMERATED:
                    raise ValueError(f"pickers[{i}] gave more than {_MAX_ENUMERATED} values: is it looping? got {p!r}")
                self._values.append(values)
            self._size = math.prod(len(v) for v in self._values)

    def pick(self) -> tuple[Any, ...]:
        self._learn()
        return super().pick()

    def is_done(self) -> bool:
        self._learn()
        return super().is_done()

    def _items(self) -> list[tuple[Any, ...]]:
        self._learn()
        return super()._items()

    def _item(self, index: int) -> tuple[Any, ...]:
        out = []
        for values in self._values or ():
            index, digit = divmod(index, len(values))
            out.append(values[digit])
        return tuple(out)

    def _reset_self(self) -> None:
        super()._reset_self()
        self._values, self._size = None, 0

    def _arguments(self) -> tuple[list[Any], dict[str, Any]]:
        return list(self.pickers), self._flags()


Enumerate = AllPickers


class Merge(Bounded[T]):
    """The values of each bounded picker in turn: the first until it ends, then the next.

    >>> Merge(AllIntegers(0, 2), AllElements("xy")).take(10)
    [0, 1, 'x', 'y']
    """

    inputs_fields = ("pickers",)

    def __init__(self, *pickers: Picker[T]) -> None:
        if not pickers:
            raise ValueError("Merge needs at least one picker, got none")
        self.pickers = [as_picker(p, f"pickers[{i}]", numbers=False) for i, p in enumerate(pickers)]
        self._current = 0

    def pick(self) -> T:
        while self._current < len(self.pickers):
            try:
                return self.pickers[self._current].pick()
            except NoMoreElements:
                self._current += 1
        raise NoMoreElements(f"{self!r}: every picker has ended")

    def is_done(self) -> bool:
        for p in self.pickers[self._current :]:
            if not (isinstance(p, Bounded) and p.is_done()):
                return False
        return True

    def _reset_self(self) -> None:
        self._current = 0

    def _arguments(self) -> tuple[list[Any], dict[str, Any]]:
        return list(self.pickers), {}
