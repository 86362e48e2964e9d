"""What a test can ask of the harness that runs it: ``draw`` a value, ``assume`` a
precondition, label the input with ``event``, require coverage with ``cover``.

All work inside a test run by :class:`~synthia.Assert`, :class:`~synthia.Monkey` or
``@sy.given`` (and inside the functions of a wiring those harnesses pick from); outside a
harness ``event`` and ``cover`` do nothing, so a test stays an ordinary function.
"""
from __future__ import annotations

import math
import sys
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, Iterator, TypeVar

from ..core.checks import check_float
from ..core.draws import routed
from ..core.picker import Picker
from ..core.random import derive_seed
from ..engine.report import safe_repr

__all__ = ["draw", "assume", "event", "cover", "note", "target", "UnsatisfiedAssumption", "DrawContext", "drawing"]

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


class DrawContext:
    """The draws of one test run: the values drawn, and the seeds their pickers get; the
    labels given with :func:`event` and the requirements met with :func:`cover`.

    Outside any route (discovery), each drawn picker is a copy seeded from the run's seed,
    the input's index and the draw's rank; inside a route (recording, replay, shrinking)
    its draws go to the route's source, in a span of their own. (A slotted class: the
    harness makes one per input.)
    """

    __slots__ = ("seed", "index", "drawn", "events", "covers", "notes", "targets", "route")

    def __init__(self, seed: int, index: int) -> None:
        self.seed = seed
        self.index = index
        #: The route of the input's draws while the test runs (``None``: not recorded). The
        #: test's body runs with no current route -- a picker it builds is its own, not a part
        #: of the input -- so :meth:`draw` finds the route here.
        self.route: Any = None
        self.drawn: list[Any] = []
        self.events: list[str] = []
        self.covers: list[tuple[str, float, bool]] = []
        #: What the test said with :func:`note`, and gave :func:`target` (by label).
        self.notes: list[str] = []
        self.targets: dict[str, float] | None = None

    def renew(self, seed: int, index: int) -> None:
        """Make this context the one of a new input (a harness keeps one per run)."""
        self.seed = seed
        self.index = index
        if self.drawn:
            self.drawn = []
        if self.events:
            self.events = []
        if self.covers:
            self.covers = []
        if self.notes:
            self.notes = []
        self.targets = None

    @property
    def used(self) -> bool:
        """Whether the test drew, labelled, required, noted or targeted anything."""
        return bool(self.drawn or self.events or self.covers or self.notes or self.targets)

    def draw(self, picker: Picker[T]) -> T:
        if not isinstance(picker, Picker):
            raise TypeError(f"draw needs a picker, got {picker!r} ({type(picker).__name__})")
        copy = picker.duplicate().set_seed(derive_seed(self.seed, f"draw/{self.index}/{len(self.drawn)}"))
        route = self.route
        if route is None:
            value = copy.pick()
        else:
            with routed(copy, route.source):
                value = copy.pick()
        self.drawn.append(value)
        return value


_CONTEXT: ContextVar[DrawContext | None] = ContextVar("synthia_draw_context", default=None)


#: What a harness calls to make a context current (``enter_drawing`` without the call).
set_context = _CONTEXT.set
#: What a harness calls to end it, with the token ``set_context`` gave.
reset_context = _CONTEXT.reset


def enter_drawing(context: DrawContext) -> Any:
    """Make :func:`draw` use ``context`` until :func:`leave_drawing` gets the token returned
    (what :func:`drawing` does, without a generator: the harness does it once per input)."""
    return _CONTEXT.set(context)


def leave_drawing(token: Any) -> None:
    """End what :func:`enter_drawing` began."""
    _CONTEXT.reset(token)


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


def event(label: Any) -> None:
    """Label the current input (its text, ``str(label)``): the report counts the labels
    (``report.evidence.labels``), and the label joins the input's class for the stopping
    rules. An input may get several labels; the same one twice counts once.

    >>> import synthia as sy
    >>> def test_sign(x):
    ...     sy.event("negative" if x < 0 else "non-negative")
    ...     return abs(x) >= 0
    >>> report = sy.Assert(test_sign, x=sy.RandomInteger(-10, 10)).run(seed=3)
    >>> sorted(report.evidence.labels)
    ['negative', 'non-negative']
    """
    context = _CONTEXT.get()
    if context is not None:
        text = str(label)
        if text not in context.events:
            context.events.append(text)


def note(value: Any) -> None:
    """Say something about the current input, shown with the smallest failure only (the
    report's ``test_notes``, and the failure message under pytest): the values a test computes
    on the way, which the shrunk input alone does not show. Outside a harness it does nothing.
    A string is kept as it is, any other value as its ``repr``.

    >>> import synthia as sy
    >>> def test_halves(x):
    ...     half = x // 2
    ...     sy.note(f"half={half}")
    ...     assert half * 2 == x
    >>> report = sy.Assert(test_halves, x=sy.RandomInteger(0, 100)).run(seed=1)
    >>> report.smallest, report.test_notes
    ({'x': 1}, ['half=0'])
    """
    context = _CONTEXT.get()
    if context is not None:
        context.notes.append(value if isinstance(value, str) else safe_repr(value))


def target(observation: float, label: str = "") -> float:
    """Steer discovery towards inputs that make ``observation`` large, and return it: the
    runner keeps the input with the highest observation of each ``label`` and tries small
    changes of its draws (hill climbing, as Hypothesis's ``target``); the report's
    ``targets`` holds the highest observation of each label. A number, finite; ``label`` a
    string. Outside a harness it only returns ``observation``.

    >>> import synthia as sy
    >>> def test_sum(l):
    ...     sy.target(sum(l), label="sum")
    ...     return sum(l) < 9_000
    >>> lists = sy.ComposeList(sy.RandomInteger(0, 1000), sy.RandomInteger(0, 13))  # sums rarely reach 9,000
    >>> report = sy.Assert(test_sum, sy.RunOptions(max_examples=300), l=lists).run(seed=1)
    >>> report.passed, report.targets["sum"] >= 9_000
    (False, True)
    """
    if isinstance(observation, bool) or not isinstance(observation, (int, float)):
        raise TypeError(f"observation must be an int or a float, got {observation!r} ({type(observation).__name__})")
    check_float(observation, "observation")  # finite, and within the float range: the climber compares floats
    if not isinstance(label, str):
        raise TypeError(f"label must be a string, got {label!r} ({type(label).__name__})")
    context = _CONTEXT.get()
    if context is not None:
        if context.targets is None:
            context.targets = {}
        if label in context.targets:
            raise ValueError(f"target(..., label={label!r}) was given twice for one input: one observation per label")
        context.targets[label] = float(observation)
    return observation


def cover(label: str, p: float, when: Any) -> bool:
    """Require that at least a share ``p`` (in ``[0, 1]``) of the tested inputs have ``when``
    true, and label those ``label``; returns ``bool(when)``.

    The requirement is checked as QuickCheck's ``checkCoverage`` does, with a stated
    certainty (default ``10**9``) and tolerance (0.9): at 100, 200, 400, ... inputs (a
    doubling schedule keeps the number of looks small), a
    requirement whose Wilson upper bound is below ``p`` fails the run ("insufficient
    coverage"), one whose lower bound reaches ``0.9 p`` is met, and while one is undecided
    the run goes on past its stopping rule. Inputs discarded by :func:`assume` do not
    count, so a precondition scopes the requirement. Outside a harness it only returns
    ``bool(when)``.

    >>> import synthia as sy
    >>> def test_sort_is_idempotent(l):
    ...     sy.cover("non-trivial", 0.8, len(l) > 1)  # lengths 0-3: only half are non-trivial
    ...     return sorted(sorted(l)) == sorted(l)
    >>> report = sy.Assert(test_sort_is_idempotent, l=sy.ComposeList(sy.RandomInteger(0, 9), sy.RandomInteger(0, 4))).run(seed=1)
    >>> report.status, report.insufficient
    ('insufficient coverage', ['39.0% non-trivial (required 80%): not met'])
    """
    held = bool(when)
    context = _CONTEXT.get()
    if context is not None:
        if not isinstance(label, str):
            raise TypeError(f"label must be a string, got {label!r} ({type(label).__name__})")
        if isinstance(p, bool) or not isinstance(p, (int, float)) or not 0.0 <= p <= 1.0:
            raise ValueError(f"p must be a share in [0, 1] (0.5 for half the inputs), got {p!r}")
        context.covers.append((label, float(p), held))
    return held
