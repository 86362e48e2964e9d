"""Imperative wirings: :class:`Composite` and the :func:`composite` decorator, a picker whose
value is made by a function that draws from other pickers (Hypothesis's ``@st.composite``)."""
from __future__ import annotations

import functools
import inspect
from typing import Any, Callable, TypeVar

from ..core.checks import check_callable, describe
from ..core.draws import current_route, routed
from ..core.picker import Picker, RandomPicker
from ..core.random import derived_seeds, fresh_seed
from ..core.routing import is_routed, open_span

__all__ = ["Composite", "composite"]

T = TypeVar("T")


class Composite(RandomPicker[T]):
    """``fn(draw, *args, **kwargs)``, where ``draw(picker)`` is one value of ``picker``.

    The values drawn are made of this picker's draws: each drawn picker is a copy (yours
    never moves) seeded from this picker's stream, and while a run records or replays
    draws, its draws are recorded in this picker's part, so the same seed gives the same
    values, ``reset()`` replays them, and a failing value shrinks through the values drawn
    (a list drawn first, an index into it drawn next stay consistent). Pickers ``fn``
    builds while it runs are drawn the same way. :func:`composite` makes ``fn`` a function
    that returns such pickers, as Hypothesis's ``@st.composite`` does.

    >>> from synthia import RandomInteger
    >>> def point(draw, size):
    ...     x = draw(RandomInteger(0, size))
    ...     return (x, draw(RandomInteger(0, x + 1)))
    >>> Composite(point, 10).set_seed(2).take(3)
    [(7, 4), (4, 3), (0, 0)]
    >>> Composite(point, 10)
    Composite(point, 10)
    """

    _light_stream = True  # it draws only the roots of the streams of the pickers it copies

    def __init__(self, fn: Callable[..., T], /, *args: Any, seed: int | None = None, **kwargs: Any) -> None:
        self.fn = check_callable(fn, "fn")
        try:
            inspect.signature(fn).bind(_draw, *args, **kwargs)
        except TypeError as error:
            raise TypeError(f"fn must take draw and then the arguments given (fn(draw, *args, **kwargs)), got {describe(fn)}: {error}") from None
        except ValueError:  # no signature to read (a builtin): called as it is
            pass
        self.args = args
        self.kwargs = kwargs
        self._init_stream(seed)

    def _pick(self) -> T:
        stream = self._stream
        if is_routed(stream):
            # Recorded or replayed: the pick is a part of its own, labelled by fn.
            source = open_span(stream, ("Composite", getattr(self.fn, "__qualname__", repr(self.fn))))
            try:
                return self._made()
            finally:
                if source is not None:
                    source.close_span()
        return self._made()

    def _made(self) -> T:
        # The roots of the drawn pickers' streams: the next 64 bits of this picker's own
        # stream, behind its routes, so that reset() and set_seed() replay them.
        with derived_seeds(self._stream.own().getrandbits(64), True, self):
            return self.fn(_draw, *self.args, **self.kwargs)

    def arguments(self) -> tuple[list[Any], dict[str, Any]]:
        return [self.fn, *self.args], dict(self.kwargs)


def _draw(picker: Picker[T]) -> T:
    """One value of a copy of ``picker``, seeded from the composite's stream (routed with it)."""
    if not isinstance(picker, Picker):
        raise TypeError(f"draw needs a picker, got {picker!r} ({type(picker).__name__})")
    copy = picker.duplicate().set_seed(fresh_seed())
    route = current_route()
    if route is None:
        return copy.pick()
    with routed(copy, route.source):
        return copy.pick()


def composite(fn: Callable[..., T]) -> Callable[..., Composite[T]]:
    """Make ``fn(draw, *args, **kwargs)`` a function of ``(*args, **kwargs)`` that returns a
    :class:`Composite` picker (Hypothesis's ``@st.composite``).

    >>> import synthia as sy
    >>> @sy.composite
    ... def sorted_pair(draw, high=100):
    ...     a = draw(sy.RandomInteger(0, high))
    ...     return (a, draw(sy.RandomInteger(a, high)))
    >>> sy.find(sorted_pair(), lambda p: p[1] - p[0] > 50, seed=1)
    (0, 51)
    """
    check_callable(fn, "fn")

    @functools.wraps(fn)
    def make(*args: Any, **kwargs: Any) -> Composite[T]:
        return Composite(fn, *args, **kwargs)

    return make
