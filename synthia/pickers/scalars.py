"""Uniform random scalars: :class:`RandomInteger`, :class:`RandomFloat`, :class:`RandomBoolean`.

Each owns its stream (see :mod:`synthia.core.random` for the exact mapping from
bits to values).
"""
from __future__ import annotations

from typing import Any, Callable

import math

from ..core.checks import check_int, check_number, check_probability, check_range
from ..core.picker import RandomPicker, Reactive, Shrinkable

__all__ = ["RandomInteger", "RandomFloat", "RandomBoolean"]


class RandomInteger(RandomPicker[int], Reactive[int], Shrinkable[int]):
    """A uniform integer in ``[low, high)``, like :func:`range`.

    ``RandomInteger(high)`` draws from ``[0, high)``. ``tell(high)`` moves the upper bound.

    Simplest value: the one closest to zero, the positive one first at equal distance
    (``0, 1, -1, 2, -2, ...``: the draws' order).

    >>> RandomInteger(0, 10, seed=1).take(5)
    [4, 6, 4, 9, 4]
    >>> RandomInteger(5, 5)
    Traceback (most recent call last):
    ...
    ValueError: high must be greater than low, got low=5, high=5 (ranges are half-open like range(): [5, 5) is empty)
    """

    def __init__(self, low: int, high: int | None = None, *, seed: int | None = None) -> None:
        if high is None:
            low, high = 0, low
        if low.__class__ is int and high.__class__ is int and low < high:  # (what the checks pass as is)
            self.low, self.high = low, high
        else:
            self.low = check_int(low, "low")
            self.high = check_int(high, "high")
            check_range(self.low, self.high)
        self._init_stream(seed)

    def sampler(self) -> Callable[[], int]:
        return self.stream.integer_sampler(self.low, self.high)

    def take_array(self, n: int) -> Any:
        """The next ``n`` values as a numpy ``int64`` array: the values of ``take(n)``, drawn
        in one vectorised batch (see :meth:`~synthia.Picker.take_array`).

        >>> RandomInteger(0, 10, seed=1).take_array(5).tolist()
        [4, 6, 4, 9, 4]
        """
        import numpy as np

        stream = self._batch_stream(n)
        if stream is None or not (-(2**63) <= self.low and self.high <= 2**63):
            return np.array(self.take(n))
        values = stream.below_array(n, self.high - self.low).astype(np.int64)
        if self.low:
            values += self.low
        return values

    def tell(self, value: Any) -> None:
        """Set the exclusive upper bound to ``value`` (must stay above ``low``)."""
        high = check_int(value, "high")
        check_range(self.low, high)
        self.high = high
        self._bind()

    def value_range(self) -> tuple[int, int]:
        return self.low, self.high

    def arguments(self) -> tuple[list[Any], dict[str, Any]]:
        return [self.low, self.high], {}


class RandomFloat(RandomPicker[float], Shrinkable[float]):
    """A uniform float in ``[low, high)``.

    Simplest value: the integral one closest to zero (the float draws' order: integral
    values first, then by distance to zero).

    >>> [round(x, 3) for x in RandomFloat(seed=1).take(3)]
    [0.758, 0.389, 0.592]
    """

    def __init__(self, low: float = 0.0, high: float = 1.0, *, seed: int | None = None) -> None:
        if low.__class__ is float and high.__class__ is float and -math.inf < low < high < math.inf:  # (what the checks pass as is)
            self.low, self.high = low, high
        else:
            self.low = _float(low, "low")
            self.high = _float(high, "high")
            check_range(self.low, self.high)
        self._init_stream(seed)

    def value_range(self) -> tuple[float, float]:
        return self.low, self.high

    def sampler(self) -> Callable[[], float]:
        return self.stream.floating_sampler(self.low, self.high)

    def take_array(self, n: int) -> Any:
        """The next ``n`` values as a numpy ``float64`` array: the values of ``take(n)``,
        drawn in one vectorised batch (see :meth:`~synthia.Picker.take_array`).

        >>> RandomFloat(-1.0, 1.0, seed=1).take_array(3).tolist() == RandomFloat(-1.0, 1.0, seed=1).take(3)
        True
        """
        import numpy as np

        stream = self._batch_stream(n)
        low, high = self.low, self.high
        if stream is None or high - low == math.inf:
            return np.array(self.take(n), dtype=np.float64)
        units = stream.unit_array(n)
        if low == 0.0 and high == 1.0:
            return units
        values = low + (high - low) * units
        values[~(values < high)] = low
        return values

    def arguments(self) -> tuple[list[Any], dict[str, Any]]:
        if self.low == 0.0 and self.high == 1.0:
            return [], {}
        return [self.low, self.high], {}


def _float(value: Any, name: str) -> float:
    """A finite bound as a float (an int beyond the float range is refused, naming it)."""
    number = check_number(value, name)
    try:
        return float(number)
    except OverflowError:
        raise ValueError(f"{name} must be within the float range (about 1.8e308), got {number!r}") from None


class RandomBoolean(RandomPicker[bool], Reactive[bool], Shrinkable[bool]):
    """``True`` with probability ``p``; ``tell(p)`` changes ``p``.

    Simplest value: ``False``.

    >>> RandomBoolean(0.3, seed=2).take(5)
    [False, False, False, False, False]
    """

    def __init__(self, p: float = 0.5, *, seed: int | None = None) -> None:
        self.p = check_probability(p, "p")
        self._init_stream(seed)

    def sampler(self) -> Callable[[], bool]:
        return self.stream.boolean_sampler(self.p)

    def finite_values(self) -> tuple[bool, ...]:
        return tuple(v for v in (False, True) if (self.p > 0 if v else self.p < 1))

    def take_array(self, n: int) -> Any:
        """The next ``n`` values as a numpy ``bool`` array: the values of ``take(n)``, drawn
        in one vectorised batch (see :meth:`~synthia.Picker.take_array`).

        >>> RandomBoolean(0.3, seed=2).take_array(5).tolist()
        [False, False, False, False, False]
        """
        import numpy as np

        stream = self._batch_stream(n)
        if stream is None:
            return np.array(self.take(n), dtype=bool)
        return stream.unit_array(n) < self.p

    def tell(self, value: Any) -> None:
        """Set the probability of ``True``."""
        self.p = check_probability(value, "p")
        self._bind()

    def arguments(self) -> tuple[list[Any], dict[str, Any]]:
        return ([] if self.p == 0.5 else [self.p]), {}


