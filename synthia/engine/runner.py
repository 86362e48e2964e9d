"""The runner under every harness: one run's phases, owned once.

A harness (:class:`~synthia.Assert`, :class:`~synthia.Monkey`) is a *front end*: it knows how
to make one input from its wiring and test it -- a :class:`Trial` -- and how to replay draws
through a fresh copy of the wiring -- an :class:`~synthia.engine.Attempt`. The runner owns
everything else, for both:

1. **replay the database**: saved failures are replayed first, each checked to fit the wiring;
2. **discover**: inputs one after the other until the stopping rule says enough (with the
   coverage requirements checked as QuickCheck does, a progress bar, discarded inputs counted
   apart, copied parts on a fixed schedule, an optional wall-clock ``time_budget``);
3. **record the failing input as it is found**: a trial made under a recorder keeps its tape;
   otherwise the front end re-makes that one input under a recorder (from a checkpoint, not
   from the start of the run);
4. **shrink** its draws with the :class:`~synthia.engine.Shrinker`, bounded by a number of test
   calls (``shrink_budget``) -- never by the clock unless ``shrink_time`` asks for it;
5. **confirm**: the smallest failure is replayed once more on a fresh wiring (a failure that
   does not replay is reported *flaky*, with both outcomes);
6. **report**: the verdict, why the run stopped, what it guarantees, and how to reproduce it.

With ``restarts``, discovery goes on after a failure to find and shrink more; the smallest
is kept. Everything derives from the seed: with the default options no phase reads the wall
clock to decide anything, so the same seed gives the same report in any process and under
any load; when an explicit time limit bound the run, :attr:`TestReport.time_bound` says so.
"""
from __future__ import annotations

import collections
import contextlib
import dataclasses
import time
from contextlib import ExitStack
from typing import Any, Callable, Hashable, Iterable, Protocol, Sequence

from ..core.draws import Tape
from ..core.exceptions import GiveUp, NoMoreElements
from .copying import copy_random, copy_span, next_copy
from .evidence import COVER_CERTAINTY, COVER_TOLERANCE, Evidence
from .progress import check_progress, run_progress
from .report import RunInterrupted, TestReport, time_limit
from .shrinker import FAIL, INVALID, PASS, Attempt, Shrinker
from .stopping import FixedCount, Outcome, StoppingRule, stop_rule

__all__ = ["OPTIONS_ATTRIBUTE", "RunOptions", "FrontEnd", "Trial", "Target", "Runner", "DISCARD", "MAX_DISCARD_RATIO"]

#: The status of an input that a precondition (``assume``) discarded: neither a pass nor a failure.
DISCARD = "discard"
#: Discovery stops when discarded inputs outnumber the tested ones this many times (+10).
MAX_DISCARD_RATIO = 10
#: Discards below this many never make a health warning: seven inputs, four discarded, say
#: nothing about a precondition.
MIN_DISCARDS_TO_WARN = 50
#: Shrinking stops after this many test calls by default: a count, so that the result never
#: depends on the speed of the machine.
SHRINK_BUDGET = 20_000


#: The attribute of a test function that holds the options given with ``@RunOptions(...)``.
OPTIONS_ATTRIBUTE = "synthia_options"


@dataclasses.dataclass
class RunOptions:
    """How a run goes, the same for every harness (see the options table in docs/testing.md).

    ``stop`` decides when discovery has seen enough (``FixedCount(100)`` when not given;
    ``max_examples=n`` is short for ``stop=FixedCount(n)``); ``restarts`` failures more are
    found and shrunk after the first (the smallest is kept); ``shrink_budget`` bounds
    shrinking by test calls (20,000 when not given); ``shrink_time`` and ``time_budget``
    (seconds) are explicit wall-clock limits on shrinking and on the whole run -- a report
    that one of them bound says so, since its result then depends on the machine.
    ``classes`` records each input's class (``None``: when the stopping rule needs it);
    ``observe`` keeps one observation per input (Hypothesis's format);
    ``coverage_certainty`` and ``coverage_tolerance`` tune the check of :func:`~synthia.cover`
    requirements; ``progress`` shows a bar (``None``: after two seconds where a person
    watches); ``timing`` measures the time each picker takes (``None``: when the run failed
    or was slow); ``copy_parts`` tries a few inputs again with a part copied over another of
    the same kind; ``name`` names the test in reports; ``database`` saves a failure and
    replays saved ones first when the run is a test (``@given``, ``Monkey.check``).

    An option left at ``None`` takes its default -- or, in a run as a test, the active
    profile's setting. A ``RunOptions`` is also a decorator: on a ``@given`` test or a
    ``@monkey`` class it gives that test's options, as Hypothesis's ``@settings`` does.

    >>> RunOptions(max_examples=20, restarts=1)
    RunOptions(stop=FixedCount(20), restarts=1)
    >>> RunOptions(shrink_time=0)
    Traceback (most recent call last):
    ...
    ValueError: shrink_time must be a positive number of seconds or None, got 0
    """

    stop: StoppingRule | None = None
    restarts: int | None = None
    shrink_budget: int | None = None
    shrink_time: float | None = None
    time_budget: float | None = None
    classes: bool | None = None
    observe: bool | None = None
    coverage_certainty: float | None = None
    coverage_tolerance: float | None = None
    progress: bool | None = None
    timing: bool | None = None
    copy_parts: bool | None = None
    name: str | None = None
    database: bool | None = None
    max_examples: dataclasses.InitVar[int | None] = None

    def __post_init__(self, max_examples: int | None) -> None:
        self.stop = stop_rule(self.stop, max_examples)
        if self.stop is not None and not isinstance(self.stop, StoppingRule):
            raise TypeError(f"stop must be a StoppingRule such as FixedCount(100), got {self.stop!r}")
        for name in ("restarts", "shrink_budget"):
            value = getattr(self, name)
            if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 0):
                raise ValueError(f"{name} must be a non-negative int, got {value!r}")
        for name in ("shrink_time", "time_budget"):
            value = getattr(self, name)
            if value is not None:
                if isinstance(value, bool) or not isinstance(value, (int, float)) or not value > 0:
                    raise ValueError(f"{name} must be a positive number of seconds or None, got {value!r}")
                setattr(self, name, float(value))
        for name in ("classes", "timing", "observe", "copy_parts", "database"):
            value = getattr(self, name)
            if value is not None and not isinstance(value, bool):
                raise TypeError(f"{name} must be True, False or None, got {value!r}")
        if self.name is not None and not isinstance(self.name, str):
            raise TypeError(f"name must be a string, got {self.name!r}")
        self.progress = check_progress(self.progress)
        if self.coverage_certainty is not None or self.coverage_tolerance is not None:
            Evidence(  # checks both, naming them
                certainty=COVER_CERTAINTY if self.coverage_certainty is None else self.coverage_certainty,
                tolerance=COVER_TOLERANCE if self.coverage_tolerance is None else self.coverage_tolerance,
            )

    def __repr__(self) -> str:
        given = ", ".join(f"{f.name}={getattr(self, f.name)!r}" for f in dataclasses.fields(self) if getattr(self, f.name) is not None)
        return f"RunOptions({given})"

    def __call__(self, test: Callable[..., Any]) -> Callable[..., Any]:
        """Give these options to the ``@given`` test (or ``@monkey`` class) ``test``."""
        if not callable(test):
            raise TypeError(f"RunOptions(...) decorates a test function or class, got {test!r}")
        given = getattr(test, OPTIONS_ATTRIBUTE, None)
        setattr(test, OPTIONS_ATTRIBUTE, self if given is None else given.over(self))
        return test

    def over(self, base: "RunOptions") -> "RunOptions":
        """These options, with ``base``'s where these leave one at ``None``."""
        values = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}
        return dataclasses.replace(base, **{k: v for k, v in values.items() if v is not None})

    def resolved(self) -> "RunOptions":
        """These options with every ``None`` replaced by its default."""
        return RunOptions(
            FixedCount(100) if self.stop is None else self.stop,
            0 if self.restarts is None else self.restarts,
            SHRINK_BUDGET if self.shrink_budget is None else self.shrink_budget,
            self.shrink_time, self.time_budget, self.classes, bool(self.observe),
            COVER_CERTAINTY if self.coverage_certainty is None else self.coverage_certainty,
            COVER_TOLERANCE if self.coverage_tolerance is None else self.coverage_tolerance,
            self.progress, self.timing, True if self.copy_parts is None else self.copy_parts, self.name,
            True if self.database is None else self.database,
        )

    @classmethod
    def of(cls, options: "RunOptions | StoppingRule | None") -> "RunOptions":
        """``options`` as a ``RunOptions``: a stopping rule alone is ``RunOptions(stop=rule)``."""
        if options is None:
            return cls()
        if isinstance(options, StoppingRule):
            return cls(stop=options)
        if not isinstance(options, RunOptions):
            raise TypeError(f"options must be a RunOptions or a StoppingRule such as FixedCount(100), got {options!r}")
        return options

    def new_evidence(self) -> Evidence:
        """The evidence of a new run: classes recorded when asked, or when the rule needs them."""
        resolved = self.resolved()
        assert resolved.stop is not None
        classes = resolved.stop.needs_classes if self.classes is None else self.classes
        return Evidence(classes, certainty=resolved.coverage_certainty, tolerance=resolved.coverage_tolerance)  # type: ignore[arg-type]


class FrontEnd:
    """The base of a harness that the runner drives (``Assert``, ``Monkey``): its run options
    and what one input is called. A front end also implements :class:`Target`."""

    options: RunOptions
    #: What one input is called in reports and progress bars.
    unit = "inputs"

    @property
    def stop(self) -> StoppingRule:
        """The stopping rule of a run (``options.stop``, ``FixedCount(100)`` when not given)."""
        return self.options.stop if self.options.stop is not None else FixedCount(100)


@dataclasses.dataclass
class Trial:
    """One input of the discovery phase, made and tested by a front end.

    ``status`` is ``PASS``, ``FAIL`` or :data:`DISCARD`; ``value`` the input as the report
    shows it; ``exception`` and ``origin`` what failed and where; ``tape`` its draws when it
    was made under a recorder; ``klass``, ``labels`` and ``covers`` what the stopping rule and
    the evidence read; ``where`` the place of a discarding ``assume``; ``timing`` seconds spent
    making and testing it, for observations.
    """

    status: str
    value: Any = None
    exception: BaseException | None = None
    origin: Any = None
    tape: Tape | None = None
    klass: Hashable = None
    labels: tuple[Any, ...] = ()
    covers: Sequence[tuple[str, float, bool]] = ()
    where: str = ""
    drawn: list[Any] = dataclasses.field(default_factory=list)


class Session(Protocol):
    """Replays draws through a copy of a front end's wiring and tests the result."""

    def attempt(self, picks: int, entries: list[Any], max_draws: int | None, strict: bool = False) -> Attempt: ...

    def close(self) -> None: ...


class Target(Protocol):
    """What a front end gives the runner (``Assert`` and ``Monkey`` are the two)."""

    name: str
    options: RunOptions
    #: What one input is called in reports and progress bars ("inputs", "traces").
    unit: str

    def session(self, seed: int) -> Session:
        """A replay session on a fresh copy of the wiring seeded with ``seed``."""

    def discovery(self, seed: int, recording: bool, report: TestReport) -> "Discovery":
        """The discovery of a run with ``seed``; ``recording``: every trial keeps its tape (its
        class is read from its draws). It may add what it counts to ``report``."""

    def observation(self, seed: int, index: int, trial: Trial, started: float, timing: dict[str, float]) -> dict[str, Any]:
        """Trial ``index`` as one observation in Hypothesis's observability format."""

    def kinds(self) -> list[str]:
        """The kind of each span label of the wiring (which parts may be copied or swapped)."""

    def may_copy(self) -> bool:
        """Whether an input can have two parts of one kind (copies are tried only then)."""

    def shown(self, attempt: Attempt, seed: int) -> Any:
        """The input of a failing attempt as the report shows it."""

    def conclude(self, report: TestReport, best: Attempt, confirmed: Attempt) -> None:
        """Fill what the front end's report shows of the smallest failure."""

    def finish(self, report: TestReport, seed: int) -> None:
        """Last words on a finished run: notes, health checks, timings."""

    def outcome(self, value: Any) -> list[str] | None:
        """What an input did, as lines that two plays of the same draws must repeat (a
        trace's steps and results); ``None``: nothing beyond the failure's origin."""


class Discovery(Protocol):
    """The inputs of one run, made and tested one after the other."""

    #: Whether input ``index`` can be made again from its index alone (not when pickers
    #: learn as the run goes): the runner then plays the first input again to check that
    #: nothing kept state from one input to the next.
    remakes: bool

    def trial(self, index: int, record: bool) -> Trial:
        """Make input ``index`` (the next one) and test it; with ``record`` (or when the
        discovery records every trial) the trial keeps its tape. A wiring that runs out raises
        ``NoMoreElements``, one that gives up ``GiveUp``."""

    def recorded(self, index: int, history: bool) -> Attempt:
        """Input ``index`` (one already made) made again under a recorder and tested: its own
        draws only, or (``history``) every pick up to it, from the start of the run."""

    def failed(self) -> None:
        """The last trial failed (learning pickers count its input as a new valid one)."""

    def close(self) -> None: ...


def _describe(values: Any) -> str:
    text = repr(values)
    return text if len(text) <= 120 else text[:117] + "..."


def _passed(status: str) -> str:
    return "was discarded" if status == DISCARD else ("passed" if status == PASS else "could not be replayed")


def _outcome(exception: BaseException | None) -> str:
    return "returned False" if exception is None else f"raised {type(exception).__name__}: {exception}"


class Runner:
    """One run of a front end ``target`` with ``seed``: :meth:`run` fills and returns ``report``.

    """

    def __init__(self, target: Target, seed: int, report: TestReport) -> None:
        self.target = target
        self.options = options = target.options.resolved()
        assert options.stop is not None and options.restarts is not None and options.shrink_budget is not None
        #: The stopping rule, the restarts and the shrink budget of the run (defaults filled in).
        self.rule: StoppingRule = options.stop
        self.restarts: int = options.restarts
        self.shrink_budget: int = options.shrink_budget
        self.seed = seed
        self.report = report
        self.session = target.session(seed)
        self.started = time.perf_counter()
        budget = self.options.time_budget
        #: The end of an explicit ``time_budget`` (a ``time.perf_counter`` value), or ``None``.
        self.deadline = None if budget is None else self.started + budget
        self.starts = 0
        #: What the run's first input did (:meth:`Target.outcome`), to play it again later.
        self.first_outcome: list[str] | None = None

    # -- the run ------------------------------------------------------------------------------
    def run(self, tapes: Iterable[Tape] = ()) -> TestReport:
        report = self.report
        report.started_at = time.time()
        budget = self.options.time_budget
        # With a time budget, an alarm ends a call that hangs past it (the loop's own checks
        # end the run between calls): a little after the budget, on the main thread.
        limit = time_limit(budget * 1.1 + 0.5) if budget is not None else contextlib.nullcontext()
        try:
            with limit:
                if not self._replay_saved(list(tapes)):
                    self._discover()
        except RunInterrupted:
            if budget is None:
                raise  # another's time limit (property_coverage's): it ends the run, not this report
            self.session.close()
            report.reason = f"the time budget of {budget:g} s ended a call that was still running (one that hangs?)"
            report.time_bound = f"the time budget of {budget:g} s ended the run during a call"
            if report.tape is None:  # never a pass: the last input was not seen to pass
                report.passed = False
                report.error = f"a call was still running when the time budget of {budget:g} s ended (it hangs?)"
        finally:
            self.session.close()
        report.time_discovery = time.perf_counter() - self.started - report.time_shrinking
        if report.tried == 0 and report.smallest is None and report.tape is None and report.error is None:
            report.passed = False
            if report.discarded:
                report.error = f"no input reached the test: all {report.discarded} were discarded by assume"
            else:
                report.error = f"no {self.target.unit[:-1]} reached the test: {report.reason}"
        self.target.finish(report, self.seed)
        return report

    def _replay_saved(self, tapes: list[Tape]) -> bool:
        """Phase 1: the saved failures, replayed first. True when one failed again (and was shrunk)."""
        report = self.report
        for tape in tapes:
            attempt = self.session.attempt(tape.picks, list(tape.draws), None, strict=True)
            if attempt.status == FAIL:
                report.notes.append(f"a saved failure fails again: {_describe(self.target.shown(attempt, self.seed))}")
                report.time_to_failure = time.perf_counter() - self.started
                report.tried += 1
                report.failures += 1
                report.first, report.first_index = self.target.shown(attempt, self.seed), None
                self._shrink(attempt)
                report.reason = "a saved failure failed again; it was shrunk"
                report.from_database = True
                return True
            why = "no longer fits the wiring" if attempt.status in (INVALID, DISCARD) else "no longer fails"
            report.notes.append(f"a saved failure was dropped: it {why}")
        # An open session's route is the current one: pickers made inside later picks (a
        # Monkey's argument pickers, a Bind's) would draw from its replayer.
        self.session.close()
        return False

    def _discover(self) -> None:
        """Phase 2: inputs until the rule says enough, a failure (and its restarts), or an end."""
        options, report, target = self.options, self.report, self.target
        rule = self.rule
        rule.begin()
        evidence = options.new_evidence()
        report.evidence, report.rule = evidence, rule
        copying = options.copy_parts and target.may_copy()
        copy_at = next_copy(0) if copying else -1
        discovery = target.discovery(self.seed, evidence.recording_classes, report)
        discards: collections.Counter[str] = collections.Counter()
        observing = options.observe
        clock = time.perf_counter
        index = 0
        pending = ""  # the rule's reason to stop, held while coverage requirements are undecided
        checked = -1
        verdict = "undecided"  # of the coverage requirements, at the last checkpoint
        with ExitStack() as stack:
            stack.callback(discovery.close)
            bar = run_progress(rule, f"{target.name}: {target.unit}", options.progress)
            if bar is not None:
                stack.callback(bar.close)
            while True:
                if evidence.requirements and report.tried != checked and evidence.is_checkpoint(report.tried):
                    checked = report.tried
                    verdict = evidence.check_coverage()
                    if verdict == "not met":
                        report.passed = False
                        report.insufficient = [r.describe(evidence.n) for r in evidence.unmet()]
                        report.reason = f"a coverage requirement is confidently not met after {report.tried} {target.unit}"
                        break
                    if verdict == "met" and pending:
                        report.reason = f"{pending}; coverage requirements met after {report.tried} {target.unit}"
                        break
                reason = pending or rule.reason_to_stop()
                if reason:
                    if evidence.requirements and verdict != "met":
                        if report.tried >= evidence.limit:
                            report.reason = f"{reason}; coverage still undecided after {report.tried} {target.unit}"
                            report.health.append(
                                "coverage requirements stayed undecided after "
                                f"{report.tried} {target.unit}: "
                                f"{'; '.join(r.describe(evidence.n) for r in evidence.requirements.values())}"
                            )
                            break
                        pending = reason
                    else:
                        report.reason = reason
                        break
                if self.deadline is not None and clock() > self.deadline:
                    report.reason = f"the time budget of {options.time_budget:g} s is spent"
                    report.time_bound = f"the time budget of {options.time_budget:g} s ended discovery"
                    break
                if bar is not None and not index & 15:
                    bar.tick(report.tried)
                if report.discarded >= MAX_DISCARD_RATIO * (report.tried + 10):
                    report.reason = f"{report.discarded} {target.unit} were discarded by assume, against {report.tried} tested"
                    break
                t0 = clock()
                try:
                    trial = discovery.trial(index, index == copy_at)
                except NoMoreElements:
                    report.reason = f"the {target.unit} ran out: the input pickers have no more values"
                    break
                except GiveUp as err:
                    report.reason = f"an input picker gave up: {err}"
                    break
                except Exception:
                    if report.tape is None:
                        raise
                    report.reason = f"the wiring raised while making input #{index}; the failure found before is kept"
                    break
                index += 1
                if index == 1 and discovery.remakes:
                    self.first_outcome = target.outcome(trial.value)
                if observing:
                    report.observations.append(target.observation(self.seed, index - 1, trial, report.started_at, {"total": clock() - t0}))
                if trial.status == DISCARD:
                    report.discarded += 1
                    discards[trial.where] += 1
                    continue
                evidence.observe(trial.status == PASS, trial.klass, trial.labels, trial.covers)
                rule.observe(Outcome(index - 1, trial.value, trial.status == PASS, trial.klass, trial.labels, evidence))
                report.tried += 1
                failing: Attempt | None = None
                copy_now = index - 1 == copy_at
                if copy_now:
                    copy_at = next_copy(index)
                if trial.status == FAIL:
                    discovery.failed()
                    try:
                        failing = self._recorded(discovery, index - 1, trial)
                    except MemoryError:
                        self._unrecorded(index - 1, trial, found=False)
                        break
                elif copy_now:
                    failing = self._copy(index - 1, trial)
                    if failing is not None:
                        report.notes.append(f"the failing {target.unit[:-1]} is #{index - 1} with a copied part")
                if failing is None:
                    continue
                if failing.status != FAIL:  # flaky: reported, nothing more to do
                    return
                try:
                    self._shrink(failing)
                except MemoryError:  # replaying the shrunk input to show it ran out of memory
                    self._unrecorded(index - 1, trial, found=True)
                    break
                self.starts += 1
                if self.starts > self.restarts or report.interrupted:
                    report.reason = f"found a failing {target.unit[:-1]} and shrank it until {report.shrink_reason}"
                    if self.starts > 1:
                        report.reason += f" ({self.starts} failures shrunk, the smallest kept)"
                    break
        if discards and report.tried and report.discarded > report.tried and report.discarded >= MIN_DISCARDS_TO_WARN:
            where, count = discards.most_common(1)[0]
            report.health.append(
                f"{report.discarded} of {report.discarded + report.tried} {target.unit} were discarded by assume "
                f"({count} at {where}): the wiring rarely meets the precondition; make the values it "
                "needs directly (a Bind, a narrower range) rather than filtering them"
            )
        if report.tried == 0 and report.tape is None and report.discarded:
            report.passed = False
            report.error = f"no input reached the test: all {report.discarded} were discarded by assume ({discards.most_common(1)[0][0]})"
        report.guarantee = rule.guarantee(target.unit) if report.passed and report.tried else None

    # -- a failure, as it is found ----------------------------------------------------------
    def _found(self, index: int, first: Any) -> None:
        report = self.report
        report.failures += 1
        if report.time_to_failure is None:
            report.time_to_failure = time.perf_counter() - self.started
        if report.first is None:
            report.first, report.first_index = first, index

    def _recorded(self, discovery: Discovery, index: int, trial: Trial) -> Attempt:
        """Phase 3: the failing input ``index`` with its draws, checked to replay on a fresh
        wiring (first its own draws, then with the picks before it); a flaky attempt (status
        not ``FAIL``) once the report says so."""
        if trial.tape is not None:
            recorded = Attempt(FAIL, trial.tape, trial.value, trial.exception, trial.origin, trial.drawn)
        else:
            recorded = discovery.recorded(index, history=False)
            if recorded.status != FAIL:
                self._found(index, trial.value)
                return self._flaky(index, trial, f"{_passed(recorded.status)} when the same draws were replayed", recorded)
        assert recorded.tape is not None
        attempt = self._replayed(recorded)
        if attempt.status != FAIL or attempt.origin != recorded.origin:
            # A wiring that keeps state between inputs: the input needs the picks before it.
            recorded = discovery.recorded(index, history=True)
            assert recorded.tape is not None
            attempt = self._replayed(recorded)
            if attempt.status != FAIL:
                self._found(index, trial.value)
                return self._flaky(index, trial, f"{_passed(attempt.status)} when replayed with its history", recorded)
        done, again = self.target.outcome(trial.value), self.target.outcome(attempt.value)
        if done is not None and again is not None and done != again:
            self._found(index, trial.value)
            k = next((k for k, (a, b) in enumerate(zip(done, again)) if a != b), min(len(done), len(again)))
            first = done[k] if k < len(done) else "(no such step)"
            then = again[k] if k < len(again) else "(no such step)"
            return self._flaky(
                index, trial, f"did other things when its draws were replayed on a fresh system: step {k + 1} {first}, "
                f"then {then} (a system that keeps state between runs, a class attribute, or is not deterministic)",
                recorded,
            )
        if self.first_outcome is not None and index > 0:
            replayed = discovery.recorded(0, history=False)
            later = self.target.outcome(replayed.value)
            if later is not None and later != self.first_outcome:
                self._found(index, trial.value)
                k = next((k for k, (a, b) in enumerate(zip(self.first_outcome, later)) if a != b), 0)
                shown = lambda lines: lines[k] if k < len(lines) else "(no such step)"  # noqa: E731
                return self._flaky(
                    index, trial, f"{self.target.unit[:-1]} #0, played again, did other things than at the start of "
                    f"the run: step {k + 1} {shown(self.first_outcome)}, now {shown(later)} (state kept from one "
                    f"{self.target.unit[:-1]} to the next: a class attribute, a module global)",
                    recorded,
                )
        # The first failure as the wiring made it (the test may have changed its input).
        self._found(index, self.target.shown(attempt, self.seed))
        if self.report.first_index == index:
            self.report.first_copied = True
        return attempt

    def _unrecorded(self, index: int, trial: Trial, found: bool) -> None:
        """A failing input too large to record (``MemoryError`` while its draws were recorded,
        replayed or shrunk; ``found``: it was already counted): reported as it was made, with
        the seed and index that make it again, unshrunk and not saved, rather than lost."""
        self.session.close()
        report = self.report
        if not found:
            self._found(index, trial.value)
        report.first, report.first_copied = trial.value, False  # as made, not as replayed
        report.passed = False
        report.tape = None
        report.smallest = trial.value
        report.exception = trial.exception
        report.reason = f"found a failing {self.target.unit[:-1]} (#{index}) too large to record: it ran out of memory (MemoryError)"
        report.notes.append(
            f"{self.target.unit[:-1]} #{index} failed but could not be recorded (MemoryError): it is shown as made, "
            "not shrunk and not saved; the seed and index below make it again"
        )

    def _replayed(self, recorded: Attempt) -> Attempt:
        """``recorded``'s draws replayed through the session, closed after (see ``_replay_saved``)."""
        assert recorded.tape is not None
        try:
            return self.session.attempt(recorded.tape.picks, list(recorded.tape.draws), None)
        finally:
            self.session.close()

    def _copy(self, index: int, trial: Trial) -> Attempt | None:
        """Input ``index`` (which passed) played again with a part copied over another of the
        same kind: an extra probe, not counted among the tried inputs. The failing attempt,
        or ``None``."""
        tape = trial.tape
        if tape is None:
            return None
        draws = copy_span(tape, self.target.kinds(), copy_random(self.seed, index))
        if draws is None:
            return None
        try:
            attempt = self.session.attempt(tape.picks, draws, None)
        finally:
            # An open session's route is the current one: pickers made inside later picks
            # would draw from its replayer.
            self.session.close()
        if attempt.status != FAIL:
            return None
        self._found(index, self.target.shown(attempt, self.seed))
        if self.report.first_index == index:
            self.report.first_copied = True
        return attempt

    def _flaky(self, index: int, trial: Trial, then: str, recorded: Attempt) -> Attempt:
        report = self.report
        report.passed = False
        report.flaky = f"{self.target.unit[:-1]} #{index} failed ({_outcome(trial.exception)}), then {then}"
        report.exception = trial.exception
        report.reason = "a failure that does not replay (flaky)"
        report.tape = recorded.tape
        report.smallest = trial.value if recorded.tape is None else self.target.shown(recorded, self.seed)
        self.target.conclude(report, recorded if recorded.tape is not None else Attempt(FAIL, None, trial.value), recorded)
        return Attempt(INVALID, recorded.tape)

    # -- shrinking and confirming ------------------------------------------------------------
    def _shrink(self, initial: Attempt) -> None:
        """Phases 4 and 5: shrink ``initial``, keep it if it is the smallest, confirm it."""
        report, options = self.report, self.options
        t0 = time.perf_counter()
        limits = [t for t in (self.deadline, None if options.shrink_time is None else t0 + options.shrink_time) if t is not None]
        shrinker = Shrinker(
            self.session.attempt, initial, max_calls=self.shrink_budget, deadline=min(limits) if limits else None,
            kinds=self.target.kinds(),
        )
        try:
            best = shrinker.shrink()
        except KeyboardInterrupt:
            best = shrinker.best
            report.interrupted = True
            shrinker.stopped_by = "an interruption (KeyboardInterrupt)"
        except MemoryError:  # a candidate too large for memory: the smallest so far stands
            best = shrinker.best
            shrinker.stopped_by = "running out of memory (MemoryError) on a candidate"
        except RunInterrupted:  # the time budget's alarm, during a call that hangs
            if options.time_budget is None:
                raise
            best = shrinker.best
            shrinker.stopped_by = "the time budget (a call was still running)"
            report.time_bound = "the time budget ended shrinking during a call"
        report.time_shrinking += time.perf_counter() - t0
        self.session.close()  # its route must not be the current one while discovery goes on (restarts)
        report.shrink_steps += shrinker.improvements
        report.shrink_tries += shrinker.calls
        if shrinker.stopped_by == "the time budget":
            which = "shrink_time" if options.shrink_time is not None and (self.deadline is None or t0 + options.shrink_time <= self.deadline) else "time_budget"
            report.time_bound = f"the {which} limit ended shrinking: another machine may reach another input"
        assert best.tape is not None
        if report.tape is None or report.origin is None or (best.origin == report.origin and best.tape.key() < report.tape.key()):
            report.passed = False
            report.tape = best.tape
            report.origin = best.origin
            report.shrink_reason = shrinker.stopped_by
            # The report shows the input as generated, replayed on a fresh copy of the wiring
            # (the test may have changed the value it was given); the test runs once more on
            # another fresh replay to confirm the failure.
            report.smallest = self.target.shown(best, self.seed)
            session = self.target.session(self.seed)
            try:
                confirmed = session.attempt(best.tape.picks, list(best.tape.draws), None)
            finally:
                session.close()
            if confirmed.status != FAIL:
                report.flaky = f"the smallest failure {_passed(confirmed.status)} when it was replayed once more"
                report.exception = best.exception
            else:
                report.exception = confirmed.exception if confirmed.exception is not None else best.exception
            self.target.conclude(report, best, confirmed)
