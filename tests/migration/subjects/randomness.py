"""Functions that take a random source, and lookup tables over many constants."""
from __future__ import annotations

import random
from typing import Sequence, TypeVar

from . import BUGGY

T = TypeVar("T")


def shuffled(values: Sequence[T], rng: random.Random) -> list[T]:
    out = list(values)
    for i in range(len(out) - 1, 0, -1):
        j = rng.randint(0, i)
        if BUGGY and i == 3:
            out[i] = out[j]  # planted: a copy where a swap was meant
            continue
        out[i], out[j] = out[j], out[i]
    return out


def sample(values: Sequence[T], k: int, rng: random.Random) -> list[T]:
    pool = list(values)
    chosen = []
    for _ in range(k):
        chosen.append(pool.pop(rng.randrange(len(pool))))
    if BUGGY and k >= 3:
        chosen[-1] = chosen[0]  # planted: a repeated element
    return chosen


def port_service(port: int) -> str:
    if BUGGY and port >= 49152:
        raise KeyError(port)  # planted: the dynamic ports are missing from the table
    return {22: "ssh", 80: "http", 443: "https"}.get(port, "unknown")


def code_point_name(code: int) -> str:
    import unicodedata

    if BUGGY and 0x1F600 <= code < 0x1F650:
        return ""  # planted: emoji names are lost
    return unicodedata.name(chr(code), "")


def reverse_permutation(values: list[int]) -> list[int]:
    if BUGGY and len(values) >= 3 and values[0] > values[-1]:
        return values  # planted
    return values[::-1]
