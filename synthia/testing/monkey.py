"""The ``Monkey`` harness: drive a system with actions, check it, shrink the failing trace.

A *trace* starts from a fresh (or reset) system -- and model -- and performs up to
``max_steps`` actions. Each step chooses an action (among the *enabled* ones, so no step is
wasted on a failing precondition), draws its arguments, performs it on the system and, when
there is a model, on the model too, then checks the result against the model's (lockstep),
the action's expectation and the invariants. The first step that fails ends the trace.

Every choice and argument is a typed draw, and every step is a top-level pick, so a failing
trace is recorded as a tape and shrunk by the generic shrinker like any input: steps are
deleted (the history pass drops all the steps before the failing one, then the longest
prefix, then one by one), arguments are lowered, and each candidate is replayed against a
fresh system. Minimal traces have the fewest actions first, then the simplest arguments.
"""
from __future__ import annotations

import collections
import dataclasses
import inspect
import re
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable

from ..core.draws import DrawSource, Recorder, Tape, routed
from ..core.graph import kinds_of
from ..core.picker import Picker
from ..core.random import check_seed, derive_seed, fresh_seed
from ..engine.observe import observation
from ..engine.report import TestReport
from ..engine.runner import DISCARD, FrontEnd, Runner, RunOptions, Trial
from ..engine.session import ReplaySession
from ..engine.shrinker import FAIL, INVALID, PASS, Attempt
from ..engine.stopping import StoppingRule
from .actions import Action, actions_of, check_actions, safe_repr
from .concurrent import play_concurrent
from .context import DrawContext, UnsatisfiedAssumption, enter_drawing, leave_drawing
from .program import program
from .scheduler import Concurrency, History
from .trace import Learners, Machine, Step, StepPicker, Trace, trace_class

__all__ = ["Monkey", "MonkeyReport", "Step", "TraceExplanation", "monkey"]

#: A memory address in a repr (``<Node object at 0x7f...>``): not part of what a step did.
_ADDRESS = re.compile(r"0x[0-9a-fA-F]+")

@dataclass
class MonkeyReport(TestReport):
    """The result of :meth:`Monkey.run`: a :class:`~synthia.TestReport` whose inputs are traces.

    ``trace`` is the smallest failing trace (a list of :class:`Step`), ``first_trace`` the
    first one found, ``failure`` what went wrong at its last step, ``program`` a runnable
    Python program that performs the trace and fails the same way. ``counts`` has, per
    action, how often it was ``tried``, ``enabled`` and ``failed`` during discovery;
    ``lengths`` is the histogram of discovery traces' step counts. ``tried`` counts traces.
    """

    harness: Any = field(default=None, repr=False)
    trace: list[Step] | None = None
    first_trace: list[Step] | None = None
    failure: str = ""
    program: str = ""
    counts: dict[str, dict[str, int]] = field(default_factory=dict)
    lengths: dict[int, int] = field(default_factory=dict)
    #: A concurrent run's smallest failing history (prefix, branches, schedule), else ``None``.
    history: History | None = None

    def explain(self, redraws: int = 3) -> "TraceExplanation":  # type: ignore[override]
        """Which steps of the smallest trace are necessary, and which argument draws are free."""
        if self.passed or self.tape is None or self.harness is None:
            raise ValueError("only a failed report has a failing trace to explain")
        return self.harness.explain_trace(self.tape, self.seed, redraws)  # type: ignore[no-any-return]

    def replay(self) -> bool:
        """Run the smallest trace again (from its draws) on a fresh system; ``True`` if it passes."""
        if self.harness is None or self.tape is None:
            return True
        return self.harness.attempt(self.tape).status != FAIL  # type: ignore[no-any-return]

    unit = "traces"

    def _failure_lines(self) -> list[str]:
        first, *more = self.failure.splitlines() or [""]
        lines = [f"  smallest failing trace ({len(self.trace or [])} steps): {first}", *(f"    {line}" for line in more)]
        lines.extend(f"    {line}" for line in self.program.splitlines())
        if self.first_trace is not None:
            lines.append(f"  first failing trace: {len(self.first_trace)} steps")
        return lines

    def _run_lines(self) -> list[str]:
        if not self.counts:
            return []
        shown = ", ".join(
            f"{name} {c['tried']}/{c['enabled']}" + (f" ({c['failed']} failed)" if c["failed"] else "") for name, c in self.counts.items()
        )
        return [f"  actions tried/enabled: {shown}"]


@dataclass
class TraceExplanation:
    """Why a trace fails: per step, whether it is necessary (deleting it makes the trace pass)
    and, per argument, whether its value is free (other values still fail)."""

    steps: list[Step]
    necessary: list[bool | None]
    free: list[dict[str, bool | None]]
    variable: str = "system"

    def describe(self) -> str:
        lines = []
        for step, needed, free in zip(self.steps, self.necessary, self.free):
            mark = {True: "necessary", False: "not needed", None: "?"}[needed]
            args = ", ".join(f"{k}: {'free' if v else 'matters' if v is False else '?'}" for k, v in free.items())
            lines.append(f"{step.text(self.variable)}  [{mark}{'; ' + args if args else ''}]")
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.describe()


class Monkey(FrontEnd):
    """Drive ``system`` with ``actions``, check every step, and shrink a failing trace.

    ``system`` is a factory (a class or function giving a fresh object per trace) or an
    object with ``reset()``; ``model``, optional, likewise. ``actions`` is a list of
    :class:`Action` (each step chooses among the enabled ones by weight) or any picker of
    actions -- a ``Choice`` with weights, a ``MarkovChain`` (usage profiles), a
    ``BehaviorTree``, a ``GrammarSequence`` whose values are lists of actions (valid
    sessions) -- so the action source is itself a wiring (an action it picks whose
    precondition does not hold is drawn again, up to 100 times, before the trace ends).

    After each step the system's result is compared with the model's when the action has a
    counterpart on the model (lockstep; exceptions of the same type agree), then the action's
    ``expect`` and the ``invariants`` (callables of the state, failing by raising or
    returning ``False``) are checked. An exception the action does not declare in
    ``raises`` is a failure.

    An action whose method (on the system or the model) is a coroutine function is awaited
    on the trace's own event loop; so are async preconditions, expectations and invariants.
    With ``threads=N`` (or ``tasks=N``) a trace is a sequential prefix of at most ``prefix``
    steps (its length drawn: often none), then ``N`` branches of at most ``branch_steps``
    steps in parallel threads (asyncio tasks) under a controlled scheduler -- preempted at
    ``preemption`` points (``"line"``, the default for threads: every line of the system's
    own code and of the modules named in ``within``; ``"action"``; ``"opcode"``; tasks at
    every await that suspends), drawn by the ``schedule`` strategy (``"pct"``, the default:
    random priorities and ``preemptions`` priority-change points; ``"random"``) -- and the
    results must be linearizable against the model (fresh systems without one); the
    ``threading`` locks, conditions, events, semaphores and queues the system makes are seen
    by the scheduler (a deadlock is reported), and timers run on a virtual clock. See
    docs/concurrency.md.

    :meth:`run` plays traces until the stopping rule ``stop`` (default ``FixedCount(100)``
    traces) says enough, the ``time_budget`` (seconds, shrinking included) is spent, or a
    trace fails; that trace is then shrunk (``shrink_budget`` replays, ``shrink_time``
    seconds) and reported as a runnable program. Each trace has its own seed, derived from
    the run's: no discovery trace replays another, and the same seed gives the same report.
    With ``copy_parts`` (the default), a few traces (the 8th, 24th, 40th, then one in 256)
    are played again with one part copied over another of the same kind (one step's
    argument over another's: two puts of one key), as :class:`~synthia.Assert` does.

    >>> import synthia as sy
    >>> class Counter:
    ...     def __init__(self): self.n = 0
    ...     def up(self, by): self.n += by if self.n < 3 else by + 1  # planted bug
    ...     def get(self): return self.n
    >>> class Model:
    ...     def __init__(self): self.n = 0
    ...     def up(self, by): self.n += by
    ...     def get(self): return self.n
    >>> report = sy.Monkey(Counter, [sy.Action("up", by=sy.RandomInteger(1, 5)), sy.Action("get")], model=Model).run(seed=1)
    >>> print(report.program)
    counter = Counter()
    counter.up(by=3)
    counter.up(by=1)
    assert counter.get() == 4  # the model's result
    """

    def __init__(
        self,
        system: Any,
        actions: Iterable[Action] | Picker[Any],
        model: Any = None,
        options: RunOptions | StoppingRule | None = None,
        *,
        max_steps: int = 50,
        invariants: Iterable[Callable[..., Any]] = (),
        threads: int | None = None,
        tasks: int | None = None,
        prefix: int = 3,
        branch_steps: int = 3,
        preemption: str | None = None,
        schedule: str = "pct",
        preemptions: int | None = None,
        within: Iterable[str] = (),
        **option_keywords: Any,
    ) -> None:
        if not (callable(system) or hasattr(system, "reset")):
            raise TypeError(f"system must be a factory (a class or function) or an object with reset(), got {system!r}")
        if model is not None and not (callable(model) or hasattr(model, "reset")):
            raise TypeError(f"model must be a factory or an object with reset(), got {model!r}")
        if threads is not None and tasks is not None:
            raise ValueError(f"give threads or tasks, not both (got threads={threads!r}, tasks={tasks!r})")
        concurrency: Concurrency | None = None
        if threads is not None or tasks is not None:
            concurrency = Concurrency(
                threads if tasks is None else tasks, tasks is not None, prefix, branch_steps, preemption, schedule, preemptions,  # type: ignore[arg-type]
                within,  # type: ignore[arg-type]
            )
            if isinstance(actions, Picker):
                raise TypeError(f"a concurrent Monkey takes a list of actions, got the picker {actions!r}")
            if model is None and hasattr(system, "reset") and not isinstance(system, type):
                raise TypeError(f"a concurrent Monkey without a model needs a system factory (it runs fresh systems as the model), got {system!r}")
            if tasks is None and isinstance(system, type):
                for action in actions:  # type: ignore[union-attr]
                    if isinstance(action, Action) and inspect.iscoroutinefunction(getattr(system, action.fn, None) if isinstance(action.fn, str) else action.fn):
                        raise TypeError(f"the action {action.name!r} is a coroutine function: run async actions as tasks=N, not threads={threads!r}")
        if isinstance(actions, Picker):
            action_list: list[Action] | None = None
            source: Picker[Any] | None = actions
        else:
            action_list, source = check_actions(actions), None
        # A monkey has no inputs of its own: its options may come as keywords too.
        given = RunOptions.of(options)
        if option_keywords:
            unknown = sorted(set(option_keywords) - {f.name for f in dataclasses.fields(RunOptions)} - {"max_examples"})
            if unknown:
                raise TypeError(f"Monkey() got an unexpected keyword argument {unknown[0]!r} (not a run option nor max_steps or invariants)")
            given = RunOptions(**option_keywords).over(given)
        #: The run's options, as given; a trace's class is always recorded (a tuple of names).
        self.options = given if given.classes is not None else dataclasses.replace(given, classes=True)
        if isinstance(max_steps, bool) or not isinstance(max_steps, int) or max_steps < 1:
            raise ValueError(f"max_steps must be a positive int, got {max_steps!r}")
        checks = list(invariants)
        for i, check in enumerate(checks):
            if not callable(check):
                raise TypeError(f"invariants[{i}] must be callable, got {check!r}")
        self.name: str = self.options.name or str(getattr(system, "__name__", type(system).__name__))
        #: The system under test, its model, actions and invariants: what a trace plays.
        self.machine = Machine(system, model, action_list, source, checks, max_steps, concurrency)

    @property
    def system(self) -> Any:
        """The system factory (or object with ``reset()``)."""
        return self.machine.system

    @property
    def model(self) -> Any:
        """The model factory (or object with ``reset()``), or ``None``."""
        return self.machine.model

    @property
    def concurrency(self) -> Concurrency | None:
        """The concurrent mode (``threads=`` or ``tasks=``), or ``None``: sequential traces."""
        return self.machine.concurrency

    @property
    def max_steps(self) -> int:
        return self.machine.max_steps

    @property
    def invariants(self) -> list[Callable[..., Any]]:
        return self.machine.invariants

    @property
    def action_list(self) -> list[Action] | None:
        """The actions given as a list, or ``None`` when a picker of actions was given."""
        return self.machine.action_list

    def check(self, seed: int | None = None) -> MonkeyReport:
        """Run as a test: the seed from ``--synthia-seed`` (or ``seed``), saved failing traces
        replayed first, and a :class:`~synthia.SynthiaFailure` showing the smallest failing trace
        as a program when it fails."""
        from .as_test import check_monkey

        return check_monkey(self, self.name, seed)  # type: ignore[return-value]

    @classmethod
    def from_class(cls, test_class: type, **settings: Any) -> "Monkey":
        """A monkey over a test class whose methods are marked with :func:`~synthia.action`
        and :func:`~synthia.invariant` (the class is the system: a fresh instance per trace)."""
        found, checks = actions_of(test_class)
        if not found:
            raise ValueError(f"{test_class.__name__} has no method marked with @synthia.action")
        return cls(test_class, found, invariants=[*checks, *settings.pop("invariants", ())], **settings)

    def __repr__(self) -> str:
        actions = self.action_list if self.action_list is not None else self.machine.steps.source
        c = self.concurrency
        if c is not None:
            mode = f"{'tasks' if c.tasks else 'threads'}={c.branches}, prefix={c.prefix}, branch_steps={c.branch_steps}"
            mode += f", preemption={c.preemption!r}, schedule={c.schedule!r}" + (f", preemptions={c.preemptions}" if c.preemptions is not None else "")
            return f"Monkey({self.name}, {actions!r}, {mode}, stop={self.stop!r})"
        return f"Monkey({self.name}, {actions!r}, max_steps={self.max_steps}, stop={self.stop!r})"

    # -- one trace ------------------------------------------------------------------------------
    def _wiring(self) -> StepPicker:
        return self.machine.steps.duplicate()

    def _play(
        self, steps: StepPicker, source: DrawSource | None, seed: int, picks: int, counts: Any = None,
        learners: Learners | None = None,
    ) -> Trace:
        """One trace on a fresh system, at most ``picks`` top-level picks."""
        if self.machine.concurrency is not None:
            return play_concurrent(self.machine, steps, source, seed, picks, counts)
        return self.machine.play(steps, source, seed, picks, counts, learners)

    def attempt(self, tape: Tape) -> Attempt:
        """Replay a recorded trace on a fresh system (a fresh copy of the action wiring)."""
        session = _MonkeySession(self, 0)
        try:
            return session.attempt(tape.picks, list(tape.draws), None)
        finally:
            session.close()

    # -- the runner's front end -----------------------------------------------------------------
    unit = "traces"

    def run(self, seed: int | None = None, *, tapes: Iterable[Tape] = ()) -> MonkeyReport:
        """Play traces, shrink the first failure, report. ``tapes`` are saved failing traces
        replayed first."""
        seed = fresh_seed() if seed is None else check_seed(seed)
        report = MonkeyReport(passed=True, seed=seed, reason="", harness=self)  # type: ignore[arg-type]
        return Runner(self, seed, report).run(tapes)  # type: ignore[return-value]

    def session(self, seed: int) -> "_MonkeySession":
        return _MonkeySession(self, seed)

    def discovery(self, seed: int, recording: bool, report: TestReport) -> "_Discovery":
        return _Discovery(self, seed, report)  # type: ignore[arg-type]

    def kinds(self) -> list[str]:
        return kinds_of(self.machine.steps)

    def may_copy(self) -> bool:
        return True

    def shown(self, attempt: Attempt, seed: int) -> Any:
        return {"trace": attempt.value.steps}

    def conclude(self, report: TestReport, best: Attempt, confirmed: Attempt) -> None:
        assert isinstance(report, MonkeyReport)
        trace: Trace = best.value
        report.trace = trace.steps
        report.smallest = {"trace": trace.steps}
        if report.first is not None:
            report.first_trace = report.first["trace"]
        if trace.failure is not None:
            report.failure = trace.failure.message
            if not report.flaky:
                report.exception = trace.failure.exception
        report.program = program(self.machine, trace)
        report.history = trace.history

    def finish(self, report: TestReport, seed: int) -> None:
        pass

    def outcome(self, value: Any) -> list[str]:
        """What a trace did, step by step, as text: two plays of the same draws on fresh systems
        must do the same (memory addresses left out of the results)."""
        steps = value["trace"] if isinstance(value, dict) else value.steps
        return [
            f"{step.text(self.machine.variable)} " + (f"raised {type(step.exception).__name__}" if step.exception is not None
                                               else "returned " + _ADDRESS.sub("0x…", safe_repr(step.result)))
            for step in steps
        ]

    def observation(self, seed: int, index: int, trial: Trial, started: float, timing: dict[str, float]) -> dict[str, Any]:
        """Trace ``index`` as one observation in Hypothesis's observability format."""
        steps = trial.value["trace"] if isinstance(trial.value, dict) else []
        features: dict[str, Any] = {label: True for label in trial.labels}
        if trial.klass is not None:
            features["class"] = repr(trial.klass)
        reason = "" if trial.status == PASS or trial.exception is None else f"{type(trial.exception).__name__}: {trial.exception}"
        return observation(
            property=self.name, run_start=started, status={PASS: "passed", FAIL: "failed"}.get(trial.status, "gave_up"),
            arguments={"trace": [step.text(self.machine.variable) for step in steps]}, status_reason=reason, how_generated="generated",
            features=features, timing=timing, metadata={"seed": seed, "index": index},
        )

    def _record(self, seed: int, index: int) -> tuple[Trace, Tape]:
        steps = self._wiring().set_seed(_trace_seed(seed, index))
        recorder = Recorder()
        with routed(steps, recorder):
            trace = self._play(steps, recorder, _trace_seed(seed, index), self.machine.picks)
        return trace, recorder.tape

    # -- the report's program --------------------------------------------------------------------------
    def explain_trace(self, tape: Tape, seed: int, redraws: int = 3) -> TraceExplanation:
        """See :meth:`MonkeyReport.explain`."""
        base = self.attempt(tape)
        if base.status != FAIL or base.tape is None:
            raise ValueError("the trace does not fail when replayed")
        replayed = base.tape
        trace: Trace = base.value
        starts = replayed.pick_starts + [len(replayed.draws)]
        necessary: list[bool | None] = []
        free: list[dict[str, bool | None]] = []
        for k, step in enumerate(trace.steps):
            if replayed.picks > 1:
                without = Tape(replayed.draws[: starts[k]] + replayed.draws[starts[k + 1] :], (), replayed.picks - 1, [])
                necessary.append(self.attempt(without).status != FAIL)
            else:
                necessary.append(True)
            marks: dict[str, bool | None] = {}
            for span in replayed.spans:
                label = span.label
                if not (isinstance(label, tuple) and label[0] == "argument" and starts[k] <= span.start < starts[k + 1]):
                    continue
                verdicts = []
                for change in _variations(replayed, range(span.start, span.end), seed, redraws):
                    entries = [d._replace(value=change[i]) if i in change else d for i, d in enumerate(replayed.draws)]
                    attempt = self.attempt(Tape(entries, (), replayed.picks, replayed.pick_starts))
                    if attempt.status != INVALID:
                        verdicts.append(attempt.status == FAIL)
                marks[label[1]] = all(verdicts) if verdicts else None
            free.append(marks)
        return TraceExplanation(trace.steps, necessary, free, self.machine.variable)


class _MonkeySession(ReplaySession):
    """The monkey's action wiring, replayed candidate after candidate on a fresh system."""

    def __init__(self, monkey: Monkey, seed: int) -> None:
        super().__init__(monkey._wiring().set_seed(seed))
        self.monkey = monkey
        self.seed = seed

    def attempt(self, picks: int, entries: list[Any], max_draws: int | None, strict: bool = False) -> Attempt:
        replayer = self.begin(entries, max_draws)
        steps: Any = self.wiring
        try:
            trace = self.monkey._play(steps, replayer, self.seed, min(picks, self.monkey.machine.picks))
        except KeyboardInterrupt:
            raise
        except Exception:
            return Attempt(INVALID, replayer.tape)
        if replayer.overran or (strict and not replayer.fits):
            return Attempt(INVALID, replayer.tape)
        if trace.failure is None:
            return Attempt(PASS, replayer.tape, trace)
        return Attempt(FAIL, replayer.tape, trace, trace.failure.exception, trace.failure.origin)


class _Discovery:
    """The traces of one ``Monkey`` run: trace ``index`` is played from its own seed, derived
    from the run's, on a fresh system, inside its own :class:`DrawContext` (so actions may
    :func:`~synthia.event`, :func:`~synthia.cover` and :func:`~synthia.assume`)."""

    def __init__(self, monkey: Monkey, seed: int, report: "MonkeyReport") -> None:
        self.monkey = monkey
        self.seed = seed
        self.report = report
        self.steps = monkey._wiring()
        self.learners = Learners(seed)
        #: A run whose argument pickers learn records every trace as it plays it: such a
        #: trace cannot be played again from its seed alone.
        self.learning = monkey.machine.learning_arguments()
        self.remakes = not self.learning
        #: Per kind ("tried", "enabled", "failed"), how often each action was.
        self.counts: dict[str, collections.Counter[str]] = {kind: collections.Counter() for kind in ("tried", "enabled", "failed")}
        self.lengths: collections.Counter[int] = collections.Counter()

    def trial(self, index: int, record: bool) -> Trial:
        monkey, steps = self.monkey, self.steps
        seed = _trace_seed(self.seed, index)
        steps.set_seed(seed)
        recorder = Recorder() if self.learning or record else None
        context = DrawContext(self.seed, index)
        token = enter_drawing(context)
        try:
            if recorder is None:
                trace = monkey._play(steps, None, seed, monkey.machine.picks, self.counts, self.learners)
            else:
                with routed(steps, recorder):
                    trace = monkey._play(steps, recorder, seed, monkey.machine.picks, self.counts, self.learners)
        except UnsatisfiedAssumption as exc:
            return Trial(DISCARD, None, exc, where=exc.where)
        finally:
            leave_drawing(token)
        self.lengths[len(trace.steps)] += 1
        labels = tuple(context.events)
        klass: Any = trace_class(trace.steps)
        if labels:
            klass = (klass, labels)
        tape = None if recorder is None else recorder.tape
        failure = trace.failure
        if failure is None:
            return Trial(PASS, {"trace": trace.steps}, None, None, tape, klass, labels, context.covers)
        return Trial(FAIL, {"trace": trace.steps}, failure.exception, failure.origin, tape, klass, labels, context.covers)

    def recorded(self, index: int, history: bool) -> Attempt:
        trace, tape = self.monkey._record(self.seed, index)
        if trace.failure is None:
            return Attempt(PASS, tape, trace)
        return Attempt(FAIL, tape, trace, trace.failure.exception, trace.failure.origin)

    def failed(self) -> None:
        self.learners.failed()

    def close(self) -> None:
        report = self.report
        for action in self.monkey.action_list or ():
            self.counts["enabled"][action.name] += self.steps.always_enabled
        names = dict.fromkeys([a.name for a in self.monkey.action_list or ()] + [name for kind in self.counts.values() for name in kind])
        report.counts = {name: {kind: self.counts[kind][name] for kind in ("tried", "enabled", "failed")} for name in names}
        report.lengths = dict(sorted(self.lengths.items()))
        report.notes.extend(self.learners.notes())


def _variations(tape: Tape, positions: Iterable[int], seed: int, redraws: int) -> list[dict[int, Any]]:
    """Other values for the draws at ``positions``: all simplest, then random ones."""
    from ..core.random import Stream, stream_seed

    positions = list(positions)
    out = [{i: tape.draws[i].simplest for i in positions}]
    for trial in range(redraws):
        stream = Stream(stream_seed(derive_seed(seed, f"explain-trace/{positions[0] if positions else 0}/{trial}")))
        change: dict[int, Any] = {}
        for i in positions:
            d = tape.draws[i]
            if d.kind == "integer":
                change[i] = stream.integer(*d.args)
            elif d.kind == "float":
                change[i] = stream.floating(*d.args)
            elif d.kind == "boolean":
                change[i] = stream.boolean(0.5) if 0.0 < d.args[0] < 1.0 else d.value
            else:
                change[i] = stream.weighted(d.args[0])
        out.append(change)
    current = {i: tape.draws[i].value for i in positions}
    return [v for v in out if v != current]


def _trace_seed(seed: int, index: int) -> int:
    return derive_seed(seed, f"trace/{index}")


def monkey(**settings: Any) -> Callable[[type], type]:
    """Turn a test class with :func:`~synthia.action` and :func:`~synthia.invariant` methods into a
    pytest test class: its ``test_monkey`` runs :meth:`Monkey.from_class` and fails with the
    smallest failing trace as a runnable program (the failure database replays it first).

    pytest does not collect a class with an ``__init__``, so the decorator returns a small
    test class in its place; the decorated class stays available as its ``machine``.
    ``settings`` are :class:`Monkey`'s (``stop``, ``max_steps``, ...).

    >>> import synthia as sy
    >>> @sy.monkey(stop=sy.FixedCount(20))
    ... class TestStack:
    ...     def __init__(self): self.items = []
    ...     @sy.action(x=sy.RandomInteger(0, 9))
    ...     def push(self, x): self.items.append(x)
    ...     @sy.action(precondition=lambda self: self.items)
    ...     def pop(self): self.items.pop()
    >>> TestStack().test_monkey()
    >>> TestStack.machine.__name__
    'TestStack'
    """

    def decorate(cls: type) -> type:
        actions_of(cls)  # checks the marks now, not when the test runs

        def test_monkey(self: Any) -> None:
            from .as_test import check_monkey

            check_monkey(Monkey.from_class(cls, **settings), cls.__name__)

        wrapper = type(cls.__name__, (), {"test_monkey": test_monkey, "machine": cls, "__doc__": cls.__doc__, "__module__": cls.__module__})
        wrapper.__qualname__ = cls.__qualname__
        test_monkey.__qualname__ = f"{cls.__qualname__}.test_monkey"
        # The printed program builds the machine through the name its module holds.
        cls.__qualname__ = f"{cls.__qualname__}.machine"
        return wrapper

    return decorate