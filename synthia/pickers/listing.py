"""Collections beyond :class:`~synthia.ComposeList`: lists, sets, arrays, sub-lists, scrambles."""
from __future__ import annotations

from typing import Any, Iterable, Sequence, TypeVar

from ..core.checks import check_int, check_probability, check_values
from ..core.constant import Nothing
from ..core.exceptions import GiveUp, NoMoreElements
from ..core.picker import Bounded, Picker, RandomPicker, Seedable, Shrinkable, as_picker
from ..core.random import shuffle
from ..core.shrinking import shrink_seed, simplicity
from .filters import PickIf
from .scalars import check_magnitude

__all__ = ["ListPicker", "SetPicker", "PickSet", "ArrayPicker", "PickArray", "RandomSubList", "Scramble"]

T = TypeVar("T")


def _length_input(length: Any, name: str = "length") -> Picker[int]:
    if not isinstance(length, Picker):
        check_int(length, name, minimum=0)
    return as_picker(length, name)


def _draw_length(picker: Picker[Any], name: str) -> int:
    n = picker.pick()
    if isinstance(n, bool) or not isinstance(n, int) or n < 0:
        raise ValueError(f"{name} must pick non-negative ints, got {n!r} from {picker!r}")
    return n


class ListPicker(Shrinkable[list[Any]]):
    """A list whose element ``i`` comes from ``pickers[i % len(pickers)]``.

    ``length`` (an int or a picker) defaults to the number of pickers, giving one
    value from each. Shrinking: shorter first (truncated to lengths ``length`` can
    produce), then element by element, each through the picker of its position.

    >>> from synthia import Tick, Choice
    >>> ListPicker(Tick(0, 1), Choice("a", "b").set_seed(1), length=5).pick()
    [0, 'a', 1, 'a', 2]
    """

    inputs_fields = ("pickers", "length")

    def __init__(self, *pickers: Picker[Any], length: Any = None) -> None:
        if not pickers:
            raise ValueError("ListPicker needs at least one picker, got none")
        self.pickers = [as_picker(p, f"pickers[{i}]", numbers=False) for i, p in enumerate(pickers)]
        self.length = _length_input(len(pickers) if length is None else length)

    def pick(self) -> list[Any]:
        n = _draw_length(self.length, "length")
        pickers, k = self.pickers, len(self.pickers)
        return [pickers[i % k].pick() for i in range(n)]

    def in_domain(self, value: Any) -> bool | None:
        from .collections import SmallerList

        return SmallerList(self.pickers, self.length, [], seed=0).in_domain(value)

    def shrink(self, value: list[Any], decision: Picker[float] | None = None, magnitude: float = 1.0) -> Picker[list[Any]]:
        from .collections import SmallerList

        return SmallerList(self.pickers, self.length, [], seed=0).shrink(value, decision, magnitude)

    def _arguments(self) -> tuple[list[Any], dict[str, Any]]:
        return list(self.pickers), {"length": self.length}


class SetPicker(Shrinkable[set[Any]]):
    """A set of ``size`` **distinct** values of ``element`` (alias ``PickSet``).

    Duplicates are drawn again; after ``max_tries`` draws in a row that add
    nothing, :class:`~synthia.GiveUp` says the element domain looks too small
    for the size asked.

    Shrinking order: smaller sets first. ``shrink(v)`` gives subsets of ``v`` of
    sizes the size picker can produce.

    >>> from synthia import RandomInteger
    >>> sorted(SetPicker(RandomInteger(0, 10, seed=3), 4).pick())
    [0, 1, 2, 6]
    >>> SetPicker(RandomInteger(0, 2, seed=1), 3, max_tries=50).pick()
    Traceback (most recent call last):
    ...
    synthia.core.exceptions.GiveUp: SetPicker found only 2 distinct values of RandomInteger(0, 2) for a size of 3 (50 draws in a row added nothing)
    """

    inputs_fields = ("element", "size")

    def __init__(self, element: Picker[Any], size: Any, max_tries: int = 1000) -> None:
        self.element = as_picker(element, "element", numbers=False)
        self.size = _length_input(size, "size")
        self.max_tries = check_int(max_tries, "max_tries", minimum=1)

    def pick(self) -> set[Any]:
        n = _draw_length(self.size, "size")
        out: set[Any] = set()
        pick, misses = self.element.pick, 0
        while len(out) < n:
            before = len(out)
            out.add(pick())
            if len(out) == before:
                misses += 1
                if misses >= self.max_tries:
                    raise GiveUp(
                        f"SetPicker found only {len(out)} distinct values of {self.element!r} for a size of {n}"
                        f" ({misses} draws in a row added nothing)"
                    )
            else:
                misses = 0
        return out

    def in_domain(self, value: Any) -> bool | None:
        if not isinstance(value, (set, frozenset)) or self.size.in_domain(len(value)) is False:
            return False
        verdicts = [self.element.in_domain(v) for v in value]
        return False if False in verdicts else (None if None in verdicts else self.size.in_domain(len(value)))

    def shrink(self, value: set[Any], decision: Picker[float] | None = None, magnitude: float = 1.0) -> Picker[set[Any]]:
        check_magnitude(magnitude)
        sizes = [k for k in range(len(value)) if self.size.in_domain(k) is not False]
        if not sizes:
            return Nothing()
        items = sorted(value, key=simplicity)
        top = max(1, round(len(sizes) * magnitude))

        def subset(u: float) -> set[Any]:
            k = sizes[min(int(u * top), top - 1)]
            return set(items[:k])

        from .basic import Apply
        from .scalars import RandomFloat

        return Apply(subset, RandomFloat(seed=shrink_seed(decision)))

    def _arguments(self) -> tuple[list[Any], dict[str, Any]]:
        kwargs = {} if self.max_tries == 1000 else {"max_tries": self.max_tries}
        return [self.element, self.size], kwargs


PickSet = SetPicker


class SmallerTuple(RandomPicker[tuple[Any, ...]], Shrinkable[tuple[Any, ...]]):
    """Tuples lexicographically smaller than ``reference``: what shrinking a tuple picker gives.

    Each pick shrinks **one** component through its own picker's ``shrink`` and keeps
    the others, so one argument can shrink while another stays (the Java
    ``ArrayPicker`` required every component to shrink at once). Components that
    cannot shrink are never chosen.
    """

    inputs_fields = ("components",)

    def __init__(self, components: list[Picker[Any]], reference: tuple[Any, ...], magnitude: float = 1.0, *, seed: int | None = None) -> None:
        self.components = components
        self.reference = tuple(reference)
        self.magnitude = magnitude
        self._init_stream(seed)
        from .collections import _StreamDecision

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

    Shrinking order: lexicographic, each item in its picker's order; a shrunk
    array changes one component at a time (:class:`SmallerTuple`).

    >>> from synthia import Tick, Constant
    >>> ArrayPicker(Tick(0, 1), Constant("x")).take(2)
    [(0, 'x'), (1, 'x')]
    """

    inputs_fields = ("pickers",)

    def __init__(self, *pickers: Picker[Any]) -> None:
        if not pickers:
            raise ValueError("ArrayPicker needs at least one picker, got none")
        self.pickers = [as_picker(p, f"pickers[{i}]", numbers=False) for i, p in enumerate(pickers)]

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


class RandomSubList(RandomPicker[list[T]], Shrinkable[list[T]]):
    """A sub-list of ``values`` in their order: each element is kept with probability ``keep``.

    Shrinking: ``shrink(v)`` gives the shorter sub-lists of ``v`` (still sub-lists
    of ``values``).

    >>> RandomSubList([1, 2, 3, 4, 5, 6], seed=2).take(2)
    [[2, 5, 6], [4, 6]]
    """

    def __init__(self, values: Iterable[T], keep: float = 0.5, *, seed: int | None = None) -> None:
        self.values = check_values(values)
        self.keep = check_probability(keep, "keep")
        self._init_stream(seed)

    def pick(self) -> list[T]:
        boolean, keep = self._stream.boolean, self.keep
        return [v for v in self.values if boolean(keep)]

    def in_domain(self, value: Any) -> bool:
        if not isinstance(value, list):
            return False
        position = 0
        for item in value:  # a sub-list: the items appear in order
            while position < len(self.values) and self.values[position] != item:
                position += 1
            if position == len(self.values):
                return False
            position += 1
        return True

    def shrink(self, value: list[T], decision: Picker[float] | None = None, magnitude: float = 1.0) -> Picker[list[T]]:
        check_magnitude(magnitude)
        if not value:
            return Nothing()
        n = len(value)
        return PickIf(RandomSubList(value, keep=0.5 * magnitude, seed=shrink_seed(decision)), lambda s: len(s) < n)

    def _arguments(self) -> tuple[list[Any], dict[str, Any]]:
        return [self.values], ({} if self.keep == 0.5 else {"keep": self.keep})


class Scramble(Seedable[T], Bounded[T]):
    """Values of ``picker`` played back in shuffled batches.

    Each batch takes ``count`` values (an int or a picker of ints) from the input,
    shuffles them with this picker's stream, and plays them back. With
    ``count=None`` the batch is the whole input (which must end): the input's
    values in a random order, then :class:`~synthia.NoMoreElements`.

    >>> from synthia import Playback
    >>> Scramble(Playback([1, 2, 3, 4], loop=False), seed=5).take(10)
    [2, 1, 4, 3]
    >>> Scramble(Playback("abc"), count=3, seed=1).take(6)
    ['b', 'a', 'c', 'b', 'c', 'a']
    """

    inputs_fields = ("picker", "count")

    def __init__(self, picker: Picker[T], count: Any = None, *, seed: int | None = None) -> None:
        self.picker = as_picker(picker, "picker", numbers=False)
        self.count = None if count is None else _length_input(count, "count")
        self._batch: list[T] = []
        self._position = 0
        self._exhausted = False
        self._init_stream(seed)

    def _fill(self) -> None:
        if self.count is None:
            batch: list[T] = []
            try:
                while True:
                    batch.append(self.picker.pick())
            except NoMoreElements:
                self._exhausted = True
        else:
            n = _draw_length(self.count, "count")
            batch = []
            try:
                for _ in range(n):
                    batch.append(self.picker.pick())
            except NoMoreElements:
                self._exhausted = True
        shuffle(self._stream, batch)
        self._batch, self._position = batch, 0

    def pick(self) -> T:
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

    def _reset_self(self) -> None:
        super()._reset_self()
        self._batch, self._position, self._exhausted = [], 0, False

    def _arguments(self) -> tuple[list[Any], dict[str, Any]]:
        return [self.picker], ({} if self.count is None else {"count": self.count})
