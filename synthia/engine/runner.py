"""The runner under every harness: one run's phases, owned once.

A harness (:class:`~synthia.Assert`, :class:`~synthia.Monkey`) gives the runner **one
function**, ``play(play) -> Attempt``, and a :class:`~synthia.engine.play.Description` (see
:mod:`synthia.engine.play`): ``play`` makes one input from the wiring copy and source of
draws it is handed, tests it and says what happened. The runner owns everything else, for
every harness, as separate phases:

1. **replay the database**: saved failures are replayed first, each checked to fit the wiring;
2. **discover** (:mod:`~synthia.engine.discovery`): inputs one after the other until the
   stopping rule says enough (with the coverage requirements checked as QuickCheck does, a
   progress bar, discarded inputs counted apart, copied parts on a fixed schedule, an optional
   wall-clock ``time_budget``), yielding each failing input, recorded as it is found (from a
   checkpoint, not from the start of the run) and checked to replay;
3. **shrink** its draws with the :class:`~synthia.engine.Shrinker`, bounded by a number of test
   calls (``shrink_budget``) -- never by the clock unless ``shrink_time`` asks for it;
4. **confirm**: the smallest failure is replayed once more on a fresh wiring (a failure that
   does not replay is reported *flaky*, with both outcomes);
5. **report**: the verdict, why the run stopped, what it guarantees, and how to reproduce it.

With ``restarts``, discovery goes on after a failure to find and shrink more; the smallest
is kept. Everything derives from the seed: with the default options no phase reads the wall
clock to decide anything, so the same seed gives the same report in any process and under
any load; when an explicit time limit bound the run, :attr:`TestReport.time_bound` says so.
"""
from __future__ import annotations

import collections
import contextlib
import re
import time
from typing import Any, Callable, Iterable, Iterator

from ..core.draws import Tape, outside_routes
from ..core.exceptions import GiveUp, NoMoreElements
from ..core.graph import kinds_of, notify_failure, picker_notes
from ..core.parsing import Reparser
from .capture import OutputCapture
from ..core.budget import making_inputs
from .copying import PROBES, copy_plan, next_copy, probe_draws
from .coverage import signature, span_names
from .discovery import CHECKPOINT, Discovery
from .observe import observation
from .options import OPTIONS_ATTRIBUTE, SHRINK_BUDGET, RunOptions
from .play import SHOW, Description, Play
from .progress import run_progress
from .proposals import DISCARD, FAIL, INVALID, PASS, Attempt
from .replays import PlayFunction, Replays, replay_once
from .report import RunInterrupted, TestReport, time_limit
from .shrinker import Shrinker
from .stopping import Outcome, StoppingRule
from .targets import Targets

__all__ = ["Runner", "RunOptions", "OPTIONS_ATTRIBUTE", "SHRINK_BUDGET", "DISCARD", "MAX_DISCARD_RATIO", "run_harness"]

#: Discovery stops when discarded inputs outnumber the tested ones this many times (+10).
MAX_DISCARD_RATIO = 10
#: Discards below this many never make a health warning: seven inputs, four discarded, say
#: nothing about a precondition.
MIN_DISCARDS_TO_WARN = 50


def run_harness(play: PlayFunction, description: Description, options: RunOptions, seed: int, report: TestReport, tapes: Iterable[Tape] = ()) -> TestReport:
    """One run of the harness whose one callback is ``play``: fills ``report`` and returns it."""
    return Runner(play, description, options, seed, report).run(tapes)


class Runner:
    """One run of a harness (its ``play`` function and ``description``) with ``seed``:
    :meth:`run` fills ``report`` and returns it."""

    def __init__(self, play: PlayFunction, description: Description, options: RunOptions, seed: int, report: TestReport) -> None:
        self.play = play
        self.description = description
        self.options = options = options.resolved()
        assert options.stop is not None and options.restarts is not None and options.shrink_budget is not None
        #: The stopping rule, the restarts and the shrink budget of the run (defaults filled in).
        self.rule: StoppingRule = options.stop
        self.restarts: int = options.restarts
        self.shrink_budget: int = options.shrink_budget
        self.seed = seed
        self.report = report
        self.unit = description.unit[:-1]
        self.replays = Replays(play, description, seed)
        self.started = time.perf_counter()
        budget = options.time_budget
        #: The end of an explicit ``time_budget`` (a ``time.perf_counter`` value), or ``None``.
        self.deadline = None if budget is None else self.started + budget
        self._kinds: list[str] | None = None
        self._names: dict[Any, str] | None = None
        #: What the test prints, kept off the screen (``capture_output``), but the smallest failure's.
        self.capture: Any = OutputCapture() if options.capture_output else contextlib.nullcontext()
        self.targets = Targets(seed)
        self.starts = 0
        self.discards: collections.Counter[str] = collections.Counter()
        #: What the run's first input did (``Attempt.lines``), to play it again later.
        self.first_lines: list[str] | None = None

    @property
    def kinds(self) -> list[str]:
        """The kind of each span label of the wiring (which parts may be copied or swapped)."""
        if self._kinds is None:
            self._kinds = kinds_of(self.description.wiring)
        return self._kinds

    # -- the run ------------------------------------------------------------------------------
    def run(self, tapes: Iterable[Tape] = ()) -> TestReport:
        report = self.report
        report.started_at = time.time()
        budget = self.options.time_budget
        # With a time budget, an alarm ends a call that hangs past it (the loop's own checks
        # end the run between calls): a little after the budget.
        limit = time_limit(budget * 1.1 + 0.5) if budget is not None else contextlib.nullcontext()
        try:
            with limit, self.capture, making_inputs(), outside_routes():  # a run in another's test is its own
                if not self._replay_saved(list(tapes)):
                    for failing in self._discover():
                        if not self._shrink(failing) or self._enough():
                            break
        except RunInterrupted:
            if budget is None:
                raise  # another's time limit (property_coverage's): it ends the run, not this report
            self._interrupted_by_budget(budget)
        finally:
            self.replays.close()
        report.time_discovery = time.perf_counter() - self.started - report.time_shrinking
        self._nothing_tested()
        if self.options.observe and report.smallest is not None and not report.flaky and report.played is not None:
            index = report.first_index if report.first_index is not None else -1
            report.observations.append(self._observation(index, report.played, {}, "shrunk: the smallest failing input"))
        return report

    def _enough(self) -> bool:
        """Whether the failures found so far end the run (``restarts`` more were asked for)."""
        report = self.report
        self.starts += 1
        if self.starts > self.restarts or report.interrupted:
            report.reason = f"found a failing {self.unit} and shrank it until {report.shrink_reason}"
            if self.starts > 1:
                report.reason += f" ({self.starts} failures shrunk, the smallest kept)"
            return True
        return False

    def _interrupted_by_budget(self, budget: float) -> None:
        report = self.report
        self.replays.close()
        report.reason = f"the time budget of {budget:g} s ended a call that was still running (one that hangs?)"
        report.time_bound = f"the time budget of {budget:g} s ended the run during a call"
        if report.tape is None:  # never a pass: the last input was not seen to pass
            report.passed = False
            report.error = f"a call was still running when the time budget of {budget:g} s ended (it hangs?)"

    def _nothing_tested(self) -> None:
        """A run that tested nothing never passes: it is an error, with the numbers."""
        report = self.report
        if report.tried or report.smallest is not None or report.tape is not None or report.error is not None:
            return
        report.passed = False
        if report.discarded:
            where = self.discards.most_common(1)[0][0] if self.discards else ""
            report.error = f"no {self.unit} reached the test: all {report.discarded} were discarded {_by(where)}"
        else:
            report.error = f"no {self.unit} reached the test: {report.reason}"

    def _replay_saved(self, tapes: list[Tape]) -> bool:
        """Phase 1: the saved failures, replayed first. True when one failed again (and was shrunk)."""
        report = self.report
        for tape in tapes:
            attempt = self.replays.attempt(tape.picks, list(tape.draws), None, strict=True)
            if attempt.status == FAIL:
                self.replays.close()
                shown = replay_once(self.play, self.description, self.seed, tape)
                first = shown.value if shown.status == FAIL else attempt.value
                report.notes.append(f"a saved failure fails again: {_describe(first)}")
                report.time_to_failure = time.perf_counter() - self.started
                report.tried += 1
                report.failures += 1
                report.first, report.first_index = first, None
                self._shrink(attempt)
                report.reason = "a saved failure failed again; it was shrunk"
                report.from_database = True
                return True
            why = "no longer fits the wiring" if attempt.status in (INVALID, DISCARD) else "no longer fails"
            report.notes.append(f"a saved failure was dropped: it {why}")
        self.replays.close()
        return False

    # -- discovery ------------------------------------------------------------------------------
    def _discover(self) -> Iterator[Attempt]:
        """Phase 2: inputs until the rule says enough or an end; yields each failing input
        (recorded and checked to replay) and goes on when asked for more.

        Most inputs of most runs take the plain path: the next pick of the sequence, nothing
        to record, no coverage requirement, deadline or observation; such an input that passes
        costs the rule's question, the play and the counts. Every other input -- the first,
        one with a copied part, a checkpoint, a progress tick, any input of a run with
        requirements, a deadline or observations -- takes :meth:`_slow`."""
        options, report = self.options, self.report
        self.rule.begin()
        self.evidence = evidence = options.new_evidence()
        report.evidence, report.rule = evidence, self.rule
        description = self.description
        self._copy_at, self._copy_every = copy_plan(options.copy_parts, description.may_copy)
        inputs = Discovery(self.play, description, self.seed, evidence.recording_classes and not description.classifies)
        self._pending = ""  # the rule's reason to stop, held while coverage requirements are undecided
        self._checked = -1
        self._verdict = "undecided"  # of the coverage requirements, at the last checkpoint
        self._bar = run_progress(self.rule, f"{description.name}: {description.unit}", options.progress)
        direct = inputs.direct
        plain = self._plain(direct)
        reason_to_stop, play, count = self.rule.reason_to_stop, self.play, self._counter(evidence)
        index = special = 0  # special: the next input that takes the slow path
        try:
            while True:
                if plain and index != special and not (reason_to_stop() or report.discarded):
                    direct.index = index  # type: ignore[union-attr]
                    try:
                        attempt = play(direct)  # type: ignore[arg-type]
                    except Exception as error:  # noqa: BLE001 - which end of the run it is: _unmade says
                        self._unmade(error, index)
                        break
                    if attempt.status is PASS and attempt.targets is None:
                        count(index, attempt)
                        index += 1
                        continue
                else:
                    slow = self._slow(inputs, index)
                    if slow is None:
                        break
                    attempt = slow
                index += 1
                failing = self._after(inputs, index - 1, attempt)
                special = self._special(index)  # after _after: it sets the next copy's number
                if failing is None:
                    continue
                if failing.status != FAIL:  # flaky: reported, nothing more to do
                    return
                yield failing
        finally:
            self._end_discovery(inputs)

    def _plain(self, direct: Play | None) -> bool:
        """Whether inputs may take the plain path (see :meth:`_discover`)."""
        return direct is not None and not self.evidence.requirements and self.deadline is None and not self.options.observe

    def _end_discovery(self, inputs: Discovery) -> None:
        if self._bar is not None:
            self._bar.close()
        inputs.close()
        self.report.notes.extend(picker_notes(inputs.wiring))
        self._discovery_health()

    def _counter(self, evidence: Any) -> Callable[[int, Attempt], None]:
        """What counts a passing input of the plain path: the evidence, the rule, the report
        (one outcome renewed per input when the rule does not keep them)."""
        observe, observed, report = self.rule.observe, evidence.observe, self.report
        outcome = self._outcome = Outcome(0, None, True, None, (), evidence)  # type: ignore[arg-type]
        if self.rule.keeps_outcomes:
            def count(index: int, attempt: Attempt) -> None:
                observed(True, None, attempt.labels, attempt.covers)
                observe(Outcome(index, attempt.value, True, None, attempt.labels, evidence))
                report.tried += 1
        else:
            def count(index: int, attempt: Attempt) -> None:
                observed(True, None, attempt.labels, attempt.covers)
                outcome.index, outcome.inputs, outcome.labels = index, attempt.value, attempt.labels
                observe(outcome)
                report.tried += 1
        return count

    def _special(self, index: int) -> int:
        """The first input from ``index`` on that must take the slow path: one with a copied
        part, a checkpoint of the sequence, a tick of the progress bar."""
        special = index + (-index) % CHECKPOINT
        if self._copy_at >= index:
            special = min(special, self._copy_at)
        if self._bar is not None:
            special = min(special, index + (-index) % 16)
        if self.targets.active:  # a climb after every other input
            special = min(special, index + (1 - index % 2))
        return special

    def _slow(self, inputs: Discovery, index: int) -> Attempt | None:
        """Input ``index`` by the slow path: every check of :meth:`_stops`, then made (recorded
        when a part of it will be copied) and observed; ``None`` when discovery ends."""
        if self._stops(index, self._bar):
            return None
        return self._make(inputs, index, index == self._copy_at)

    def _climb(self, index: int) -> Attempt | None:
        """After input ``index``, a climb from the best input of a target label (see
        :mod:`~synthia.engine.targets`): an extra probe, like a copy, not counted among the
        tried inputs. The failing attempt, or ``None``."""
        climb = self.targets.climb(index)
        if climb is None:
            return None
        picks, draws = climb
        try:
            attempt = self.replays.attempt(picks, draws, None)
        finally:
            self.replays.close()
        if attempt.targets:
            self.targets.observe(attempt, lambda: None)
        if attempt.status != FAIL or attempt.tape is None:
            return None
        shown = self._replayed(attempt.tape)
        self._found(index, shown.value if shown.status == FAIL else attempt.value)
        self.report.notes.append(f"the failing {self.unit} was found by climbing a target after #{index}")
        return attempt

    def _stops(self, index: int, bar: Any) -> bool:
        """Whether discovery ends before input ``index`` (the reason is then in the report)."""
        report, evidence = self.report, self.evidence
        if evidence.requirements and report.tried != self._checked and evidence.is_checkpoint(report.tried) and self._coverage_stops():
            return True
        reason = self._pending or self.rule.reason_to_stop()
        if reason and self._reason_stops(reason):
            return True
        if self.deadline is not None and report.tried and time.perf_counter() > self.deadline:  # at least one input is tried
            report.reason = f"the time budget of {self.options.time_budget:g} s is spent"
            report.time_bound = f"the time budget of {self.options.time_budget:g} s ended discovery"
            return True
        if bar is not None and not index & 15:
            bar.tick(report.tried)
        if report.discarded >= MAX_DISCARD_RATIO * (report.tried + 10):
            where = self.discards.most_common(1)[0][0] if self.discards else ""
            report.reason = f"{report.discarded} {self.description.unit} were discarded {_by(where)}, against {report.tried} tested"
            return True
        return False

    def _coverage_stops(self) -> bool:
        """At a checkpoint of the coverage requirements: whether they end discovery (one is
        confidently not met, or all are met while the rule already said enough)."""
        report, evidence = self.report, self.evidence
        self._checked = report.tried
        self._verdict = evidence.check_coverage()
        if self._verdict == "not met":
            report.passed = False
            report.insufficient = [r.describe(evidence.n) for r in evidence.unmet()]
            report.reason = f"a coverage requirement is confidently not met after {report.tried} {self.description.unit}"
            return True
        if self._verdict == "met" and self._pending:
            report.reason = f"{self._pending}; coverage requirements met after {report.tried} {self.description.unit}"
            return True
        return False

    def _reason_stops(self, reason: str) -> bool:
        """The rule says enough: stop, unless coverage requirements are still undecided."""
        report, evidence = self.report, self.evidence
        if not evidence.requirements or self._verdict == "met":
            report.reason = reason
            return True
        if report.tried >= evidence.limit:
            unit = self.description.unit
            report.reason = f"{reason}; coverage still undecided after {report.tried} {unit}"
            report.health.append(
                f"coverage requirements stayed undecided after {report.tried} {unit}: "
                f"{'; '.join(r.describe(evidence.n) for r in evidence.requirements.values())}"
            )
            return True
        self._pending = reason
        return False

    def _make(self, inputs: Discovery, index: int, record: bool) -> Attempt | None:
        """Input ``index``, made and tested (and observed); ``None`` when the wiring ended the run."""
        t0 = time.perf_counter()
        try:
            attempt = inputs.make(index, record)
        except Exception as error:  # noqa: BLE001 - which end of the run it is: _unmade says
            self._unmade(error, index)
            return None
        if self.options.observe:
            self.report.observations.append(self._observation(index, attempt, {"total": time.perf_counter() - t0}))
        return attempt

    def _unmade(self, error: Exception, index: int) -> None:
        """The wiring raised ``error`` while making input ``index``: the end of discovery
        (the reason is in the report), or the error itself when nothing was found before."""
        report = self.report
        if isinstance(error, NoMoreElements):
            report.reason = f"the {self.description.unit} ran out: the input pickers have no more values"
        elif isinstance(error, GiveUp):
            report.reason = f"an input picker gave up: {error}"
        elif report.tape is None:
            raise error
        else:
            report.reason = f"the wiring raised while making input #{index}; the failure found before is kept"

    def _after(self, inputs: Discovery, index: int, attempt: Attempt) -> Attempt | None:
        """Input ``index`` counted; the failing attempt to shrink, or ``None``. After the input
        with a copied part, the copy is tried (when it passed) and the next one is set."""
        failing = self._account(inputs, index, attempt)
        if index == self._copy_at:
            self._copy_at = next_copy(index + 1, self._copy_every)
            if failing is None and attempt.status == PASS:
                failing = self._copy(index, attempt)
        if failing is None and self.targets.active and index % 2:
            failing = self._climb(index)
        return failing

    def _account(self, inputs: Discovery, index: int, attempt: Attempt) -> Attempt | None:
        """Count input ``index`` (evidence, rule); the failing attempt to shrink, recorded and
        checked, when it failed (a flaky one, not ``FAIL``, when it does not replay)."""
        report = self.report
        if index == 0 and not self.description.records and attempt.lines is not None:
            self.first_lines = attempt.lines()
        if attempt.targets:
            self.targets.observe(attempt, lambda: inputs.remake(index, history=False).tape)
        status = attempt.status
        if status == DISCARD:
            report.discarded += 1
            self.discards[attempt.where] += 1
            return None
        klass = attempt.klass
        if klass is None and attempt.tape is not None and self.evidence.recording_classes:
            klass = attempt.klass = self._classify(attempt.tape, attempt.labels)
        self.evidence.observe(status == PASS, klass, attempt.labels, attempt.covers)
        if self.rule.keeps_outcomes:
            self.rule.observe(Outcome(index, attempt.value, status == PASS, klass, attempt.labels, self.evidence))
        else:
            outcome = self._outcome
            outcome.index, outcome.inputs, outcome.passed, outcome.klass, outcome.labels = index, attempt.value, status == PASS, klass, attempt.labels
            self.rule.observe(outcome)
            outcome.passed, outcome.klass = True, None  # as the plain path expects it
        report.tried += 1
        if status != FAIL:
            return None
        notify_failure(inputs.wiring)
        try:
            return self._recorded(inputs, index, attempt)
        except MemoryError:
            self._unrecorded(index, attempt, found=False)
            return Attempt(INVALID)

    def _classify(self, tape: Tape, labels: tuple[Any, ...]) -> Any:
        """An input's class, read from its draws (and its labels)."""
        if self._names is None:
            self._names = span_names(self.description.wiring)
        klass = signature(tape, names=self._names)
        return (klass, labels) if labels else klass

    def _discovery_health(self) -> None:
        report = self.report
        discards = self.discards
        if discards:
            report.discarded_by = _by(discards.most_common(1)[0][0])
        if discards and report.tried and report.discarded > report.tried and report.discarded >= MIN_DISCARDS_TO_WARN:
            where, count = discards.most_common(1)[0]
            report.health.append(
                f"{report.discarded} of {report.discarded + report.tried} {self.description.unit} were discarded "
                f"{_by(where, count)}: the wiring rarely meets the precondition; make the values it "
                "needs directly (a Bind, a narrower range) rather than filtering them"
            )
        report.guarantee = self.rule.guarantee(self.description.unit) if report.passed and report.tried else None
        report.targets = self.targets.highest()

    # -- a failure, as it is found ----------------------------------------------------------
    def _found(self, index: int, first: Any) -> None:
        report = self.report
        report.failures += 1
        if report.time_to_failure is None:
            report.time_to_failure = time.perf_counter() - self.started
        if report.first is None:
            report.first, report.first_index = first, index

    def _recorded(self, inputs: Discovery, index: int, attempt: Attempt) -> Attempt:
        """The failing input ``index`` with its draws, checked to replay on a fresh wiring
        (first its own draws, then with the picks before it); a flaky attempt (status not
        ``FAIL``) once the report says so."""
        recorded = attempt
        if attempt.tape is None:
            recorded = inputs.remake(index, history=False)
            if recorded.status != FAIL:
                self._found(index, attempt.value)
                return self._flaky(index, attempt, f"{_passed(recorded.status)} when the same draws were replayed", recorded)
        assert recorded.tape is not None
        again = self._replayed(recorded.tape)
        if (again.status != FAIL or again.origin != recorded.origin) and self.description.in_sequence:
            # A wiring that keeps state between inputs: the input needs the picks before it.
            recorded = inputs.remake(index, history=True)
            assert recorded.tape is not None
            again = self._replayed(recorded.tape)
        if again.status != FAIL:
            self._found(index, attempt.value)
            return self._flaky(index, attempt, f"{_passed(again.status)} when replayed with its history", recorded)
        why = self._did_otherwise(index, attempt, again, inputs)
        if why:
            self._found(index, attempt.value)
            return self._flaky(index, attempt, why, recorded)
        # The first failure as the wiring made it (the test may have changed its input).
        self._found(index, again.value)
        return again

    def _did_otherwise(self, index: int, attempt: Attempt, again: Attempt, inputs: Discovery) -> str:
        """Why two plays of one input differ (state kept between runs), or ``""``."""
        if attempt.lines is None or again.lines is None:
            return ""
        done, redone = attempt.lines(), again.lines()
        if done != redone:
            k = next((k for k, (a, b) in enumerate(zip(done, redone)) if a != b), min(len(done), len(redone)))
            return (
                f"did other things when its draws were replayed on a fresh system: step {k + 1} {_line(done, k)}, "
                f"then {_line(redone, k)} (a system that keeps state between runs, a class attribute, or is not deterministic)"
            )
        if self.first_lines is not None and index > 0:
            later_attempt = inputs.remake(0, history=False)
            later = later_attempt.lines() if later_attempt.lines is not None else None
            if later is not None and later != self.first_lines:
                k = next((k for k, (a, b) in enumerate(zip(self.first_lines, later)) if a != b), 0)
                return (
                    f"{self.unit} #0, played again, did other things than at the start of the run: step {k + 1} "
                    f"{_line(self.first_lines, k)}, now {_line(later, k)} (state kept from one {self.unit} to the next: "
                    "a class attribute, a module global)"
                )
        return ""

    def _unrecorded(self, index: int, attempt: Attempt, found: bool) -> None:
        """A failing input too large to record (``MemoryError`` while its draws were recorded,
        replayed or shrunk; ``found``: it was already counted): reported as it was made, with
        the seed and index that make it again, unshrunk and not saved, rather than lost."""
        self.replays.close()
        report = self.report
        if not found:
            self._found(index, attempt.value)
        report.first, report.first_copied, report.first_edges = attempt.value, False, False  # as made, not as replayed
        report.passed = False
        report.tape = None
        report.smallest = attempt.value
        report.exception = attempt.exception
        report.reason = f"found a failing {self.unit} (#{index}) too large to record: it ran out of memory (MemoryError)"
        report.notes.append(
            f"{self.unit} #{index} failed but could not be recorded (MemoryError): it is shown as made, "
            "not shrunk and not saved; the seed and index below make it again"
        )

    def _replayed(self, tape: Tape) -> Attempt:
        """``tape`` replayed on a fresh copy of the wiring, the input kept as made."""
        return replay_once(self.play, self.description, self.seed, tape)

    def _copy(self, index: int, attempt: Attempt) -> Attempt | None:
        """Input ``index`` (which passed) played again as each probe of ``probe_draws`` makes it
        (a part copied over another of its kind, edge values): extra probes, not counted among
        the tried inputs. The failing attempt, or ``None``."""
        tape = attempt.tape
        for probe, draws in enumerate(probe_draws(tape, self.kinds, self.seed, index) if tape is not None else ()):
            if draws is None or tape is None:
                continue
            try:
                copied = self.replays.attempt(tape.picks, draws, None)
            finally:
                # An open session's route is the current one: pickers made inside later picks
                # would draw from its replayer.
                self.replays.close()
            if copied.status == FAIL and copied.tape is not None:
                break
        else:
            return None
        shown = self._replayed(copied.tape)
        self._found(index, shown.value if shown.status == FAIL else copied.value)
        self.report.notes.append(f"the failing {self.unit} is #{index} with {PROBES[probe]}")
        if self.report.first_index == index:
            self.report.first_copied, self.report.first_edges = probe == 0, probe == 1
        return copied

    def _flaky(self, index: int, attempt: Attempt, then: str, recorded: Attempt) -> Attempt:
        report = self.report
        report.passed = False
        report.flaky = f"{self.unit} #{index} failed ({_outcome(attempt.exception)}), then {then}"
        report.exception = attempt.exception
        report.reason = "a failure that does not replay (flaky)"
        report.tape = recorded.tape
        report.smallest = attempt.value if recorded.tape is None else recorded.value
        report.played = recorded if recorded.tape is not None else attempt
        return Attempt(INVALID, recorded.tape)

    # -- shrinking and confirming ------------------------------------------------------------
    def _shrink(self, initial: Attempt) -> bool:
        """Phases 3 and 4: shrink ``initial``, keep it if it is the smallest, confirm it.
        False when the run must end (the failure was too large to shrink)."""
        report = self.report
        try:
            best = self._shrunk(initial)
            assert best.tape is not None
            if report.tape is None or report.origin is None or (best.origin == report.origin and best.tape.key() < report.tape.key()):
                self._confirm(best)
        except MemoryError:  # replaying the shrunk input to show it ran out of memory
            self._unrecorded(report.first_index or 0, initial, found=True)
            return False
        return True

    def _shrunk(self, initial: Attempt) -> Attempt:
        """The smallest failure the shrinker reaches from ``initial``, within the budgets."""
        report, options = self.report, self.options
        t0 = time.perf_counter()
        limits = [t for t in (self.deadline, None if options.shrink_time is None else t0 + options.shrink_time) if t is not None]
        shrinker = Shrinker(
            self.replays.attempt, initial, max_calls=self.shrink_budget, deadline=min(limits) if limits else None, kinds=self.kinds,
            reparse=Reparser(self.description.wiring),
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
        self.replays.close()  # its route must not be the current one while discovery goes on (restarts)
        report.shrink_steps += shrinker.improvements
        report.shrink_tries += shrinker.calls
        if shrinker.stopped_by == "the time budget":
            ended_by_shrink_time = options.shrink_time is not None and (self.deadline is None or t0 + options.shrink_time <= self.deadline)
            which = "shrink_time" if ended_by_shrink_time else "time_budget"
            report.time_bound = f"the {which} limit ended shrinking: another machine may reach another input"
        self._stopped_by = shrinker.stopped_by
        return best

    def _confirm(self, best: Attempt) -> None:
        """``best`` is the smallest failure: replayed once more on a fresh wiring, the input
        kept as made (the test may change what it is given), it is what the report shows."""
        report = self.report
        assert best.tape is not None
        report.passed = False
        report.tape = best.tape
        report.origin = best.origin
        report.shrink_reason = self._stopped_by
        if isinstance(self.capture, OutputCapture):
            self.capture.keep()
        try:
            confirmed = self._replayed(best.tape)
        finally:
            report.output = self.capture.taken() if isinstance(self.capture, OutputCapture) else ""
        report.test_notes = list(confirmed.notes)
        report.smallest = confirmed.value if confirmed.status != INVALID else best.value
        if confirmed.status != FAIL:
            report.flaky = f"the smallest failure {_passed(confirmed.status)} when it was replayed once more"
            report.exception = best.exception
            report.played = best
        else:
            report.exception = confirmed.exception if confirmed.exception is not None else best.exception
            report.played = confirmed
        report.drawn = report.played.drawn

    # -- observations -------------------------------------------------------------------------
    def _observation(self, index: int, attempt: Attempt, timing: dict[str, float], how_generated: str = "generated") -> dict[str, Any]:
        """Input ``index`` as one observation in Hypothesis's observability format."""
        features: dict[str, Any] = {label: True for label in attempt.labels}
        features.update({f"cover:{label}": held for label, _, held in attempt.covers})
        if attempt.klass is not None:
            features["class"] = repr(attempt.klass)
        status, exception = attempt.status, attempt.exception
        reason = "" if exception is None or status == PASS else f"{type(exception).__name__}: {exception}"
        if status == FAIL and exception is None:
            reason = "the test returned False"
        metadata: dict[str, Any] = {"seed": self.seed, "index": index}
        if attempt.drawn:
            metadata["drawn"] = attempt.drawn
        value = attempt.value
        return observation(
            property=self.description.name, run_start=self.report.started_at,
            status={PASS: "passed", FAIL: "failed"}.get(status, "gave_up"),
            arguments=value if isinstance(value, dict) else {}, status_reason=reason,
            how_generated=how_generated, features=features, timing=timing, metadata=metadata,
        )


def _describe(values: Any) -> str:
    text = repr(values)
    return text if len(text) <= 120 else text[:117] + "..."


def _passed(status: str) -> str:
    return "was discarded" if status == DISCARD else ("passed" if status == PASS else "could not be replayed")


def _outcome(exception: BaseException | None) -> str:
    return "returned False" if exception is None else f"raised {type(exception).__name__}: {exception}"


def _by(where: str, count: int | None = None) -> str:
    """What discarded inputs: an ``assume`` at a place (``file:line``), or what the harness says."""
    at = f"{count} at " if count is not None else ""
    if re.search(r":\d+$", where):
        return f"by assume ({at}{where})"
    return f"({at}{where})" if where else "by assume"


def _line(lines: list[str], k: int) -> str:
    return lines[k] if k < len(lines) else "(no such step)"


__all__ += ["Play", "SHOW", "Description"]
