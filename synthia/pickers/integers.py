"""Every integer, the awkward ones included: :class:`AnyInteger`; a collection's size as
Hypothesis draws one, usually short and sometimes long: :class:`AnySize`.

:class:`~synthia.RandomInteger` is uniform over its range, which is what a distribution
should be and what a test often should not: over ``[-2**63, 2**63)`` it never makes ``0``,
``-1``, ``255`` or two equal values. ``AnyInteger`` spreads its values over every magnitude
and meets the edge values of its range, like Hypothesis's ``integers()``. Each value first
draws a bit width ``w``, with odds falling as ``1 / (2 + w)`` and four times as high for the
widths of machine integers (7, 8, 15, 16, 31, 32, 63, 64), then is

* **small** (half the time): the simplest value of the range moved by a magnitude of
  ``w`` bits -- single digits, bytes, words and 64-bit values all come up, the small ones most;
* **uniform** (30%): uniform over the whole range;
* **edge** (20%): ``2**w - 1`` or ``2**w``, negated or not (beyond the range, its bound).

The value is **one integer draw** of ``[low, high)`` (:meth:`~synthia.core.random.Stream.integer_by`):
the mode, width, magnitude and sign choose it when it is generated, but what is recorded,
replayed and shrunk is the value itself, as with Hypothesis's integers. So a failure shrinks
by the value's own order (0, 1, -1, 2, ...; the simplest value of the range first: 0, or the
bound closest to it) however it was made, and two equal values -- ``x == y``, one made at an
edge and one small -- stay equal while they shrink together.

>>> values = AnyInteger(seed=2).take(500)
>>> 0 in values, -1 in values, 255 in values, any(abs(v) > 2**40 for v in values)
(True, True, True, True)
>>> AnyInteger(100, 1000, seed=2).take(6)
[452, 138, 138, 128, 127, 100]
"""
from __future__ import annotations

import math
from typing import Any

from ..core.checks import check_count, check_int
from ..core.draws import INTEGER, Draw
from ..core.parsing import Parse
from ..core.picker import RandomPicker
from ..core.shrinking import simplest_in

__all__ = ["AnyInteger", "AnySize"]

#: The default range: every integer of 64 bits, signed or not.
DEFAULT_LOW, DEFAULT_HIGH = -(2**64), 2**64
#: The widths of machine integers: 2**k and 2**k - 1 (and their negations) are edge values.
WIDTHS = (7, 8, 15, 16, 31, 32, 63, 64)
#: The running sums of the odds of the small, uniform and edge modes.
MODES = (0.5, 0.8, 1.0)


class AnyInteger(RandomPicker[int]):
    """An ``int`` of ``[low, high)``, spread over every magnitude, edge values included.

    ``low`` and ``high`` default to ``-2**64`` and ``2**64``: every 64-bit integer, signed or
    not. See the module for the three modes; the value is one integer draw of the range,
    made by the mode, the bit width (a weighted index), the magnitude, the sign, the uniform
    value and the edge (``2**w - 1`` or ``2**w``), all drawn every time.

    >>> AnyInteger(-1000, 1000).set_seed(1).take(8)
    [824, 3, -1, -128, 2, 0, -64, -4]
    >>> AnyInteger(3, 3)
    Traceback (most recent call last):
    ...
    ValueError: high must be greater than low, got low=3, high=3
    """

    def __init__(self, low: int | None = None, high: int | None = None, *, seed: int | None = None) -> None:
        self.low = DEFAULT_LOW if low is None else check_int(low, "low")
        self.high = DEFAULT_HIGH if high is None else check_int(high, "high")
        if not self.low < self.high:
            raise ValueError(f"high must be greater than low, got low={low!r}, high={high!r}")
        last = self.high - 1
        self.simplest = int(simplest_in(self.low, self.high, integer=True))
        widest = max(abs(self.low - self.simplest), abs(last - self.simplest), abs(self.low), abs(last)).bit_length()
        odds = [(4.0 if width in WIDTHS else 1.0) / (2 + width) for width in range(widest + 1)]
        total, running = sum(odds), 0.0
        self._widths: list[float] = []
        for odd in odds:
            running += odd
            self._widths.append(running / total)
        self._widths[-1] = 1.0
        self._init_stream(seed)

    def _pick(self) -> int:
        return self._stream.integer_by(self.low, self.high, self._sample)

    def parse_draws(self, value: Any, parse: Parse) -> list[Any] | None:
        """The one integer draw: the value itself, an ``int`` of the range."""
        if type(value) is not int or not self.low <= value < self.high:
            return None
        return [Draw(INTEGER, value, (self.low, self.high))]

    def _sample(self, stream: Any) -> int:
        mode = stream.weighted(MODES)
        width = stream.weighted(self._widths)
        magnitude = stream.integer(0, 1 << width) if width else 0
        negative = stream.boolean(0.5)
        uniform = stream.integer(self.low, self.high)
        edge = stream.below(2)
        if mode == 1:
            return uniform
        if mode == 2:
            return self._fit((1 << width) - 1 + edge, negative, around=0)
        return self._fit(magnitude, negative, around=self.simplest)

    def _fit(self, distance: int, negative: bool, around: int) -> int:
        """``around`` moved by ``distance`` down (``negative``) or up; off one end of the
        range, the same distance the other way; off both, the bound nearest it."""
        value = around - distance if negative else around + distance
        if not self.low <= value < self.high:
            value = around + distance if negative else around - distance
        return min(max(value, self.low), self.high - 1)

    def arguments(self) -> tuple[list[Any], dict[str, Any]]:
        if self.low == DEFAULT_LOW and self.high == DEFAULT_HIGH:
            return [], {}
        return [self.low, self.high], {}


#: A size with no upper bound stays below ``low + UNBOUNDED_EXTRA`` (a geometric count of mean
#: 5 passes 1,000 with odds of about 1e-80; a source that chooses sizes itself -- Hypothesis's
#: data when the wiring runs under ``@given`` -- cannot ask for an endless collection).
UNBOUNDED_EXTRA = 1000
#: The mean count above ``low`` of a size with no upper bound and ``low < 5``.
SHORT_MEAN = 5


class AnySize(RandomPicker[int]):
    """The size of a collection, in ``[low, high)``, drawn as Hypothesis sizes its collections:
    usually short, sometimes long. The value is ``low`` plus a geometric count (each element
    more with the same odds) of mean ``max(low, 5)`` -- Hypothesis's average size
    ``max(2 * low, low + 5)`` -- or, with a ``high``, of mean ``min(max(low, 5), (high - 1 -
    low) / 2)``; a count past the range gives ``high - 1``. ``high=None``: below ``low + 1000``.

    It is what the codemod and ``from_type`` give a collection whose size has no upper bound:
    ``st.lists(x)`` is ``sy.ComposeList(x, sy.AnySize())``. Its mean is a uniform
    ``RandomInteger(0, 11)``'s, but a list of 20 elements (one in 40) or a constant text of 30
    characters is still a value of it -- something a test asks for, and a string the shrinker
    parses again by the text alternative beside it. Like :class:`AnyInteger`, the value is
    **one integer draw** of the range: it replays, parses and shrinks as the integer itself
    (towards ``low``).

    >>> AnySize(seed=1).take(10)
    [7, 2, 4, 22, 7, 2, 0, 12, 0, 3]
    >>> AnySize(50).low, AnySize(50).high, AnySize(2, 5)
    (50, 1050, AnySize(2, 5))
    >>> AnySize(-1)
    Traceback (most recent call last):
    ...
    ValueError: low must be >= 0, got -1
    """

    def __init__(self, low: int = 0, high: int | None = None, *, seed: int | None = None) -> None:
        self.low = check_count(low, "low")
        self.high = self.low + UNBOUNDED_EXTRA if high is None else check_count(high, "high")
        if not self.low < self.high:
            raise ValueError(f"high must be greater than low, got low={low!r}, high={high!r}")
        self.unbounded = high is None
        mean: float = max(self.low, SHORT_MEAN)
        if high is not None and self.high - 1 - self.low < 2 * mean:
            mean = (self.high - 1 - self.low) / 2
        # A count k has odds p**k * (1 - p), p = mean / (mean + 1): log(1 - u) / log(p) of a
        # uniform u, rounded down (log(p) = -log1p(1 / mean) stays exact for huge means).
        self._scale = -1.0 / math.log1p(1.0 / mean) if mean > 0 else 0.0
        self._init_stream(seed)

    def _pick(self) -> int:
        return self._stream.integer_by(self.low, self.high, self._sample)

    def _sample(self, stream: Any) -> int:
        u = stream.unit()
        count = math.log1p(-u) * self._scale if self._scale else 0.0
        return self.low + int(count) if count < self.high - 1 - self.low else self.high - 1

    def parse_draws(self, value: Any, parse: Parse) -> list[Any] | None:
        """The one integer draw: the value itself, an ``int`` of the range."""
        if type(value) is not int or not self.low <= value < self.high:
            return None
        return [Draw(INTEGER, value, (self.low, self.high))]

    def arguments(self) -> tuple[list[Any], dict[str, Any]]:
        if self.unbounded:
            return ([self.low] if self.low else []), {}
        return [self.low, self.high], {}
