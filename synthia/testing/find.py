"""``find``: the simplest value of a picker that satisfies a condition."""
from __future__ import annotations

from typing import Any, Callable, TypeVar

from ..core.checks import check_callable, check_count, check_float, check_picker
from ..core.picker import Picker
from .harness import Assert
from .verdict import verdict
from ..engine.proposals import FAIL
from ..engine.report import InvalidTest
from ..engine.runner import SHRINK_BUDGET, RunOptions
from ..engine.stopping import FixedCount

__all__ = ["find", "NoExampleFound"]

T = TypeVar("T")


#: How often ``find`` tries an input again with a part copied over another (see ``copy_parts``).
FIND_COPY_EVERY = 16


class NoExampleFound(Exception):
    """``find`` drew its budget of values and none satisfied the condition."""


def find(
    picker: Picker[T],
    condition: Callable[[T], Any],
    *,
    seed: int | None = None,
    max_examples: int = 1000,
    shrink_budget: int = SHRINK_BUDGET,
    shrink_time: float | None = None,
) -> T:
    """The simplest value of ``picker`` for which ``condition`` is true.

    Draws up to ``max_examples`` values until one satisfies ``condition`` (every 16th also
    tried again with one part copied over another of its kind, and with its integers moved to
    the edges of their ranges, so that equal parts -- a value that must appear twice -- and
    values at both ends of two ranges are found), then shrinks its
    draws (like :class:`~synthia.Assert` shrinks a failure) to the smallest value that still
    does, within ``shrink_budget`` calls of ``condition`` (and ``shrink_time`` seconds, when
    given). A condition that raises counts as false; one that returns anything but a
    boolean (Python's or numpy's) -- ``None``, a number, an array -- is an
    :class:`~synthia.InvalidTest`. Raises :class:`NoExampleFound` when no
    value satisfied it (its message says why the run ended early when the wiring ended it:
    a picker that gave up, a bounded picker that ran out). The same seed gives the same value, in any process.

    >>> import synthia as sy
    >>> sy.find(sy.ComposeList(sy.RandomInteger(0, 2000), sy.RandomInteger(0, 20)), lambda l: sum(l) > 1000, seed=1)
    [1001]
    """
    check_picker(picker, "picker")
    check_callable(condition, "condition", arguments=1, source="each value")
    max_examples = check_count(max_examples, "max_examples", minimum=1)
    shrink_budget = check_count(shrink_budget, "shrink_budget")
    if shrink_time is not None:
        shrink_time = check_float(shrink_time, "shrink_time")

    def test(value: T) -> bool:
        try:
            holds = condition(value)
        except Exception:
            return True
        if holds is None:
            raise InvalidTest("the condition of find returned None, which is no verdict: return True or False")
        return verdict(holds, "the condition of find") == FAIL

    # A search, not a test run: a copied part every 16 inputs (equal parts, a value found again
    # inside a list) costs about 0.25 ms each and finds what independent draws almost never make.
    options = RunOptions(stop=FixedCount(max_examples), shrink_budget=shrink_budget, shrink_time=shrink_time, name="find", copy_parts=FIND_COPY_EVERY)
    report = Assert(test, options, value=picker).run(seed=seed)
    if report.passed or report.smallest is None:
        # A run that ended early (a picker gave up, a bounded picker ran out, most inputs
        # discarded) says why.
        early = report.status == "error" or report.tried < max_examples
        why = f"; {report.reason}" if early and report.reason else ""
        raise NoExampleFound(f"no value of {picker!r} satisfied the condition in {report.tried} tries (seed {report.seed}){why}")
    return report.smallest["value"]  # type: ignore[no-any-return]
