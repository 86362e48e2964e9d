"""Exact and identifying numbers: :class:`RandomUUID`, :class:`RandomDecimal`, :class:`RandomFraction`."""
from __future__ import annotations

import math
import operator
import uuid
from decimal import Decimal
from fractions import Fraction
from typing import Any

from ..core.checks import check_int
from ..core.leaves import DrawSpec
from ..core.picker import RandomPicker
from ..core.tapes import INTEGER
from .times import toward

#: The most digits after the point a :class:`RandomDecimal` takes (``decimal``'s default
#: context keeps 28 significant digits, so more places only add zeros).
MAX_PLACES = 1000

__all__ = ["RandomUUID", "RandomDecimal", "RandomFraction"]


class RandomUUID(RandomPicker[uuid.UUID]):
    """A random UUID: version 4 by default (122 random bits), or 128 raw bits with ``version=None``.

    One integer draw; shrinks towards ``00000000-0000-4000-8000-000000000000``.

    >>> RandomUUID(seed=1).pick()
    UUID('4a440198-ddd4-4f39-8b4a-a722c2257bb0')
    """

    def __init__(self, version: int | None = 4, *, seed: int | None = None) -> None:
        if version is not None:
            try:  # an int or a numpy int, held as an int (uuid.UUID overflows on a numpy one)
                number = None if isinstance(version, bool) else operator.index(version)
            except TypeError:
                number = None
            if number not in (1, 3, 4, 5):
                raise ValueError(f"version must be 1, 3, 4, 5 or None, got {version!r}")
            version = number
        self.version = version
        self._bits = 128 if version is None else 122
        self._init_stream(seed)

    def draw_spec(self) -> DrawSpec:
        """One integer draw of ``[0, 2**bits)``, its bits spread around the version and variant
        bits (the inverse gathers them again)."""
        return DrawSpec(INTEGER, (0, 1 << self._bits), self._uuid, inverse=self._bits_of)

    def _uuid(self, n: int) -> uuid.UUID:
        if self.version is None:
            return uuid.UUID(int=n)
        # Spread the 122 bits around the 4 version bits (48-51) and the 2 variant bits (62-63).
        value = ((n >> 74) << 80) | (((n >> 62) & 0xFFF) << 64) | (n & ((1 << 62) - 1))
        return uuid.UUID(int=value, version=self.version)

    def _bits_of(self, value: uuid.UUID) -> int:
        n = value.int
        if self.version is None:
            return n
        return ((n >> 80) << 74) | (((n >> 64) & 0xFFF) << 62) | (n & ((1 << 62) - 1))

    def arguments(self) -> tuple[list[Any], dict[str, Any]]:
        return [], ({} if self.version == 4 else {"version": self.version})


def _decimal(value: Any, name: str) -> Decimal:
    if isinstance(value, bool) or not isinstance(value, (int, str, Decimal)):
        raise TypeError(f"{name} must be an int, a str or a Decimal, got {value!r} ({type(value).__name__})")
    try:
        d = Decimal(value)
    except Exception:
        raise ValueError(f"{name} must be a decimal number, got {value!r}") from None
    if not d.is_finite():
        raise ValueError(f"{name} must be finite, got {value!r}")
    return d


class RandomDecimal(RandomPicker[Decimal]):
    """A :class:`~decimal.Decimal` of ``[low, high)`` with ``places`` digits after the point.

    One integer draw (the value in units of ``10**-places``); shrinks towards zero (or the
    end of the range closest to it), one unit at a time. ``places`` is at most
    :data:`MAX_PLACES`.

    >>> RandomDecimal("0", "100", places=2, seed=1).take(3)
    [Decimal('48.18'), Decimal('63.65'), Decimal('47.53')]
    """

    def __init__(self, low: Any = -1_000_000, high: Any = 1_000_000, *, places: int = 2, seed: int | None = None) -> None:
        self.low = _decimal(low, "low")
        self.high = _decimal(high, "high")
        self.places = check_int(places, "places", minimum=0, maximum=MAX_PLACES)
        scale = Decimal(10) ** self.places
        self._units = (math.ceil(self.low * scale), math.ceil(self.high * scale))
        if not self._units[0] < self._units[1]:
            raise ValueError(f"high must be greater than low (with {places} places), got low={low!r}, high={high!r}")
        self._init_stream(seed)

    def _pick(self) -> Decimal:
        return Decimal(toward(self._stream, self._units[0], self._units[1], 0)).scaleb(-self.places)

    def arguments(self) -> tuple[list[Any], dict[str, Any]]:
        return [str(self.low), str(self.high)], {"places": self.places}


class RandomFraction(RandomPicker[Fraction]):
    """A :class:`~fractions.Fraction` of ``[low, high)`` whose denominator is at most ``max_denominator``.

    Two integer draws: the denominator (from 1), then the numerator (closest to zero
    first). So integers are the simplest fractions, and a fraction shrinks towards the
    integer closest to zero in the range.

    >>> RandomFraction(0, 1, max_denominator=10, seed=2).take(3)
    [Fraction(1, 4), Fraction(0, 1), Fraction(1, 2)]
    """

    def __init__(self, low: int | Fraction = -1000, high: int | Fraction = 1000, *, max_denominator: int = 100, seed: int | None = None) -> None:
        for name, v in (("low", low), ("high", high)):
            if isinstance(v, bool) or not isinstance(v, (int, Fraction)):
                raise TypeError(f"{name} must be an int or a Fraction, got {v!r} ({type(v).__name__})")
        self.low, self.high = Fraction(low), Fraction(high)
        if not self.low < self.high:
            raise ValueError(f"high must be greater than low, got low={low!r}, high={high!r}")
        self.max_denominator = check_int(max_denominator, "max_denominator", minimum=1)
        self._init_stream(seed)

    def _pick(self) -> Fraction:
        stream = self._stream
        while True:
            d = stream.integer(1, self.max_denominator + 1)
            lo, hi = math.ceil(self.low * d), math.ceil(self.high * d)
            if lo < hi:  # a denominator with no multiple in the range is drawn again
                return Fraction(toward(stream, lo, hi, 0), d)

    def arguments(self) -> tuple[list[Any], dict[str, Any]]:
        return [self.low, self.high], {"max_denominator": self.max_denominator}
