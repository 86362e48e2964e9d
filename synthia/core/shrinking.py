"""The generic order behind shrinking, and the helpers every ``shrink`` shares.

:func:`simplicity` maps a value to a key; a value is *smaller* (simpler) than
another when its key is smaller. The order is the one every picker documents
unless it says otherwise:

* ``None`` first, then booleans (``False < True``);
* numbers by distance to zero, the positive one first at equal distance
  (``0 < 1 < -1 < 2 < -2``); NaN last;
* strings and lists shorter first, then element by element;
* tuples lexicographically (so one component can shrink while the others stay);
* sets and dicts smaller first, then by their sorted contents.

Values of different kinds compare by kind in the order above; anything else is
compared by ``repr`` only as a last resort. The :class:`~synthia.testing.Assert`
harness uses the same key to keep the smallest failure.

>>> sorted([3, -1, 0, 1, -3], key=simplicity)
[0, 1, -1, 3, -3]
>>> sorted([[5], [], [0, 0], [1]], key=simplicity)
[[], [1], [5], [0, 0]]
"""
from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover
    from .picker import Picker

__all__ = ["simplicity", "shrink_seed", "decision_or_default"]


def simplicity(value: Any) -> tuple[Any, ...]:
    """The shrinking order's key of ``value`` (smaller key: simpler value)."""
    if value is None:
        return (0,)
    if isinstance(value, bool):
        return (1, int(value))
    if isinstance(value, (int, float)):
        if isinstance(value, float) and math.isnan(value):
            return (2, math.inf, 1)
        return (2, abs(value), 1 if value < 0 else 0)
    if isinstance(value, str):
        return (3, len(value), value)
    if isinstance(value, (list, bytes)):
        return (4, len(value), tuple(simplicity(v) for v in value))
    if isinstance(value, tuple):
        return (5, tuple(simplicity(v) for v in value))
    if isinstance(value, (set, frozenset)):
        return (6, len(value), tuple(sorted(simplicity(v) for v in value)))
    if isinstance(value, dict):
        items = sorted((simplicity(k), simplicity(v)) for k, v in value.items())
        return (7, len(value), tuple(items))
    try:
        import numpy as np

        if isinstance(value, np.generic):
            return simplicity(value.item())
        if isinstance(value, np.ndarray):
            return (4, value.size, tuple(simplicity(v) for v in value.ravel().tolist()))
    except ImportError:  # pragma: no cover
        pass
    return (9, repr(value))


def decision_or_default(decision: "Picker[float] | None") -> "Picker[float]":
    """``decision``, or a fixed-seed uniform float picker, so that a shrink is always repeatable."""
    if decision is not None:
        return decision
    from .picker import RandomPicker

    class _Decision(RandomPicker[float]):
        def __init__(self) -> None:
            self._init_stream(0)

        def pick(self) -> float:
            return self._stream.unit()

    return _Decision()


def simplest_in(low: float, high: float | None, *, integer: bool) -> float:
    """The simplest value of ``[low, high)`` (``high=None``: unbounded): the one closest to zero."""
    if low >= 0:
        return low
    if high is not None and high <= 0:
        return high - 1 if integer else high  # for floats the caller excludes ``high`` itself
    return 0 if integer else 0.0


def smaller_int_range(value: int, low: int, high: int | None, magnitude: float) -> tuple[int, int] | None:
    """``[lo, hi)``: the ints of ``[low, high)`` simpler than ``value``, narrowed by ``magnitude``.

    ``magnitude`` 1 keeps every simpler int; towards 0 only those much closer to zero
    (never an empty range when a simpler int exists). ``None`` when nothing is simpler.
    """
    size = abs(value)
    for m in (magnitude, 1.0):
        bound = max(1, min(size, math.ceil(size * m)))
        top = bound - 1 if value >= 0 else bound  # -v's positive twin is simpler than -v
        lo = max(low, -(bound - 1))
        hi = top + 1 if high is None else min(high, top + 1)
        if value >= 0:
            hi = min(hi, value)
        if lo < hi:
            return lo, hi
    return None


def shrink_seed(decision: "Picker[float] | None") -> int:
    """A seed for the stream of a shrunk picker, drawn from ``decision`` (one pick)."""
    u = decision_or_default(decision).pick()
    return int(u * 2**53)
