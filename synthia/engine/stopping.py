"""Stopping rules: objects that decide when a harness has tested enough.

A rule sees every outcome of the discovery phase through :meth:`StoppingRule.observe`
and is asked :meth:`StoppingRule.reason_to_stop` before each new input; a text
reason means "stop", and the reason ends up in the report. A rule that needs the
classes of the inputs (:func:`~synthia.engine.coverage.signature`) says so with
``needs_classes``; one that can state what a passing run shows returns it from
:meth:`StoppingRule.guarantee`. The statistical rule is :class:`~synthia.Bayesian`.
"""
from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any, Hashable

from ..core.checks import check_float, check_int

if TYPE_CHECKING:  # pragma: no cover
    from .evidence import Evidence

__all__ = ["Outcome", "StoppingRule", "FixedCount", "TimeBudget", "stop_rule"]


class Outcome:
    """One test run of the discovery phase: its index, inputs, and whether the test passed;
    its class (``None`` unless the run records classes), the labels the test gave it, and
    the run's :class:`~synthia.engine.evidence.Evidence` (already updated with it).
    (A slotted class: one is made per input, so it must cost little.)

    >>> Outcome(0, {"x": 1}, True)
    Outcome(index=0, inputs={'x': 1}, passed=True, klass=None, labels=())
    """

    __slots__ = ("index", "inputs", "passed", "klass", "labels", "evidence")

    def __init__(
        self, index: int, inputs: dict[str, Any], passed: bool, klass: Hashable = None,
        labels: tuple[str, ...] = (), evidence: "Evidence | None" = None,
    ) -> None:
        self.index = index
        self.inputs = inputs
        self.passed = passed
        self.klass = klass
        self.labels = labels
        self.evidence = evidence

    def __repr__(self) -> str:
        return (
            f"Outcome(index={self.index}, inputs={self.inputs!r}, passed={self.passed}, "
            f"klass={self.klass!r}, labels={self.labels!r})"
        )


class StoppingRule:
    """Base class: subclasses override :meth:`observe` and :meth:`reason_to_stop`."""

    #: Whether the harness must record each input's class (a cost per input) for this rule.
    needs_classes = False
    #: Whether :meth:`observe` may keep the outcomes it is given. A rule that only reads them
    #: during the call (all the built-in ones) sets it to ``False``, and the runner then
    #: renews one outcome object for every input instead of making one per input.
    keeps_outcomes = True

    def begin(self) -> None:
        """Called once when a run starts (reset any state here)."""

    def observe(self, outcome: Outcome) -> None:
        """Called after every test run of the discovery phase."""

    def reason_to_stop(self) -> str | None:  # pragma: no cover - interface
        """A human-readable reason to stop now, or ``None`` to go on."""
        raise NotImplementedError

    def guarantee(self, unit: str = "inputs") -> str | None:
        """What a passing run stopped by this rule shows, in words (``None``: nothing more
        than the count of passing inputs); ``unit`` names what was tested (``"traces"``)."""
        return None


class FixedCount(StoppingRule):
    """Stop after ``n`` inputs (the default rule, ``n = 100``).

    >>> rule = FixedCount(2); rule.begin()
    >>> rule.reason_to_stop() is None
    True
    >>> rule.observe(Outcome(0, {}, True)); rule.observe(Outcome(1, {}, True))
    >>> rule.reason_to_stop()
    'tried 2 inputs (FixedCount(2))'
    """

    keeps_outcomes = False

    def __init__(self, n: int = 100) -> None:
        self.n = check_int(n, "n", minimum=1)
        self._seen = 0

    def begin(self) -> None:
        self._seen = 0

    def observe(self, outcome: Outcome) -> None:
        self._seen += 1

    def reason_to_stop(self) -> str | None:
        return f"tried {self._seen} inputs ({self!r})" if self._seen >= self.n else None

    def __repr__(self) -> str:
        return f"FixedCount({self.n})"


class TimeBudget(StoppingRule):
    """Stop once ``seconds`` of wall-clock time have passed since the run began.

    A run stopped by time is not exactly repeatable: the seed replays the inputs,
    but how many are tried depends on the machine.

    >>> rule = TimeBudget(60); rule.begin(); rule.reason_to_stop() is None
    True
    """

    keeps_outcomes = False

    def __init__(self, seconds: float) -> None:
        self.seconds = check_float(seconds, "seconds")
        if self.seconds <= 0:
            raise ValueError(f"seconds must be positive, got {seconds!r}")
        self._start = 0.0

    def begin(self) -> None:
        self._start = time.perf_counter()

    def reason_to_stop(self) -> str | None:
        if time.perf_counter() - self._start >= self.seconds:
            return f"time budget of {self.seconds:g} s spent ({self!r})"
        return None

    def __repr__(self) -> str:
        return f"TimeBudget({self.seconds:g})"


def stop_rule(stop: Any, max_examples: Any) -> StoppingRule | None:
    """The stopping rule that ``stop`` or ``max_examples=n`` (short for ``FixedCount(n)``)
    gives; ``None`` when neither is given.

    >>> stop_rule(None, 20)
    FixedCount(20)
    """
    if max_examples is None:
        return stop  # type: ignore[no-any-return]
    if stop is not None:
        raise TypeError("give stop or max_examples, not both")
    if isinstance(max_examples, bool) or not isinstance(max_examples, int) or max_examples < 1:
        raise ValueError(f"max_examples must be a positive int, got {max_examples!r}")
    return FixedCount(max_examples)
