"""Uniform random scalars: :class:`RandomInteger`, :class:`RandomFloat`, :class:`RandomBoolean`.

Each owns its stream (see :mod:`synthia.core.random` for the exact mapping from
bits to values).
"""
from __future__ import annotations

from typing import Any

import math

from ..core.checks import check_int, check_number, check_probability, check_range
from ..core.leaves import DrawSpec
from ..core.tapes import BOOLEAN, FLOAT, INTEGER
from ..core.picker import RandomPicker, Reactive, held_sampler
from ..core.random import DERIVING, ROUTE, MixStream
from ..core.shrinking import Shrinkable

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
        if seed is None:
            deriving = DERIVING.get()
            if deriving is not None and deriving.light and not self._rebinds:
                # Built inside a plain Bind's pick: _init_stream's light stream, inlined (a Bind builds many).
                index = deriving.count = deriving.count + 1
                stream: Any = MixStream(None, deriving.root, index)
                route = ROUTE.get()
                self._stream = stream if route is None else route.join(stream)
                return
        self._init_stream(seed)

    def _fast(self) -> int:
        # Until it holds its sampler: the first pick is draw_once(stream, draw_spec()) made
        # directly (a picker a Bind builds is picked once); the second makes the sampler.
        if self._picked == 0:
            self._picked = 1
            return self._stream.integer(self.low, self.high)  # type: ignore[no-any-return]
        return held_sampler(self)  # type: ignore[no-any-return]

    def draw_spec(self) -> DrawSpec:
        """One integer draw of ``[low, high)``: the draw is the value.

        >>> RandomInteger(0, 10, seed=1).take_array(5).tolist()
        [4, 6, 4, 9, 4]
        """
        return DrawSpec(INTEGER, (self.low, self.high))

    def tell(self, value: Any) -> None:
        """Set the exclusive upper bound to ``value`` (must stay above ``low``)."""
        high = check_int(value, "high")
        check_range(self.low, high)
        self.high = high
        self._bind()

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

    def _fast(self) -> float:
        # Until it holds its sampler: the first pick made directly (see RandomInteger._fast).
        if self._picked == 0:
            self._picked = 1
            return self._stream.floating(self.low, self.high)  # type: ignore[no-any-return]
        return held_sampler(self)  # type: ignore[no-any-return]

    def draw_spec(self) -> DrawSpec:
        """One float draw of ``[low, high)``: the draw is the value.

        >>> RandomFloat(-1.0, 1.0, seed=1).take_array(3).tolist() == RandomFloat(-1.0, 1.0, seed=1).take(3)
        True
        """
        return DrawSpec(FLOAT, (self.low, self.high))

    def arguments(self) -> tuple[list[Any], dict[str, Any]]:
        if self.low == 0.0 and self.high == 1.0:
            return [], {}
        return [self.low, self.high], {}


def claimed_unit(slot: tuple[int, int], drawn: bool) -> RandomFloat:
    """The ``RandomFloat()`` that would have been built for the claimed light stream ``slot``
    (:func:`~synthia.core.claims.claim`), built now, after its first pick if ``drawn``: what a
    composite that claimed it instead of building it gives when its input is read."""
    unit = RandomFloat.__new__(RandomFloat)
    unit.low, unit.high = 0.0, 1.0
    stream: Any = MixStream(None, slot[0], slot[1])
    unit._stream = stream  # (what _init_stream gives in a light block)
    if drawn:
        unit._fast()  # its first pick again: the same stream and state
    return unit


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

    def _fast(self) -> bool:
        # Until it holds its sampler: the first pick made directly (see RandomInteger._fast).
        if self._picked == 0:
            self._picked = 1
            return self._stream.boolean(self.p)  # type: ignore[no-any-return]
        return held_sampler(self)  # type: ignore[no-any-return]

    def draw_spec(self) -> DrawSpec:
        """One boolean draw of probability ``p``: the draw is the value.

        >>> RandomBoolean(0.3, seed=2).take_array(5).tolist()
        [False, False, False, False, False]
        """
        return DrawSpec(BOOLEAN, (self.p,))

    def tell(self, value: Any) -> None:
        """Set the probability of ``True``."""
        self.p = check_probability(value, "p")
        self._bind()

    def arguments(self) -> tuple[list[Any], dict[str, Any]]:
        return ([] if self.p == 0.5 else [self.p]), {}
