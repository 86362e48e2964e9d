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
import functools
import inspect
import re
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable

from ..core.checks import check_values
from ..core.draws import DrawSource, Tape, current_route
from ..core.picker import Picker
from ..core.random import check_seed, derive_seed, fresh_seed
from ..engine.play import DISCOVER, Description, Play
from ..engine.proposals import DISCARD, FAIL, INVALID, PASS, Attempt
from ..engine.replays import replay_once
from ..engine.report import TestReport
from ..engine.runner import RunOptions, run_harness
from ..engine.stopping import FixedCount, StoppingRule
from .actions import Action, actions_of, check_actions, safe_repr
from .concurrent import play_concurrent
from .context import DrawContext, UnsatisfiedAssumption, enter_drawing, leave_drawing
from .program import program
from .scheduler import Concurrency, History
from .trace import Learners, Machine, Step, StepPicker, Trace, trace_class

__all__ = ["Monkey", "MonkeyReport", "Step", "TraceExplanation", "monkey"]

#: The most steps of a trace when neither the monkey nor the test profile says.
DEFAULT_STEPS = 50
#: The most steps a trace may take (a larger max_steps would make a run that never ends).
MAX_STEPS = 1_000_000

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
        return lines + self._said_lines()

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


class Monkey:
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
    ``expect`` and the ``invariants`` (callables of the state) are checked, by the verdict
    rule of every harness (:mod:`synthia.testing.verdict`: ``None`` or true passes, false or
    raising fails, an array or other value is an :class:`~synthia.InvalidTest`). An exception
    the action does not declare in ``raises`` is a failure; an action naming a method the
    system lacks is an :class:`~synthia.InvalidTest`. ``teardown``, when given (a function of
    the system, or of the system and the model; a ``@sy.monkey`` class's own ``teardown``
    method), runs after every trace, a failing one too: when it raises after a passing trace,
    that is the trace's failure. A trace in which no action was enabled tested nothing: it is
    discarded, and a run whose traces all were is an error, never a pass.

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
    argument over another's: two puts of one key), then with their integers at the edges of
    their ranges, as :class:`~synthia.Assert` does.

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
        max_steps: int | None = None,
        invariants: Iterable[Callable[..., Any]] = (),
        teardown: Callable[..., Any] | None = None,
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
        #: Whether ``max_steps`` was given (a test profile's ``max_steps`` applies otherwise).
        self.steps_given = max_steps is not None
        max_steps = DEFAULT_STEPS if max_steps is None else max_steps
        if isinstance(max_steps, bool) or not isinstance(max_steps, int) or not 1 <= max_steps <= MAX_STEPS:
            raise ValueError(f"max_steps must be an int from 1 to {MAX_STEPS:,} (the steps of one trace), got {max_steps!r}")
        if isinstance(invariants, Picker):
            raise TypeError(f"invariants must be a list of callables of the state, got the picker {invariants!r}")
        checks = check_values(invariants, "invariants")
        for i, check in enumerate(checks):
            if not callable(check):
                raise TypeError(f"invariants[{i}] must be callable, got {check!r}")
        self.name: str = self.options.name or str(getattr(system, "__name__", type(system).__name__))
        #: The system under test, its model, actions and invariants: what a trace plays.
        if teardown is not None and not callable(teardown):
            raise TypeError(f"teardown must be callable (a function of the system), got {teardown!r}")
        self.machine = Machine(system, model, action_list, source, checks, max_steps, concurrency, teardown)

    @property
    def stop(self) -> StoppingRule:
        """The stopping rule of a run (``options.stop``, ``FixedCount(100)`` when not given)."""
        return self.options.stop if self.options.stop is not None else FixedCount(100)

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
        teardown = getattr(test_class, "teardown", None)
        if callable(teardown) and "teardown" not in settings:
            settings["teardown"] = teardown
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
        """Replay a recorded trace on a fresh system (a fresh copy of the action wiring); the
        attempt's ``details`` are the trace."""
        return replay_once(_Player(self, 0).play, self.description(), 0, tape)

    def description(self) -> Description:
        """What the runner knows of this harness (see :mod:`synthia.engine.play`): each trace
        is made from the run's seed and its number alone, and classified by its actions."""
        machine = self.machine
        return Description(
            self.name, "traces", machine.steps, in_sequence=False, classifies=True,
            records=machine.learning_arguments(), may_copy=True, max_picks=machine.picks,
        )

    # -- the run ----------------------------------------------------------------------------------
    unit = "traces"

    def run(self, seed: int | None = None, *, tapes: Iterable[Tape] = ()) -> MonkeyReport:
        """Play traces, shrink the first failure, report. ``tapes`` are saved failing traces
        replayed first."""
        seed = fresh_seed() if seed is None else check_seed(seed)
        report = MonkeyReport(passed=True, seed=seed, reason="", harness=self)  # type: ignore[arg-type]
        player = _Player(self, seed)
        run_harness(player.play, self.description(), self.options, seed, report, tapes)
        player.finish(report)
        self._conclude(report)
        return report

    def _conclude(self, report: MonkeyReport) -> None:
        """What the report shows of the smallest failing trace: its steps, what failed, the program."""
        played = report.played
        if played is None or not isinstance(played.details, Trace):
            return
        trace: Trace = played.details
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

    # -- the report's program --------------------------------------------------------------------------
    def explain_trace(self, tape: Tape, seed: int, redraws: int = 3) -> TraceExplanation:
        """See :meth:`MonkeyReport.explain`."""
        base = self.attempt(tape)
        if base.status != FAIL or base.tape is None:
            raise ValueError("the trace does not fail when replayed")
        replayed = base.tape
        trace: Trace = base.details
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


class _Player:
    """Plays the traces of one ``Monkey`` run: the runner's one callback (:meth:`play`). In
    discovery it counts what each action did and how long the traces were, and keeps the
    live copies of argument pickers that learn from trace to trace."""

    def __init__(self, monkey: Monkey, seed: int) -> None:
        self.monkey = monkey
        self.learners = Learners(seed)
        #: Per kind ("tried", "enabled", "failed"), how often each action was.
        self.counts: dict[str, collections.Counter[str]] = {kind: collections.Counter() for kind in ("tried", "enabled", "failed")}
        self.lengths: collections.Counter[int] = collections.Counter()
        self.always_enabled = 0

    def play(self, play: Play) -> Attempt:
        """One trace of at most ``play.picks`` steps on a fresh system, inside its own
        :class:`DrawContext` (so systems and actions may :func:`~synthia.draw`,
        :func:`~synthia.event`, :func:`~synthia.cover` and :func:`~synthia.assume`)."""
        monkey = self.monkey
        machine = monkey.machine
        steps: StepPicker = play.wiring  # type: ignore[assignment]
        discovering = play.phase == DISCOVER
        context = DrawContext(play.seed, play.index)
        context.route = current_route()
        token = enter_drawing(context)
        try:
            trace = monkey._play(
                steps, play.source, _trace_seed(play.seed, play.index), min(play.picks, machine.picks),
                self.counts if discovering else None, self.learners if discovering else None,
            )
        except UnsatisfiedAssumption as exc:
            return Attempt(DISCARD, where=exc.where)
        finally:
            leave_drawing(token)
        if discovering:
            self.lengths[len(trace.steps)] += 1
            self.always_enabled += steps.always_enabled
            steps.always_enabled = 0
        failure = trace.failure
        if failure is None and not trace.steps:
            return Attempt(DISCARD, where=_NOTHING_ENABLED)
        labels = tuple(context.events)
        klass: Any = trace_class(trace.steps)
        if labels:
            klass = (klass, labels)
        value = {"trace": trace.steps}
        lines = functools.partial(self.lines, trace.steps)
        said = {"notes": context.notes, "targets": context.targets}
        if failure is None:
            return Attempt(PASS, None, value, None, None, context.drawn, labels, context.covers, klass=klass, lines=lines, details=trace, **said)  # type: ignore[arg-type]
        if discovering:
            self.learners.failed()
        return Attempt(
            FAIL, None, value, failure.exception, failure.origin, context.drawn, labels, context.covers,
            klass=klass, lines=lines, details=trace, **said,  # type: ignore[arg-type]
        )

    def lines(self, steps: list[Step]) -> list[str]:
        """What a trace did, step by step, as text: two plays of the same draws on fresh systems
        must do the same (memory addresses left out of the results)."""
        variable = self.monkey.machine.variable
        return [
            f"{step.text(variable)} " + (f"raised {type(step.exception).__name__}" if step.exception is not None
                                         else "returned " + _ADDRESS.sub("0x…", safe_repr(step.result)))
            for step in steps
        ]

    def finish(self, report: MonkeyReport) -> None:
        """The counts of discovery, in the report."""
        counts = self.counts
        for action in self.monkey.action_list or ():
            counts["enabled"][action.name] += self.always_enabled
        names = dict.fromkeys([a.name for a in self.monkey.action_list or ()] + [name for kind in counts.values() for name in kind])
        report.counts = {name: {kind: counts[kind][name] for kind in ("tried", "enabled", "failed")} for name in names}
        report.lengths = dict(sorted(self.lengths.items()))
        report.notes.extend(self.learners.notes())
        concurrency = self.monkey.concurrency
        if concurrency is not None and report.tried:
            report.notes.append(concurrency.explored)
        if report.error is not None and report.discarded and not report.tried:
            report.error += f"; no action was ever enabled: {_never_enabled(self.monkey)}"


#: Where a trace that ran no action was "discarded": it tested nothing.
_NOTHING_ENABLED = "the first step (no action was enabled: every precondition was false)"


def _never_enabled(monkey: Monkey) -> str:
    actions = monkey.action_list or []
    guarded = [a.name for a in actions if a.precondition is not None]
    if guarded and len(guarded) == len(actions):
        return f"the preconditions of {', '.join(guarded)} never held on a fresh system"
    return "the action source gave no enabled action"


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