"""What a test can ask of the harness that runs it: ``draw`` a value, ``assume`` a precondition.

Both work inside a test run by :class:`~synthia.Assert` or ``@sy.given`` (and inside the
functions of a wiring those harnesses pick from).
"""
from __future__ import annotations

import sys
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any, Iterator, TypeVar

from ..core.draws import current_route, routed
from ..core.picker import Picker
from ..core.random import derive_seed

__all__ = ["draw", "assume", "UnsatisfiedAssumption", "DrawContext", "drawing"]

T = TypeVar("T")


class UnsatisfiedAssumption(Exception):
    """Raised by :func:`assume`: this input is outside the test's precondition.

    The harness discards the input: it is counted apart, never as a pass.
    """

    def __init__(self, where: str) -> None:
        super().__init__(f"assumption failed at {where}")
        self.where = where


def assume(condition: Any) -> bool:
    """Discard the current input unless ``condition`` is true (returns ``True`` otherwise).

    A discarded input is not a pass: the report counts discards apart, a run where most
    inputs are discarded gets a health warning naming this line, and one where all are
    discarded is an error. Shrinking never accepts a discarded candidate.

    >>> import synthia as sy
    >>> def remainders_of_non_multiples(x):
    ...     sy.assume(x % 3 != 0)
    ...     return x % 3 in (1, 2)
    >>> report = sy.Assert(remainders_of_non_multiples, x=sy.RandomInteger(0, 100)).run(seed=1)
    >>> report.passed, report.tried, report.discarded
    (True, 100, 47)
    """
    if not condition:
        frame = sys._getframe(1)
        raise UnsatisfiedAssumption(f"{frame.f_code.co_filename}:{frame.f_lineno}")
    return True


@dataclass
class DrawContext:
    """The draws of one test run: the values drawn, and the seeds their pickers get.

    Outside any route (discovery), each drawn picker is a copy seeded from the run's seed,
    the input's index and the draw's rank; inside a route (recording, replay, shrinking)
    its draws go to the route's source, in a span of their own.
    """

    seed: int
    index: int
    drawn: list[Any] = field(default_factory=list)

    def draw(self, picker: Picker[T]) -> T:
        if not isinstance(picker, Picker):
            raise TypeError(f"draw needs a picker, got {picker!r} ({type(picker).__name__})")
        copy = picker.duplicate().set_seed(derive_seed(self.seed, f"draw/{self.index}/{len(self.drawn)}"))
        route = current_route()
        if route is None:
            value = copy.pick()
        else:
            with routed(copy, route.source):
                value = copy.pick()
        self.drawn.append(value)
        return value


_CONTEXT: ContextVar[DrawContext | None] = ContextVar("synthia_draw_context", default=None)


@contextmanager
def drawing(context: DrawContext) -> Iterator[DrawContext]:
    """Make :func:`draw` use ``context`` while the block runs (the harness wraps each test call)."""
    token = _CONTEXT.set(context)
    try:
        yield context
    finally:
        _CONTEXT.reset(token)


def draw(picker: Picker[T]) -> T:
    """A value of ``picker``, drawn inside a test: imperative generation, recorded and shrunk.

    The picker is copied (yours never moves) and its draws are recorded with the input's
    own, so a failure shrinks the arguments and the values drawn inside the test together,
    and the same seed draws the same values. The report lists the values drawn for the
    smallest failure (``report.drawn``). Outside a harness, ``draw`` raises ``RuntimeError``.

    >>> import synthia as sy
    >>> def index_is_in_range(l):
    ...     i = sy.draw(sy.RandomInteger(0, len(l) + 1))  # a planted off-by-one
    ...     return i < len(l)
    >>> report = sy.Assert(index_is_in_range, l=sy.ComposeList(sy.RandomInteger(0, 9), sy.RandomInteger(0, 5))).run(seed=2)
    >>> report.smallest, report.drawn
    ({'l': []}, [0])
    """
    context = _CONTEXT.get()
    if context is None:
        raise RuntimeError("synthia.draw() works inside a test run by Assert or @synthia.given")
    return context.draw(picker)
