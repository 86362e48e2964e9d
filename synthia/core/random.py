"""Randomness: streams, seeds, and the documented mapping from bits to values.

Every random picker owns one :class:`Stream`. A stream is CPython's Mersenne
Twister (:class:`random.Random`), chosen because its two primitive draws,
``random()`` and ``getrandbits(k)``, are implemented in C and cost a few tens of
nanoseconds, while numpy's scalar draws cost microseconds
(``python benchmarks/run.py`` measures both). Its state copies with
:func:`copy.deepcopy`, which is all ``duplicate(with_state=True)`` needs.

The mapping from the stream to values is ours, so that a seed gives the same
values on every supported Python and numpy version:

* a float in ``[0, 1)`` is ``stream.random()`` (53 random bits, CPython's
  algorithm, unchanged since Python 2.3);
* an integer in ``[0, n)`` is :func:`below`: draw ``k = n.bit_length()`` bits
  with ``getrandbits(k)`` and reject values ``>= n`` (no modulo bias);
* a weighted choice is :func:`weighted_index`: ``u = random() * total`` located
  with :func:`bisect.bisect_right` among the cumulative weights;
* a shuffle is :func:`shuffle`: Fisher-Yates from the last position down, each
  swap partner drawn with :func:`below`;
* drawing without replacement from ``range(n)`` is :func:`next_of_permutation`:
  Fisher-Yates from the first position up, done lazily with a dict of swaps, so
  a huge range costs memory only for the values drawn.

Seeds. :func:`stream_seed` turns a user seed (any ``int``) into the 64-bit
number given to the Mersenne Twister, through BLAKE2b, so that nearby seeds
give unrelated streams and negative seeds differ from positive ones.
:func:`derive_seed` gives the upstream pickers of a wiring distinct seeds from
one root seed and each picker's *key*: the names of the inputs that lead from
the root to it (``"element/decision"``). A key does not change when a picker is
added elsewhere in the wiring, so neither do the values of the others.
:func:`fresh_seed` draws a seed from the operating system for pickers built
without one; the picker keeps it readable as ``picker.seed``.

>>> s = Stream(stream_seed(42))
>>> [below(s, 10) for _ in range(5)]
[2, 0, 5, 5, 3]
"""
from __future__ import annotations

import bisect
import hashlib
import random as _random
from typing import MutableSequence, Sequence, TypeVar

__all__ = [
    "Stream",
    "stream_seed",
    "derive_seed",
    "fresh_seed",
    "below",
    "weighted_index",
    "shuffle",
    "check_seed",
    "next_of_permutation",
]

T = TypeVar("T")

#: The stream type: a Mersenne Twister with C-level ``random()`` and ``getrandbits()``.
Stream = _random.Random

_MASK64 = (1 << 64) - 1
_system = _random.SystemRandom()


def check_seed(seed: object, name: str = "seed") -> int:
    """Return ``seed`` if it is an ``int`` (not a ``bool``), else raise ``TypeError``."""
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise TypeError(f"{name} must be an int, got {seed!r} ({type(seed).__name__})")
    return seed


def _hash64(text: str) -> int:
    return int.from_bytes(hashlib.blake2b(text.encode("utf-8"), digest_size=8).digest(), "big")


def stream_seed(seed: int) -> int:
    """The 64-bit number that seeds the Mersenne Twister of a picker whose seed is ``seed``."""
    return _hash64(f"synthia-stream:{seed}")


def derive_seed(seed: int, key: str) -> int:
    """The seed of the upstream picker reached by ``key`` from a root seeded with ``seed``.

    An empty key designates the root itself, whose seed is ``seed``.

    >>> derive_seed(7, "")
    7
    >>> derive_seed(7, "element") != derive_seed(7, "length")
    True
    """
    if not key:
        return seed
    return _hash64(f"synthia-derive:{seed}:{key}") & _MASK64


def fresh_seed() -> int:
    """A new 63-bit seed from the operating system's entropy."""
    return _system.getrandbits(63)


def below(stream: Stream, n: int) -> int:
    """An integer uniformly drawn from ``[0, n)``, for ``n >= 1``.

    >>> below(Stream(1), 1)
    0
    """
    k = n.bit_length()
    r = stream.getrandbits(k)
    while r >= n:
        r = stream.getrandbits(k)
    return r


def weighted_index(stream_or_u: "Stream | float", cumulative: Sequence[float]) -> int:
    """The index chosen by weights whose running sums are ``cumulative``.

    ``stream_or_u`` is a stream, or a float ``u`` in ``[0, 1)`` already drawn
    (how :class:`~synthia.Choice` uses a decision picker). Index ``i`` is chosen
    with probability ``(cumulative[i] - cumulative[i-1]) / cumulative[-1]``;
    a zero weight is never chosen.

    >>> weighted_index(0.6, [1.0, 3.0])
    1
    """
    u = stream_or_u if isinstance(stream_or_u, float) else stream_or_u.random()
    i = bisect.bisect_right(cumulative, u * cumulative[-1])
    last = len(cumulative) - 1
    # u * total rounds up to total for u close to 1: fall back on the last non-zero weight.
    if i > last:
        i = last
    while i > 0 and cumulative[i] == cumulative[i - 1]:
        i -= 1
    return i


def shuffle(stream: Stream, items: MutableSequence[T]) -> None:
    """Shuffle ``items`` in place (Fisher-Yates from the end, partners from :func:`below`).

    >>> xs = [1, 2, 3, 4]
    >>> shuffle(Stream(stream_seed(0)), xs)
    >>> sorted(xs)
    [1, 2, 3, 4]
    """
    for i in range(len(items) - 1, 0, -1):
        j = below(stream, i + 1)
        items[i], items[j] = items[j], items[i]


def next_of_permutation(stream: Stream, n: int, position: int, swaps: dict[int, int]) -> int:
    """The value at ``position`` of a random permutation of ``range(n)``, built lazily.

    Call it with ``position = 0, 1, 2, ...`` and the same ``swaps`` dict (empty at
    first): each call draws one more value without replacement.

    >>> s, swaps = Stream(stream_seed(1)), {}
    >>> sorted(next_of_permutation(s, 5, i, swaps) for i in range(5))
    [0, 1, 2, 3, 4]
    """
    j = position + below(stream, n - position)
    value = swaps.get(j, j)
    swaps[j] = swaps.pop(position, position)
    return value
