"""The ``Assert`` harness: draw inputs from one wiring, find a failure, shrink its draws, report."""
from __future__ import annotations

import collections
import time
import warnings
from contextlib import ExitStack
from typing import Any, Callable, Hashable, Iterable

from ..core.draws import Draw, Recorder, Tape, routed
from ..core.draws import record as record_draws
from ..core.draws import replay as replay_draws
from ..core.exceptions import GiveUp, NoMoreElements
from ..core.graph import kinds_of, notify_failure, picker_notes, upstream
from ..core.instrument import intercept
from ..core.picker import Picker
from ..core.random import check_seed, fresh_seed
from ..pickers.filters import PickIf
from ..engine.session import ReplaySession
from ..engine.shrinker import FAIL, INVALID, PASS, Attempt, Shrinker
from .arguments import Arguments
from .context import DrawContext, UnsatisfiedAssumption, drawing, enter_drawing, leave_drawing
from .copying import copies_a_part, copy_random, copy_span, next_copy
from .coverage import signature, span_names
from .evidence import COVER_CERTAINTY, COVER_TOLERANCE, Evidence
from .observe import observation
from .progress import RunProgress, check_progress, run_progress
from .report import HealthWarning, InvalidTest, RunInterrupted, TestReport
from .stopping import FixedCount, Outcome, StoppingRule

__all__ = ["Assert", "origin_of", "call_test", "DISCARD"]

#: What identifies a test that returned ``False`` (its failure has no exception).
RETURNED_FALSE = ("returned False",)
#: The status of an input discarded by ``assume``: neither a pass nor a failure.
DISCARD = "discard"
#: Discovery stops when discarded inputs outnumber the tested ones this many times (+10).
MAX_DISCARD_RATIO = 10


def origin_of(exception: BaseException | None) -> Any:
    """What identifies a failure: the exception's type and the place it was raised.

    Shrinking keeps to one origin, so a smaller input is the same bug, not another one
    met on the way.
    """
    if exception is None:
        return RETURNED_FALSE
    tb = exception.__traceback__
    if tb is None:
        return (type(exception), None, None)
    while tb.tb_next is not None:
        tb = tb.tb_next
    return (type(exception), tb.tb_frame.f_code.co_filename, tb.tb_lineno)


def _is_skip(exception: BaseException) -> bool:
    # pytest.skip() inside a test skips it; it is not a failure of the property.
    return type(exception).__name__ == "Skipped" and type(exception).__module__.startswith("_pytest")


def call_test(test: Callable[..., Any], values: dict[str, Any]) -> tuple[str, BaseException | None]:
    """Run ``test(**values)``: ``("pass", None)``, ``("fail", exception or None)`` or
    ``("discard", UnsatisfiedAssumption)``.

    Returning ``False`` or raising anything -- ``SystemExit`` and other ``BaseException``
    included -- is a failure; an :func:`~synthia.assume` that does not hold is a discard;
    ``KeyboardInterrupt``, :class:`~synthia.testing.InvalidTest`,
    :class:`~synthia.testing.report.RunInterrupted` and pytest's skip go through.
    """
    __tracebackhide__ = True
    try:
        result = test(**values)
    except (KeyboardInterrupt, InvalidTest, RunInterrupted):
        raise
    except UnsatisfiedAssumption as exc:
        return DISCARD, exc
    except BaseException as exc:  # noqa: B036 - a test that exits or aborts has failed
        if _is_skip(exc):
            raise
        return FAIL, exc
    return (FAIL, None) if result is False else (PASS, None)


class Assert:
    """Check that ``test`` holds for inputs drawn from pickers; shrink any failure.

    ``test`` receives one keyword argument per picker given (``x=...``, ``y=...``). It
    fails when it returns ``False`` or raises (``SystemExit`` included; the exception is
    kept with its traceback); any other return value is a pass; an input for which
    :func:`~synthia.assume` does not hold is discarded (counted apart, never a pass). The
    test may :func:`~synthia.draw` more values while it runs. All the pickers form **one
    wiring**, copied once per run, so a picker shared by two arguments stays shared (and
    the user's pickers are never moved).

    :meth:`run` draws inputs until the stopping rule ``stop`` (default
    ``FixedCount(100)``) says enough or an input fails. The failure is then recorded --
    the sequence of typed draws that made it, the test's own draws included -- and
    **shrunk over its draws** by the generic :class:`~synthia.engine.Shrinker`: every
    candidate is replayed through the same wiring, so the reported smallest input is a
    real output of the wiring, and it keeps to the same failure (same exception type at
    the same place). Shrinking ends when a round of passes finds nothing smaller, after
    ``shrink_budget`` candidates, or after ``shrink_time`` seconds; the report says which.
    With ``restarts > 0``, discovery goes on after a failure to find and shrink that many
    more, and the smallest is reported. Everything derives from the seed: the same
    ``Assert`` run twice with the same seed, in any process, gives the same report.

    The 8th, 24th and 40th inputs, then one in 256 up to the 4,096th, then one in 4,096,
    have **a copied part** (``copy_parts=True``, the default): the input's draws are
    recorded, the draws of one pick replace those of another pick of the same kind -- of the
    same picker (two elements of a list) or of a picker with the same ``repr`` (two
    arguments) -- and the result is replayed through the wiring
    (:mod:`synthia.testing.copying`). Such an input is a real output of the wiring, recorded
    and shrunk like any other; it makes the equal parts -- ``x == y``, two equal fields, a
    repeated element -- that independent draws almost never make, and that bugs need.

    Every tested input feeds the run's :class:`~synthia.testing.evidence.Evidence`
    (``report.evidence``): the labels the test gave with :func:`~synthia.event`, the
    coverage requirements of :func:`~synthia.cover` (checked as QuickCheck's
    ``checkCoverage`` does, with ``coverage_certainty`` and ``coverage_tolerance``), and,
    when ``classes`` is true -- by default when the stopping rule needs them, as
    :class:`~synthia.Bayesian` does -- the class of each input, read from its recorded
    draws (:func:`~synthia.testing.coverage.signature`). With ``observe=True`` the report
    keeps one observation per tested input in Hypothesis's observability format
    (``report.observations``, written by ``report.write_observations(path)``). A run
    that lasts more than two seconds shows a progress bar where a person watches (a
    terminal, not pytest, not CI; tqdm installed); ``progress=True`` shows it from the
    start, ``progress=False`` never. The time each picker takes
    (``report.picker_times``) is measured on a replay of the first 50 inputs after the
    run, when ``timing`` is true -- by default when the run failed or generating was slow,
    so that a passing run pays nothing for it.

    >>> from synthia import RandomInteger
    >>> report = Assert(lambda x: x < 500, x=RandomInteger(0, 1000)).run(seed=1)
    >>> report.passed, report.smallest
    (False, {'x': 500})
    """

    def __init__(
        self,
        test: Callable[..., Any],
        stop: StoppingRule | None = None,
        *,
        restarts: int = 0,
        shrink_budget: int = 20_000,
        shrink_time: float = 5.0,
        name: str | None = None,
        classes: bool | None = None,
        observe: bool = False,
        coverage_certainty: float = COVER_CERTAINTY,
        coverage_tolerance: float = COVER_TOLERANCE,
        progress: bool | None = None,
        timing: bool | None = None,
        copy_parts: bool = True,
        **inputs: Picker[Any],
    ) -> None:
        if not callable(test):
            raise TypeError(f"test must be callable, got {test!r}")
        if not inputs:
            raise ValueError("Assert needs at least one input picker, given as a keyword argument (x=RandomInteger(0, 10))")
        for key, picker in inputs.items():
            if not isinstance(picker, Picker):
                raise TypeError(f"input {key} must be a picker, got {picker!r} ({type(picker).__name__})")
        self.test = test
        self.inputs = dict(inputs)
        self.stop = FixedCount(100) if stop is None else stop
        if not isinstance(self.stop, StoppingRule):
            raise TypeError(f"stop must be a StoppingRule such as FixedCount(100), got {stop!r}")
        if isinstance(restarts, bool) or not isinstance(restarts, int) or restarts < 0:
            raise ValueError(f"restarts must be a non-negative int, got {restarts!r}")
        if isinstance(shrink_budget, bool) or not isinstance(shrink_budget, int) or shrink_budget < 0:
            raise ValueError(f"shrink_budget must be a non-negative int, got {shrink_budget!r}")
        if isinstance(shrink_time, bool) or not isinstance(shrink_time, (int, float)) or not shrink_time > 0:
            raise ValueError(f"shrink_time must be a positive number of seconds, got {shrink_time!r}")
        self.restarts = restarts
        self.shrink_budget = shrink_budget
        self.shrink_time = float(shrink_time)
        self.name: str = str(name or getattr(test, "__name__", "test"))
        if classes is not None and not isinstance(classes, bool):
            raise TypeError(f"classes must be True, False or None (as the stopping rule needs), got {classes!r}")
        if not isinstance(observe, bool):
            raise TypeError(f"observe must be True or False, got {observe!r}")
        self.classes = classes
        self.observe = observe
        self.progress = check_progress(progress)
        if timing is not None and not isinstance(timing, bool):
            raise TypeError(f"timing must be True, False or None (time the pickers when a report is read), got {timing!r}")
        self.timing = timing
        if not isinstance(copy_parts, bool):
            raise TypeError(f"copy_parts must be True or False, got {copy_parts!r}")
        self.copy_parts = copy_parts
        Evidence(certainty=coverage_certainty, tolerance=coverage_tolerance)  # checks both, naming them
        self.coverage_certainty = float(coverage_certainty)
        self.coverage_tolerance = float(coverage_tolerance)
        #: The one wiring of all arguments (a private copy: the user's pickers never move).
        self.wiring: Arguments = Arguments(self.inputs).duplicate()

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in self.inputs.items())
        return f"Assert({self.name}, {args}, stop={self.stop!r})"

    # -- single checks, examples and replays --------------------------------------------------
    def check(self, values: dict[str, Any]) -> tuple[bool, BaseException | None]:
        """Run the test once on ``values``: ``(passed, exception or None)``."""
        status, exception = call_test(self.test, values)
        return status != FAIL, exception

    def seeded(self, seed: int) -> Arguments:
        """A fresh copy of the wiring, seeded for a run with ``seed``."""
        return self.wiring.duplicate().set_seed(seed)

    def example(self, seed: int, index: int) -> dict[str, Any]:
        """The input number ``index`` (0-based) that a run with ``seed`` draws (with its
        copied part, for an input that has one)."""
        wiring = self.seeded(seed)
        _advance(wiring, index)
        if not (self.copy_parts and copies_a_part(index) and self._may_copy()):
            return wiring.pick()
        values, tape = record_draws(wiring)
        copied = self._copied(seed, index, tape, lambda draws: replay_draws(self.seeded(seed), draws, reset=False, spans=False))
        return values if copied is None else copied[0]

    def _copied(self, seed: int, index: int, tape: Tape, replay: Callable[[list[Draw]], tuple[Any, Tape]]) -> tuple[Any, Tape] | None:
        """Input ``index`` with a copied part, made from its own ``tape`` by ``replay``: its
        value and the draws that make it; ``None`` when it has no two parts of the same
        kind, or when the wiring raises on the new draws."""
        draws = copy_span(tape, self._kinds(), copy_random(seed, index))
        if draws is None:
            return None
        try:
            return replay(draws)
        except Exception:  # the copy does not fit the wiring here: the input stays as drawn
            return None

    def _may_copy(self) -> bool:
        """Whether an input can have two parts of one kind: not when every argument is a
        picker without inputs whose pick opens no parts (one pick, one part) and no two
        arguments are of one kind."""
        arguments = [node for _, node in self.wiring.named_inputs()]
        if any(node.opens_parts or next(iter(node.named_inputs()), None) is not None for node in arguments):
            return True
        if len({id(node) for node in arguments}) < len(arguments):
            return True  # one picker for two arguments
        kinds = self._kinds()  # the root's, then one per argument
        return len(set(kinds[1:])) < len(kinds) - 1

    def _kinds(self) -> list[str]:
        kinds: list[str] | None = self.__dict__.get("_kind_list")
        if kinds is None:
            kinds = self.__dict__["_kind_list"] = kinds_of(self.wiring)
        return kinds

    def record(self, seed: int, index: int, *, history: bool = True) -> tuple[dict[str, Any], Tape]:
        """The input number ``index`` of a run with ``seed`` and its recorded draws (the
        arguments' draws; the test does not run).

        With ``history`` the tape holds every pick up to that input (the state that
        stateful pickers reach); without, only the input's own draws, made after
        ``index`` plain picks.
        """
        wiring = self.seeded(seed)
        if not history:
            _advance(wiring, index)
        return record_draws(wiring, index + 1 if history else 1)  # type: ignore[return-value]

    def replay(self, tape: Tape, seed: int = 0) -> dict[str, Any]:
        """The input that ``tape`` makes, on a fresh copy of the wiring (its last pick)."""
        return replay_draws(self.seeded(seed), tape, reset=False)[0]  # type: ignore[no-any-return]

    def attempt(self, draws: Iterable[Any], picks: int = 1, seed: int = 0) -> Attempt:
        """Replay ``draws`` (``picks`` picks) on a fresh copy of the wiring and test the last value
        (the test's own draws, if any, come after the arguments')."""
        session = _ShrinkSession(self, seed)
        try:
            return session.attempt(picks, list(draws), None)
        finally:
            session.close()

    def _recorded_run(self, seed: int, index: int, history: bool) -> Attempt:
        """Make input ``index`` again under a recorder and run the test on it, the test's
        draws recorded after the arguments'."""
        wiring = self.seeded(seed)
        if not history:
            _advance(wiring, index)
        recorder = Recorder()
        values: Any = None
        with routed(wiring, recorder):
            for k in range(index + 1 if history else 1):
                recorder.begin_pick()
                try:
                    values = wiring.pick()
                except UnsatisfiedAssumption:
                    if k == (index if history else 0):
                        raise
            with drawing(DrawContext(seed, index)) as context:
                status, exception = call_test(self.test, values)
        return Attempt(status, recorder.tape, values, exception, origin_of(exception) if status == FAIL else None, context.drawn)

    # -- the run --------------------------------------------------------------------------------
    def run(self, seed: int | None = None, *, tapes: Iterable[Tape] = ()) -> TestReport:
        """Test, shrink, and report. ``seed=None`` draws a fresh seed (always in the report).

        ``tapes`` are recorded inputs to try before any drawn one (the failures a
        previous run saved): each is replayed through the wiring, and the first that
        fails is shrunk; :attr:`TestReport.notes` says what became of the others.
        """
        seed = fresh_seed() if seed is None else check_seed(seed)
        report = TestReport(passed=True, seed=seed, reason="", harness=self, started_at=time.time())
        started = time.perf_counter()
        session = _ShrinkSession(self, seed)
        try:
            self._run(seed, report, session, list(tapes), started)
        finally:
            session.close()
        if self.observe and report.smallest is not None and not report.flaky:
            report.observations.append(self._observation(
                seed, report.first_index if report.first_index is not None else -1, report.smallest, FAIL, report.exception,
                report.started_at, {}, how_generated="shrunk: the smallest failing input",
            ))
        report.time_discovery = time.perf_counter() - started - report.time_shrinking
        if report.tried and not report.interrupted:
            # Timing replays inputs: done when a person will read it (a failure, slow inputs),
            # or when asked; a filter's rejections are counted on the same replay.
            slow = report.time_generating > SLOW_TOTAL
            timed = self.timing if self.timing is not None else (not report.passed or slow)
            if timed or _has_filter(self.wiring):
                times, calls, profiled = self._profile(seed, min(report.tried, PROFILED_INPUTS))
                report.picker_times = times if timed else {}
                report.health.extend(_health(profiled, calls, report))
            else:
                report.health.extend(_health(self.wiring, {}, report))
        for line in report.health:
            warnings.warn(f"{self.name}: {line}", HealthWarning, stacklevel=2)
        return report

    def _run(self, seed: int, report: TestReport, session: "_ShrinkSession", tapes: list[Tape], started: float) -> None:
        for tape in tapes:
            attempt = session.attempt(tape.picks, list(tape.draws), None, strict=True)
            if attempt.status == FAIL:
                report.notes.append(f"a saved failure fails again: {_describe(attempt.value)}")
                report.time_to_failure = time.perf_counter() - started
                report.tried += 1
                report.failures += 1
                report.first, report.first_index = self.replay(attempt.tape, seed), None  # type: ignore[arg-type]
                self._shrink(attempt, report, session)
                report.reason = "a saved failure failed again; it was shrunk"
                report.from_database = True
                return
            why = "no longer fits the wiring" if attempt.status in (INVALID, DISCARD) else "no longer fails"
            report.notes.append(f"a saved failure was dropped: it {why}")
        wiring = self.seeded(seed)
        rule = self.stop
        rule.begin()
        evidence = self.new_evidence()
        report.evidence, report.rule = evidence, rule
        with ExitStack() as stack:
            bar = run_progress(rule, f"{self.name}: inputs", self.progress)
            if bar is not None:
                stack.callback(bar.close)
            self._discover(seed, wiring, rule, evidence, report, session, started, stack, bar)
        report.notes.extend(picker_notes(wiring))
        report.guarantee = rule.guarantee() if report.passed and report.tried else None

    def _observation(
        self, seed: int, index: int, values: dict[str, Any], status: str, exception: BaseException | None,
        started: float, timing: dict[str, float], context: DrawContext | None = None, klass: Hashable = None,
        how_generated: str = "generated",
    ) -> dict[str, Any]:
        features: dict[str, Any] = {}
        if context is not None:
            features.update({label: True for label in context.events})
            features.update({f"cover:{label}": held for label, _, held in context.covers})
        if klass is not None:
            features["class"] = repr(klass)
        reason = "" if exception is None or status == PASS else f"{type(exception).__name__}: {exception}"
        if status == FAIL and exception is None:
            reason = "the test returned False"
        metadata: dict[str, Any] = {"seed": seed, "index": index, "reproduction": f"{self.name}.example(seed={seed}, index={index})"}
        if context is not None and context.drawn:
            metadata["drawn"] = context.drawn
        return observation(
            property=self.name, run_start=started, status={PASS: "passed", FAIL: "failed"}.get(status, "gave_up"),
            arguments=values, status_reason=reason, how_generated=how_generated, features=features, timing=timing,
            metadata=metadata,
        )

    def new_evidence(self) -> Evidence:
        """The evidence of a new run: classes recorded when asked, or when the rule needs them."""
        classes = self.stop.needs_classes if self.classes is None else self.classes
        return Evidence(classes, certainty=self.coverage_certainty, tolerance=self.coverage_tolerance)

    def _discover(
        self, seed: int, wiring: Arguments, rule: StoppingRule, evidence: Evidence, report: TestReport,
        session: "_ShrinkSession", started: float, stack: ExitStack, bar: RunProgress | None = None,
    ) -> None:
        route = stack.enter_context(routed(wiring, Recorder())) if evidence.recording_classes else None
        names = span_names(wiring)
        observing = self.observe
        clock = time.perf_counter
        pick = wiring.pick
        test = self.test
        discards: collections.Counter[str] = collections.Counter()
        copy_at = next_copy(0) if self.copy_parts and self._may_copy() else -1  # the next input with a copied part
        replicas: list[Arguments] = []
        index = 0
        starts = 0
        pending = ""  # the rule's reason to stop, held while coverage requirements are undecided
        checked = -1
        verdict = "undecided"  # of the coverage requirements, at the last checkpoint
        klass: Hashable = None
        while True:
            if evidence.requirements and report.tried != checked and evidence.is_checkpoint(report.tried):
                checked = report.tried
                verdict = evidence.check_coverage()
                if verdict == "not met":
                    report.passed = False
                    report.insufficient = [r.describe(evidence.n) for r in evidence.unmet()]
                    report.reason = f"a coverage requirement is confidently not met after {report.tried} inputs"
                    break
                if verdict == "met" and pending:
                    report.reason = f"{pending}; coverage requirements met after {report.tried} inputs"
                    break
            reason = pending or rule.reason_to_stop()
            if reason:
                if evidence.requirements and verdict != "met":
                    if report.tried >= evidence.limit:
                        report.reason = f"{reason}; coverage still undecided after {report.tried} inputs"
                        report.health.append(
                            "coverage requirements stayed undecided after "
                            f"{report.tried} inputs: {'; '.join(r.describe(evidence.n) for r in evidence.requirements.values())}"
                        )
                        break
                    pending = reason
                else:
                    report.reason = reason
                    break
            if bar is not None and not index & 255:
                bar.tick(report.tried)
            if report.discarded >= MAX_DISCARD_RATIO * (report.tried + 10):
                report.reason = f"{report.discarded} inputs were discarded by assume, against {report.tried} tested"
                break
            if route is not None:
                route.source = recorder = Recorder()
            t0 = clock()
            copied: Tape | None = None
            try:
                if index == copy_at:
                    copy_at = next_copy(index + 1)
                    values, copied = self._copy_part(seed, index, wiring, route, replicas)
                else:
                    values = pick()
            except NoMoreElements:
                report.reason = "the input pickers ran out of values"
                break
            except GiveUp as err:
                report.reason = f"an input picker gave up: {err}"
                break
            except UnsatisfiedAssumption as exc:  # an assume inside a function of the wiring
                report.discarded += 1
                discards[exc.where] += 1
                if observing:
                    report.observations.append(self._observation(seed, index, {}, DISCARD, exc, report.started_at, {}))
                index += 1
                continue
            except Exception:
                if report.smallest is None:
                    raise
                report.reason = f"the wiring raised while making input #{index}; the failure found before is kept"
                break
            if route is not None:
                klass = signature(recorder.tape, names=names)
            t1 = clock()
            context = DrawContext(seed, index)
            token = enter_drawing(context)
            try:
                status, exception = call_test(test, values)
            finally:
                leave_drawing(token)
            t2 = clock()
            report.time_generating += t1 - t0
            report.time_testing += t2 - t1
            index += 1
            if observing:
                timing = {"generate:arguments": t1 - t0, "execute:test": t2 - t1}
                report.observations.append(self._observation(seed, index - 1, values, status, exception, report.started_at, timing, context, klass))
            if status == DISCARD:
                report.discarded += 1
                discards[exception.where] += 1  # type: ignore[union-attr]
                continue
            labels = tuple(context.events)
            if labels and route is not None:
                klass = (klass, labels)
            evidence.observe(status == PASS, klass, labels, context.covers)
            rule.observe(Outcome(index - 1, values, status == PASS, klass, labels, evidence))
            report.tried += 1
            if status == PASS:
                continue
            report.failures += 1
            notify_failure(wiring)
            if report.time_to_failure is None:
                report.time_to_failure = time.perf_counter() - started
            if not self._found(seed, index - 1, exception, report, session, copied):
                return
            starts += 1
            if starts > self.restarts or report.interrupted:
                report.reason = "found a failure and shrank it until a full round of passes found nothing smaller"
                if report.shrink_reason and not report.shrink_reason.startswith("a full round"):
                    report.reason = f"found a failure and shrank it until {report.shrink_reason} ran out"
                if starts > 1:
                    report.reason += f" ({starts} failures shrunk, the smallest kept)"
                break
        if discards and report.tried:
            where, count = discards.most_common(1)[0]
            if report.discarded > report.tried:
                report.health.append(
                    f"{report.discarded} of {report.discarded + report.tried} inputs were discarded by assume "
                    f"({count} at {where}): the wiring rarely meets the precondition; make the values it "
                    "needs directly (a Bind, a narrower range) rather than filtering them"
                )
        if report.tried == 0 and report.smallest is None:
            report.passed = False
            if report.discarded:
                report.error = f"no input reached the test: all {report.discarded} were discarded by assume ({discards.most_common(1)[0][0]})"
            else:
                report.error = f"no input reached the test: {report.reason}"

    def _copy_part(
        self, seed: int, index: int, wiring: Arguments, route: Any, replicas: list[Arguments],
    ) -> tuple[dict[str, Any], Tape | None]:
        """Input ``index`` picked and recorded, then given a copied part replayed on a copy
        of the wiring (made once, in ``replicas``, reset before each replay): the values and
        the draws that make them (``None``: no copy, the values as picked)."""
        if route is not None:  # the classes' recorder is on already
            values = wiring.pick()
            tape = route.source.tape
        else:
            values, tape = record_draws(wiring)

        def replay(draws: list[Draw]) -> tuple[Any, Tape]:
            if not replicas:
                replicas.append(self.seeded(seed))
            return replay_draws(replicas[0], draws, spans=False)

        copied = self._copied(seed, index, tape, replay)
        return (values, None) if copied is None else copied

    def _found(
        self, seed: int, index: int, exception: BaseException | None, report: TestReport, session: "_ShrinkSession",
        copied: Tape | None = None,
    ) -> bool:
        """Record failure ``index`` (``copied``: the draws of its copied part), check it
        replays, shrink it. False when the run must end."""
        if report.first is None:
            report.first, report.first_index = self.example(seed, index), index
        if copied is not None:
            attempt = session.attempt(1, list(copied.draws), None)
            if attempt.status != FAIL:
                report.passed = False
                report.flaky = f"input #{index} (a copied part) failed ({_outcome(exception)}), then {_passed(attempt.status)} when replayed"
                report.exception = exception
                report.reason = "a failure that does not replay (flaky)"
                report.smallest, report.tape = self.replay(copied, seed), copied
                return False
            self._shrink(attempt, report, session)
            return True
        recorded = self._recorded_run(seed, index, history=False)
        if recorded.status != FAIL:
            return self._flaky(seed, index, exception, f"{_passed(recorded.status)} when the same draws were replayed", report)
        assert recorded.tape is not None
        # Most wirings hold no state between inputs: try the input's own draws on a fresh wiring.
        attempt = session.attempt(1, list(recorded.tape.draws), None)
        if attempt.status != FAIL or attempt.origin != recorded.origin:
            recorded = self._recorded_run(seed, index, history=True)
            assert recorded.tape is not None
            attempt = session.attempt(recorded.tape.picks, list(recorded.tape.draws), None)
            if attempt.status != FAIL:
                return self._flaky(seed, index, exception, f"{_passed(attempt.status)} when replayed with its history", report)
        self._shrink(attempt, report, session)
        return True

    def _flaky(self, seed: int, index: int, exception: BaseException | None, then: str, report: TestReport) -> bool:
        """Report input ``index`` as a failure that did not replay, keeping it and its draws."""
        report.passed = False
        report.flaky = f"input #{index} failed ({_outcome(exception)}), then {then}"
        report.exception = exception
        report.reason = "a failure that does not replay (flaky)"
        report.smallest, report.tape = self.record(seed, index, history=True)
        return False

    def _shrink(self, initial: Attempt, report: TestReport, session: "_ShrinkSession") -> None:
        t0 = time.perf_counter()
        shrinker = Shrinker(
            session.attempt, initial, max_calls=self.shrink_budget, deadline=t0 + self.shrink_time, kinds=self._kinds()
        )
        try:
            best = shrinker.shrink()
        except KeyboardInterrupt:
            best = shrinker.best
            report.interrupted = True
            shrinker.stopped_by = "an interruption (KeyboardInterrupt)"
        report.time_shrinking += time.perf_counter() - t0
        session.close()  # its route must not be the current one while discovery goes on (restarts)
        report.shrink_steps += shrinker.improvements
        report.shrink_tries += shrinker.calls
        assert best.tape is not None
        if report.tape is None or (best.origin == report.origin and best.tape.key() < report.tape.key()) or report.origin is None:
            report.passed = False
            report.tape = best.tape
            report.origin = best.origin
            report.shrink_reason = shrinker.stopped_by
            # The report shows the input as generated, replayed on a fresh copy of the wiring
            # (the test may have changed the value it was given); the test runs once more on
            # another fresh replay to confirm the failure.
            report.smallest = self.replay(best.tape, report.seed)
            confirmed = self.attempt(best.tape.draws, best.tape.picks, report.seed)
            report.drawn = confirmed.drawn
            if confirmed.status != FAIL:
                report.flaky = f"the smallest failure {_passed(confirmed.status)} when it was replayed once more"
                report.exception = best.exception
            else:
                report.exception = confirmed.exception if confirmed.exception is not None else best.exception

    # -- profiling ------------------------------------------------------------------------------
    def profile(self, seed: int, n: int) -> dict[str, float]:
        """Seconds per input spent in each picker (its own time, not its inputs'), over
        the first ``n`` inputs of a run with ``seed``, replayed with timers on."""
        return self._profile(seed, n)[0]

    def _profile(self, seed: int, n: int) -> tuple[dict[str, float], dict[int, int], Arguments]:
        """The times per picker, the number of picks of each (by id) and the wiring profiled."""
        wiring = self.seeded(seed)
        totals: dict[int, float] = {}
        calls: collections.Counter[int] = collections.Counter()
        names = {id(node): f"{key}: {type(node).__name__}" for key, node in upstream(wiring) if key}
        stack: list[float] = []

        def timed(picker: Picker[Any], pick: Callable[[], Any]) -> Callable[[], Any]:
            def wrapper() -> Any:
                calls[id(picker)] += 1
                stack.append(0.0)
                start = time.perf_counter()
                try:
                    return pick()
                finally:
                    elapsed = time.perf_counter() - start
                    inner = stack.pop()
                    totals[id(picker)] = totals.get(id(picker), 0.0) + elapsed - inner
                    if stack:
                        stack[-1] += elapsed

            return wrapper

        done = 0
        with intercept(wiring, timed):
            try:
                for _ in range(n):
                    wiring.pick()
                    done += 1
            except Exception:
                pass
        done = max(done, 1)
        return {names[k]: v / done for k, v in totals.items() if k in names}, dict(calls), wiring


class _ShrinkSession(ReplaySession):
    """The harness's wiring, replayed candidate after candidate, the test run on each."""

    _wiring: Picker[Any] | None = None

    def __init__(self, harness: Assert, seed: int) -> None:
        super().__init__(None)  # type: ignore[arg-type] # the copy is made when a replay needs it
        self.harness = harness
        self.seed = seed

    @property  # type: ignore[override]
    def wiring(self) -> Picker[Any]:
        # Most runs pass and never replay: they pay nothing for the session's copy.
        if self._wiring is None:
            self._wiring = self.harness.seeded(self.seed)
        return self._wiring

    @wiring.setter
    def wiring(self, wiring: Picker[Any] | None) -> None:
        self._wiring = wiring  # type: ignore[assignment]

    def attempt(self, picks: int, entries: list[Any], max_draws: int | None, strict: bool = False) -> Attempt:
        """Replay ``entries`` for ``picks`` picks and run the test on the last value.

        With ``strict``, a sequence that does not fit the wiring exactly (other kinds,
        values out of range, draws missing or left over) is invalid.
        """
        replayer = self.begin(entries, max_draws)
        values: Any = None
        try:
            for k in range(picks):
                replayer.begin_pick()
                try:
                    values = self.wiring.pick()
                except UnsatisfiedAssumption:
                    if k == picks - 1:
                        raise
        except Exception:
            return Attempt(INVALID, replayer.tape)
        if replayer.overran:
            return Attempt(INVALID, replayer.tape)
        with drawing(DrawContext(self.seed, 0)) as context:
            status, exception = call_test(self.harness.test, values)
        if replayer.overran or (strict and not replayer.fits):
            return Attempt(INVALID, replayer.tape)
        if status == DISCARD:
            status = INVALID  # a discarded candidate is not a candidate
        return Attempt(
            status, replayer.tape, values, exception, origin_of(exception) if status == FAIL else None, context.drawn
        )


#: Inputs replayed with timers on after a run (per-picker time and the health checks).
PROFILED_INPUTS = 50
#: A filter that keeps fewer than this share of its input's values is reported.
FILTER_KEEPS_AT_LEAST = 0.1
#: Generation slower than this per input (seconds), over more than ``SLOW_TOTAL`` in all, is reported.
SLOW_GENERATION = 0.01
SLOW_TOTAL = 1.0


def _has_filter(wiring: Picker[Any]) -> bool:
    return any(isinstance(node, PickIf) for _, node in upstream(wiring))


def _health(wiring: Picker[Any], calls: dict[int, int], report: TestReport) -> list[str]:
    """What went badly in the run: filters that throw most values away, slow generation."""
    found = []
    for _, node in upstream(wiring):
        if not isinstance(node, PickIf):
            continue
        kept, made = calls.get(id(node), 0), calls.get(id(node.picker), 0)
        if kept >= 10 and made and kept / made < FILTER_KEEPS_AT_LEAST:
            found.append(
                f"{node!r} kept {kept} of the {made} values its input made ({kept / made:.1%}): most draws are "
                "thrown away; make the values directly (a narrower range, a Bind) or let sy.guided learn them"
            )
    if report.tried >= 10 and report.time_generating > SLOW_TOTAL and report.time_generating / report.tried > SLOW_GENERATION:
        per_input = report.time_generating / report.tried
        slowest = max(report.picker_times.items(), key=lambda kv: kv[1], default=None)
        where = f" (slowest: {slowest[0]}, {slowest[1] * 1e3:.1f} ms per input)" if slowest else ""
        found.append(
            f"generating inputs is slow: {per_input * 1e3:.1f} ms per input, {report.time_generating:.1f} s in all, "
            f"against {report.time_testing:.1f} s in the test{where}"
        )
    return found


def _advance(wiring: Picker[Any], picks: int) -> None:
    """Pick ``picks`` times (the inputs before the one wanted), discarded ones included."""
    for _ in range(picks):
        try:
            wiring.pick()
        except UnsatisfiedAssumption:
            pass


def _passed(status: str) -> str:
    return "was discarded" if status == DISCARD else ("passed" if status == PASS else "could not be replayed")


def _outcome(exception: BaseException | None) -> str:
    return "returned False" if exception is None else f"raised {type(exception).__name__}: {exception}"


def _describe(values: Any) -> str:
    text = repr(values)
    return text if len(text) <= 120 else text[:117] + "..."
