"""Every float, the awkward ones included: :class:`AnyFloat` and the :class:`FloatSpace` it draws from.

:class:`~synthia.RandomFloat` draws uniformly from a finite range; :class:`AnyFloat` is for
tests that must meet the whole of IEEE 754: huge and tiny magnitudes, the range's own ends,
and -- each opt-in -- NaN, the infinities, subnormal numbers and negative zero.

A :class:`FloatSpace` is a set of floats (bounds that tell ``-0.0`` from ``0.0``, NaN or
not, the smallest magnitude allowed besides zero). It draws from itself with three
typed draws, so that **all-minimal draws give its simplest float** (``0.0``, or the
integral value closest to zero, or the end of the range closest to zero):

1. a weighted index chooses the *mode*: uniform (index 0, the most likely), wide, or
   special;
2. *uniform*: one float draw from the range cut to ``[-2**20, 2**20]`` (the whole range
   if it lies outside that window); *wide*: a sign (a boolean, when both signs are
   possible), a binary exponent and a mantissa, so every magnitude from the subnormals to
   ``1.8e308`` is reached, clamped into the range; *special*: one of a list of edge
   values in the space (zeros, ``±1``, the range's ends and their neighbours, the smallest
   subnormal, the smallest normal, the largest float, the infinities, NaN), simplest first.

The draws of all three modes are made every time, in that order, and the mode chooses
which one gives the value: so the shrinker, lowering the mode to 0, finds the uniform
draw in place and goes on shrinking it (a failure found among the huge values shrinks
to a small one).

The Hypothesis bridge draws its floats through the same space
(:func:`synthia.from_strategy`).
"""
from __future__ import annotations

import math
import sys
from typing import Any

from ..core.checks import check_bool, check_float
from ..core.draws import FLOAT, INTEGER, WEIGHTED, Draw, sort_key
from ..core.parsing import Parse, same_value
from ..core.picker import RandomPicker

__all__ = ["AnyFloat"]

MAX_FLOAT = sys.float_info.max
MIN_NORMAL = sys.float_info.min
SMALLEST_SUBNORMAL = math.ulp(0.0)
#: Half-width of the window the uniform mode draws from when the range is wider.
WINDOW = float(2**20)
#: Probabilities of the uniform, wide and special modes (when all three are possible).
MODE_WEIGHTS = (0.7, 0.2, 0.1)


def sign_aware_le(a: float, b: float) -> bool:
    """``a <= b``, with ``-0.0 < 0.0``."""
    if a == 0.0 and b == 0.0:
        return math.copysign(1.0, a) <= math.copysign(1.0, b)
    return a <= b


class FloatSpace:
    """The floats ``x`` with ``min_value <= x <= max_value`` (``-0.0 < 0.0`` here), NaN if
    ``allow_nan``, and ``abs(x) >= smallest_nonzero`` unless ``x`` is zero.

    >>> import synthia.core.random as r
    >>> space = FloatSpace(0.5, 10.0)
    >>> space.simplest(), space.permits(0.25), space.permits(10.0)
    (1.0, False, True)
    >>> all(space.permits(space.draw(r.Stream(s))) for s in range(200))
    True
    """

    def __init__(
        self,
        min_value: float = -math.inf,
        max_value: float = math.inf,
        *,
        allow_nan: bool = False,
        smallest_nonzero: float = SMALLEST_SUBNORMAL,
        signed_zero: bool = True,
    ) -> None:
        self.min_value = float(min_value)
        self.max_value = float(max_value)
        self.allow_nan = allow_nan
        self.smallest_nonzero = float(smallest_nonzero)
        self.signed_zero = signed_zero
        # The finite part of the space.
        self.low = max(self.min_value, -MAX_FLOAT)
        self.high = min(self.max_value, MAX_FLOAT)
        candidates = [
            0.0, -0.0, 1.0, -1.0, 0.5, -0.5, self.low, self.high,
            math.nextafter(self.low, math.inf), math.nextafter(self.high, -math.inf),
            SMALLEST_SUBNORMAL, -SMALLEST_SUBNORMAL, MIN_NORMAL - SMALLEST_SUBNORMAL, SMALLEST_SUBNORMAL - MIN_NORMAL,
            MIN_NORMAL, -MIN_NORMAL, MAX_FLOAT, -MAX_FLOAT, math.inf, -math.inf, math.nan,
        ]  # fmt: skip
        specials: list[float] = []
        seen: set[str] = set()
        for x in candidates:
            if self.permits(x) and repr(x) not in seen:
                seen.add(repr(x))
                specials.append(x)
        # Simplest first; the stable sort keeps 0.0 before -0.0.
        self.specials = sorted(specials, key=lambda x: sort_key(FLOAT, x))
        self.finite = sign_aware_le(self.low, self.high) and any(math.isfinite(x) for x in self.specials)
        if not self.specials:
            raise ValueError(
                f"no float satisfies min_value={min_value!r}, max_value={max_value!r}, "
                f"allow_nan={allow_nan!r}, smallest_nonzero={smallest_nonzero!r}"
            )
        lo, hi = max(self.low, -WINDOW), min(self.high, WINDOW)
        if not lo <= hi:
            lo, hi = self.low, self.high
        self._uniform = (lo, hi)
        modes = [MODE_WEIGHTS[0], MODE_WEIGHTS[1]] if self.finite and self.low < self.high else [0.0, 0.0]
        modes.append(MODE_WEIGHTS[2])
        self._cumulative = [modes[0], modes[0] + modes[1], modes[0] + modes[1] + modes[2]]
        self._exponents = (-1074 if self.smallest_nonzero < MIN_NORMAL else -1022, 1024)
        # The finite value's draw: its exclusive bound, and the mode its sample makes.
        self._top = math.nextafter(self.high, math.inf)
        self._mode = 0
        self._special = 0

    def permits(self, x: float) -> bool:
        """Whether ``x`` belongs to the space."""
        if x != x:
            return self.allow_nan
        if x == 0.0 and not self.signed_zero and math.copysign(1.0, x) < 0:
            return False
        if 0.0 < abs(x) < self.smallest_nonzero:
            return False
        return sign_aware_le(self.min_value, x) and sign_aware_le(x, self.max_value)

    def simplest(self) -> float:
        """The simplest float of the space (what all-minimal draws give)."""
        lo, hi = self._uniform
        if self.finite and self.low < self.high:
            x = self._fix(_simplest_between(lo, hi))
            return x
        return self.specials[0]

    def _fix(self, x: float) -> float:
        if not self.signed_zero and x == 0.0:
            x = 0.0
        if self.permits(x):
            return x
        if 0.0 < abs(x) < self.smallest_nonzero:
            for y in (0.0, math.copysign(self.smallest_nonzero, x)):
                if self.permits(y):
                    return y
        return self.specials[0]

    def draw(self, stream: Any) -> float:
        """One float of the space, from ``stream``'s typed draws: the mode (uniform, wide or
        special), then the finite value as **one float draw**
        (:meth:`~synthia.core.random.Stream.floating_by`: made by the uniform or the wide
        mode's draws -- or, in the special mode, the special value itself when it is an
        integral float -- recorded and shrunk as the value itself, so a huge value found in
        the wide mode shrinks as a float does, integral values first), then the special
        value's index.

        An integral special value (``±1``, the largest floats, an integral end of the range)
        is in the float draw as well as in its index: lowering the mode keeps the value, which
        goes on shrinking as a float (``-1.7976931348623155e+308`` found as a special value
        reaches ``-1000001.0`` for ``x < -1e6``, where lowering its index, in an order that is
        not the order of the failing values, stopped). The others (the tiniest floats,
        ``±0.5``, the infinities, NaN) are left to their index, whose order puts ``0.0`` and
        ``±1.0`` first; a float draw would keep ``2.2250738585072014e-308`` for ``x > 0``,
        as the shrinker does not raise a float's magnitude to the next integral value.
        """
        mode = stream.weighted(self._cumulative)
        lo, hi = self.low, self.high
        specials = self.specials
        if self.finite and lo < hi:
            self._mode = mode  # read by _finite: a bound method costs less than a closure per draw
            self._special = 0
            value = self._fix(stream.floating_by(lo, self._top, self._finite))
            if len(specials) == 1:
                return specials[0] if mode == 2 else value
            # Drawn by _finite from the stream (after the finite value's draws, as it always
            # was), recorded as the same integer draw of [0, len(specials)).
            index = stream.integer_by(0, len(specials), self._special_index)
            return specials[index] if mode == 2 else value
        return specials[stream.below(len(specials))] if len(specials) > 1 else specials[0]

    def parse(self, value: Any) -> list[Draw] | None:
        """The draws of :meth:`draw` that make ``value`` (a float of the space): the first
        mode and the value as the float draw, or the special mode and the special's index."""
        if type(value) is not float or not self.permits(value):
            return None
        specials = self.specials
        index = next((i for i, x in enumerate(specials) if same_value(x, value)), None)
        cumulative = (tuple(self._cumulative),)
        lo, hi = self.low, self.high
        if self.finite and lo < hi:
            finite = math.isfinite(value)
            if not finite and index is None:
                return None
            mode = 0 if finite else 2
            draws = [Draw(WEIGHTED, mode, cumulative), Draw(FLOAT, value if finite else lo, (lo, self._top))]
            if len(specials) > 1:
                draws.append(Draw(INTEGER, 0 if finite else index, (0, len(specials))))
            return draws
        if index is None:
            return None
        draws = [Draw(WEIGHTED, 2, cumulative)]
        return draws + [Draw(INTEGER, index, (0, len(specials)))] if len(specials) > 1 else draws

    def _special_index(self, stream: Any) -> int:
        return self._special

    def _finite(self, stream: Any) -> float:
        """The finite value of the mode :meth:`draw` drew (for the special mode, the special
        value when it is an integral float, else the uniform one), from the draws of both
        finite modes and the special index, made whatever the mode; :meth:`draw` fixes it
        into the space."""
        lo, hi = self.low, self.high
        a, b = self._uniform
        if a < b:
            top = math.nextafter(b, math.inf)
            uniform = stream.floating(a, b if math.isinf(top) else top)
        else:
            uniform = a
        negative = stream.boolean(0.5) if lo < 0.0 < hi else hi <= 0.0
        e = stream.integer(*self._exponents)
        magnitude = math.ldexp(1.0 + stream.unit(), e)
        specials = self.specials
        if len(specials) > 1:
            self._special = stream.below(len(specials))
            special = specials[self._special]
            if self._mode == 2 and math.isfinite(special) and special.is_integer():
                return special
        if self._mode != 1:
            return uniform  # fixed into the space by draw(), after a replay as well
        x = -magnitude if negative else magnitude
        return min(max(x, lo), hi)

    def __repr__(self) -> str:
        return (
            f"FloatSpace({self.min_value!r}, {self.max_value!r}, allow_nan={self.allow_nan!r}, "
            f"smallest_nonzero={self.smallest_nonzero!r}, signed_zero={self.signed_zero!r})"
        )


def _simplest_between(lo: float, hi: float) -> float:
    """The simplest float of the closed range ``[lo, hi]``: 0, else the integral value closest to 0."""
    if lo <= 0.0 <= hi:
        return 0.0
    if lo > 0.0:
        above = float(math.ceil(lo))
        return above if above <= hi else lo
    under = float(math.floor(hi))
    return under if under >= lo else hi


class AnyFloat(RandomPicker[float]):
    """A float of ``[low, high)``, spread over every magnitude, edge values included.

    Unlike :class:`~synthia.RandomFloat` (uniform over a finite range), ``AnyFloat`` meets
    huge and tiny magnitudes and the edge values of its range (see :class:`FloatSpace` for
    the draws). The bounds may be infinite (the default is every finite float). Opt-in:
    ``nan`` adds NaN; ``infinity`` adds the infinite bound(s) themselves (it needs an
    infinite bound); ``subnormal`` allows the magnitudes below ``2.2e-308``;
    ``signed_zero`` allows ``-0.0`` (otherwise zero is always ``0.0``).

    Shrinking (through its draws): ``0.0`` first, then integral values closest to zero,
    then the others by distance to zero; the simplest value is the one closest to zero.

    >>> xs = AnyFloat(nan=True, infinity=True, seed=3).take(400)
    >>> any(x != x for x in xs), math.inf in xs, any(abs(x) > 1e100 for x in xs if x == x)
    (True, True, True)
    >>> AnyFloat(0.0, 1.0, infinity=True)
    Traceback (most recent call last):
    ...
    ValueError: infinity=True needs an infinite bound, got low=0.0, high=1.0
    """

    atomic = True  # one string / one float: one choice in the shrinker's order

    def __init__(
        self,
        low: float = -math.inf,
        high: float = math.inf,
        *,
        nan: bool = False,
        infinity: bool = False,
        subnormal: bool = False,
        signed_zero: bool = False,
        seed: int | None = None,
    ) -> None:
        self.low = check_float(low, "low", finite=False)
        self.high = check_float(high, "high", finite=False)
        if self.low != self.low or self.high != self.high or not self.low < self.high or self.low == math.inf or self.high == -math.inf:
            raise ValueError(f"high must be greater than low, got low={low!r}, high={high!r}")
        self.nan = check_bool(nan, "nan")
        self.infinity = check_bool(infinity, "infinity")
        self.subnormal = check_bool(subnormal, "subnormal")
        self.signed_zero = check_bool(signed_zero, "signed_zero")
        if infinity and math.isfinite(self.low) and math.isfinite(self.high):
            raise ValueError(f"infinity=True needs an infinite bound, got low={low!r}, high={high!r}")
        top = (math.inf if infinity else MAX_FLOAT) if self.high == math.inf else math.nextafter(self.high, -math.inf)
        bottom = (-math.inf if infinity else -MAX_FLOAT) if self.low == -math.inf else self.low
        self.space = FloatSpace(
            bottom,
            top,
            allow_nan=self.nan,
            smallest_nonzero=SMALLEST_SUBNORMAL if self.subnormal else MIN_NORMAL,
            signed_zero=self.signed_zero,
        )
        self._init_stream(seed)

    def _pick(self) -> float:
        return self.space.draw(self._stream)

    def parse_draws(self, value: Any, parse: Parse) -> list[Any] | None:
        """The draws that make ``value``, a float of its range (see :meth:`FloatSpace.parse`)."""
        return self.space.parse(value)

    def arguments(self) -> tuple[list[Any], dict[str, Any]]:
        args: list[Any] = []
        if self.low != -math.inf or self.high != math.inf:
            args = [self.low, self.high]
        flags = {k: True for k in ("nan", "infinity", "subnormal", "signed_zero") if getattr(self, k)}
        return args, flags

