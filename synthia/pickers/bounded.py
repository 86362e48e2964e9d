"""Bounded and exhaustive pickers: finite streams, enumerations and their combinations.

Every picker here ends with :class:`~synthia.NoMoreElements` and answers
``is_done()`` exactly. Ranges are half-open, like :func:`range`.
"""
from __future__ import annotations

import math
from typing import Any, Iterable, TypeVar, overload

from ..core.checks import MAX_ITEMS, check_bool, check_count_pick, check_int, check_range, check_values, pick_index
from ..core.constant import Constant
from ..core.exceptions import NoMoreElements
from ..core.inputs import count_input, ending_input, unit_input, value_input, variadic_inputs
from ..core.picker import UNSET, Bounded, Picker, Seedable
from ..core.shrinking import Shrinkable
from ..core.random import next_of_permutation
from .holding import Once
from .scalars import RandomFloat

__all__ = ["Bound", "Unbound", "AllBooleans", "AllIntegers", "AllElements", "AllPickers", "Merge"]

T = TypeVar("T")


def ends(picker: Picker[Any]) -> bool:
    """Whether ``picker``'s stream ends (a bounded picker that does not loop)."""
    return isinstance(picker, Bounded) and picker.ends()


def one_value(value: Any, name: str) -> Picker[Any]:
    """An input of a picker that runs its inputs to their end: a plain value is one value."""
    return value if isinstance(value, Picker) else Once(Constant(value))


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

    @overload
    def __init__(self, picker: Picker[T], length: Any) -> None: ...
    @overload
    def __init__(self, picker: T, length: Any) -> None: ...
    def __init__(self, picker: Any, length: Any) -> None:
        self.picker = value_input(picker, "picker")
        self.length = count_input(length, "length")
        self._limit: Any = UNSET
        self._count = 0

    def _current_limit(self) -> int:
        if self._limit is UNSET:
            self._limit = check_count_pick(self.length.pick(), "length", self.length)
        return self._limit  # type: ignore[no-any-return]

    def _pick(self) -> T:
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

    def value_range(self) -> tuple[Any, Any] | None:
        return self.picker.value_range()


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

    @overload
    def __init__(self, picker: Picker[T], decision: Any = None) -> None: ...
    @overload
    def __init__(self, picker: T, decision: Any = None) -> None: ...
    def __init__(self, picker: Any, decision: Any = None) -> None:
        self.picker = value_input(picker, "picker")
        self.decision = RandomFloat() if decision is None else unit_input(decision, "decision")
        self._seen: list[T] = []
        self._ended = False

    def _pick(self) -> T:
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
        return self._seen[pick_index(self.decision, len(self._seen), "decision")]

    def _reset_self(self) -> None:
        self._seen = []
        self._ended = False


class _Enumeration(Seedable[T], Bounded[T], Shrinkable[T]):
    """Shared machinery: the items of a sequence of ``size`` positions, in order or shuffled.

    Shrinking gives the items simpler than the value, each once, in a random order.
    """

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

    def _pick(self) -> T:
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

    def ends(self) -> bool:
        return not self.loop

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

    def arguments(self) -> tuple[list[Any], dict[str, Any]]:
        return [], self._flags()


class AllIntegers(_Enumeration[int]):
    """Every integer of ``[low, high)`` once: in order, or drawn without replacement.

    The range is half-open, like :func:`range` and :class:`~synthia.RandomInteger` (the
    Java ``AllIntegers(min, max)`` included ``max``), and must not be empty: like
    ``RandomInteger(3, 3)``, ``AllIntegers(3, 3)`` is refused rather than silently giving
    nothing. Scrambling is lazy, so a huge range costs memory only for the values drawn.

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
        check_range(self.low, self.high)
        self._init_enumeration(self.high - self.low, scramble, loop, seed)

    def _item(self, index: int) -> int:
        return self.low + index

    def value_range(self) -> tuple[int, int]:
        return self.low, self.high

    def arguments(self) -> tuple[list[Any], dict[str, Any]]:
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

    def arguments(self) -> tuple[list[Any], dict[str, Any]]:
        return [self.values], self._flags()


class AllPickers(_Enumeration[tuple[Any, ...]]):
    """The cartesian product of bounded pickers: every combination exactly once.

    Combinations are tuples, in odometer order (the first picker changes fastest),
    or in a random order without repetition with ``scramble=True``. Each input is
    run to its end once, at the first pick, to learn its values, so every input must
    end (:meth:`~synthia.Bounded.ends`); a plain value is that one value.

    >>> AllPickers(AllBooleans(), AllIntegers(0, 2)).take(10)
    [(False, 0), (True, 0), (False, 1), (True, 1)]
    >>> AllPickers(AllBooleans(), "x").take(10)
    [(False, 'x'), (True, 'x')]
    """

    inputs_fields = ("pickers",)

    def __init__(self, *pickers: Any, scramble: bool = False, loop: bool = False, seed: int | None = None) -> None:
        if not pickers:
            raise ValueError("AllPickers needs at least one picker, got none")
        inputs = variadic_inputs(pickers, "pickers", "AllPickers", one_value)
        self.pickers = [ending_input(p, f"pickers[{i}]", "AllPickers enumerates every value of each input") for i, p in enumerate(inputs)]
        self._values: list[list[Any]] | None = None
        self._init_enumeration(0, scramble, loop, seed)

    def _learn(self) -> None:
        if self._values is None:
            self._values = []
            for i, p in enumerate(self.pickers):
                values = p.take(MAX_ITEMS + 1)
                if len(values) > MAX_ITEMS:
                    raise ValueError(f"pickers[{i}] gave more than {MAX_ITEMS} values: is it looping? got {p!r}")
                self._values.append(values)
            self._size = math.prod(len(v) for v in self._values)

    def _pick(self) -> tuple[Any, ...]:
        self._learn()
        return super()._pick()

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

    def arguments(self) -> tuple[list[Any], dict[str, Any]]:
        return list(self.pickers), self._flags()




class Merge(Bounded[T]):
    """The values of each bounded picker in turn: the first until it ends, then the next.

    A plain value is that one value (a picker that gives it once).

    >>> Merge(AllIntegers(0, 2), AllElements("xy"), "z").take(10)
    [0, 1, 'x', 'y', 'z']
    """

    inputs_fields = ("pickers",)

    def __init__(self, *pickers: Any) -> None:
        if not pickers:
            raise ValueError("Merge needs at least one picker, got none")
        self.pickers = variadic_inputs(pickers, "pickers", type(self).__name__, one_value)
        self._current = 0

    def _pick(self) -> T:
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

    def ends(self) -> bool:
        return all(ends(p) for p in self.pickers)

    def _reset_self(self) -> None:
        self._current = 0

    def arguments(self) -> tuple[list[Any], dict[str, Any]]:
        return list(self.pickers), {}
