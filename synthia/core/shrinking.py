"""The shrinking order, and ``shrink(value)`` -- the original library's API -- made from draws.

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
compared by ``repr`` only as a last resort.

The harnesses shrink recorded draws (:mod:`synthia.engine.shrinker`), not values. The
original library's ``shrink(value)`` -- a picker of values smaller than ``value`` -- is
:class:`Smaller`, made from the same draws: a fresh value's draws lowered towards their
simplest until the value is simpler than ``value``, so it needs no code in any picker.

>>> sorted([3, -1, 0, 1, -3], key=simplicity)
[0, 1, -1, 3, -3]
>>> sorted([[5], [], [0, 0], [1]], key=simplicity)
[[], [1], [5], [0, 0]]
"""
from __future__ import annotations

import math
from typing import Any, TypeVar

from .checks import check_magnitude, describe
from .exceptions import GiveUp, NoMoreElements
from .picker import Bounded, Picker, RandomPicker, Seedable
from .routing import replay, routed
from .sources import Replayer
from .tapes import BOOLEAN, FLOAT, INTEGER, Draw, clamp

__all__ = ["Shrinkable", "Nothing", "simplicity", "shrink_seed", "decision_or_default", "Smaller", "smaller"]

T = TypeVar("T")

#: Rounds of lowering a ``Smaller`` pick tries before it gives the picker's simplest value.
LOWERING_ROUNDS = 32


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


class Shrinkable(Picker[T]):
    """A picker that can propose values smaller than one it produced (the original library's
    interface): ``shrink(value, decision=None, magnitude=1.0)`` returns a **new** picker of
    this picker's values simpler than ``value`` (by :func:`simplicity`), or :class:`Nothing`
    when none is. One mechanism serves every picker: the values are made from this picker's
    own draws, lowered (:class:`Smaller`). ``decision`` (a picker of floats in ``[0, 1)``)
    seeds the shrink, so the same decision seed gives the same shrink; ``magnitude`` in
    ``(0, 1]`` asks for a wide search (1) or much simpler values (towards 0). The harnesses
    do not use it: they shrink recorded draws.

    >>> from synthia import RandomInteger
    >>> RandomInteger(-50, 50).shrink(-20).take(5)
    [-8, 18, 8, -9, 20]
    """

    def shrink(self, value: T, decision: "Picker[float] | None" = None, magnitude: float = 1.0) -> "Picker[T]":
        return smaller(self, value, decision, magnitude)


class Nothing(Bounded[Any], Shrinkable[Any]):
    """The empty picker: every :meth:`pick` raises :class:`~synthia.NoMoreElements`.

    It is what :meth:`~synthia.Shrinkable.shrink` returns when nothing smaller exists.

    >>> Nothing().take(3)
    []
    >>> Nothing().is_done()
    True
    """

    def _pick(self) -> Any:
        raise NoMoreElements("Nothing() never has a value")

    def is_done(self) -> bool:
        return True


class _Decision(RandomPicker[float]):
    """The default decision of a shrink: uniform floats of a fixed seed."""

    def __init__(self) -> None:
        self._init_stream(0)

    def _pick(self) -> float:
        return self._stream.unit()


def decision_or_default(decision: "Picker[float] | None") -> "Picker[float]":
    """``decision``, or a fixed-seed uniform float picker, so that a shrink is always repeatable."""
    return _Decision() if decision is None else decision


def simplest_in(low: float, high: float | None, *, integer: bool) -> float:
    """The simplest value of ``[low, high)`` (``high=None``: unbounded): the one closest to zero."""
    if low >= 0:
        return low
    if high is not None and high <= 0:
        return high - 1 if integer else high  # for floats the caller excludes ``high`` itself
    return 0 if integer else 0.0


def shrink_seed(decision: "Picker[float] | None") -> int:
    """A seed for the stream of a shrunk picker, drawn from ``decision`` (one pick)."""
    u = decision_or_default(decision).pick()
    return int(u * 2**53)


def smaller(picker: Picker[T], value: T, decision: "Picker[float] | None" = None, magnitude: float = 1.0) -> Picker[T]:
    """The values of ``picker`` simpler than ``value`` (:class:`Smaller`), or
    :class:`~synthia.Nothing` when even its simplest value -- the one its simplest draws
    make -- is not simpler. ``picker`` is left as it was.

    >>> import synthia as sy
    >>> smaller(sy.RandomInteger(0, 100), 40).take(6)
    [4, 38, 24, 11, 35, 35]
    >>> smaller(sy.RandomInteger(0, 100), 0)
    Nothing()
    """
    check_magnitude(magnitude)
    try:
        simplest = replay(picker.duplicate(), [], spans=False, max_draws=256)[0]
    except NoMoreElements:  # a picker without values
        return Nothing()
    except GiveUp:  # a filter refuses its simplest draws: it cannot tell, so it tries
        return Smaller(picker, value, shrink_seed(decision), magnitude)
    if not simplicity(simplest) < simplicity(value):
        return Nothing()
    return Smaller(picker, value, shrink_seed(decision), magnitude)


class Smaller(Seedable[T]):
    """Values of a copy of ``picker`` simpler than ``value`` (by :func:`simplicity`), made from
    its draws. Each round replays draws through the copy: a fresh value's first, then, while
    the value is not simpler, the last value's draws with half of them (at random) moved
    towards their simplest value -- a draw ``v`` whose simplest value is ``s`` goes to a random
    point between ``s`` and ``s + magnitude * (v - s)`` (``magnitude`` 1: anywhere between;
    towards 0: next to the simplest). A draw asked for beyond those (a filter that rejected a
    lowered value draws again) is a fresh draw of the picker's range moved towards its
    simplest value by a factor that halves every second round, so a filter finds simpler
    values it accepts (odd numbers shrink to smaller odd numbers). After ``LOWERING_ROUNDS``
    rounds it gives the simplest value it can. Every value is one the picker makes, from
    draws it accepts. Build it with :func:`smaller` (or ``picker.shrink(value)``), which checks
    that a simpler value exists.

    >>> import synthia as sy
    >>> words = Smaller(sy.RandomString(sy.RandomInteger(0, 8), "ab"), "abba", seed=3)
    >>> all(len(w) < 4 or w < "abba" for w in words.take(20))
    True
    """

    # The copy of ``picker`` is not an input: each pick reseeds it from this picker's stream, so
    # this picker's seed, state and routes decide its values, and an explanation ends here.

    def __init__(self, picker: Picker[T], value: T, seed: int | None = None, magnitude: float = 1.0) -> None:
        self.value = value
        self.magnitude = check_magnitude(magnitude)
        self._key = simplicity(value)
        self._init_stream(seed)
        self.picker = picker.duplicate().set_seed(self.seed)

    def _pick(self) -> T:
        key, stream, picker = self._key, self._stream, self.picker
        draws: list[Any] | None = None
        for round in range(LOWERING_ROUNDS):
            # Beyond the draws given: fresh ones, moved towards their simplest more every second round.
            scale = self.magnitude * 0.5 ** (round // 2)
            try:
                if draws is None:
                    # A fresh value, from the picker's initial state (a bounded or stateful
                    # picker makes its first value again), on streams seeded from this one's.
                    picker.set_seed(stream.integer(0, 2**62))
                    value, tape = _replay(picker, [], stream, scale)
                else:
                    given = [d if stream.boolean(0.5) else _lowered(d, self.magnitude, stream.unit()) for d in draws]
                    value, tape = _replay(picker, given, stream, scale)
            except (GiveUp, NoMoreElements):  # a filter refused the draws: start afresh
                draws = None
                continue
            if simplicity(value) < key:
                return value  # type: ignore[no-any-return]
            draws = tape.draws
        try:
            return replay(picker, [], spans=False, max_draws=256)[0]  # type: ignore[no-any-return]
        except GiveUp:
            raise GiveUp(f"no value of {picker!r} simpler than {describe(self.value)} in {LOWERING_ROUNDS} rounds") from None

    def arguments(self) -> tuple[list[Any], dict[str, Any]]:
        kwargs = {} if self.magnitude == 1.0 else {"magnitude": self.magnitude}
        return [self.picker, self.value], kwargs


#: The most draws one round of a ``Smaller`` makes (a filter that keeps refusing gives up).
ROUND_DRAWS = 4096


class _Beyond(Replayer):
    """Replays the draws given; past their end, a fresh draw of the range from ``stream``, moved
    towards its simplest value by ``scale`` (a boolean or an index drawn as it comes)."""

    def __init__(self, draws: list[Any], stream: Any, scale: float) -> None:
        super().__init__(draws, max_draws=len(draws) + ROUND_DRAWS)
        self.stream, self.scale = stream, scale

    def beyond(self, kind: str, args: tuple[Any, ...]) -> Any:
        stream = self.stream
        if kind == INTEGER:
            fresh: Any = stream.integer(*args)
        elif kind == FLOAT:
            low, high = args
            fresh = stream.floating(low, high) if high - low < math.inf else simplest_in(low, None, integer=False)
        elif kind == BOOLEAN:
            return stream.boolean(args[0])
        else:
            return stream.weighted(args[0])
        return clamp(kind, args, _lowered(Draw(kind, fresh, args), self.scale, stream.unit()).value)[0]


def _replay(picker: Picker[Any], draws: list[Any], stream: Any, scale: float) -> tuple[Any, Any]:
    """Pick from ``picker`` (reset) with ``draws``, fresh scaled draws beyond them (:class:`_Beyond`)."""
    source = _Beyond(draws, stream, scale)
    picker.reset()
    with routed(picker, source, spans=False):
        source.begin_pick()
        value = picker.pick()
    return value, source.tape


def _lowered(draw: Any, magnitude: float, u: float) -> Any:
    """``draw`` moved to a random point (``u`` in ``[0, 1)``) between its simplest value and
    ``magnitude`` of the way to its value: the same kind, inside the same range."""
    target = draw.simplest
    if draw.kind == BOOLEAN:
        return draw._replace(value=target)
    value = draw.value
    if draw.kind == FLOAT:
        if not (math.isfinite(value) and math.isfinite(target)):
            return draw._replace(value=target)
        return draw._replace(value=target + (value - target) * magnitude * u)
    return draw._replace(value=target + int((value - target) * magnitude * u))

