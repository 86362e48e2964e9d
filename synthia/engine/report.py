"""The report every harness run returns: what was found, why it stopped, how to reproduce it."""
from __future__ import annotations

import traceback
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .alarms import RunInterrupted, time_limit

if TYPE_CHECKING:  # pragma: no cover
    from ..core.draws import Tape
    from .evidence import Evidence
    from .stopping import StoppingRule

__all__ = ["TestReport", "Unsatisfiable", "HealthWarning", "InvalidTest", "RunInterrupted", "safe_repr", "safe_str", "time_limit"]


class HealthWarning(UserWarning):
    """A run that worked, but badly: most inputs discarded, generation too slow..."""


class Unsatisfiable(Exception):
    """No input reached the test (a filter that never accepts, an empty enumeration...):
    nothing was tested, which is not a pass."""


class InvalidTest(Exception):
    """The test itself is wrong, whatever its input: it returns a value under ``@given``, or
    raises ``NameError`` in its own body. An error of the test, never shrunk or saved as a
    found bug."""


@dataclass
class TestReport:
    """The result of :meth:`Assert.run <synthia.testing.Assert.run>`.

    ``passed`` is the verdict. On failure, ``smallest`` and ``first`` are the smallest
    and the first failing inputs (dicts of argument name to value, as the wiring made
    them: replayed on a fresh copy, so a test that changes its input cannot change them),
    ``tape`` the recorded draws of the smallest one, ``time_to_failure`` the seconds from
    the start of the run to the first failing test call, ``exception`` the exception it
    raised (``None`` if the test returned ``False``), ``shrink_reason`` what ended the
    shrinking, and ``reproduction`` a line that replays the run. ``flaky`` describes a
    failure that did not replay (``""`` otherwise); ``error`` says why nothing was
    tested (``None`` otherwise); ``interrupted`` is set when a ``KeyboardInterrupt``
    cut the shrinking short (the smallest failure found so far is kept); ``notes`` has a
    line for each saved failure that was tried first; ``discarded`` counts the inputs
    :func:`~synthia.assume` discarded (never counted in ``tried``, never passes);
    ``drawn`` lists the values the test drew with :func:`~synthia.draw` on the smallest
    failure; ``health`` has a line per problem found with the run itself (also given as a
    :class:`HealthWarning`); ``time_bound`` says which explicit wall-clock limit
    (``shrink_time``, ``time_budget``) ended a phase of the run, whose result then depends
    on the machine's speed (``""``: none did, and the same seed gives the same report anywhere).

    What the run showed: ``evidence`` (:class:`~synthia.engine.evidence.Evidence`: the
    classes of the inputs, the labels, the coverage requirements and the residual risk),
    ``rule`` the stopping rule, ``guarantee`` what a passing run proves in words (from
    the rule; ``None`` when it proves nothing beyond the count), ``insufficient`` the
    coverage requirements confidently not met (such a run fails), ``observations`` one
    record per tested input in Hypothesis's observability format when the harness was
    built with ``observe=True``.
    """

    __test__ = False  # not a pytest test class, despite the name

    passed: bool
    seed: int
    reason: str
    tried: int = 0
    failures: int = 0
    shrink_steps: int = 0
    shrink_tries: int = 0
    first: dict[str, Any] | None = None
    first_index: int | None = None
    smallest: dict[str, Any] | None = None
    exception: BaseException | None = None
    time_discovery: float = 0.0
    time_shrinking: float = 0.0
    time_to_failure: float | None = None
    picker_times: dict[str, float] = field(default_factory=dict)
    harness: Any = field(default=None, repr=False)
    tape: "Tape | None" = field(default=None, repr=False)
    origin: Any = field(default=None, repr=False)
    shrink_reason: str = ""
    flaky: str = ""
    error: str | None = None
    interrupted: bool = False
    notes: list[str] = field(default_factory=list)
    discarded: int = 0
    #: Why most of the discarded inputs were: ``"by assume (file:line)"``, or what else did.
    discarded_by: str = "by assume"
    drawn: list[Any] = field(default_factory=list)
    health: list[str] = field(default_factory=list)
    evidence: "Evidence | None" = field(default=None, repr=False)
    rule: "StoppingRule | None" = field(default=None, repr=False)
    guarantee: str | None = None
    insufficient: list[str] = field(default_factory=list)
    observations: list[dict[str, Any]] = field(default_factory=list, repr=False)
    started_at: float = field(default=0.0, repr=False)
    time_generating: float = 0.0
    time_testing: float = 0.0
    from_database: bool = False
    time_bound: str = ""
    first_copied: bool = False
    first_edges: bool = False
    #: The play behind :attr:`smallest` (its ``details`` are the harness's: a trace).
    played: Any = field(default=None, repr=False)
    #: What the test said with :func:`~synthia.note` on the smallest failure's replay.
    test_notes: list[str] = field(default_factory=list)
    #: What the test printed on the smallest failure's replay (the rest of the run's prints
    #: are kept off the screen: ``RunOptions(capture_output=False)`` lets them through).
    output: str = ""
    #: The highest observation given to :func:`~synthia.target`, by label.
    targets: dict[str, float] = field(default_factory=dict)
    #: The line that reproduces the run when a caller other than the harness made it
    #: (:func:`~synthia.shrink`'s call); empty: :attr:`reproduction` says the harness's.
    reproduce_with: str = ""

    @property
    def status(self) -> str:
        """``"passed"``, ``"failed"``, ``"flaky"``, ``"insufficient coverage"`` or ``"error"``
        (nothing was tested)."""
        if self.error is not None:
            return "error"
        if self.flaky:
            return "flaky"
        if self.insufficient:
            return "insufficient coverage"
        return "passed" if self.passed else "failed"

    @property
    def reproduction(self) -> str:
        """A one-line reproduction: the seed, and the index of the first failing input."""
        if self.reproduce_with:
            return self.reproduce_with
        name = getattr(self.harness, "name", "the assertion")
        line = f"{name}.run(seed={self.seed})"
        if self.first_index is not None and hasattr(self.harness, "example"):
            copied = ", copied=True" if self.first_copied else ", edges=True" if self.first_edges else ""
            line += f"  # first failure: input #{self.first_index}, {name}.example(seed={self.seed}, index={self.first_index}{copied})"
        elif self.first_index is not None:
            copied = " with a copied part" if self.first_copied else " with edge values" if self.first_edges else ""
            line += f"  # first failure: {self.unit[:-1]} #{self.first_index}{copied}"
        return line

    @property
    def traceback(self) -> str:
        """The formatted traceback of the smallest failure's exception ('' if none)."""
        if self.exception is None:
            return ""
        return "".join(traceback.format_exception(type(self.exception), self.exception, self.exception.__traceback__))

    def replay(self) -> bool:
        """Run the test again on the smallest failing input, replayed from its draws;
        ``True`` if it now passes. The exception, if any, is kept in :attr:`exception`."""
        if self.harness is None or self.tape is None:
            return True
        passed, exception = self.harness.check(self.harness.replay(self.tape, self.seed))
        if exception is not None:
            self.exception = exception
        return passed

    def explain(self, redraws: int = 5) -> Any:
        """The explanation graph of the smallest failing input, replayed from its draws, with
        each draw marked free or not (see :func:`synthia.explain.explain_failure`)."""
        if self.harness is None:
            raise ValueError("this report has no harness to replay its failure (it was not made by a harness run)")
        return self.harness.explain_report(self, redraws)

    def plot(self, *, figure: Any = None) -> Any:
        """Figures of the run: the posterior of the pass rate over the inputs, the classes seen
        and estimated, entropy and the chance of a new class, the most frequent classes
        (matplotlib, the ``plots`` extra). Returns the matplotlib figure."""
        if self.evidence is None:
            raise ValueError("this report has no evidence to plot (it was not made by a harness run)")
        return self.evidence.plot(self.rule, figure=figure)

    def write_observations(self, path: Any) -> Any:
        """Append :attr:`observations` to the JSON-lines file ``path`` (Hypothesis's format);
        returns the path."""
        from .observe import write_observations

        return write_observations(self.observations, path)

    #: What one input of the run is called in the summary.
    unit = "inputs"

    def summary(self, reproduction: str | None = None) -> str:
        """A multi-line, human-readable account of the run; ``reproduction`` replaces the
        last line's :attr:`reproduction` (the pytest plugin puts its command there)."""
        lines = self._outcome_lines()
        if self.time_bound:
            lines.append(f"  time-bound: {self.time_bound} (this report depends on the machine's speed)")
        if self.discarded:
            lines.append(f"  discarded {self.discarded_by}: {self.discarded} {self.unit} (not counted as tested)")
        lines.extend(self._run_lines())
        if self.targets:
            lines.append("  highest targets: " + ", ".join(f"{label or '(no label)'}={value:g}" for label, value in sorted(self.targets.items())))
        for line in self.health:
            lines.append(f"  health: {line}")
        if self.evidence is not None and self.error is None:
            lines.extend(f"  {line}" for line in self.evidence.summary())
        for note in self.notes:
            lines.append(f"  note: {note}")
        lines.append(f"  seed: {self.seed}")
        lines.append(f"  stopped because: {self.reason}")
        lines.extend(self._time_lines())
        lines.append(f"  reproduce: {self.reproduction if reproduction is None else reproduction}")
        return "\n".join(lines)

    def _outcome_lines(self) -> list[str]:
        """The summary's first lines: the error, the coverage not met, the pass or the failure."""
        lines = []
        if self.error is not None:
            lines.append(f"ERROR: {self.error}")
        elif self.insufficient:
            lines.append(f"FAILED: insufficient coverage after {self.tried} {self.unit}")
            for line in self.insufficient:
                lines.append(f"  not met: {line}")
        elif self.passed:
            lines.append(f"passed: {self.tried} {self.unit}, no failure")
            if self.guarantee:
                lines.append(f"  guarantee: {self.guarantee}")
        else:
            lines.extend(self._failed_run_lines())
        return lines

    def _failed_run_lines(self) -> list[str]:
        """The summary's lines on a failed (or flaky) run: the failure and its shrinking."""
        lines = [f"{'FLAKY' if self.flaky else 'FAILED'} after {self.tried} {self.unit} ({self.failures} failing)"]
        if self.flaky:
            lines.append(f"  flaky: {self.flaky}")
        lines.extend(self._failure_lines())
        if self.tape is not None:
            lines.append(
                f"  shrinking: {self.shrink_steps} steps, {self.shrink_tries} candidates tried, "
                f"ended by {self.shrink_reason or 'nothing'}; the smallest is {len(self.tape)} draws"
            )
        if self.interrupted:
            lines.append("  interrupted: the smallest failure found before the interruption is shown")
        return lines

    def _time_lines(self) -> list[str]:
        """The summary's lines on where the time went: the phases, the slowest pickers."""
        if self.time_generating or self.time_testing:
            lines = [
                f"  time: {self.time_discovery:.3f} s discovering ({self.time_generating:.3f} s generating inputs, "
                f"{self.time_testing:.3f} s in the test), {self.time_shrinking:.3f} s shrinking"
            ]
        else:
            lines = [f"  time: {self.time_discovery:.3f} s discovering, {self.time_shrinking:.3f} s shrinking"]
        if self.picker_times:
            slowest = sorted(self.picker_times.items(), key=lambda kv: -kv[1])[:5]
            shown = ", ".join(f"{name} {seconds * 1e6:.1f} µs" for name, seconds in slowest)
            lines.append(f"  time per input in pickers (slowest first): {shown}")
        return lines

    def _failure_lines(self) -> list[str]:
        """The summary's lines on the failure: the smallest and the first input, what failed."""
        lines = [f"  smallest failing input: {_show(self.smallest)}"]
        if self.drawn:
            lines.append(f"  drawn inside the test:  {', '.join(safe_repr(v, 400) for v in self.drawn)}")
        lines.append(f"  first failing input:    {_show(self.first)}")
        if self.exception is not None:
            lines.append(f"  raised: {type(self.exception).__name__}: {safe_str(self.exception)}")
        else:
            lines.append("  the test returned False")
        return lines + self._said_lines()

    def _said_lines(self) -> list[str]:
        """What the test noted and printed on the smallest failure's replay."""
        lines = [f"  note: {line}" for note in self.test_notes for line in note.splitlines() or [""]]
        if self.output:
            lines.append("  printed by the test on the smallest failure:")
            lines.extend(f"    {line}" for line in self.output.rstrip("\n").splitlines())
        return lines

    def _run_lines(self) -> list[str]:
        """The summary's lines on what the run did, beyond the evidence (none here)."""
        return []

    def statistics(self) -> list[str]:
        """Lines on what the run did (``pytest --synthia-statistics``): inputs, the stop
        reason, where the time went, classes and labels, the guarantee, health warnings."""
        lines = [
            f"{self.tried} inputs tested ({self.failures} failing, {self.discarded} discarded by assume); "
            f"stopped because {self.reason or 'the run ended'}",
            f"time: {self.time_generating:.3f} s generating inputs, {self.time_testing:.3f} s in the test, "
            f"{self.time_shrinking:.3f} s shrinking",
        ]
        if self.picker_times:
            slowest = sorted(self.picker_times.items(), key=lambda kv: -kv[1])[:3]
            lines.append("slowest pickers: " + ", ".join(f"{name} {seconds * 1e6:.1f} µs per input" for name, seconds in slowest))
        if self.evidence is not None:
            lines.extend(self.evidence.summary())
        if self.guarantee:
            lines.append(f"guarantee: {self.guarantee}")
        lines.extend(f"health: {line}" for line in self.health)
        return lines

    def __str__(self) -> str:
        return self.summary()


def safe_repr(value: Any, limit: int | None = 10_000) -> str:
    """``repr(value)``, or a placeholder when that raises; cut beyond ``limit`` characters
    (``None``: never cut, for the text of a program).

    An int over Python's 4,300-digit limit is written in hex (a literal of the same value,
    so a printed program still runs); a value nested too deep says so.

    >>> safe_repr(10**5000)[:8], safe_repr(-(2**20000)).startswith("-0x1000")
    ('0x31e208', True)
    """
    try:
        text = repr(value)
    except ValueError as exc:
        if type(value) is int:  # over sys.get_int_max_str_digits(): hex has no limit
            text = hex(value)
        else:
            return f"<{type(value).__name__} whose repr raised {type(exc).__name__}>"
    except RecursionError:
        return f"<{type(value).__name__} nested too deep to show (its repr raised RecursionError)>"
    except Exception as exc:  # a value whose repr raises must not end the run
        return f"<{type(value).__name__} whose repr raised {type(exc).__name__}>"
    return text if limit is None or len(text) <= limit else text[:limit] + "..."


def safe_str(exception: BaseException) -> str:
    """``str(exception)``, or a placeholder when that raises."""
    try:
        return str(exception)
    except Exception as exc:
        return f"<its str raised {type(exc).__name__}>"


def _show(values: dict[str, Any] | None) -> str:
    if values is None:
        return "-"
    text = ", ".join(f"{k}={safe_repr(v, 400)}" for k, v in values.items())
    return text if len(text) < 400 else text[:400] + " ..."
