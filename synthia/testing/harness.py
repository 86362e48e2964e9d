"""The ``Assert`` harness: draw inputs from one wiring, find a failure, shrink its draws, report."""
from __future__ import annotations

import collections
import dataclasses
import inspect
import time
import warnings
from contextlib import ExitStack
from typing import Any, Callable, Hashable, Iterable

from ..core.draws import Recorder, Tape, routed
from ..core.draws import record as record_draws
from ..core.draws import replay as replay_draws
from ..core.graph import kinds_of, notify_failure, picker_notes, upstream
from ..core.instrument import intercept
from ..core.picker import Picker
from ..core.random import check_seed, fresh_seed
from ..pickers.filters import PickIf
from ..engine.copying import copy_random, copy_span
from ..engine.coverage import signature, span_names
from ..engine.observe import observation
from ..engine.report import HealthWarning, InvalidTest, RunInterrupted, TestReport
from ..engine.runner import DISCARD, FrontEnd, Runner, RunOptions, Trial
from ..engine.session import ReplaySession
from ..engine.shrinker import FAIL, INVALID, PASS, Attempt
from ..engine.stopping import StoppingRule
from .arguments import Arguments
from .context import DrawContext, UnsatisfiedAssumption, drawing, enter_drawing, leave_drawing

__all__ = ["Assert", "origin_of", "call_test", "is_false", "check_parameters", "DISCARD"]

#: What identifies a test that returned ``False`` (its failure has no exception).
RETURNED_FALSE = ("returned False",)


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

    Returning ``False`` (a numpy boolean ``False`` included) or raising anything --
    ``SystemExit`` and other ``BaseException`` included -- is a failure; an
    :func:`~synthia.assume` that does not hold is a discard; ``KeyboardInterrupt``,
    :class:`~synthia.testing.InvalidTest`, :class:`~synthia.engine.report.RunInterrupted`
    and pytest's skip go through. An error of the test itself, whatever its input, raises
    :class:`~synthia.testing.InvalidTest`: a ``TypeError`` from calling it (its parameters do
    not take the inputs), a ``NameError`` in its own body (a name it uses is not defined).
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
        _check_usage(test, values, exc)
        return FAIL, exc
    return (FAIL, None) if is_false(result) else (PASS, None)


def _not_a_picker(key: str, value: Any) -> str:
    text = f"input {key} must be a picker, got {value!r} ({type(value).__name__})"
    if key in {f.name for f in dataclasses.fields(RunOptions)} | {"max_examples"}:
        text += (
            f"; every keyword of Assert is an input of the test: give the option {key} in a RunOptions, "
            f"the second argument: Assert(test, sy.RunOptions({key}={value!r}), ...)"
        )
    return text


def is_false(result: Any) -> bool:
    """Whether a test's result says it failed: ``False``, or a numpy boolean that is false
    (``np.int64(x) < 5``, ``(a == b).all()``).

    >>> import numpy as np
    >>> is_false(False), is_false(np.False_), is_false(np.True_), is_false(0), is_false(None)
    (True, True, False, False, False)
    """
    if result is False:
        return True
    kind = type(result)
    return kind.__module__ == "numpy" and kind.__name__ in ("bool", "bool_") and not result


def _check_usage(test: Callable[..., Any], values: dict[str, Any], exc: BaseException) -> None:
    """Raise :class:`InvalidTest` when ``exc`` is an error of the test, not of its input."""
    __tracebackhide__ = True
    name = getattr(test, "__qualname__", repr(test))
    tb = exc.__traceback__
    if isinstance(exc, TypeError) and tb is not None and tb.tb_next is None:
        raise InvalidTest(
            f"{name} cannot be called with the inputs {', '.join(values) or '(none)'}: {exc} -- an error of the test, "
            "not a bug found by an input"
        ) from exc
    code = getattr(test, "__code__", None)
    if isinstance(exc, NameError) and code is not None and raised_in(exc, code):
        raise InvalidTest(f"{name} raised NameError in its own body ({exc}): an error of the test, not a bug found by an input") from exc


def raised_in(error: BaseException, code: Any) -> bool:
    """Whether ``error`` was raised by the code object ``code`` itself (its last frame)."""
    tb = error.__traceback__
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    return tb is not None and tb.tb_frame.f_code is code


def check_parameters(test: Callable[..., Any], names: Iterable[str], what: str = "input") -> None:
    """Raise :class:`InvalidTest` when ``test`` cannot take one keyword argument per name in
    ``names`` (a name it has no parameter for, or a parameter without default it is not
    given); a callable without a signature (a builtin) is not checked."""
    try:
        signature = inspect.signature(test)
    except (TypeError, ValueError):
        return
    parameters = signature.parameters
    names = list(names)
    keyword = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
    takes_any = any(p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters.values())
    unknown = [n for n in names if not takes_any and (n not in parameters or parameters[n].kind not in keyword)]
    missing = [n for n, p in parameters.items() if p.kind in keyword and p.default is p.empty and n not in names]
    if unknown or missing:
        name = getattr(test, "__qualname__", repr(test))
        told = [f"no parameter for the {what}{'s' if len(unknown) > 1 else ''} {', '.join(unknown)}"] if unknown else []
        told += [f"no {what} for the parameter{'s' if len(missing) > 1 else ''} {', '.join(missing)}"] if missing else []
        raise InvalidTest(f"{name}{signature} does not match its {what}s {', '.join(names)}: {'; '.join(told)}")


class Assert(FrontEnd):
    """Check that ``test`` holds for inputs drawn from pickers; shrink any failure.

    ``Assert(test, options=None, /, **inputs)``: ``test`` receives one keyword argument per
    picker given (``x=...``, ``y=...``); **every keyword is an input**, so any identifier --
    ``name``, ``stop``, ``restarts`` -- is a valid input name. The run's options are the
    second, positional argument: a :class:`~synthia.RunOptions` (``restarts``,
    ``shrink_budget``, ``copy_parts``, ``observe``...; see its docstring and the options
    table of docs/testing.md) or a stopping rule alone (``FixedCount(1000)``).

    The test fails when it returns ``False`` (a numpy ``False`` too) or raises
    (``SystemExit`` included; the exception is kept with its traceback); any other return
    value is a pass; an input for which :func:`~synthia.assume` does not hold is discarded
    (counted apart, never a pass). An error of the test itself -- parameters that do not
    match the inputs, a ``NameError`` in its own body -- is an
    :class:`~synthia.testing.InvalidTest`, never a failure. The test may
    :func:`~synthia.draw` more values while it runs. All the pickers form **one wiring**,
    copied once per run, so a picker shared by two arguments stays shared (and the user's
    pickers are never moved).

    :meth:`run` is the runner's (:mod:`synthia.engine.runner`): inputs are drawn until the
    stopping rule says enough or an input fails; the failure is recorded -- the sequence of
    typed draws that made it, the test's own draws included -- and **shrunk over its
    draws** by the generic :class:`~synthia.engine.Shrinker`: every candidate is replayed
    through the same wiring, so the reported smallest input is a real output of the wiring,
    and it keeps to the same failure (same exception type at the same place). Shrinking ends
    when a round of passes finds nothing smaller or after ``shrink_budget`` test calls (an
    explicit ``shrink_time`` may end it sooner, and the report then says so). Everything
    derives from the seed: the same ``Assert`` run twice with the same seed, in any process
    and under any load, gives the same report.

    After the 8th, 24th and 40th inputs, then one in 256 up to the 4,096th, then one in
    4,096, the run tries a copy of the input with **a copied part** (``copy_parts``, on by
    default): the draws of one pick replace those of another pick of the same kind -- of the
    same picker (two elements of a list) or of a picker with the same ``repr`` (two
    arguments) -- and the result is replayed through the wiring
    (:mod:`synthia.engine.copying`): the equal parts -- ``x == y``, two equal fields, a
    repeated element -- that independent draws almost never make, and that bugs need.

    Every tested input feeds the run's :class:`~synthia.engine.evidence.Evidence`
    (``report.evidence``): the labels the test gave with :func:`~synthia.event`, the
    coverage requirements of :func:`~synthia.cover`, and, when ``classes`` is true -- by
    default when the stopping rule needs them, as :class:`~synthia.Bayesian` does -- the
    class of each input, read from its recorded draws. With ``observe`` the report keeps one
    observation per tested input in Hypothesis's observability format. The time each picker
    takes (``report.picker_times``) is measured on a replay of the first 50 inputs after
    the run, when ``timing`` is true -- by default when the run failed or generating was
    slow, so that a passing run pays nothing for it.

    >>> from synthia import RandomInteger
    >>> report = Assert(lambda x: x < 500, x=RandomInteger(0, 1000)).run(seed=1)
    >>> report.passed, report.smallest
    (False, {'x': 500})
    """

    def __init__(self, test: Callable[..., Any], options: RunOptions | StoppingRule | None = None, /, **inputs: Picker[Any]) -> None:
        if not callable(test):
            raise TypeError(f"test must be callable, got {test!r}")
        if not inputs:
            raise ValueError("Assert needs at least one input picker, given as a keyword argument (x=RandomInteger(0, 10))")
        for key, picker in inputs.items():
            if not isinstance(picker, Picker):
                raise TypeError(_not_a_picker(key, picker))
        check_parameters(test, inputs)
        self.test = test
        self.inputs = dict(inputs)
        #: The run's options, as given (``None`` fields take their defaults when it runs).
        self.options = RunOptions.of(options)
        self.name: str = self.options.name or str(getattr(test, "__name__", "test"))
        #: The one wiring of all arguments. It holds the user's pickers; every run, replay and
        #: example works on a copy of it (:meth:`seeded`), so the user's pickers never move.
        self.wiring: Arguments = Arguments(self.inputs)
        self._kind_list: list[str] | None = None

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in self.inputs.items())
        options = "" if self.options == RunOptions(name=self.options.name) else f"{self.options!r}, "
        return f"Assert({self.name}, {options}{args})"

    # -- single checks, examples and replays --------------------------------------------------
    def check(self, values: dict[str, Any]) -> tuple[bool, BaseException | None]:
        """Run the test once on ``values``: ``(passed, exception or None)``."""
        status, exception = call_test(self.test, values)
        return status != FAIL, exception

    def seeded(self, seed: int) -> Arguments:
        """A fresh copy of the wiring, seeded for a run with ``seed``."""
        return self.wiring.duplicate().set_seed(seed)

    def example(self, seed: int, index: int, *, copied: bool = False) -> dict[str, Any]:
        """The input number ``index`` (0-based) that a run with ``seed`` draws; with
        ``copied``, the copy of it with a part copied over another that the run tried after it
        (the input itself when it has no two parts of one kind)."""
        wiring = self.seeded(seed)
        _advance(wiring, index)
        if not copied:
            return wiring.pick()  # type: ignore[no-any-return]
        values, tape = record_draws(wiring)
        draws = copy_span(tape, self.kinds(), copy_random(seed, index))
        return values if draws is None else replay_draws(self.seeded(seed), draws, reset=False, spans=False)[0]

    def may_copy(self) -> bool:
        """Whether an input can have two parts of one kind: not when every argument is a
        picker without inputs whose pick opens no parts (one pick, one part) and no two
        arguments are of one kind."""
        arguments = [node for _, node in self.wiring.named_inputs()]
        if any(node.opens_parts or next(iter(node.named_inputs()), None) is not None for node in arguments):
            return True
        if len({id(node) for node in arguments}) < len(arguments):
            return True  # one picker for two arguments
        kinds = self.kinds()  # the root's, then one per argument
        return len(set(kinds[1:])) < len(kinds) - 1

    def kinds(self) -> list[str]:
        """The kind of each span label of the wiring (:func:`~synthia.core.graph.kinds_of`)."""
        if self._kind_list is None:
            self._kind_list = kinds_of(self.wiring)
        return self._kind_list

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
        session = self.session(seed)
        try:
            return session.attempt(picks, list(draws), None)
        finally:
            session.close()

    def session(self, seed: int) -> "_ShrinkSession":
        """A replay session on a fresh copy of the wiring (made when a replay needs it)."""
        return _ShrinkSession(self, seed)

    # -- the run --------------------------------------------------------------------------------
    unit = "inputs"

    def run(self, seed: int | None = None, *, tapes: Iterable[Tape] = ()) -> TestReport:
        """Test, shrink, and report. ``seed=None`` draws a fresh seed (always in the report).

        ``tapes`` are recorded inputs to try before any drawn one (the failures a
        previous run saved): each is replayed through the wiring, and the first that
        fails is shrunk; :attr:`TestReport.notes` says what became of the others.
        """
        seed = fresh_seed() if seed is None else check_seed(seed)
        report = TestReport(passed=True, seed=seed, reason="", harness=self)
        return Runner(self, seed, report).run(tapes)

    def discovery(self, seed: int, recording: bool, report: TestReport) -> "_Discovery":
        return _Discovery(self, seed, recording, report)

    def shown(self, attempt: Attempt, seed: int) -> Any:
        # The input as generated, replayed on a fresh copy of the wiring: the test may have
        # changed the value it was given.
        assert attempt.tape is not None
        return self.replay(attempt.tape, seed)

    def conclude(self, report: TestReport, best: Attempt, confirmed: Attempt) -> None:
        report.drawn = confirmed.drawn

    def outcome(self, value: Any) -> None:
        """An input's failure is compared by its origin alone (its values replay by construction)."""
        return None

    def finish(self, report: TestReport, seed: int) -> None:
        options = self.options.resolved()
        if options.observe and report.smallest is not None and not report.flaky:
            report.observations.append(self.observation(
                seed, report.first_index if report.first_index is not None else -1,
                Trial(FAIL, report.smallest, report.exception, drawn=report.drawn), report.started_at, {},
                how_generated="shrunk: the smallest failing input",
            ))
        if report.tried and not report.interrupted:
            # Timing replays inputs: done when a person will read it (a failure, slow inputs),
            # or when asked; a filter's rejections are counted on the same replay.
            slow = report.time_generating > SLOW_TOTAL
            timed = options.timing if options.timing is not None else (not report.passed or slow)
            if timed or _has_filter(self.wiring):
                times, calls, profiled = self._profile(seed, min(report.tried, PROFILED_INPUTS))
                report.picker_times = times if timed else {}
                report.health.extend(_health(profiled, calls, report))
            else:
                report.health.extend(_health(self.wiring, {}, report))
        for line in report.health:
            warnings.warn(f"{self.name}: {line}", HealthWarning, stacklevel=4)

    def observation(
        self, seed: int, index: int, trial: Trial, started: float, timing: dict[str, float], how_generated: str = "generated",
    ) -> dict[str, Any]:
        """One observation in Hypothesis's observability format (``observe=True``)."""
        features: dict[str, Any] = {label: True for label in trial.labels}
        features.update({f"cover:{label}": held for label, _, held in trial.covers})
        if trial.klass is not None:
            features["class"] = repr(trial.klass)
        status, exception = trial.status, trial.exception
        reason = "" if exception is None or status == PASS else f"{type(exception).__name__}: {exception}"
        if status == FAIL and exception is None:
            reason = "the test returned False"
        metadata: dict[str, Any] = {"seed": seed, "index": index, "reproduction": f"{self.name}.example(seed={seed}, index={index})"}
        if trial.drawn:
            metadata["drawn"] = trial.drawn
        return observation(
            property=self.name, run_start=started, status={PASS: "passed", FAIL: "failed"}.get(status, "gave_up"),
            arguments=trial.value if isinstance(trial.value, dict) else {}, status_reason=reason,
            how_generated=how_generated, features=features, timing=timing, metadata=metadata,
        )

    def explain_report(self, report: TestReport, redraws: int = 5) -> Any:
        """See :meth:`TestReport.explain`: the smallest failure's explanation graph."""
        from ..explain.failures import explain_failure

        return explain_failure(report, redraws)

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
        values out of range, draws missing or left over) is invalid, and so is one of no pick.
        """
        replayer = self.begin(entries, max_draws)
        if picks < 1:
            return Attempt(INVALID, replayer.tape)
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


class _Discovery:
    """The inputs of one ``Assert`` run: one seeded copy of the wiring, picked input after
    input, each tested in its own :class:`DrawContext`.

    A failing input is recorded as it is found: every ``CHECKPOINT`` inputs the discovery
    keeps a copy of the wiring with its state, and :meth:`recorded` makes the input again
    from the last one (at most ``CHECKPOINT - 1`` plain picks), not from the start of the run.
    """

    CHECKPOINT = 1024
    #: An input's failure is checked by replaying it; its values replay by construction.
    remakes = False

    def __init__(self, harness: Assert, seed: int, recording: bool, report: TestReport) -> None:
        self.harness = harness
        self.seed = seed
        self.report = report
        self.wiring = harness.seeded(seed)
        self._stack = ExitStack()
        #: With classes, every input is recorded (its class is read from its draws).
        self.route = self._stack.enter_context(routed(self.wiring, Recorder())) if recording else None
        self.names = span_names(self.wiring) if recording else None
        self.checkpoint: tuple[int, Arguments | None] = (0, None)
        self.time_generating = self.time_testing = 0.0

    def trial(self, index: int, record: bool) -> Trial:
        clock = time.perf_counter
        if self.route is None and not index % self.CHECKPOINT and index:
            self.checkpoint = (index, _snapshot(self.wiring))
        t0 = clock()
        tape: Tape | None = None
        try:
            if self.route is not None:
                recorder = self.route.source = Recorder()
                values = self.wiring.pick()
                tape = recorder.tape
            elif record:
                values, tape = record_draws(self.wiring)
            else:
                values = self.wiring.pick()
        except UnsatisfiedAssumption as exc:  # an assume inside a function of the wiring
            return Trial(DISCARD, None, exc, where=exc.where)
        t1 = clock()
        context = DrawContext(self.seed, index)
        token = enter_drawing(context)
        try:
            status, exception = call_test(self.harness.test, values)
        finally:
            leave_drawing(token)
        self.time_generating += t1 - t0
        self.time_testing += clock() - t1
        if status == DISCARD:
            return Trial(DISCARD, values, exception, where=exception.where)  # type: ignore[union-attr]
        labels = tuple(context.events)
        klass: Hashable = None
        if self.route is not None:
            klass = signature(tape, names=self.names)  # type: ignore[arg-type]
            if labels:
                klass = (klass, labels)
        origin = origin_of(exception) if status == FAIL else None
        return Trial(status, values, exception, origin, tape, klass, labels, context.covers, drawn=context.drawn)

    def recorded(self, index: int, history: bool) -> Attempt:
        harness = self.harness
        if history:
            wiring = harness.seeded(self.seed)
            picks = index + 1
        else:
            start, snapshot = self.checkpoint
            copied = _snapshot(snapshot) if start <= index else None
            if copied is None:
                copied, start = harness.seeded(self.seed), 0
            wiring = copied
            _advance(wiring, index - start)
            picks = 1
        recorder = Recorder()
        values: Any = None
        with routed(wiring, recorder):
            for k in range(picks):
                recorder.begin_pick()
                try:
                    values = wiring.pick()
                except UnsatisfiedAssumption:
                    if k == picks - 1:
                        raise
            with drawing(DrawContext(self.seed, index)) as context:
                status, exception = call_test(harness.test, values)
        return Attempt(status, recorder.tape, values, exception, origin_of(exception) if status == FAIL else None, context.drawn)

    def failed(self) -> None:
        notify_failure(self.wiring)

    def close(self) -> None:
        self._stack.close()
        self.report.time_generating += self.time_generating
        self.report.time_testing += self.time_testing
        self.report.notes.extend(picker_notes(self.wiring))


def _snapshot(wiring: Arguments | None) -> Arguments | None:
    """A copy of ``wiring`` with its state (``None`` for a wiring that cannot be copied: its
    inputs are then made again from the start of the run)."""
    if wiring is None:
        return None
    try:
        return wiring.duplicate(with_state=True)
    except Exception:
        return None


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
