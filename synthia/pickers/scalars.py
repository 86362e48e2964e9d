"""Uniform random scalars: :class:`RandomInteger`, :class:`RandomFloat`, :class:`RandomBoolean`.

Each owns its stream (see :mod:`synthia.core.random` for the exact mapping from
bits to values).
"""
from __future__ import annotations

from typing import Any

from ..core.checks import check_int, check_number, check_probability
from ..core.picker import RandomPicker, Reactive

__all__ = ["RandomInteger", "RandomFloat", "RandomBoolean"]


class RandomInteger(RandomPicker[int], Reactive[int]):
    """A uniform integer in ``[low, high)``, like :func:`range`.

    ``RandomInteger(high)`` draws from ``[0, high)``. ``tell(high)`` moves the upper bound.

    >>> RandomInteger(0, 10, seed=1).take(5)
    [4, 6, 4, 9, 4]
    >>> RandomInteger(5, 5)
    Traceback (most recent call last):
    ...
    ValueError: high must be greater than low, got low=5, high=5
    """

    def __init__(self, low: int, high: int | None = None, *, seed: int | None = None) -> None:
        if high is None:
            low, high = 0, low
        self.low = check_int(low, "low")
        self.high = check_int(high, "high")
        if self.high <= self.low:
            raise ValueError(f"high must be greater than low, got low={self.low}, high={self.high}")
        self._span = self.high - self.low
        self._bits = self._span.bit_length()
        self._init_stream(seed)

    def pick(self) -> int:
        n = self._span
        k = self._bits
        getrandbits = self._stream.getrandbits
        r = getrandbits(k)
        while r >= n:
            r = getrandbits(k)
        return self.low + r

    def tell(self, value: Any) -> None:
        """Set the exclusive upper bound to ``value`` (must stay above ``low``)."""
        high = check_int(value, "high")
        if high <= self.low:
            raise ValueError(f"high must be greater than low, got low={self.low}, high={high}")
        self.high = high
        self._span = high - self.low
        self._bits = self._span.bit_length()

    def _arguments(self) -> tuple[list[Any], dict[str, Any]]:
        return [self.low, self.high], {}


class RandomFloat(RandomPicker[float]):
    """A uniform float in ``[low, high)``.

    >>> [round(x, 3) for x in RandomFloat(seed=1).take(3)]
    [0.758, 0.389, 0.592]
    """

    def __init__(self, low: float = 0.0, high: float = 1.0, *, seed: int | None = None) -> None:
        self.low = float(check_number(low, "low"))
        self.high = float(check_number(high, "high"))
        if self.high <= self.low:
            raise ValueError(f"high must be greater than low, got low={self.low}, high={self.high}")
        self._width = self.high - self.low
        self._init_stream(seed)

    def pick(self) -> float:
        value = self.low + self._width * self._stream.random()
        # low + width * u can round up to high; the range is half-open.
        return value if value < self.high else self.low

    def _arguments(self) -> tuple[list[Any], dict[str, Any]]:
        if self.low == 0.0 and self.high == 1.0:
            return [], {}
        return [self.low, self.high], {}


class RandomBoolean(RandomPicker[bool], Reactive[bool]):
    """``True`` with probability ``p``; ``tell(p)`` changes ``p``.

    >>> RandomBoolean(0.3, seed=2).take(5)
    [False, False, False, False, False]
    """

    def __init__(self, p: float = 0.5, *, seed: int | None = None) -> None:
        self.p = check_probability(p, "p")
        self._init_stream(seed)

    def pick(self) -> bool:
        return self._stream.random() < self.p

    def tell(self, value: Any) -> None:
        """Set the probability of ``True``."""
        self.p = check_probability(value, "p")

    def _arguments(self) -> tuple[list[Any], dict[str, Any]]:
        return ([] if self.p == 0.5 else [self.p]), {}
