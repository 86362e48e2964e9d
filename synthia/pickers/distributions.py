"""Distributions: :class:`BiasedRandomFloat`, :class:`GaussianFloat`, :class:`PoissonInteger`,
and :class:`AffineTransform`, which rescales any numeric picker.

All draws are uniform floats of the picker's own stream (``unit()``, see
:mod:`synthia.core.random`); the algorithms are documented on each class so that a seed
gives the same values everywhere, and each says what its minimal draws give (what a
replay past the end of its draws, and the shrinker's first try, produce).
"""
from __future__ import annotations

import sys

import math
from typing import Any

from ..core.checks import check_float, check_int, check_number, describe
from ..core.inputs import number_input
from ..core.picker import UNSET, RandomPicker, Reactive
from ..core.shrinking import Shrinkable

__all__ = [
    "BiasedRandomFloat",
    "GaussianFloat",
    "PoissonInteger",
    "AffineTransform",
    "AffineTransformInteger",
    "AffineTransformFloat",
]

#: The largest Poisson mean: beyond 2**53 consecutive counts are not distinct floats, so the
#: sampler's arithmetic (and the distribution's meaning for a float mean) breaks down.
MAX_LAM = float(2**53)


class BiasedRandomFloat(RandomPicker[float], Shrinkable[float]):
    """A float in ``[0, 1)`` whose density leans towards 1 (``bias > 1``) or 0 (``bias < 1``).

    The value is ``u ** (1 / bias)`` for a uniform ``u``: its distribution function
    is ``P(X <= x) = x ** bias``. ``bias = 1`` is uniform. As a decision source,
    ``BiasedRandomFloat(2)`` favours the *last* elements of a sequence. The minimal
    draw gives 0.

    >>> [round(x, 3) for x in BiasedRandomFloat(3, seed=1).take(4)]
    [0.912, 0.73, 0.84, 0.995]
    """

    def __init__(self, bias: float, *, seed: int | None = None) -> None:
        self.bias = check_float(bias, "bias")
        if self.bias <= 0:
            raise ValueError(f"bias must be positive, got {bias!r}")
        try:
            self._exponent = 1.0 / self.bias
        except (ZeroDivisionError, OverflowError):
            raise ValueError(f"bias must be a positive number whose inverse is a float, got {bias!r}") from None
        self._init_stream(seed)

    def _pick(self) -> float:
        value = self._stream.unit() ** self._exponent
        return value if value < 1.0 else math.nextafter(1.0, 0.0)

    def value_range(self) -> tuple[float, float]:
        return 0.0, 1.0

    def arguments(self) -> tuple[list[Any], dict[str, Any]]:
        return [self.bias], {}


class GaussianFloat(RandomPicker[float], Shrinkable[float]):
    """A normal (Gaussian) float with the given ``mean`` and standard deviation ``sd``.

    Box-Muller: two uniforms ``u1, u2`` give ``sqrt(-2 ln(1 - u1))`` times
    ``cos(2 pi u2)`` and, for the next pick, ``sin(2 pi u2)``. The minimal draws give
    the mean.

    >>> [round(x, 3) for x in GaussianFloat(10, 2, seed=1).take(3)]
    [7.422, 12.172, 12.665]
    """

    def __init__(self, mean: float = 0.0, sd: float = 1.0, *, seed: int | None = None) -> None:
        self.mean = check_float(mean, "mean")
        self.sd = check_float(sd, "sd")
        if self.sd < 0:
            raise ValueError(f"sd must be non-negative, got {sd!r}")
        if abs(self.mean) + 10 * self.sd > sys.float_info.max:
            # Values would overflow to inf (with sd=1e308, one in eight): not a distribution of floats.
            raise ValueError(f"mean={mean!r} and sd={sd!r} make values overflow to inf: |mean| + 10 * sd must stay below {sys.float_info.max:.4g}")
        self._spare: Any = UNSET
        self._init_stream(seed)

    def _pick(self) -> float:
        spare = self._spare
        if spare is not UNSET:
            self._spare = UNSET
            return self.mean + self.sd * spare
        random = self._stream.unit
        radius = math.sqrt(-2.0 * math.log(1.0 - random()))
        angle = 2.0 * math.pi * random()
        self._spare = radius * math.sin(angle)
        return self.mean + self.sd * radius * math.cos(angle)

    def _reset_self(self) -> None:
        super()._reset_self()
        self._spare = UNSET

    def take_array(self, n: int) -> Any:
        """The next ``n`` values as a numpy ``float64`` array, in one vectorised batch: the same
        draws and the same Box-Muller formula as ``take(n)``, so the same values up to the
        last bit (numpy's ``log``, ``sin`` and ``cos`` may round differently from the C
        library's); the picker is left where ``take(n)`` leaves it (see
        :meth:`~synthia.Picker.take_array`).

        >>> import numpy as np
        >>> bool(np.allclose(GaussianFloat(10, 2, seed=1).take_array(5), GaussianFloat(10, 2, seed=1).take(5), rtol=1e-12))
        True
        """
        import numpy as np

        stream = self._batch_stream(n)
        if stream is None:
            return np.array(self.take(n), dtype=np.float64)
        out = np.empty(n, dtype=np.float64)
        start = 0
        if n and self._spare is not UNSET:
            out[0] = self.mean + self.sd * self._spare
            self._spare = UNSET
            start = 1
        pairs = (n - start + 1) // 2
        if pairs:
            units = stream.unit_array(2 * pairs)
            radius = np.sqrt(-2.0 * np.log(1.0 - units[0::2]))
            angle = (2.0 * math.pi) * units[1::2]
            normals = np.empty(2 * pairs, dtype=np.float64)
            normals[0::2] = radius * np.cos(angle)
            normals[1::2] = radius * np.sin(angle)
            out[start:] = self.mean + self.sd * normals[: n - start]
            if (n - start) % 2:  # the last sine is the next pick's spare, computed as pick() would
                u1, u2 = float(units[-2]), float(units[-1])
                self._spare = math.sqrt(-2.0 * math.log(1.0 - u1)) * math.sin(2.0 * math.pi * u2)
        return out

    def arguments(self) -> tuple[list[Any], dict[str, Any]]:
        return [self.mean, self.sd], {}


class PoissonInteger(RandomPicker[int], Reactive[int], Shrinkable[int]):
    """A Poisson-distributed count with mean ``lam`` (any ``lam > 0``); ``tell(lam)`` changes it.

    ``lam`` is at most ``2**53`` (:data:`MAX_LAM`). For ``lam < 30``, Knuth's method (multiply uniforms until the product drops
    below ``exp(-lam)``; the minimal draw gives 0); above, Hörmann's transformed
    rejection (PTRS), which works in constant expected time and uses ``lgamma``, so no
    factorial overflows. Its first uniform is centred (``u = frac(u0 + 1/2) - 1/2``) and
    its second is used as drawn, so the minimal draws give ``floor(lam + 0.43)``, the
    mode (a replay of simple draws stays in the bulk of the distribution).

    >>> PoissonInteger(4, seed=1).take(6)
    [6, 4, 3, 3, 3, 5]
    """

    def __init__(self, lam: float, *, seed: int | None = None) -> None:
        self._set_lam(lam)
        self._init_stream(seed)

    def _set_lam(self, lam: Any) -> None:
        lam = check_number(lam, "lam")
        if not 0 < lam <= MAX_LAM:
            raise ValueError(f"lam must be positive and at most 2**53, got {lam!r}")
        lam = float(lam)
        self.lam = lam
        self._limit = math.exp(-lam)
        if lam < 30:  # the constants of the rejection method are only defined (and used) above 30
            return
        root = math.sqrt(lam)
        self._b = 0.931 + 2.53 * root
        self._a = -0.059 + 0.02483 * self._b
        self._log_inv_alpha = math.log(1.1239 + 1.1328 / (self._b - 3.4))
        self._vr = 0.9277 - 3.6224 / (self._b - 2)
        self._log_lam = math.log(lam)

    def tell(self, value: Any) -> None:
        """Set the mean ``lam``."""
        self._set_lam(value)

    def _pick(self) -> int:
        random = self._stream.unit
        if self.lam < 30:
            k, product = 0, random()
            while product > self._limit:
                k += 1
                product *= random()
            return k
        a, b, lam = self._a, self._b, self.lam
        while True:
            u = (random() + 0.5) % 1.0 - 0.5
            v = random() or 5e-324  # (0, 1]: log(v) must stay finite
            us = 0.5 - abs(u)
            if us <= 0.0:
                continue  # u = -1/2 exactly: the transform is undefined there
            k = math.floor((2.0 * a / us + b) * u + lam + 0.43)
            if us >= 0.07 and v <= self._vr:
                return k
            if k < 0 or (us < 0.013 and v > us):
                continue
            if math.log(v) + self._log_inv_alpha - math.log(a / (us * us) + b) <= -lam + k * self._log_lam - math.lgamma(k + 1):
                return k

    def arguments(self) -> tuple[list[Any], dict[str, Any]]:
        return [self.lam], {}


class AffineTransform(Shrinkable[Any]):
    """``m * x + b`` for each value ``x`` of ``picker``.

    Python arithmetic decides the type: with an int input and int ``m`` and ``b``
    the values stay ints (the integer form); otherwise they are floats (the float
    form). ``m`` must not be zero, so every value maps back to the input that
    made it (``(y - b) / m``). Shrinking lowers the input's draws, so values stay
    in the domain (an ``AffineTransform(x, 2, 1)`` stays odd).

    >>> from synthia import RandomFloat, RandomInteger
    >>> AffineTransform(RandomInteger(0, 10, seed=1), 3, 1).take(4)
    [13, 19, 13, 28]
    >>> import math
    >>> angle = AffineTransform(RandomFloat(seed=1), 2 * math.pi, 0)
    >>> 0 <= angle.pick() < 2 * math.pi
    True
    """

    inputs_fields = ("picker",)

    def __init__(self, picker: Any, m: float = 1, b: float = 0) -> None:
        self.picker = number_input(picker, "picker")
        self.m = check_number(m, "m")
        self.b = check_number(b, "b")
        if self.m == 0:
            raise ValueError(f"m must not be zero, got {m!r}")

    def _pick(self) -> Any:
        x = self.picker.pick()
        try:
            y = self.m * x + self.b
        except TypeError:
            raise TypeError(f"{type(self).__name__} needs numbers, got {describe(x)} from picker {self.picker!r}") from None
        except OverflowError:  # an int beyond the float range times a float
            raise self._overflow(x) from None
        if y.__class__ is float and y - y != 0.0 and x - x == 0.0:  # finite in, inf or NaN out
            raise self._overflow(x)
        return y

    def _overflow(self, x: Any) -> ValueError:
        return ValueError(
            f"{type(self).__name__}: m * x + b leaves the float range for x={describe(x)} from picker {self.picker!r},"
            f" with m={describe(self.m)} and b={describe(self.b)}: choose a smaller m or b"
        )

    def inverse(self, value: Any) -> Any:
        """The input value that gives ``value`` (floor division for the integer form)."""
        if isinstance(value, int) and isinstance(self.m, int) and isinstance(self.b, int):
            return (value - self.b) // self.m
        return (value - self.b) / self.m

    def arguments(self) -> tuple[list[Any], dict[str, Any]]:
        return [self.picker, self.m, self.b], {}


class AffineTransformInteger(AffineTransform):
    """The integer form of :class:`AffineTransform`, under its Java name: ``m`` and ``b`` are
    ints and every value is ``m * x + b`` truncated towards zero to an int, as the Java
    original truncated (so a float input works too).

    >>> from synthia import RandomFloat
    >>> AffineTransformInteger(RandomFloat(0, 10, seed=1), 2, 1).take(3)
    [16, 8, 12]
    """

    def __init__(self, picker: Any, m: int = 1, b: int = 0) -> None:
        super().__init__(picker, check_int(m, "m"), check_int(b, "b"))

    def _pick(self) -> Any:
        x = self.picker.pick()
        try:
            return math.trunc(self.m * x + self.b)
        except (TypeError, ValueError, OverflowError):
            raise ValueError(
                f"AffineTransformInteger needs m * x + b finite, got x={describe(x)} from picker {self.picker!r}, with m={describe(self.m)} and b={describe(self.b)}"
            ) from None



class AffineTransformFloat(AffineTransform):
    """The float form of :class:`AffineTransform`, under its Java name: every value is the
    float ``m * x + b``, whatever the types of the input, ``m`` and ``b``.

    >>> from synthia import RandomInteger
    >>> AffineTransformFloat(RandomInteger(0, 10, seed=1), 2, 1).take(3)
    [9.0, 13.0, 9.0]
    """

    def _pick(self) -> Any:
        y = super()._pick()
        try:
            return float(y)
        except OverflowError:  # an int result beyond the float range
            raise ValueError(
                f"AffineTransformFloat: m * x + b = {describe(y)} is beyond the float range, with picker {self.picker!r},"
                f" m={describe(self.m)} and b={describe(self.b)}"
            ) from None

