"""Pickers that produce sequences over time: :class:`Tick` and :class:`Playback`."""
from __future__ import annotations

from typing import Any, Iterable, TypeVar

from ..core.checks import check_bool, check_int, check_values
from ..core.constant import Nothing
from ..core.exceptions import NoMoreElements
from ..core.picker import UNSET, Bounded, Picker, Shrinkable, as_picker
from ..core.random import Stream, stream_seed
from ..core.shrinking import decision_or_default, shrink_seed, simplicity

__all__ = ["Tick", "Playback", "shrink_trace"]

T = TypeVar("T")


class Tick(Shrinkable[Any]):
    """A counter: the first value is a pick of ``start``, each next one adds a pick of ``increment``.

    Shrinking (in the numbers' order, closest to zero first) falls back on
    :class:`~synthia.PickSmaller` over a fresh copy: the earlier values of the
    counter that are simpler than the one given.

    ``start`` and ``increment`` are numbers or pickers of numbers; values stay
    ints when both give ints.

    >>> Tick(10, 5).take(4)
    [10, 15, 20, 25]
    >>> from synthia import RandomInteger
    >>> Tick(0, RandomInteger(1, 3, seed=1)).take(5)
    [0, 2, 3, 4, 5]
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

    def shrink(self, value: Any, decision: Picker[float] | None = None, magnitude: float = 1.0) -> Picker[Any]:
        from .filters import PickSmaller

        return PickSmaller(self.duplicate(), value, key=simplicity, max_tries=1000)

    def _arguments(self) -> tuple[list[Any], dict[str, Any]]:
        return [self.start, self.increment], {}


class Playback(Bounded[T], Shrinkable[T]):
    """Plays back a fixed list of values, looping by default.

    ``start`` is the index of the first value. A non-looping playback raises
    :class:`~synthia.NoMoreElements` after the last value; an empty one is done
    at once.

    Shrinking a value gives the listed values simpler than it (in the generic
    order); :meth:`shrink_sequence` shrinks the *sequence played so far* into a
    shorter subsequence, for traces.

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

    def in_domain(self, value: Any) -> bool:
        return any(value == v for v in self.values)

    def shrink(self, value: T, decision: Picker[float] | None = None, magnitude: float = 1.0) -> Picker[T]:
        smaller = [v for v in self.values if simplicity(v) < simplicity(value)]
        if not smaller:
            return Nothing()
        from .bounded import AllElements

        return AllElements(smaller, scramble=True, loop=True, seed=shrink_seed(decision))

    def shrink_sequence(self, decision: Picker[float] | None = None, magnitude: float = 1.0) -> "Playback[T]":
        """A non-looping playback of a shorter subsequence of :attr:`played` (order kept).

        It keeps ``floor(magnitude * n)`` of the ``n`` values played (at most ``n - 1``),
        chosen with ``decision``; with nothing played, an empty playback.
        """
        return shrink_trace(self.played, decision, magnitude)

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


def shrink_trace(trace: list[T], decision: Picker[float] | None = None, magnitude: float = 1.0) -> Playback[T]:
    """A non-looping :class:`Playback` of a random subsequence of ``trace``, strictly shorter.

    ``floor(magnitude * n)`` values are kept (at most ``n - 1``), chosen with ``decision``.
    """
    n = len(trace)
    if n == 0:
        return Playback([], loop=False)
    keep = min(n - 1, int(magnitude * n))
    stream = Stream(stream_seed(shrink_seed(decision_or_default(decision))))
    indices = list(range(n))
    for i in range(keep):  # a partial Fisher-Yates: the first ``keep`` indices of a permutation
        j = i + stream.below(n - i)
        indices[i], indices[j] = indices[j], indices[i]
    return Playback([trace[i] for i in sorted(indices[:keep])], loop=False)
