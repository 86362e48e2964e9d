"""Randomness: streams with typed draws, seeds, and the documented mapping from bits to values.

Every random picker owns one :class:`Stream` and takes its randomness **only** through
the stream's typed draws:

* :meth:`Stream.below` -- an integer in ``[0, n)``;
* :meth:`Stream.integer` -- an integer in ``[low, high)``;
* :meth:`Stream.unit` and :meth:`Stream.floating` -- a float in ``[0, 1)`` or ``[low, high)``;
* :meth:`Stream.boolean` -- ``True`` with probability ``p``;
* :meth:`Stream.weighted` -- an index chosen by weights (given as running sums).

A draw *is* its value, and every kind of draw has an order whose minimum is the
simplest value (see :mod:`synthia.core.draws`): ``0`` (or the end of the range closest
to zero), ``0.0`` (or the integral value closest to zero), ``False``, the first index.
That is what lets other **sources** stand behind the same calls -- a recorder, a
replayer of an edited draw sequence, Hypothesis's data, a learner -- without the
catalog knowing (:func:`synthia.core.draws.routed`).

The seeded stream is CPython's Mersenne Twister (:class:`random.Random`), chosen because
its two primitive draws, ``random()`` and ``getrandbits(k)``, are implemented in C and
cost a few tens of nanoseconds, while numpy's scalar draws cost microseconds
(``python benchmarks/run.py`` measures both). Its state copies with
:func:`copy.deepcopy`, which is all ``duplicate(with_state=True)`` needs.

The mapping from bits to values is ours, so that a seed gives the same values on every
supported Python and numpy version:

* a float in ``[0, 1)`` is ``random()`` (53 random bits, CPython's algorithm, unchanged
  since Python 2.3); a float in ``[low, high)`` is ``low + (high - low) * u`` (computed
  as ``low * (1 - u) + high * u`` when the width overflows), and ``low`` if rounding
  reaches ``high``;
* an integer in ``[0, n)`` draws ``k = (n - 1).bit_length()`` bits with ``getrandbits(k)``
  and rejects values ``>= n`` (no modulo bias; a power of two is never rejected); in
  ``[low, high)`` it is ``low`` plus that;
* a boolean is ``random() < p``;
* a weighted index is :func:`weighted_index` of ``u = random()``: ``u * total`` located
  with :func:`bisect.bisect_right` among the running sums;
* a shuffle is :func:`shuffle`: Fisher-Yates from the first position up, position ``i``
  swapped with ``i + below(n - i)``, so that all-minimal draws leave the order unchanged;
* drawing without replacement from ``range(n)`` is :func:`next_of_permutation`, the same
  Fisher-Yates done lazily with a dict of swaps, so a huge range costs memory only for
  the values drawn.

Seeds. :func:`stream_seed` turns a user seed (any ``int``) into the 64-bit number given
to the Mersenne Twister, through BLAKE2b, so that nearby seeds give unrelated streams
and negative seeds differ from positive ones. :func:`derive_seed` gives the upstream
pickers of a wiring distinct seeds from one root seed and each picker's *key*: the
names of the inputs that lead from the root to it (``"element/decision"``). A key does
not change when a picker is added elsewhere in the wiring, so neither do the values of
the others. :func:`fresh_seed` draws a seed from the operating system for pickers built
without one; the picker keeps it readable as ``picker.seed``.

>>> s = Stream(stream_seed(42))
>>> [s.below(10) for _ in range(5)]
[2, 0, 5, 5, 3]
>>> s.integer(-3, 3), s.boolean(0.5), round(s.floating(1.0, 2.0), 3)
(-2, True, 1.555)
"""
from __future__ import annotations

import bisect
import hashlib
import math
import random as _random
from contextvars import ContextVar
from typing import Any, Callable, MutableSequence, Sequence, TypeVar

__all__ = [
    "Stream",
    "stream_seed",
    "derive_seed",
    "fresh_seed",
    "derived_seeds",
    "current_derivation",
    "MixStream",
    "mix64",
    "weighted_index",
    "shuffle",
    "DERIVING",
    "ROUTE",
    "check_seed",
    "next_of_permutation",
]

T = TypeVar("T")

_MASK64 = (1 << 64) - 1
_system = _random.SystemRandom()


class Stream(_random.Random):
    """A seeded Mersenne Twister with synthia's typed draws (the default source of every picker).

    Pickers call only the typed draws below, never ``random()`` or ``getrandbits()``
    directly, so that a recorder, a replayer or another source can stand in for the
    stream (:class:`synthia.core.draws.RoutedStream` has the same methods).

    >>> s = Stream(stream_seed(1))
    >>> s.integer(10, 20) in range(10, 20), 0.0 <= s.unit() < 1.0
    (True, True)
    """

    #: A float in ``[0, 1)``: ``random()`` itself (C code, no Python frame on the hot path).
    unit = _random.Random.random

    def __deepcopy__(self, memo: dict[int, Any]) -> "Stream":
        # The state tuple as it is (its 625 ints are immutable): copying it item by item,
        # which the default reduce-based deep copy does, costs ~30x more.
        twin = type(self).__new__(type(self))
        twin.__dict__.update(self.__dict__)
        twin.setstate(self.getstate())
        memo[id(self)] = twin
        return twin

    def own(self) -> "Stream":
        """The stream itself: a stream owned by its picker (a routed one answers the stream
        behind its routes, see :class:`synthia.core.routing.RoutedStream`)."""
        return self

    def rebase(self, own: Any) -> Any:
        """``own`` in place of this stream (behind the same routes, for a routed one)."""
        return own

    def below(self, n: int) -> int:
        """An integer uniformly drawn from ``[0, n)``, for ``n >= 1``."""
        k = (n - 1).bit_length()
        getrandbits = self.getrandbits
        r = getrandbits(k)
        while r >= n:
            r = getrandbits(k)
        return r

    def integer(self, low: int, high: int) -> int:
        """An integer uniformly drawn from ``[low, high)``, for ``high > low``."""
        n = high - low
        k = (n - 1).bit_length()
        getrandbits = self.getrandbits
        r = getrandbits(k)
        while r >= n:
            r = getrandbits(k)
        return low + r

    def integer_by(self, low: int, high: int, sample: Callable[["Stream"], int]) -> int:
        """An integer of ``[low, high)`` made by ``sample(stream)``, a distribution of the
        picker's own (built from this stream's typed draws), and recorded, replayed and
        shrunk as **one** integer draw of that range: what is remembered is the value, not
        the draws that chose it, as with Hypothesis's weighted integers. A source that
        decides values itself (a replayer, a learner, Hypothesis's data) treats it as a
        plain integer draw of the range.

        >>> Stream(1).integer_by(0, 100, lambda s: 2 * s.integer(0, 50)) % 2
        0
        """
        return sample(self)

    def floating_by(self, low: float, high: float, sample: Callable[["Stream"], float]) -> float:
        """A float of ``[low, high)`` made by ``sample(stream)``: :meth:`integer_by` for floats
        (recorded, replayed and shrunk as one float draw of that range; ``high`` may be
        infinite).

        >>> 0.0 <= Stream(1).floating_by(0.0, 1.0, lambda s: s.floating(0.0, 0.5) ** 2) < 0.25
        True
        """
        return sample(self)

    def floating(self, low: float, high: float) -> float:
        """A float uniformly drawn from ``[low, high)``, for finite ``high > low``."""
        u = self.random()
        value = low + (high - low) * u
        if value < high:
            return value
        if high - low == math.inf:  # [-1e308, 1e308): the width overflows, the mix does not
            value = low * (1.0 - u) + high * u
            if value < high:
                return value
        return low  # low + width * u rounded up to high; the range is half-open

    # -- samplers: one typed draw with its arguments bound, for a picker's hot path ---------
    def integer_sampler(self, low: int, high: int) -> Callable[[], int]:
        """A callable that makes ``integer(low, high)`` draws, with the work done once.

        A picker holds it (see ``Seedable._bind``), so a pick costs one call and no
        attribute look-ups; it is rebuilt whenever the picker's stream changes.
        """
        n = high - low
        k = (n - 1).bit_length()
        getrandbits = self.getrandbits

        def integer() -> int:
            r = getrandbits(k)
            while r >= n:
                r = getrandbits(k)
            return low + r

        return integer

    def floating_sampler(self, low: float, high: float) -> Callable[[], float]:
        """A callable that makes ``floating(low, high)`` draws (see :meth:`integer_sampler`)."""
        if high - low == math.inf:
            return lambda: self.floating(low, high)
        if low == 0.0 and high == 1.0:
            return self.random  # C code, and always below 1
        width = high - low
        random = self.random

        def floating() -> float:
            value = low + width * random()
            return value if value < high else low

        return floating

    def boolean_sampler(self, p: float) -> Callable[[], bool]:
        """A callable that makes ``boolean(p)`` draws (see :meth:`integer_sampler`)."""
        random = self.random
        return lambda: random() < p

    # -- batches: the same draws, vectorised with numpy (imported only here) ----------------
    def _twister(self) -> Any:
        """A numpy ``MT19937`` in exactly this stream's state (the same algorithm, same words)."""
        import numpy as np

        version, internal, spare = self.getstate()
        twister = np.random.MT19937()
        twister.state = {
            "bit_generator": "MT19937",
            "state": {"key": np.array(internal[:624], dtype=np.uint32), "pos": internal[624]},
        }
        return twister

    def _adopt(self, twister: Any) -> None:
        """Take the state of the numpy twister ``twister`` (after it made this stream's draws)."""
        state = twister.state["state"]
        self.setstate((3, tuple(state["key"].tolist()) + (int(state["pos"]),), self.getstate()[2]))

    def words(self, n: int) -> Any:
        """The next ``n`` 32-bit outputs of the twister as a numpy ``uint32`` array; the stream
        moves on exactly as ``n`` calls of ``getrandbits(32)`` would move it.

        >>> a, b = Stream(stream_seed(4)), Stream(stream_seed(4))
        >>> a.words(3).tolist() == [b.getrandbits(32) for _ in range(3)] and a.random() == b.random()
        True
        """
        import numpy as np

        if n <= 0:
            return np.zeros(0, dtype=np.uint32)
        twister = self._twister()
        out = _raw32(twister, n)
        self._adopt(twister)
        return out

    def unit_array(self, n: int) -> Any:
        """``n`` floats in ``[0, 1)``: exactly the values of ``n`` calls of :meth:`unit`
        (``random()``: 27 + 26 bits of two words), as a numpy array.

        >>> a, b = Stream(stream_seed(4)), Stream(stream_seed(4))
        >>> a.unit_array(5).tolist() == [b.unit() for _ in range(5)]
        True
        """
        import numpy as np

        # Word 2i gives the high 27 bits, word 2i + 1 the low 26: an exact 53-bit integer,
        # scaled by 2**-53 (exact), which is what random() computes in floating point.
        pairs = np.ascontiguousarray(self.words(2 * n)).view("<u8") if n else np.zeros(0, dtype=np.uint64)
        bits = (pairs & np.uint64(0xFFFFFFFF)) >> np.uint64(5)
        bits <<= np.uint64(26)
        bits |= pairs >> np.uint64(38)
        out = bits.astype(np.float64)
        out *= 1.0 / 9007199254740992.0
        return out

    def below_array(self, count: int, n: int) -> Any:
        """``count`` ints in ``[0, n)`` (``n <= 2**64``): exactly the values of ``count``
        calls of :meth:`below`, as a numpy array (``uint32`` up to ``2**32``, else ``uint64``).

        The rejection is the same: each attempt uses one word (two above 32 bits) and is
        rejected when ``>= n``; the stream moves on by the words the accepted values used.

        >>> a, b = Stream(stream_seed(4)), Stream(stream_seed(4))
        >>> a.below_array(6, 1000).tolist() == [b.below(1000) for _ in range(6)]
        True
        """
        import numpy as np

        k = (n - 1).bit_length()
        if k == 0 or count <= 0:
            return np.zeros(max(count, 0), dtype=np.uint32)
        if k > 64:
            raise ValueError(f"n must be at most 2**64 for a batch, got {n!r}")
        per = 1 if k <= 32 else 2
        twister = self._twister()
        accept = n / (1 << k)
        chunks = []
        found = 0
        first = True
        while found < count:
            # A first chunk a little short of the expected need, then small ones: only the last
            # chunk's words are generated twice (to leave the stream exactly after the last use).
            wanted = (count - found) / accept
            attempts = int(wanted * 0.99) if first and wanted > 10_000 else int(wanted * 1.1) + 32
            first = False
            before = twister.state
            raw = _raw32(twister, attempts * per)
            if per == 1:
                values = raw >> np.uint32(32 - k)
                good = values < np.uint32(n) if n < (1 << 32) else None
            else:
                wide = raw.astype(np.uint64)
                values = ((wide[1::2] >> np.uint64(64 - k)) << np.uint64(32)) | wide[0::2]
                good = values < np.uint64(n) if n < (1 << 64) else None
            kept = values if good is None else values[good]
            if found + len(kept) >= count:
                need = count - found
                used = need if good is None else int(np.flatnonzero(good)[need - 1]) + 1
                chunks.append(kept[:need])
                twister.state = before
                _raw32(twister, used * per)
                found = count
            else:
                chunks.append(kept)
                found += len(kept)
        self._adopt(twister)
        return np.concatenate(chunks) if len(chunks) > 1 else chunks[0]

    def boolean(self, p: float) -> bool:
        """``True`` with probability ``p`` (``random() < p``)."""
        return self.random() < p

    def weighted(self, cumulative: Sequence[float]) -> int:
        """An index chosen by the weights whose running sums are ``cumulative``."""
        return weighted_index(self.random(), cumulative)


def _raw32(twister: Any, n: int) -> Any:
    """The next ``n`` raw 32-bit words of a numpy ``MT19937``, as ``uint32``: a bounded draw over
    the full 32-bit range returns the word unchanged (numpy's fast path; pinned by the
    doctests of :meth:`Stream.words`)."""
    import numpy as np

    return np.random.Generator(twister).integers(0, 0xFFFFFFFF, size=n, dtype=np.uint32, endpoint=True)


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


#: The innermost :class:`derived_seeds` block (what a picker built now derives its seed from).
DERIVING: ContextVar["derived_seeds | None"] = ContextVar("synthia_deriving", default=None)
#: The route that streams made now join (:func:`synthia.core.routing.routed` sets it): an
#: object whose ``join(stream)`` returns the stream on that route, or ``None``.
ROUTE: ContextVar[Any] = ContextVar("synthia_route", default=None)

_GAMMA = 0x9E3779B97F4A7C15


def mix64(x: int) -> int:
    """SplitMix64's finaliser of ``x`` (taken modulo ``2**64``): a cheap 64-bit mix, whose
    outputs for consecutive inputs look unrelated.

    >>> mix64(0), mix64(1) != mix64(2)
    (0, True)
    """
    z = x & _MASK64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
    return z ^ (z >> 31)


class MixStream:
    """A light stream: SplitMix64 keyed by a 64-bit ``key``, with the typed draws of
    :class:`Stream` (the same algorithms on its ``getrandbits`` and ``random``).

    The pickers a ``Bind`` builds while picking (``fn(v)``) draw from one each (see
    :class:`derived_seeds`): making one costs two attribute stores, where seeding a Mersenne
    Twister costs microseconds, and a ``Bind`` builds new pickers on every pick. Its state is
    the key and the number of 64-bit words drawn, so it copies, pickles, resets
    (``seed(key)``) and replays like a :class:`Stream`. A word is ``mix64(key + i * gamma)``
    for ``i = 1, 2, ...``; ``getrandbits(k)`` takes the high ``k`` bits of a word (of
    several, high words first, above 64); ``random()`` the high 53 bits, scaled.

    >>> s = MixStream(5)
    >>> a = [s.below(10) for _ in range(5)]
    >>> s.seed(5); a == [s.below(10) for _ in range(5)], 0.0 <= s.random() < 1.0
    (True, True)
    """

    __slots__ = ("_key", "_count", "_root", "_index")

    def __init__(self, key: int | None, root: int = 0, index: int = 0) -> None:
        # Without a key, the key is mix64(root + index * gamma), computed at the first word.
        self._key = None if key is None else key & _MASK64
        self._count = 0
        self._root = root
        self._index = index

    @property
    def key(self) -> int:
        """The 64-bit key of this stream."""
        key = self._key
        if key is None:
            key = self._key = mix64(self._root + self._index * _GAMMA)
        return key

    def _word(self) -> int:
        key = self._key
        if key is None:
            key = self.key
        count = self._count = self._count + 1
        z = (key + count * _GAMMA) & _MASK64
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        return z ^ (z >> 31)

    def getrandbits(self, k: int) -> int:
        """An int of ``k`` random bits."""
        if k == 64:  # _word(), inlined: a Bind draws the root of its pickers' streams so
            key = self._key
            if key is None:  # the key, inlined as in random(): a Bind built while picking draws once
                z = (self._root + self._index * _GAMMA) & _MASK64
                z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
                z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
                key = self._key = z ^ (z >> 31)
            count = self._count = self._count + 1
            z = (key + count * _GAMMA) & _MASK64
            z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
            return z ^ (z >> 31)
        if k <= 64:
            return self._word() >> (64 - k) if k > 0 else 0
        out, bits = 0, 0
        while bits < k:
            out, bits = (out << 64) | self._word(), bits + 64
        return out >> (bits - k)

    def random(self) -> float:
        """A float in ``[0, 1)``: the high 53 bits of a word."""
        key = self._key
        if key is None:  # the key, mix64(root + index * gamma), inlined: a picker a Bind builds draws once
            z = (self._root + self._index * _GAMMA) & _MASK64
            z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
            key = self._key = z ^ (z >> 31)
        count = self._count = self._count + 1  # _word(), inlined: floats are drawn often
        z = (key + count * _GAMMA) & _MASK64
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        return ((z ^ (z >> 31)) >> 11) * (1.0 / 9007199254740992.0)

    unit = random
    own = Stream.own
    rebase = Stream.rebase
    below = Stream.below

    def integer(self, low: int, high: int) -> int:
        """An integer of ``[low, high)``: :meth:`Stream.integer`'s algorithm on this stream's words."""
        n = high - low
        k = (n - 1).bit_length()
        if not 0 < k <= 64:
            return Stream.integer(self, low, high)  # type: ignore[arg-type]
        key = self._key
        if key is None:  # the key, inlined as in random()
            z = (self._root + self._index * _GAMMA) & _MASK64
            z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
            key = self._key = z ^ (z >> 31)
        shift = 64 - k
        while True:  # _word(), inlined: a picker a Bind builds draws once
            count = self._count = self._count + 1
            z = (key + count * _GAMMA) & _MASK64
            z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
            r = (z ^ (z >> 31)) >> shift
            if r < n:
                return low + r
    integer_by = Stream.integer_by
    floating_by = Stream.floating_by
    floating = Stream.floating
    boolean = Stream.boolean
    weighted = Stream.weighted
    floating_sampler = Stream.floating_sampler
    boolean_sampler = Stream.boolean_sampler

    def integer_sampler(self, low: int, high: int) -> Callable[[], int]:
        """``integer(low, high)`` draws as one callable (see :meth:`Stream.integer_sampler`)."""
        n = high - low
        k = (n - 1).bit_length()
        if not 0 < k <= 64:
            return Stream.integer_sampler(self, low, high)  # type: ignore[arg-type]
        stream, shift = self, 64 - k

        def integer() -> int:
            key = stream._key
            if key is None:
                key = stream.key
            while True:  # _word(), inlined
                count = stream._count = stream._count + 1
                z = (key + count * _GAMMA) & _MASK64
                z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
                z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
                r = (z ^ (z >> 31)) >> shift
                if r < n:
                    return low + r

        return integer

    def seed(self, key: Any = None) -> None:
        """Back to the first word of ``key`` (of the current key for ``None``)."""
        if key is not None:
            self._key = key & _MASK64
        self._count = 0

    def getstate(self) -> tuple[int, int]:
        return self.key, self._count

    def setstate(self, state: tuple[int, int]) -> None:
        self._key, self._count = state

    def __deepcopy__(self, memo: dict[int, Any]) -> "MixStream":
        twin = MixStream(self.key)
        twin._count = self._count
        memo[id(self)] = twin
        return twin

    def __reduce__(self) -> Any:
        return (_mix_stream, (self.key, self._count))

    def __repr__(self) -> str:
        return f"MixStream({self.key:#x}, drawn={self._count})"


def _mix_stream(key: int, count: int) -> MixStream:
    stream = MixStream(key)
    stream._count = count
    return stream


def current_derivation() -> "derived_seeds | None":
    """The innermost :class:`derived_seeds` block active here (``None`` outside any): a picker
    built inside a ``Bind``'s pick finds there the ``Bind`` (``owner``) it is built for.

    >>> with derived_seeds(7, light=True, owner="b"):
    ...     current_derivation().owner
    'b'
    >>> current_derivation() is None
    True
    """
    return DERIVING.get()


def fresh_seed() -> int:
    """A new 63-bit seed: from the operating system's entropy, or, inside
    :func:`derived_seeds`, the next seed derived from that block's root."""
    deriving = DERIVING.get()
    if deriving is None:
        return _system.getrandbits(63)
    deriving.count += 1
    return derive_seed(deriving.root, f"fresh/{deriving.count}")


class derived_seeds:
    """Inside the block, pickers built without a seed get seeds derived from ``root`` (in
    order) instead of fresh entropy, so a wiring built while picking (a dependent wiring's
    inner picker) is reproducible from the seed of the picker that built it.

    With ``light=True`` (what a ``Bind`` enters on every pick), a random picker built in the
    block without a seed gets no Mersenne Twister: it draws from a :class:`MixStream` keyed
    ``mix64(root + i * gamma)`` for the ``i``-th picker built, and that key is its ``seed``.
    Nothing is hashed or seeded; each picker still has a stream of its own, which ``reset()``
    and ``duplicate()`` replay. With ``light=False`` (a wiring a ``Bind`` keeps, drawn from
    again and again) it gets a Mersenne Twister seeded with that key: seeded once, it draws
    at C speed. ``owner`` is the picker whose pick the block is part of.

    A small class rather than a generator: a ``Bind`` enters one on every pick.

    >>> from synthia import RandomInteger
    >>> with derived_seeds(7):
    ...     a = RandomInteger(0, 10**6).pick()
    >>> with derived_seeds(7):
    ...     b = RandomInteger(0, 10**6).pick()
    >>> a == b
    True
    >>> with derived_seeds(7, light=True):
    ...     c = RandomInteger(0, 10**6)
    >>> type(c.stream).__name__, c.seed == c.stream.key == mix64(7 + 0x9E3779B97F4A7C15)
    ('MixStream', True)
    """

    __slots__ = ("root", "light", "owner", "count", "_token")

    def __init__(self, root: int, light: bool | None = None, owner: Any = None) -> None:
        self.root = root
        self.light = light
        #: The picker whose pick the block is part of (a ``Bind``), for the pickers built in it.
        self.owner = owner
        self.count = 0

    def __enter__(self) -> None:
        self.count = 0
        self._token = DERIVING.set(self)

    def __exit__(self, *exc: Any) -> None:
        DERIVING.reset(self._token)

    def __repr__(self) -> str:
        return f"derived_seeds({self.root!r})"


def weighted_index(u: float, cumulative: Sequence[float]) -> int:
    """The index that the uniform float ``u`` in ``[0, 1)`` chooses among weights.

    ``cumulative`` holds the running sums of the weights. Index ``i`` is chosen with
    probability ``(cumulative[i] - cumulative[i-1]) / cumulative[-1]``; a zero weight is
    never chosen; ``u = 0`` chooses the first index of positive weight.

    >>> weighted_index(0.6, [1.0, 3.0])
    1
    >>> weighted_index(0.0, [0.0, 2.0, 3.0])
    1
    """
    i = bisect.bisect_right(cumulative, u * cumulative[-1])
    last = len(cumulative) - 1
    # u * total rounds up to total for u close to 1: fall back on the last non-zero weight.
    if i > last:
        i = last
    while i > 0 and cumulative[i] == cumulative[i - 1]:
        i -= 1
    return i


def shuffle(stream: Stream, items: MutableSequence[T]) -> None:
    """Shuffle ``items`` in place: Fisher-Yates from the first position up.

    Position ``i`` is swapped with ``i + stream.below(len - i)``, so all-minimal draws
    (a replay of zeros) leave the order unchanged.

    >>> xs = [1, 2, 3, 4]
    >>> shuffle(Stream(stream_seed(0)), xs)
    >>> sorted(xs)
    [1, 2, 3, 4]
    """
    n = len(items)
    for i in range(n - 1):
        j = i + stream.below(n - i)
        items[i], items[j] = items[j], items[i]


def next_of_permutation(stream: Stream, n: int, position: int, swaps: dict[int, int]) -> int:
    """The value at ``position`` of a random permutation of ``range(n)``, built lazily.

    Call it with ``position = 0, 1, 2, ...`` and the same ``swaps`` dict (empty at
    first): each call draws one more value without replacement.

    >>> s, swaps = Stream(stream_seed(1)), {}
    >>> sorted(next_of_permutation(s, 5, i, swaps) for i in range(5))
    [0, 1, 2, 3, 4]
    """
    j = position + stream.below(n - position)
    value = swaps.get(j, j)
    swaps[j] = swaps.pop(position, position)
    return value
