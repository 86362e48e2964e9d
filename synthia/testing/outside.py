"""Values from outside a run, shrunk: :func:`shrink` parses a value into the draws that make
it (:mod:`synthia.core.parsing`) and shrinks it as a failure the run found, and
``@sy.example`` does the same for an explicit example that fails (see
:mod:`synthia.integrations.decorator`)."""
from __future__ import annotations

import dataclasses
from typing import Any, Callable

from ..core.checks import check_callable, check_picker, describe
from ..core.parsing import parse, why_not
from ..core.picker import Picker
from ..core.random import check_seed
from ..core.tapes import Tape
from ..engine.options import RunOptions
from ..engine.report import TestReport
from ..engine.stopping import StoppingRule
from .arguments import Arguments
from .harness import Assert

__all__ = ["shrink", "parse_arguments", "OnlyGiven", "given_value"]


class OnlyGiven(StoppingRule):
    """A stopping rule that draws no input: only the inputs given to the run are tested."""

    keeps_outcomes = False

    def reason_to_stop(self) -> str | None:
        return "only the value given is tested"

    def __repr__(self) -> str:
        return "OnlyGiven()"


def parse_arguments(pickers: dict[str, Picker[Any]], values: dict[str, Any]) -> tuple[Tape | None, str | None]:
    """The tape that makes a harness's arguments ``values`` (one picker each, by name), or
    ``None`` and why not (the part of the wiring that cannot make its value)."""
    wiring = Arguments(pickers)
    tape = parse(wiring, values)
    return (tape, None) if tape is not None else (None, why_not(wiring, values))


def given_value(report: TestReport, what: str) -> TestReport:
    """``report`` of a run whose first input was ``what`` ("the value given", "the explicit
    example"), given as a tape: said so, where the runner says a saved failure."""
    saved = "a saved failure fails again"
    report.notes[:] = [note.replace(saved, f"{what} fails") for note in report.notes]
    if report.from_database:
        report.from_database = False
        report.reason = f"{what} failed; it was shrunk"
    return report


def shrink(
    picker: Picker[Any], value: Any, test: Callable[[Any], Any], *, seed: int = 0, options: RunOptions | None = None
) -> TestReport:
    """Shrink ``value``, a value ``picker`` can make on which ``test`` fails, as if a run had
    found it: the value is parsed into the draws that make it (``ValueError`` naming the part
    of the wiring that cannot make it), then shrunk over those draws by the same shrinker as
    any failure found (``options``: its budgets). ``test`` takes the value and fails as a
    test does (it raises, or returns ``False``).

    Returns the run's report: ``report.first`` is the value given, ``report.smallest`` the
    smallest failing input found, as ``{"value": ...}``, ``report.exception`` its failure. A
    value that does not fail ``test`` is a ``ValueError`` too (nothing to shrink).

    >>> import synthia as sy
    >>> report = sy.shrink(sy.ComposeList(sy.RandomInteger(0, 100), sy.RandomInteger(0, 10)), [5, 71, 12, 99],
    ...                    lambda xs: max(xs) < 50)
    >>> report.first, report.smallest
    ({'value': [5, 71, 12, 99]}, {'value': [50]})
    """
    check_picker(picker, "picker")
    check_callable(test, "test", arguments=1)
    seed = check_seed(seed)
    if options is not None and not isinstance(options, RunOptions):
        raise TypeError(f"options must be a RunOptions, got {describe(options)}")
    tape, why = parse_arguments({"value": picker}, {"value": value})
    if tape is None:
        raise ValueError(f"value {describe(value)} cannot be shrunk: the picker {picker!r} cannot parse it ({why})")

    def given(value: Any) -> Any:
        return test(value)

    given.__name__ = given.__qualname__ = getattr(test, "__name__", "test")
    run = dataclasses.replace(options or RunOptions(), stop=OnlyGiven(), restarts=0)
    report = given_value(Assert(given, run, value=picker).run(seed, tapes=[tape]), "the value given")
    if report.smallest is None:
        said = "; ".join(report.notes) or report.error or "it passes"
        raise ValueError(f"value {describe(value)} cannot be shrunk: it does not fail {given.__name__} ({said})")
    report.reproduce_with = f"sy.shrink({picker!r}, value, {given.__name__}, seed={seed})  # value: report.first['value']"
    return report
