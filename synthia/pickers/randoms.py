"""``random.Random`` instances whose every call is a draw: :func:`randoms` (Hypothesis's
``st.randoms()``).

A test that takes a ``random.Random`` (a shuffler, a simulation, a load balancer) gets one
whose calls -- ``randint``, ``choice``, ``random``, ``shuffle``, ``sample``, and everything
``random.Random`` builds on them -- are typed draws of the run: recorded with the input,
replayed, and shrunk like any other draw (``randint(1, 6)`` towards 1, ``choice`` towards
the first element, ``shuffle`` towards the order given, ``random()`` towards 0.0). Each call
is a part of the draws of its own, so the shrinker deletes calls that do not matter. The
calls made, with their results, show in the ``repr`` of the object the test received.
"""
from __future__ import annotations

import functools
import random as _random
from typing import Any, Callable, MutableSequence, Sequence, TypeVar

from ..core.checks import check_bool
from ..core.picker import RandomPicker
from ..core.random import Stream
from ..core.routing import RoutedStream, open_span

__all__ = ["randoms"]

F = TypeVar("F", bound=Callable[..., Any])

#: How many calls a ``repr`` shows.
SHOWN_CALLS = 8


def _call(method: F) -> F:
    """A public method of :class:`DrawnRandom`: its draws are one part, and the call is noted
    (the calls it makes to other methods are not)."""
    name = method.__name__

    @functools.wraps(method)
    def noted(self: "DrawnRandom", *args: Any, **kwargs: Any) -> Any:
        if self._depth:
            return method(self, *args, **kwargs)
        self._depth += 1
        source = open_span(self._draws, ("Random", name))
        try:
            result = method(self, *args, **kwargs)
        finally:
            self._depth -= 1
            if source is not None:
                source.close_span()
        shown = ", ".join([repr(a) for a in args] + [f"{k}={v!r}" for k, v in kwargs.items()])
        self.calls.append(f"{name}({shown}) -> {result!r}")
        return result

    return noted  # type: ignore[return-value]


class DrawnRandom(_random.Random):
    """A ``random.Random`` whose calls are typed draws of a synthia stream (see the module).

    ``seed()`` changes nothing (the values are the run's draws); ``getstate()`` and
    ``setstate()`` are refused. A copy draws on from the same stream.

    >>> r = DrawnRandom(Stream(1))
    >>> r.randint(1, 6), r.choice("abc"), r.sample(range(10), 3)
    (2, 'c', [1, 5, 0])
    >>> r
    DrawnRandom(randint(1, 6) -> 2, choice('abc') -> 'c', sample(range(0, 10), 3) -> [1, 5, 0])
    """

    def __init__(self, draws: Any = None) -> None:
        self._draws = Stream(0) if draws is None else draws
        self._depth = 0
        #: The calls made so far, as ``"randint(1, 6) -> 4"``.
        self.calls: list[str] = []
        super().__init__()

    def seed(self, a: Any = None, version: int = 2) -> None:  # type: ignore[override]
        """Ignored: the values are the run's draws (``random.Random.__init__`` calls it too)."""

    def getstate(self) -> Any:
        raise NotImplementedError("a Random made by sy.randoms() draws from the test run: its state cannot be saved")

    def setstate(self, state: Any) -> None:
        raise NotImplementedError("a Random made by sy.randoms() draws from the test run: its state cannot be set")

    def __copy__(self) -> "DrawnRandom":
        twin = DrawnRandom(self._draws)
        twin.calls = self.calls  # one log: a report that keeps a copy shows the calls made
        return twin

    def __deepcopy__(self, memo: dict[int, Any]) -> "DrawnRandom":
        return self.__copy__()

    def __reduce__(self) -> Any:
        raise TypeError("a Random made by sy.randoms() draws from the test run: it cannot be pickled")

    # -- the primitives every other method of random.Random goes through ------------------
    @_call
    def random(self) -> float:
        return self._draws.unit()  # type: ignore[no-any-return]

    @_call
    def getrandbits(self, k: int) -> int:
        if k < 0:
            raise ValueError("number of bits must be non-negative")
        return self._draws.integer(0, 1 << k) if k else 0  # type: ignore[no-any-return]

    def _randbelow(self, n: int) -> int:  # type: ignore[override]
        return self._draws.integer(0, n) if n > 0 else 0  # type: ignore[no-any-return]

    # -- the methods that shrink better as one draw --------------------------------------
    @_call
    def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int:  # type: ignore[override]
        start, stop, step = _index(start, "start"), None if stop is None else _index(stop, "stop"), _index(step, "step")
        if stop is None:
            if step != 1:
                raise TypeError("Missing a non-None stop argument")
            start, stop = 0, start
        if step == 1:
            if stop <= start:
                raise ValueError(f"empty range in randrange({start}, {stop})")
            return self._draws.integer(start, stop)  # type: ignore[no-any-return]
        if step == 0:
            raise ValueError("zero step for randrange()")
        n = (stop - start + step - 1) // step if step > 0 else (stop - start + step + 1) // step
        if n <= 0:
            raise ValueError(f"empty range in randrange({start}, {stop}, {step})")
        return start + step * self._draws.integer(0, n)  # type: ignore[no-any-return]

    @_call
    def randint(self, a: int, b: int) -> int:
        return self.randrange(a, b + 1)

    @_call
    def choice(self, seq: Any) -> Any:
        if not len(seq):
            raise IndexError("Cannot choose from an empty sequence")
        return seq[self._draws.integer(0, len(seq))]

    @_call
    def shuffle(self, x: MutableSequence[Any]) -> None:  # type: ignore[override]
        # The draw of each position is how far back its element comes from: all zeros
        # (the simplest draws) leave the order as it was.
        for i in reversed(range(1, len(x))):
            j = i - self._draws.integer(0, i + 1)
            x[i], x[j] = x[j], x[i]

    @_call
    def sample(self, population: Sequence[Any], k: int, *, counts: Any = None) -> list[Any]:  # type: ignore[override]
        if counts is not None:
            return super().sample(population, k, counts=counts)
        if not isinstance(population, Sequence):
            raise TypeError("Population must be a sequence.  For dicts or sets, use sorted(d).")
        pool = list(population)
        if not 0 <= k <= len(pool):
            raise ValueError("Sample larger than population or is negative")
        return [pool.pop(self._draws.integer(0, len(pool))) for _ in range(k)]

    def __repr__(self) -> str:
        shown = self.calls[:SHOWN_CALLS]
        more = len(self.calls) - len(shown)
        text = ", ".join(shown) + (f", ... ({more} more calls)" if more else "")
        return f"DrawnRandom({text})"


# The methods random.Random builds on random() and getrandbits(), noted as calls too.
for _name in ("uniform", "triangular", "gauss", "normalvariate", "lognormvariate", "expovariate", "vonmisesvariate",
              "gammavariate", "betavariate", "paretovariate", "weibullvariate", "choices", "randbytes"):  # fmt: skip
    if hasattr(_random.Random, _name):
        setattr(DrawnRandom, _name, _call(getattr(_random.Random, _name)))


def _index(value: Any, name: str) -> int:
    try:
        return value.__index__()  # type: ignore[no-any-return]
    except AttributeError:
        raise TypeError(f"'{type(value).__name__}' object cannot be interpreted as an integer") from None


def _child(stream: Any, seed: int) -> Any:
    """A stream of its own for one ``Random``, seeded by one draw of the picker (recorded and
    replayed with the input, decided by a learner under a guide), on the routes ``stream`` is
    on: the calls a test makes never move the picker's stream, so the next input is the same
    whatever the test called."""
    routes = []
    while isinstance(stream, RoutedStream):
        routes.append(stream.route)
        stream = stream.inner
    child: Any = Stream(seed)
    for route in reversed(routes):
        child = RoutedStream(child, route)
    return child


class Randoms(RandomPicker[_random.Random]):
    """The picker :func:`randoms` returns: a :class:`DrawnRandom` per pick (or, with
    ``use_true_random``, a ``random.Random`` seeded by one draw)."""

    def __init__(self, *, note_method_calls: bool = False, use_true_random: bool = False, seed: int | None = None) -> None:
        self.note_method_calls = check_bool(note_method_calls, "note_method_calls")
        self.use_true_random = check_bool(use_true_random, "use_true_random")
        self._init_stream(seed)

    def sampler(self) -> Callable[[], _random.Random]:
        stream = self.stream
        seed = stream.integer_sampler(0, 2**64)
        if self.use_true_random:
            return lambda: _random.Random(seed())
        return lambda: DrawnRandom(_child(stream, seed()))

    def arguments(self) -> tuple[list[Any], dict[str, Any]]:
        kwargs = {k: True for k in ("note_method_calls", "use_true_random") if getattr(self, k)}
        return [], kwargs


def randoms(*, note_method_calls: bool = False, use_true_random: bool = False) -> Randoms:
    """A picker of ``random.Random`` instances whose calls are draws (Hypothesis's
    ``st.randoms()``): a failure found through ``r.randint(...)`` shrinks with the input,
    and the report shows the calls (``note_method_calls`` is accepted for Hypothesis's sake:
    the calls always show in the value's ``repr``). ``use_true_random=True`` gives a plain
    ``random.Random`` seeded by one draw instead (its calls are not shrunk).

    The report keeps a copy of the input made before the test ran; a copy of a
    ``DrawnRandom`` shares its log of calls, so the report shows the calls the test made
    on the smallest failure, as the object the test received does:

    >>> import synthia as sy
    >>> received = []
    >>> def test_dice(r):
    ...     received.append(r)
    ...     return r.randint(1, 6) + r.randint(1, 6) < 11
    >>> report = sy.Assert(test_dice, r=sy.randoms()).run(seed=1)
    >>> report.smallest["r"]
    DrawnRandom(randint(1, 6) -> 5, randint(1, 6) -> 6)
    >>> received[-1]  # the last call: the smallest failure, confirmed
    DrawnRandom(randint(1, 6) -> 5, randint(1, 6) -> 6)
    """
    return Randoms(note_method_calls=note_method_calls, use_true_random=use_true_random)
