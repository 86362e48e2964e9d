"""The ``Assert`` harness: draw inputs from one wiring, find a failure, shrink its draws, report."""
from __future__ import annotations

import re

import collections
import copy
import dataclasses
import time
import warnings
from typing import Any, Callable, Iterable

from ..core.exceptions import GiveUp, InputTooLarge
from ..core.draws import Tape, current_route, leave_routes, restore_current_route
from ..core.draws import record as record_draws
from ..core.draws import replay as replay_draws
from ..core.graph import kinds_of, upstream
from ..core.instrument import intercept
from ..core.picker import Picker
from ..core.random import check_seed, fresh_seed
from ..pickers.filters import PickIf
from ..engine.copying import probe_draws
from ..engine.play import DISCOVER, SHOW, Description, Play
from ..engine.proposals import DISCARD, FAIL, PASS, Attempt
from ..engine.replays import replay_once
from ..engine.report import HealthWarning, TestReport
from ..engine.runner import RunOptions, run_harness
from ..engine.stopping import FixedCount, StoppingRule
from .arguments import Arguments
from .context import DrawContext, UnsatisfiedAssumption, reset_context, set_context
from .verdict import call_test, check_parameters, is_false, origin_of, raised, raised_in, returned

__all__ = ["Assert", "origin_of", "call_test", "is_false", "check_parameters", "raised_in", "DISCARD"]


def _not_a_picker(key: str, value: Any) -> str:
    text = f"input {key} must be a picker, got {value!r} ({type(value).__name__})"
    if key in {f.name for f in dataclasses.fields(RunOptions)} | {"max_examples"}:
        text += (
            f"; every keyword of Assert is an input of the test: give the option {key} in a RunOptions, "
            f"the second argument: Assert(test, sy.RunOptions({key}={value!r}), ...)"
        )
    return text


class Assert:
    """Check that ``test`` holds for inputs drawn from pickers; shrink any failure.

    ``Assert(test, options=None, /, **inputs)``: ``test`` receives one keyword argument per
    picker given (``x=...``, ``y=...``); **every keyword is an input**, so any identifier --
    ``name``, ``stop``, ``restarts`` -- is a valid input name. The run's options are the
    second, positional argument: a :class:`~synthia.RunOptions` (``restarts``,
    ``shrink_budget``, ``copy_parts``, ``observe``...; see its docstring and the options
    table of docs/testing.md) or a stopping rule alone (``FixedCount(1000)``).

    The verdict rule (:mod:`synthia.testing.verdict`): the test passes when it returns
    ``None`` or ``True`` (a numpy ``True`` too), fails when it returns ``False`` (a numpy
    ``False`` too) or raises (``SystemExit`` included; the exception is kept with its
    traceback); an ``async def`` test is run to completion on an event loop of its own; an
    input for which :func:`~synthia.assume` does not hold is discarded (counted apart, never
    a pass). An error of the test itself -- parameters that do not match the inputs, a
    ``NameError`` in its own body, a return value that is no verdict (an array, a Series, a
    generator, a number) -- is an :class:`~synthia.testing.InvalidTest`, never a failure. The test may
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
    repeated element -- that independent draws almost never make, and that bugs need. When
    the copy passes, a second probe moves the input's integer draws to the edges of their
    ranges (the simplest value, the lowest, the highest): where off-by-one bugs live.

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

    @property
    def stop(self) -> StoppingRule:
        """The stopping rule of a run (``options.stop``, ``FixedCount(100)`` when not given)."""
        return self.options.stop if self.options.stop is not None else FixedCount(100)

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

    def example(self, seed: int, index: int, *, copied: bool = False, edges: bool = False) -> dict[str, Any]:
        """The input number ``index`` (0-based) that a run with ``seed`` draws; with
        ``copied``, the copy of it with a part copied over another that the run tried after it;
        with ``edges``, the one with its integer draws moved to edges of their ranges (the
        input itself when the probe does not change it; see
        :func:`~synthia.engine.copying.probe_draws`)."""
        wiring = self.seeded(seed)
        _advance(wiring, index)
        if not copied and not edges:
            return wiring.pick()  # type: ignore[no-any-return]
        values, tape = record_draws(wiring)
        draws = probe_draws(tape, self.kinds(), seed, index)[1 if edges else 0]
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
        return replay_once(_Player(self).play, self.description(), seed, Tape(list(draws), (), picks, []))

    def description(self) -> Description:
        """What the runner knows of this harness (see :mod:`synthia.engine.play`)."""
        return Description(self.name, "inputs", self.wiring, in_sequence=True, may_copy=self.may_copy())

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
        player = _Player(self)
        run_harness(player.play, self.description(), self.options, seed, report, tapes)
        report.time_generating += player.time_generating
        report.time_testing += player.time_testing
        self._finish(report, seed)
        return report

    def _finish(self, report: TestReport, seed: int) -> None:
        """Timings and health checks of a finished run, as warnings."""
        options = self.options.resolved()
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
            warnings.warn(f"{self.name}: {line}", HealthWarning, stacklevel=3)

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


class _Player:
    """Plays the inputs of one ``Assert`` run: :attr:`play` is the runner's one callback.

    ``play`` is a closure over the run's state (the test, one draw context renewed per input,
    the timers): it runs once per input, and locals cost less than attributes there.
    """

    def __init__(self, harness: Assert) -> None:
        #: Seconds spent making inputs and in the test, over discovery: ``[generating, testing]``.
        self.times = [0.0, 0.0]
        self.play = _play_function(harness.test, self.times)

    @property
    def time_generating(self) -> float:
        return self.times[0]

    @property
    def time_testing(self) -> float:
        return self.times[1]


def _play_function(test: Callable[..., Any], times: list[float]) -> Callable[[Play], Attempt]:
    """The callback of a run of ``test``: make the input (the last of ``play.picks`` picks:
    the ones before it set the state of stateful pickers), test it in its own
    :class:`DrawContext`, give the verdict. Discovery's inputs count in ``times``."""
    context = DrawContext(0, 0)
    clock = time.perf_counter
    passed = Attempt(PASS)  # the plain path's passes: one attempt, renewed (see Play.plain)

    def play(play: Play) -> Attempt:
        t0 = clock()
        try:
            values = play.wiring.pick() if play.picks == 1 and play.source is None else _made(play)
        except UnsatisfiedAssumption as exc:  # an assume inside a function of the wiring
            return Attempt(DISCARD, where=exc.where)
        except InputTooLarge as exc:  # a recursion that grew past one value's budget: Hypothesis's overrun
            return Attempt(DISCARD, where=_too_large(exc))
        except GiveUp as exc:  # a filter or a set that found no value for this input: the next may
            return Attempt(DISCARD, where=f"an input picker gave up: {_first_clause(exc)}")
        phase = play.phase
        shown = _kept(values) if phase is SHOW else values
        t1 = clock()
        context.seed, context.index = play.seed, play.index
        if context.drawn or context.events or context.covers or context.notes or context.targets is not None:
            context.renew(play.seed, play.index)
        token = set_context(context)
        recorded = play.source is not None
        if recorded:  # the input's route is the test's only through sy.draw: the body runs with
            context.route, outside = current_route(), leave_routes()  # none, so its pickers are its own
        try:
            result = test(**values)
        except BaseException as exc:  # noqa: B036 - the verdict rule says what it means
            status, exception = raised(test, values, exc)
        else:
            status, exception = (PASS, None) if result is None or result is True else returned(test, values, result)
        finally:
            if recorded:
                restore_current_route(outside)
                context.route = None
            reset_context(token)
        if phase is DISCOVER:
            times[0] += t1 - t0
            times[1] += clock() - t1
        if status is PASS:
            if play.plain and not context.notes and context.targets is None:
                passed.value, passed.drawn, passed.covers = shown, context.drawn, context.covers
                passed.labels = tuple(context.events) if context.events else ()
                return passed
            attempt = Attempt(PASS, None, shown, None, None, context.drawn, tuple(context.events) if context.events else (), context.covers)
        elif status == DISCARD:
            return Attempt(DISCARD, None, shown, exception, where=exception.where)  # type: ignore[union-attr]
        else:
            attempt = Attempt(FAIL, None, shown, exception, origin_of(exception), context.drawn, tuple(context.events), context.covers)
        if context.notes or context.targets is not None:
            attempt.notes, attempt.targets = context.notes, context.targets
        return attempt

    return play


def _first_clause(error: Exception) -> str:
    """An error's message up to its first parenthesis, without the size asked (what a count
    of discards groups by: one line per picker that gave up)."""
    return re.sub(r" for a size of \d+$", "", str(error).split(" (", 1)[0])


def _too_large(error: InputTooLarge) -> str:
    """How a run reports inputs discarded for growing too large (see :func:`_by`)."""
    return "grown too large: " + str(error).split(":", 1)[0]


def _made(play: Play) -> Any:
    """The input of a replay or a recording: the last of ``play.picks`` picks, each marked on
    the source (an ``assume`` in the picks before it does not discard it)."""
    wiring = play.wiring
    for _ in range(play.picks - 1):
        play.begin_pick()
        try:
            wiring.pick()
        except (UnsatisfiedAssumption, InputTooLarge, GiveUp):
            pass
    play.begin_pick()
    return wiring.pick()


def _kept(values: Any) -> Any:
    """The input as the wiring made it, kept before the test runs (it may change its input)."""
    try:
        return copy.deepcopy(values)
    except Exception:
        return values


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
        except (UnsatisfiedAssumption, InputTooLarge):
            pass
