"""Draws as data: a leaf picker describes its draw once, and everything reads the description.

A *leaf* is a random picker whose pick is **one typed draw** of its stream mapped to a value
(a ``RandomInteger``, a ``RandomFloat``, a ``RandomBoolean``, a prefix of a text, a UUID...).
It says so by returning a :class:`DrawSpec` from its ``draw_spec()`` method: the draw's kind
and arguments (an integer in ``[low, high)``, a float in ``[low, high)``, a boolean with
probability ``p``, an index among weights), the mapping from the draw to the value, and,
where the picker knows it, the inverse mapping (a value to the draw that makes it). From that
one description:

* the picker's pick is made (:func:`sampler`: the typed draw bound to the stream, one call);
* the stager writes the draw inline (:mod:`synthia.core.emitter`), the guided stager writes
  the learner's decision in its place;
* ``take_array`` draws a numpy batch (:func:`batch`: the same values as ``take(n)``);
* the Hypothesis bridge draws it as a strategy (``st.integers``, ``st.floats``...
  mapped), and a finite domain as ``st.sampled_from``.

A draw whose distribution is the picker's own (a Poisson count, a biased float) gives a
``sample`` function: the plain stream makes the draw with it, and every other source (a
recorder, a replayer, a learner, Hypothesis) treats it as a plain draw of the range
(:meth:`~synthia.core.random.Stream.integer_by`).

>>> from synthia.core.random import Stream
>>> spec = DrawSpec.integer(1, 7, value=lambda d: "*" * d)
>>> pick = sampler(Stream(3), spec)
>>> [len(pick()) in range(1, 7) for _ in range(3)]
[True, True, True]
>>> spec
DrawSpec.integer(1, 7, value=<lambda>)
"""
from __future__ import annotations

from typing import Any, Callable, Sequence

from .tapes import BOOLEAN, FLOAT, INTEGER, WEIGHTED, sort_key

__all__ = ["DrawSpec", "sampler", "draw_once", "batch", "finite_draws"]

#: The largest integer range :func:`finite_draws` lists (a domain Hypothesis can sample).
FINITE_LIMIT = 256


class DrawSpec:
    """A leaf's one typed draw: ``kind`` (``"integer"``, ``"float"``, ``"boolean"``,
    ``"weighted"``), its ``args`` (``(low, high)``; ``(p,)``; ``(cumulative,)``, the running
    sums of the weights), ``value`` (the draw to the value; ``None``: the draw is the value),
    ``inverse`` (the value to the draw that makes it, where the picker knows it; ``None``:
    unknown, or, without ``value``, the value itself) and ``sample`` (``sample(stream)``: a distribution of the picker's own for an
    integer or float draw; ``None``: uniform).

    The minimal draw of the kind must give the picker's simplest value (the order of
    :mod:`synthia.core.draws`). Build one with :meth:`integer`, :meth:`floating`,
    :meth:`boolean` or :meth:`index`.

    >>> DrawSpec.boolean(0.25).args, DrawSpec.floating(0.0, 1.0).kind
    ((0.25,), 'float')
    """

    __slots__ = ("kind", "args", "value", "inverse", "sample")

    def __init__(
        self, kind: str, args: tuple[Any, ...], value: Callable[[Any], Any] | None = None, *,
        inverse: Callable[[Any], Any] | None = None, sample: Callable[[Any], Any] | None = None,
    ) -> None:
        self.kind = kind
        self.args = args
        self.value = value
        self.inverse = inverse
        self.sample = sample

    @classmethod
    def integer(cls, low: int, high: int, value: Callable[[int], Any] | None = None, *,
                inverse: Callable[[Any], int] | None = None, sample: Callable[[Any], int] | None = None) -> "DrawSpec":
        """An integer of ``[low, high)`` (``high > low``)."""
        return cls(INTEGER, (low, high), value, inverse=inverse, sample=sample)

    @classmethod
    def floating(cls, low: float, high: float, value: Callable[[float], Any] | None = None, *,
                 inverse: Callable[[Any], float] | None = None, sample: Callable[[Any], float] | None = None) -> "DrawSpec":
        """A float of ``[low, high)``."""
        return cls(FLOAT, (low, high), value, inverse=inverse, sample=sample)

    @classmethod
    def boolean(cls, p: float, value: Callable[[bool], Any] | None = None, *,
                inverse: Callable[[Any], bool] | None = None) -> "DrawSpec":
        """``True`` with probability ``p``."""
        return cls(BOOLEAN, (p,), value, inverse=inverse)

    @classmethod
    def index(cls, cumulative: Sequence[float], value: Callable[[int], Any] | None = None, *,
              inverse: Callable[[Any], int] | None = None) -> "DrawSpec":
        """An index chosen by the weights whose running sums are ``cumulative``."""
        return cls(WEIGHTED, (tuple(cumulative),), value, inverse=inverse)

    def __repr__(self) -> str:
        name = {INTEGER: "integer", FLOAT: "floating", BOOLEAN: "boolean", WEIGHTED: "index"}.get(self.kind, self.kind)
        parts = [repr(a) for a in self.args]
        for field in ("value", "inverse", "sample"):
            fn = getattr(self, field)
            if fn is not None:
                parts.append(f"{field}={getattr(fn, '__name__', repr(fn))}")
        return f"DrawSpec.{name}({', '.join(parts)})"


def _raw(stream: Any, spec: DrawSpec) -> Callable[[], Any]:
    kind, args, sample = spec.kind, spec.args, spec.sample
    if kind == INTEGER:
        low, high = args
        if sample is not None:
            by = stream.integer_by
            return lambda: by(low, high, sample)
        return stream.integer_sampler(low, high)  # type: ignore[no-any-return]
    if kind == FLOAT:
        low, high = args
        if sample is not None:
            by = stream.floating_by
            return lambda: by(low, high, sample)
        return stream.floating_sampler(low, high)  # type: ignore[no-any-return]
    if kind == BOOLEAN:
        return stream.boolean_sampler(args[0])  # type: ignore[no-any-return]
    if kind == WEIGHTED:
        weighted, cumulative = stream.weighted, args[0]
        return lambda: weighted(cumulative)
    raise ValueError(f"kind must be one of integer, float, boolean, weighted, got {kind!r}")


def sampler(stream: Any, spec: DrawSpec) -> Callable[[], Any]:
    """The leaf's whole pick as one callable on ``stream``: the typed draw with its arguments
    bound (the stream's own sampler, C code where it can be), then the mapping to a value."""
    raw = _raw(stream, spec)
    value = spec.value
    if value is None:
        return raw
    return lambda: value(raw())


def draw_once(stream: Any, spec: DrawSpec) -> Any:
    """One pick of the leaf ``spec`` describes, on ``stream``: its typed draw, then the mapping
    (the same value as the first call of :func:`sampler`, without making one)."""
    kind, args, sample = spec.kind, spec.args, spec.sample
    if kind == INTEGER:
        raw = stream.integer(*args) if sample is None else stream.integer_by(args[0], args[1], sample)
    elif kind == FLOAT:
        raw = stream.floating(*args) if sample is None else stream.floating_by(args[0], args[1], sample)
    elif kind == BOOLEAN:
        raw = stream.boolean(args[0])
    elif kind == WEIGHTED:
        raw = stream.weighted(args[0])
    else:
        raise ValueError(f"kind must be one of integer, float, boolean, weighted, got {kind!r}")
    value = spec.value
    return raw if value is None else value(raw)


def batch(stream: Any, spec: DrawSpec, n: int) -> Any:
    """``n`` draws of ``spec`` from the stream ``stream`` (a plain seeded one) as one numpy
    array, exactly the values of ``n`` calls of :func:`sampler` (the stream moves on as they
    would move it); ``None`` when the draw has no batch (a distribution of the picker's own,
    an integer range beyond 64 bits)."""
    import numpy as np

    kind, args = spec.kind, spec.args
    if spec.sample is not None:
        return None
    if kind == INTEGER:
        low, high = args
        if not (-(2**63) <= low and high <= 2**63):
            return None
        raw = stream.below_array(n, high - low).astype(np.int64)
        if low:
            raw += low
    elif kind == FLOAT:
        low, high = args
        if high - low == float("inf"):
            return None
        raw = stream.unit_array(n)
        if not (low == 0.0 and high == 1.0):
            raw = low + (high - low) * raw
            raw[~(raw < high)] = low
    elif kind == BOOLEAN:
        raw = stream.unit_array(n) < args[0]
    elif kind == WEIGHTED:
        sums = args[0]
        count = len(sums)
        index = np.searchsorted(np.array(sums), stream.unit_array(n) * sums[-1], side="right")
        np.minimum(index, count - 1, out=index)
        back = list(range(count))  # a zero weight is never chosen: back to the last positive one
        for i in range(1, count):
            if sums[i] == sums[i - 1]:
                back[i] = back[i - 1]
        raw = np.array(back)[index]
    else:  # pragma: no cover - checked by sampler
        return None
    value = spec.value
    if value is None:
        return raw
    return np.array([value(v) for v in raw.tolist()])


def finite_draws(spec: DrawSpec) -> tuple[Any, ...] | None:
    """Every draw ``spec`` can make, simplest first, when they are few (a boolean, an index,
    an integer range of at most :data:`FINITE_LIMIT` values); ``None`` otherwise.

    >>> finite_draws(DrawSpec.integer(-2, 2)), finite_draws(DrawSpec.boolean(1.0))
    ((0, 1, -1, -2), (True,))
    """
    kind, args = spec.kind, spec.args
    if kind == BOOLEAN:
        p = args[0]
        return tuple(v for v in (False, True) if (p > 0 if v else p < 1))
    if kind == WEIGHTED:
        sums = args[0]
        return tuple(i for i in range(len(sums)) if sums[i] > (sums[i - 1] if i else 0.0))
    if kind == INTEGER and spec.sample is None:
        low, high = args
        if high - low <= FINITE_LIMIT:
            return tuple(sorted(range(low, high), key=lambda v: sort_key(INTEGER, v)))
    return None
