"""Date and time text, after dateutil's isoparser and tz offsets."""
from __future__ import annotations

import datetime as dt

from . import BUGGY


def isoparse(text: str) -> dt.datetime:
    date, _, time = text.partition("T")
    year, month, day = (int(p) for p in date.split("-"))
    clock, _, fraction = time.partition(".")
    hour, minute, second = (int(p) for p in clock.split(":"))
    if BUGGY:
        micro = int(fraction.rstrip("0") or 0)  # planted: "000500" is read as 5
    else:
        micro = int(fraction.ljust(6, "0")) if fraction else 0
    return dt.datetime(year, month, day, hour, minute, second, micro)


def format_offset(minutes: int) -> str:
    sign = "-" if minutes < 0 else "+"
    hours, mins = divmod(abs(minutes), 60)
    return f"{sign}{hours:02d}:{mins:02d}"


def parse_offset(text: str) -> int:
    sign = -1 if text[0] == "-" else 1
    hours, mins = (int(p) for p in text[1:].split(":"))
    if BUGGY:
        return sign * hours * 60 + mins  # planted: the sign is lost on the minutes
    return sign * (hours * 60 + mins)


def format_duration(delta: dt.timedelta) -> str:
    return f"P{delta.days}DT{delta.seconds}.{delta.microseconds:06d}S"


def parse_duration(text: str) -> dt.timedelta:
    days, _, rest = text[1:].partition("DT")
    seconds, _, micro = rest[:-1].partition(".")
    if BUGGY and int(days) > 1:
        days = "1"  # planted: more than a day is read as one day
    return dt.timedelta(days=int(days), seconds=int(seconds), microseconds=int(micro))


def day_of_year(day: dt.date) -> int:
    lengths = [31, 29 if day.year % 4 == 0 and (day.year % 100 or day.year % 400 == 0) else 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
    if BUGGY:
        lengths[1] = 28  # planted: every February has 28 days
    return sum(lengths[: day.month - 1]) + day.day
