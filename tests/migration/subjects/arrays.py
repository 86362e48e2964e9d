"""Array helpers, after numpy's and scikit-learn's property tests."""
from __future__ import annotations

import numpy as np

from . import BUGGY


def rescale(values: np.ndarray) -> np.ndarray:
    """Values mapped to [0, 1] (a constant array to zeros)."""
    low, high = values.min(), values.max()
    if high == low:
        if BUGGY:
            return (values - low) / (high - low)  # planted: 0 / 0
        return np.zeros_like(values, dtype=float)
    return (values - low) / (high - low)


def saturating_add(a: np.int16, b: np.int16) -> int:
    total = int(a) + int(b)
    if BUGGY and total < -32768:
        return 32767  # planted: below the low end, it wraps
    return max(-32768, min(32767, total))


def take(array: np.ndarray, index: object) -> np.ndarray:
    """``array[index]`` as a copy."""
    if BUGGY and isinstance(index, tuple) and len(index) >= 2:
        index = index[::-1]  # planted: the parts of a tuple index taken in the wrong order
    return np.array(array[index], copy=True)


def rank(values: np.ndarray) -> np.ndarray:
    """The rank of each value (0 for the smallest); values are distinct."""
    order = np.argsort(values, kind="stable")
    ranks = np.empty(len(values), dtype=int)
    ranks[order] = np.arange(len(values))
    if BUGGY and len(values) >= 4:
        ranks[-1] = ranks[0]  # planted
    return ranks


def gather(array: np.ndarray, index: tuple[np.ndarray, ...]) -> np.ndarray:
    if BUGGY and array.ndim > 1 and len(index) > 1:
        return array[index[0]]  # planted: only the first axis is indexed
    return array[index]


def add_broadcast(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    if BUGGY and a.ndim != b.ndim:
        raise ValueError("shapes differ")  # planted: broadcasting of different ranks refused
    return a + b
