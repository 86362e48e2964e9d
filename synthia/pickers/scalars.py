"""Uniform random scalars: :class:`RandomInteger`, :class:`RandomFloat`, :class:`RandomBoolean`.

Each owns its stream (see :mod:`synthia.core.random` for the exact mapping from
bits to values).
"""
from __future__ import annotations

from typing import Any

import math

from ..core.checks import check_int, check_magnitude, check_number, check_probability, check_range
from ..core.constant import Constant, Nothing
from ..core.picker import Picker, RandomPicker, Reactive, Shrinkable, sampled
from ..core.shrinking import shrink_seed, simplest_in, smaller_int_range

__all__ = ["RandomInteger", "RandomFloat", "RandomBoolean"]


class RandomInteger(RandomPicker[int], Reactive[int], Shrinkable[int]):
    """A uniform integer in ``[low, high)``, like :func:`range`.

    ``RandomInteger(high)`` draws from ``[0, high)``. ``tell(high)`` moves the upper bound.

    Shrinking order: closest to zero first, the positive one first at equal distance
    (``0, 1, -1, 2, -2, ...``); ``shrink(v)`` gives a picker of the ints of
    ``[low, high)`` simpler than ``v``, or :class:`~synthia.Nothing`.

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
        self.low = check_int(low, "low")
        self.high = check_int(high, "high")
        check_range(self.low, self.high)
        self._init_stream(seed)

    def _bind(self) -> None:
        self._hold(self._stream.integer_sampler(self.low, self.high))

    @sampled
    def pick(self) -> int:
        return self._draw()  # type: ignore[no-any-return]

    def in_domain(self, value: Any) -> bool:
        return isinstance(value, int) and not isinstance(value, bool) and self.low <= value < self.high

    def shrink(self, value: int, decision: Picker[float] | None = None, magnitude: float = 1.0) -> Picker[int]:
        """A picker of the ints of this range simpler than ``value`` (see the class docstring)."""
        return shrink_integer(value, self.low, self.high, decision, magnitude)

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

    def _arguments(self) -> tuple[list[Any], dict[str, Any]]:
        return [self.low, self.high], {}


class RandomFloat(RandomPicker[float], Shrinkable[float]):
    """A uniform float in ``[low, high)``.

    Shrinking order: closest to zero first (positive first at equal distance);
    shrunk pickers also propose integral values, so repeated shrinking reaches the
    simplest value in few steps.

    >>> [round(x, 3) for x in RandomFloat(seed=1).take(3)]
    [0.758, 0.389, 0.592]
    """

    def __init__(self, low: float = 0.0, high: float = 1.0, *, seed: int | None = None) -> None:
        self.low = _float(low, "low")
        self.high = _float(high, "high")
        check_range(self.low, self.high)
        self._init_stream(seed)

    def value_range(self) -> tuple[float, float]:
        return self.low, self.high

    def _bind(self) -> None:
        self._hold(self._stream.floating_sampler(self.low, self.high))

    @sampled
    def pick(self) -> float:
        return self._draw()  # type: ignore[no-any-return]

    def in_domain(self, value: Any) -> bool:
        return isinstance(value, float) and self.low <= value < self.high

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

    def shrink(self, value: float, decision: Picker[float] | None = None, magnitude: float = 1.0) -> Picker[float]:
        """A picker of the floats of this range simpler than ``value``."""
        return shrink_float(value, self.low, self.high, decision, magnitude)

    def _arguments(self) -> tuple[list[Any], dict[str, Any]]:
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

    Shrinking order: ``False < True``.

    >>> RandomBoolean(0.3, seed=2).take(5)
    [False, False, False, False, False]
    """

    def __init__(self, p: float = 0.5, *, seed: int | None = None) -> None:
        self.p = check_probability(p, "p")
        self._init_stream(seed)

    def _bind(self) -> None:
        self._hold(self._stream.boolean_sampler(self.p))

    @sampled
    def pick(self) -> bool:
        return self._draw()  # type: ignore[no-any-return]

    def in_domain(self, value: Any) -> bool:
        return (value is True and self.p > 0) or (value is False and self.p < 1)

    def finite_values(self) -> tuple[bool, ...]:
        return tuple(v for v in (False, True) if self.in_domain(v))

    def shrink(self, value: bool, decision: Picker[float] | None = None, magnitude: float = 1.0) -> Picker[bool]:
        """``True`` shrinks to ``Constant(False)`` (when ``False`` is possible), ``False`` to ``Nothing``."""
        check_magnitude(magnitude)
        return Constant(False) if value is True and self.p < 1 else Nothing()

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

    def _arguments(self) -> tuple[list[Any], dict[str, Any]]:
        return ([] if self.p == 0.5 else [self.p]), {}


class SmallerInteger(RandomInteger):
    """The ints of ``[low, high)`` simpler than ``reference``: what shrinking an int gives.

    Each pick is the simplest value of the range (20% of the time), a uniform value
    (25%), the neighbour of ``reference`` one step towards the simplest value (15%),
    or a step towards it whose size is log-uniform (40%): big cuts and the single
    steps that finish a search are both likely.
    """

    def __init__(self, low: int, high: int, reference: int, *, seed: int | None = None) -> None:
        super().__init__(low, high, seed=seed)
        self.reference = reference
        self._target = int(simplest_in(low, high, integer=True))

    def pick(self) -> int:
        stream = self._stream
        r = stream.unit()
        if r < 0.2:
            return self._target
        if r < 0.45:
            return super().pick()
        distance = abs(self.reference - self._target)
        if r < 0.6 or distance <= 1:
            step = 1
        else:
            step = 1 + stream.below(1 << stream.below(distance.bit_length()))
        step = min(step, distance)
        value = self.reference - step if self.reference > self._target else self.reference + step
        return value if self.low <= value < self.high else super().pick()

    def _arguments(self) -> tuple[list[Any], dict[str, Any]]:
        return [self.low, self.high, self.reference], {}


class SmallerFloat(RandomFloat):
    """The floats of ``[low, high)`` simpler than ``reference``: what shrinking a float gives.

    Each pick is the simplest value, a uniform value, the uniform value truncated
    to an integer, or a step from ``reference`` towards zero of log-uniform size
    (each a quarter of the time, falling back on the uniform value when a proposal
    leaves the range).
    """

    def __init__(self, low: float, high: float, reference: float, *, seed: int | None = None) -> None:
        super().__init__(low, high, seed=seed)
        self.reference = float(reference)
        self._target = simplest_in(low, high, integer=False)

    def pick(self) -> float:
        stream = self._stream
        r = stream.unit()
        uniform = super().pick()
        if r < 0.25:
            value = self._target
        elif r < 0.5:
            value = uniform
        elif r < 0.75:
            value = float(math.trunc(uniform))
        else:
            value = self.reference - (self.reference - self._target) * 2.0 ** -stream.below(60)
        return value if self.low <= value < self.high and abs(value) < abs(self.reference) or (
            value == -self.reference and value > 0 and self.low <= value < self.high
        ) else uniform

    def _arguments(self) -> tuple[list[Any], dict[str, Any]]:
        return [self.low, self.high, self.reference], {}


def shrink_integer(
    value: int, low: int, high: int | None, decision: Picker[float] | None = None, magnitude: float = 1.0
) -> Picker[int]:
    """A picker of the ints of ``[low, high)`` (``high=None``: unbounded) simpler than ``value``."""
    check_magnitude(magnitude)
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"value must be an int, got {value!r}")
    span = smaller_int_range(value, low, high, magnitude)
    if span is None:
        return Nothing()
    return SmallerInteger(span[0], span[1], value, seed=shrink_seed(decision))


def shrink_float(
    value: float, low: float, high: float, decision: Picker[float] | None = None, magnitude: float = 1.0
) -> Picker[float]:
    """A picker of the floats of ``[low, high)`` simpler than ``value`` (infinite bounds allowed)."""
    check_magnitude(magnitude)
    value = float(value)
    if math.isnan(value) or math.isinf(value):
        lo, hi = max(low, -1e300), min(high, 1e300)
        return SmallerFloat(lo, hi, math.copysign(1e300, value), seed=shrink_seed(decision)) if lo < hi else Nothing()
    size = abs(value) * magnitude
    if magnitude < 1 and size == 0:
        size = abs(value)
    lo = max(low, math.nextafter(-size, 0.0))
    hi = min(high, size if value >= 0 else math.nextafter(abs(value), math.inf))
    if not lo < hi or value == simplest_in(low, high, integer=False):
        return Nothing()
    return SmallerFloat(lo, hi, value, seed=shrink_seed(decision))
