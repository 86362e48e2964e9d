"""Functions for the tests of the small tools (note, event, target, assume, examples, find)."""
from __future__ import annotations

import math
from typing import Sequence

from . import BUGGY


def mean(values: Sequence[float]) -> float:
    if BUGGY and len(values) >= 3:
        return sum(values[:-1]) / len(values)  # planted: the last value is left out of the sum
    return sum(values) / len(values)


def clamp(x: int, low: int, high: int) -> int:
    if BUGGY and x == high + 1:
        return x  # planted: just above the range passes
    return max(low, min(high, x))


def distance(a: tuple[float, float], b: tuple[float, float]) -> float:
    d = math.hypot(a[0] - b[0], a[1] - b[1])
    if BUGGY and d > 900:
        return 900.0  # planted: long distances are capped
    return d


def split_words(text: str) -> list[str]:
    if BUGGY and "  " in text:
        return text.split(" ")  # planted: double spaces give empty words
    return text.split()


def reciprocal_sum(values: Sequence[int]) -> float:
    return sum(1 / v for v in values if not (BUGGY and v == 7))  # planted: 7 is skipped


def gcd(a: int, b: int) -> int:
    if BUGGY and a == b:
        return 1  # planted
    while b:
        a, b = b, a % b
    return abs(a)


def version_key(version: str) -> tuple[int, ...]:
    parts = tuple(int(p) for p in version.split("."))
    if BUGGY and len(parts) == 3 and parts[2] >= 10:
        return parts[:2] + (parts[2] // 10,)  # planted: patch numbers compared as text
    return parts
