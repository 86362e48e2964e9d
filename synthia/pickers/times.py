"""Dates and times: :class:`RandomDate`, :class:`RandomTime`, :class:`RandomDatetime`, :class:`RandomTimedelta`.

Each draws **one integer**: the distance (in days or microseconds) from a *pivot* --
2000-01-01, midnight, a zero duration -- brought into the range. So all-minimal draws
give the pivot (or the end of the range closest to it), and shrinking moves a value
towards it: a failing date shrinks to the first date that fails after (or before)
2000-01-01. Ranges are half-open, like ``range``.
"""
from __future__ import annotations

import datetime as dt
from typing import Any, Sequence

from ..core.checks import check_values
from ..core.draws import Draw
from ..core.leaves import DrawSpec
from ..core.parsing import Parse
from ..core.picker import RandomPicker
from ..core.tapes import INTEGER

__all__ = ["RandomDate", "RandomTime", "RandomDatetime", "RandomTimedelta"]


PIVOT_DATE = dt.date(2000, 1, 1)
PIVOT_DATETIME = dt.datetime(2000, 1, 1)
_MICRO = dt.timedelta(microseconds=1)
_DAY_US = 86_400_000_000


def _check(value: Any, kind: type | tuple[type, ...], name: str) -> Any:
    if not isinstance(value, kind) or (kind is dt.date and isinstance(value, dt.datetime)):
        expected = kind.__name__ if isinstance(kind, type) else " or ".join(k.__name__ for k in kind)
        raise TypeError(f"{name} must be a {expected}, got {value!r} ({type(value).__name__})")
    return value


def _range(low: Any, high: Any) -> None:
    if not low < high:
        raise ValueError(f"high must be later than low, got low={low!r}, high={high!r}")


def away(value: int, low: int, high: int, pivot: int) -> list[Draw] | None:
    """The draw of :func:`toward` that makes ``value`` (``None`` out of ``[low, high)``)."""
    if not low <= value < high:
        return None
    centre = min(max(pivot, low), high - 1)
    return [Draw(INTEGER, value - centre, (low - centre, high - centre))]


def toward(stream: Any, low: int, high: int, pivot: int) -> int:
    """An integer of ``[low, high)`` drawn as its distance to ``pivot`` (clamped into the range).

    The draw's simplest value (0) gives the pivot: this is how every picker of a domain
    with a natural centre (a date, a duration, a Hypothesis integer) makes its simplest
    value the centre.

    >>> from synthia.core.random import Stream
    >>> toward(Stream(1), 5, 6, 0), 10 <= toward(Stream(1), 10, 20, 15) < 20
    (5, True)
    """
    centre = min(max(pivot, low), high - 1)
    return centre + int(stream.integer(low - centre, high - centre))


class RandomDate(RandomPicker[dt.date]):
    """A date of ``[low, high)`` (by default every date but ``date.max``).

    Shrinks towards 2000-01-01 (or the end of the range closest to it).

    >>> RandomDate(dt.date(2024, 1, 1), dt.date(2025, 1, 1), seed=1).take(2)
    [datetime.date(2024, 5, 30), datetime.date(2024, 7, 17)]
    """

    def __init__(self, low: dt.date = dt.date.min, high: dt.date = dt.date.max, *, seed: int | None = None) -> None:
        self.low = _check(low, dt.date, "low")
        self.high = _check(high, dt.date, "high")
        _range(self.low, self.high)
        first, last = self.low.toordinal(), self.high.toordinal() - 1
        self._centre = min(max(PIVOT_DATE.toordinal(), first), last)  # what toward() draws around
        self._init_stream(seed)

    def draw_spec(self) -> DrawSpec:
        """One integer draw, the distance in days to the date closest to 2000-01-01 (as
        :func:`toward` draws it; the inverse: a date's distance to it)."""
        centre = self._centre
        return DrawSpec(INTEGER, (self.low.toordinal() - centre, self.high.toordinal() - centre), self._date, inverse=self._days)

    def _date(self, days: int) -> dt.date:
        return dt.date.fromordinal(self._centre + days)

    def _days(self, date: dt.date) -> int:
        return date.toordinal() - self._centre

    def arguments(self) -> tuple[list[Any], dict[str, Any]]:
        return ([] if (self.low, self.high) == (dt.date.min, dt.date.max) else [self.low, self.high]), {}


class RandomTime(RandomPicker[dt.time]):
    """A time of day in ``[low, high)`` (``high=None``: up to midnight), to the microsecond.

    ``tz`` (a ``tzinfo``) makes aware times. Shrinks towards midnight (or ``low``).

    >>> RandomTime(dt.time(9), dt.time(17), seed=2).pick()
    datetime.time(11, 6, 18, 780385)
    """

    def __init__(self, low: dt.time = dt.time(0), high: dt.time | None = None, *, tz: dt.tzinfo | None = None, seed: int | None = None) -> None:
        self.low = _check(low, dt.time, "low")
        self.high = None if high is None else _check(high, dt.time, "high")
        if tz is not None:
            _check(tz, dt.tzinfo, "tz")
        self.tz = tz
        top = _DAY_US if self.high is None else _time_us(self.high)
        if not _time_us(self.low) < top:
            raise ValueError(f"high must be later than low, got low={low!r}, high={high!r}")
        self._bounds = (_time_us(self.low), top, 0)
        self._init_stream(seed)

    def _pick(self) -> dt.time:
        us = toward(self._stream, *self._bounds)
        seconds, micro = divmod(us, 1_000_000)
        minutes, second = divmod(seconds, 60)
        hour, minute = divmod(minutes, 60)
        return dt.time(hour, minute, second, micro, tzinfo=self.tz)

    def parse_draws(self, value: Any, parse: Parse) -> list[Any] | None:
        """The draw of its microseconds since midnight (its zone the picker's)."""
        if type(value) is not dt.time or value.tzinfo is not self.tz or value.fold:
            return None
        return away(_time_us(value), *self._bounds)

    def arguments(self) -> tuple[list[Any], dict[str, Any]]:
        args: list[Any] = [] if self.low == dt.time(0) and self.high is None else [self.low, self.high]
        return args, ({} if self.tz is None else {"tz": self.tz})


def _time_us(t: dt.time) -> int:
    return ((t.hour * 60 + t.minute) * 60 + t.second) * 1_000_000 + t.microsecond


def _zone(zone: Any) -> dt.tzinfo | None:
    if zone is None or isinstance(zone, dt.tzinfo):
        return zone
    if isinstance(zone, str):
        from zoneinfo import ZoneInfo

        try:
            return ZoneInfo(zone)
        except Exception as err:
            raise ValueError(f"timezones: unknown time zone {zone!r} ({err})") from None
    raise TypeError(f"timezones must hold tzinfo objects, zone names or None, got {zone!r} ({type(zone).__name__})")


class RandomDatetime(RandomPicker[dt.datetime]):
    """A datetime of ``[low, high)``, naive or aware, to the microsecond.

    ``timezones`` (a list of ``tzinfo`` objects, ``zoneinfo`` names such as
    ``"Europe/Paris"``, or ``None`` for naive) makes the value aware: a zone is chosen
    (the first is the simplest), and the drawn wall-clock time is given that zone
    (``low`` and ``high`` are naive wall-clock bounds). Wall-clock times that a
    daylight-saving change skips or repeats can occur, as in real data.

    Shrinks towards 2000-01-01 00:00 in the first zone.

    >>> RandomDatetime(dt.datetime(2024, 1, 1), dt.datetime(2024, 1, 2), seed=3).pick()
    datetime.datetime(2024, 1, 1, 15, 32, 47, 620787)
    >>> RandomDatetime(timezones=["UTC", "Europe/Paris"], seed=3).pick().tzinfo is not None
    True
    """

    def __init__(
        self,
        low: dt.datetime = dt.datetime.min,
        high: dt.datetime = dt.datetime.max,
        *,
        timezones: Sequence[Any] | None = None,
        seed: int | None = None,
    ) -> None:
        self.low = _check(low, dt.datetime, "low")
        self.high = _check(high, dt.datetime, "high")
        if self.low.tzinfo is not None or self.high.tzinfo is not None:
            raise ValueError(f"low and high must be naive (wall-clock bounds), got low={low!r}, high={high!r}")
        _range(self.low, self.high)
        self.timezones = None if timezones is None else [_zone(z) for z in check_values(timezones, "timezones")]
        if self.timezones is not None and not self.timezones:
            raise ValueError("timezones must not be empty, got []")
        self._names = None if timezones is None else list(timezones)
        self._bounds = ((self.low - PIVOT_DATETIME) // _MICRO, (self.high - PIVOT_DATETIME) // _MICRO, 0)
        self._init_stream(seed)

    def _pick(self) -> dt.datetime:
        value = PIVOT_DATETIME + dt.timedelta(microseconds=toward(self._stream, *self._bounds))
        zones = self.timezones
        if zones is None:
            return value
        zone = zones[self._stream.below(len(zones))] if len(zones) > 1 else zones[0]
        return value.replace(tzinfo=zone)

    def parse_draws(self, value: Any, parse: Parse) -> list[Any] | None:
        """The draw of its distance to 2000-01-01, then its zone's index (among several)."""
        if type(value) is not dt.datetime or value.fold:
            return None
        draws = away((value.replace(tzinfo=None) - PIVOT_DATETIME) // _MICRO, *self._bounds)
        zones = self.timezones
        if zones is None:
            return draws if value.tzinfo is None else None
        if value.tzinfo not in zones or draws is None:
            return None
        return draws + ([Draw(INTEGER, zones.index(value.tzinfo), (0, len(zones)))] if len(zones) > 1 else [])

    def arguments(self) -> tuple[list[Any], dict[str, Any]]:
        args: list[Any] = [] if (self.low, self.high) == (dt.datetime.min, dt.datetime.max) else [self.low, self.high]
        return args, ({} if self._names is None else {"timezones": self._names})


class RandomTimedelta(RandomPicker[dt.timedelta]):
    """A duration of ``[low, high)``, to the microsecond (by default ±10,000 days).

    Shrinks towards zero.

    >>> RandomTimedelta(dt.timedelta(0), dt.timedelta(hours=1), seed=4).pick()
    datetime.timedelta(seconds=2928, microseconds=587475)
    """

    def __init__(
        self, low: dt.timedelta = dt.timedelta(days=-10_000), high: dt.timedelta = dt.timedelta(days=10_000), *, seed: int | None = None
    ) -> None:
        self.low = _check(low, dt.timedelta, "low")
        self.high = _check(high, dt.timedelta, "high")
        _range(self.low, self.high)
        self._bounds = (self.low // _MICRO, self.high // _MICRO, 0)
        self._init_stream(seed)

    def _pick(self) -> dt.timedelta:
        return dt.timedelta(microseconds=toward(self._stream, *self._bounds))

    def parse_draws(self, value: Any, parse: Parse) -> list[Any] | None:
        """The draw of its microseconds."""
        return away(value // _MICRO, *self._bounds) if type(value) is dt.timedelta else None

    def arguments(self) -> tuple[list[Any], dict[str, Any]]:
        default = (self.low, self.high) == (dt.timedelta(days=-10_000), dt.timedelta(days=10_000))
        return ([] if default else [self.low, self.high]), {}
