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

import ast
import asyncio
import collections
import dataclasses
import functools
import inspect
import re
import sys
from contextlib import ExitStack
from dataclasses import dataclass, field
from types import CoroutineType
from typing import Any, Callable, Iterable, Sequence

from ..core.draws import DrawSource, Recorder, Tape, current_route, routed
from ..core.exceptions import NoMoreElements
from ..core.graph import kinds_of, learns, notify_failure, picker_notes, upstream
from ..core.picker import Picker, RandomPicker
from ..core.random import check_seed, derive_seed, fresh_seed
from ..engine.coverage import bucket
from ..engine.observe import observation
from ..engine.report import InvalidTest, RunInterrupted, TestReport
from ..engine.runner import DISCARD, FrontEnd, Runner, RunOptions, Trial
from ..engine.session import ReplaySession
from ..engine.shrinker import FAIL, INVALID, PASS, Attempt
from ..engine.stopping import StoppingRule
from .actions import NO_EXPECTATION, Action, actions_of, call_with_state, check_actions, safe_repr, variable_name
from .context import DrawContext, UnsatisfiedAssumption, enter_drawing, leave_drawing
from .harness import origin_of
from .linearizability import ANY_RESULT
from .scheduler import Concurrency, Decisions, History, run_history, sampler, system_code

#: A memory address in a repr (``<Node object at 0x7f...>``): not part of what a step did.
_ADDRESS = re.compile(r"0x[0-9a-fA-F]+")

#: A trace's class: the names of its first ``TRACE_PREFIX`` actions and its length's bucket.
TRACE_PREFIX = 3


def trace_class(steps: Sequence["Step"], prefix: int = TRACE_PREFIX) -> tuple[Any, ...]:
    """The class of a trace for the stopping rules' coverage statistics: the names of its
    first ``prefix`` actions and the bit length of its number of steps (0, 1, 2-3, 4-7...).

    >>> trace_class([Step(Action("push"), {}), Step(Action("pop"), {})])
    (('push', 'pop'), 2)
    """
    return tuple(step.action.name for step in steps[:prefix]), bucket(len(steps))

__all__ = ["Monkey", "MonkeyReport", "Step", "TraceExplanation", "monkey"]


@dataclass
class Step:
    """One step of a trace: the action, its arguments, and what the system did."""

    action: Action
    args: dict[str, Any]
    result: Any = None
    exception: BaseException | None = None
    #: Whether the system's method was a coroutine function (the program awaits the call).
    awaited: bool = False
    #: Whether the model's counterpart was one.
    model_awaited: bool = False

    def text(self, target: str = "system") -> str:
        call = self.action.call_text(target, self.args)
        return f"await {call}" if self.awaited else call

    def model_text(self, target: str = "model") -> str:
        call = self.action.model_text(target, self.args)
        return f"await {call}" if self.model_awaited else call

    def __repr__(self) -> str:
        return self.text()


class _Call:
    """A step's call as the report prints it, formatted when a message asks for it."""

    __slots__ = ("step", "variable")

    def __init__(self, step: Step, variable: str) -> None:
        self.step = step
        self.variable = variable

    def __format__(self, spec: str) -> str:
        return self.step.action.call_text(self.variable, self.step.args)  # messages say what was called, not how

    @property
    def what(self) -> Any:
        """What was called: a wrong result is identified by the method, not by the action's
        name ("press +" and "press =" both show a miscalculation of press())."""
        action = self.step.action
        return action.fn if isinstance(action.fn, str) else getattr(action.fn, "__qualname__", action.name)


@dataclass
class _Failure:
    kind: str  # "setup", "raised", "mismatch", "expect", "invariant"
    message: str
    exception: BaseException
    origin: Any
    expected: Any = None
    check: Callable[..., Any] | None = None
    #: For a "setup" failure: the factory (of the system or of the model) that raised.
    made: Any = None
    #: Whether the failing check (an expectation, an invariant) was a coroutine function.
    awaited: bool = False


@dataclass
class _Trace:
    steps: list[Step]
    failure: _Failure | None
    #: A concurrent trace's history: its prefix and branches, the schedule, what each call did.
    history: History | None = None
    #: A concurrent trace's steps: the prefix's, then each branch's.
    lanes: list[list[Step]] | None = None


def _running_sums(weights: Sequence[float]) -> list[float]:
    total, cumulative = 0.0, []
    for w in weights:
        total += w
        cumulative.append(total)
    return cumulative


class _Chooser(RandomPicker[int]):
    """Chooses among the enabled actions by weight (its draws are the monkey's choices)."""

    def __init__(self) -> None:
        self._init_stream(None)

    def choose(self, weights: Sequence[float]) -> int:
        return self.among(_running_sums(weights))

    def among(self, cumulative: list[float]) -> int:
        """An index by weights given as running sums (one typed draw)."""
        return self._stream.weighted(cumulative)

    def by(self, n: int, sample: Callable[[Any], int]) -> int:
        """An integer of ``[0, n)`` drawn by ``sample`` (one typed draw, ``0`` simplest)."""
        return self._stream.integer_by(0, n, sample)

    def pick(self) -> int:  # pragma: no cover - the monkey picks through its stream
        return self.choose([1.0])


class _Learners:
    """The argument pickers that learn from their values (guided pickers): one live copy per
    run, which goes on learning from trace to trace. Such a trace cannot be played again from
    its seed alone (the learner has moved on), so a run with learners records every trace as
    it plays it (:meth:`Monkey._discover`)."""

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self.live: dict[tuple[int, str], Picker[Any]] = {}

    def copy(self, action: Action, name: str, picker: Picker[Any]) -> Picker[Any]:
        key = (id(action), name)
        live = self.live.get(key)
        if live is None:
            live = self.live[key] = picker.duplicate().set_seed(derive_seed(self.seed, f"learner/{action.name}/{name}"))
        return live

    def failed(self) -> None:
        """The last trace failed: its inputs count as new valid ones (RLCheck's rule)."""
        for live in self.live.values():
            notify_failure(live)

    def notes(self) -> list[str]:
        return [note for live in self.live.values() for note in picker_notes(live)]


class _Episode:
    """The state of one trace: the system, the model, and seeded copies of the argument pickers."""

    def __init__(
        self, system: Any, model: Any, seed: int, counts: dict[str, collections.Counter[str]] | None,
        learners: _Learners | None = None,
    ) -> None:
        self.system = system
        self.model = model
        self.seed = seed
        self.counts = counts
        self.learners = learners
        self.route = current_route()
        self._copies: dict[tuple[int, str], Picker[Any]] = {}
        self._stack = ExitStack()
        #: The trace's own event loop, made when a first coroutine is awaited (async systems).
        self.loop: asyncio.AbstractEventLoop | None = None

    def settle(self, value: Any) -> Any:
        """``value``, or what it returns when awaited if it is a coroutine: an async action,
        model, precondition, expectation or invariant runs to completion on the trace's own
        event loop (one task at a time: the same seed gives the same trace)."""
        if type(value) is not CoroutineType:
            return value
        if self.loop is None:
            self.loop = asyncio.new_event_loop()
        return self.loop.run_until_complete(value)

    def argument(self, action: Action, name: str, picker: Picker[Any]) -> Any:
        key = (id(action), name)
        copy = self._copies.get(key)
        if copy is None:
            if self.learners is not None and learns(picker):
                copy = self.learners.copy(action, name, picker)
            else:
                copy = picker.duplicate().set_seed(derive_seed(self.seed, f"{action.name}/{name}"))
            if self.route is not None:
                self._stack.enter_context(routed(copy, self.route.source))
            self._copies[key] = copy
        if self.route is None:
            return copy.pick()
        source = self.route.source
        source.open_span(("argument", name))  # so an explanation finds each argument's draws
        try:
            return copy.pick()
        finally:
            source.close_span()

    def count(self, action: Action, what: str) -> None:
        """Count ``action`` as ``what`` ("tried", "failed") in the discovery's statistics."""
        if self.counts is not None:
            self.counts[what][action.name] += 1

    def close(self) -> None:
        self._stack.close()
        if self.loop is not None:
            self.loop.run_until_complete(self.loop.shutdown_asyncgens())
            self.loop.close()
            self.loop = None


class _Steps(Picker[tuple[Action, dict[str, Any]]]):
    """The monkey's wiring: each pick is one step -- an action and its arguments."""

    inputs_fields = ("source", "chooser", "lanes", "scheduling")

    def __init__(self, actions: list[Action] | None, source: Picker[Any] | None, concurrent: bool = False) -> None:
        self.actions = actions
        self.source = source
        self.chooser = _Chooser() if actions is not None else None
        #: A concurrent trace's choices: where each step goes (the prefix or a branch), and
        #: the scheduler's decisions.
        self.lanes = _Chooser() if concurrent else None
        self.scheduling = _Chooser() if concurrent else None
        self.episode: _Episode | None = None
        self._queue: list[Any] = []
        #: The running sums of the weights when no action has a precondition (every action is
        #: always enabled: nothing to work out per step), else ``None``.
        self._always: list[float] | None = None
        #: Steps at which every action was enabled (with ``_always``), since the counter was read.
        self.always_enabled = 0
        if actions is not None and all(a.precondition is None for a in actions):
            self._always = _running_sums([a.weight for a in actions])

    def pick(self) -> tuple[Action, dict[str, Any]]:
        episode = self.episode
        assert episode is not None
        actions = self.actions
        if actions is not None:
            cumulative = self._always
            if cumulative is None:
                system, model = episode.system, episode.model
                enabled = [a for a in actions if a.enabled(system, model, episode.settle)]
                if not enabled:
                    raise NoMoreElements("no action is enabled")
                cumulative = _running_sums([a.weight for a in enabled])
                if episode.counts is not None:
                    episode.counts["enabled"].update(a.name for a in enabled)
            else:
                enabled = actions
                self.always_enabled += 1  # every action was enabled: counted once per run
            assert self.chooser is not None
            chosen = enabled[self.chooser.among(cumulative)]
        else:
            chosen = self._next_enabled(episode)
        if not chosen.args:
            return chosen, {}
        return chosen, {name: episode.argument(chosen, name, p) for name, p in chosen.args.items()}

    def _next_enabled(self, episode: _Episode) -> Action:
        assert self.source is not None
        for _ in range(100):
            if not self._queue:
                value = self.source.pick()
                self._queue = list(value) if isinstance(value, (list, tuple)) else [value]
            candidate = self._queue.pop(0)
            if not isinstance(candidate, Action):
                raise TypeError(f"actions must pick Actions (or lists of them), got {candidate!r} from {self.source!r}")
            if candidate.enabled(episode.system, episode.model, episode.settle):
                episode.count(candidate, "enabled")
                return candidate
        raise NoMoreElements("no enabled action in 100 draws of the action source")

    def _reset_self(self) -> None:
        self._queue = []


def _fresh(factory_or_object: Any) -> Any:
    """A fresh system (or model): a factory is called, an object is reset."""
    if factory_or_object is None:
        return None
    if isinstance(factory_or_object, type) or not hasattr(factory_or_object, "reset"):
        return factory_or_object()
    factory_or_object.reset()
    return factory_or_object


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
    steps, then ``N`` branches of at most ``branch_steps`` steps in parallel threads (asyncio
    tasks) under a controlled scheduler -- preempted at ``preemption`` points (``"action"``,
    ``"line"``, ``"opcode"``) drawn by the ``schedule`` strategy (``"random"``, ``"pct"``),
    at most ``preemptions`` per trace -- and the results must be linearizable against the
    model (fresh systems without one); see docs/concurrency.md.

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
        preemption: str = "action",
        schedule: str = "random",
        preemptions: int | None = None,
        **option_keywords: Any,
    ) -> None:
        if not (callable(system) or hasattr(system, "reset")):
            raise TypeError(f"system must be a factory (a class or function) or an object with reset(), got {system!r}")
        if model is not None and not (callable(model) or hasattr(model, "reset")):
            raise TypeError(f"model must be a factory or an object with reset(), got {model!r}")
        self.system = system
        self.model = model
        if threads is not None and tasks is not None:
            raise ValueError(f"give threads or tasks, not both (got threads={threads!r}, tasks={tasks!r})")
        #: The concurrent mode (``threads=`` or ``tasks=``), or ``None``: sequential traces.
        self.concurrency: Concurrency | None = None
        if threads is not None or tasks is not None:
            self.concurrency = Concurrency(
                threads if tasks is None else tasks, tasks is not None, prefix, branch_steps, preemption, schedule, preemptions,  # type: ignore[arg-type]
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
            self.action_list: list[Action] | None = None
            self.steps = _Steps(None, actions)
        else:
            self.action_list = check_actions(actions)
            self.steps = _Steps(self.action_list, None, self.concurrency is not None)
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
        self.max_steps = max_steps
        self.invariants = list(invariants)
        for i, check in enumerate(self.invariants):
            if not callable(check):
                raise TypeError(f"invariants[{i}] must be callable, got {check!r}")
        self.name: str = self.options.name or str(getattr(system, "__name__", type(system).__name__))
        self._variable = _variable(system)
        # A model class or object is checked now; a factory function on its first model.
        self._model_checked = model is None
        if isinstance(model, type) or (model is not None and hasattr(model, "reset")):
            self._check_model(model)
            self._model_checked = True

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
        actions = self.action_list if self.action_list is not None else self.steps.source
        c = self.concurrency
        if c is not None:
            mode = f"{'tasks' if c.tasks else 'threads'}={c.branches}, prefix={c.prefix}, branch_steps={c.branch_steps}"
            mode += f", preemption={c.preemption!r}, schedule={c.schedule!r}" + (f", preemptions={c.preemptions}" if c.preemptions is not None else "")
            return f"Monkey({self.name}, {actions!r}, {mode}, stop={self.stop!r})"
        return f"Monkey({self.name}, {actions!r}, max_steps={self.max_steps}, stop={self.stop!r})"

    @property
    def picks(self) -> int:
        """The most top-level picks a trace takes: its steps (and, concurrent, its schedule)."""
        c = self.concurrency
        return self.max_steps if c is None else c.prefix + c.branches * c.branch_steps + 1

    # -- one trace ------------------------------------------------------------------------------
    def _trace(
        self, steps: _Steps, source: DrawSource | None, seed: int, max_steps: int, counts: Any = None,
        learners: _Learners | None = None,
    ) -> _Trace:
        if self.concurrency is not None:
            return self._concurrent_trace(steps, source, seed, max_steps, counts)
        try:
            system = _fresh(self.system)
            model = _fresh(self.model)
        except (KeyboardInterrupt, InvalidTest, RunInterrupted):
            raise
        except BaseException as exc:  # noqa: B036 - a system that cannot be made is a failure, with its report
            which = "system" if "system" not in locals() else "model"
            made = self.system if which == "system" else self.model
            message = f"making the {which} raised {_said(exc)}"
            return _Trace([], _Failure("setup", message, exc, ("setup", which, *origin_of(exc)), made=made))
        if not self._model_checked:
            self._check_model(model)
            self._model_checked = True
        episode = _Episode(system, model, seed, counts, learners)
        steps.episode = episode
        done: list[Step] = []
        try:
            for _ in range(max_steps):
                if source is not None:
                    source.begin_pick()
                try:
                    action, args = steps.pick()
                except NoMoreElements:
                    break
                step = Step(action, args)
                done.append(step)
                failure = self._perform(step, system, model, episode)
                if failure is not None:
                    episode.count(action, "failed")
                    return _Trace(done, failure)
            return _Trace(done, None)
        finally:
            steps.episode = None
            episode.close()

    def _perform(self, step: Step, system: Any, model: Any, episode: _Episode) -> _Failure | None:
        action = step.action
        episode.count(action, "tried")
        counterpart = action.model_step(model)
        raised: BaseException | None = None
        try:
            result = action.run(system, step.args)
            if type(result) is CoroutineType:
                step.awaited = True
                result = episode.settle(result)
            step.result = result
        except (KeyboardInterrupt, InvalidTest, RunInterrupted):
            raise
        except BaseException as exc:  # noqa: B036 - whatever the system raises (sys.exit too) is checked below
            raised = step.exception = exc
        # The step's text and what it called are formatted only for a failure: most steps pass.
        call = _Call(step, self._variable)
        if counterpart is not None:
            try:
                expected, model_raised = counterpart(step.args), None
                if type(expected) is CoroutineType:
                    step.model_awaited = True
                    expected = episode.settle(expected)
            except (KeyboardInterrupt, InvalidTest, RunInterrupted):
                raise
            except BaseException as exc:  # noqa: B036 - a model that exits is compared like one that raises
                expected, model_raised = None, exc
            if model_raised is not None:
                if raised is None or type(raised) is not type(model_raised):
                    did = f"returned {safe_repr(step.result)}" if raised is None else f"raised {_said(raised)}"
                    message = f"{call} {did}; the model raises {_said(model_raised)}"
                    return _Failure("mismatch", message, AssertionError(message), ("mismatch", call.what), model_raised)
            elif raised is not None:
                if not isinstance(raised, action.raises):
                    return _Failure("raised", f"{call} raised {_said(raised)}", raised, ("raised", *origin_of(raised)))
                message = f"{call} raised {_said(raised)}; the model returns {safe_repr(expected)}"
                return _Failure("mismatch", message, AssertionError(message), ("mismatch", call.what), expected)
            elif not _equal(step.result, expected):
                message = f"{call} returned {safe_repr(step.result)}; the model returns {safe_repr(expected)}"
                return _Failure("mismatch", message, AssertionError(message), ("mismatch", call.what), expected)
        elif raised is not None and not isinstance(raised, action.raises):
            return _Failure("raised", f"{call} raised {_said(raised)}", raised, ("raised", *origin_of(raised)))
        if action.expect is not NO_EXPECTATION and raised is None:
            try:
                holds = action.expect(step.result) if callable(action.expect) else _equal(step.result, action.expect)
                awaited = type(holds) is CoroutineType
                holds = episode.settle(holds)
            except (KeyboardInterrupt, InvalidTest, RunInterrupted):
                raise
            except BaseException as exc:  # noqa: B036 - an expectation that raises does not hold
                message = f"{call} returned {safe_repr(step.result)}; the expectation raised {_said(exc)}"
                return _Failure("expect", message, exc, ("expect", call.what, *origin_of(exc)), action.expect)
            if not holds:
                message = f"{call} returned {safe_repr(step.result)}, against the expectation"
                return _Failure("expect", message, AssertionError(message), ("expect", call.what), action.expect, awaited=awaited)
        for check in self.invariants:
            name = getattr(check, "__name__", "invariant")
            awaited = False
            try:
                holds = call_with_state(check, system, model)
                awaited = type(holds) is CoroutineType
                holds = episode.settle(holds)
            except (KeyboardInterrupt, InvalidTest, RunInterrupted):
                raise
            except BaseException as exc:  # noqa: B036
                message = f"invariant {name} failed after {call}: {_said(exc)}"
                return _Failure("invariant", message, exc, ("invariant", name, *origin_of(exc)), check=check, awaited=awaited)
            if holds is False:
                message = f"invariant {name} is false after {call}"
                return _Failure("invariant", message, AssertionError(message), ("invariant", name), check=check, awaited=awaited)
        return None

    # -- one concurrent trace ----------------------------------------------------------------------
    def _reference(self) -> Any:
        """A fresh sequential model: the model, or (without one) a fresh system, as Lin does."""
        return _fresh(self.model) if self.model is not None else self.system()

    def _model_step(self, action: Action, args: dict[str, Any]) -> Callable[[Any], Any]:
        """What ``action`` does on a sequential model (:data:`ANY_RESULT` without a counterpart)."""
        if self.model is None:
            return lambda reference: action.run(reference, args)

        def step(model: Any) -> Any:
            counterpart = action.model_step(model)
            return ANY_RESULT if counterpart is None else counterpart(args)

        return step

    def _concurrent_trace(self, steps: _Steps, source: DrawSource | None, seed: int, picks: int, counts: Any) -> _Trace:
        """A sequential prefix, then branches in parallel under the controlled scheduler; the
        results must be linearizable against the sequential model. Each step is a pick (its
        lane -- the prefix or a branch -- then its action and arguments); the schedule's
        decisions are the last pick."""
        concurrency = self.concurrency
        assert concurrency is not None and steps.lanes is not None and steps.scheduling is not None
        try:
            system = _fresh(self.system)
            # Preconditions see a reference stepped through the actions generated so far.
            reference = self._reference() if any(a.precondition is not None for a in self.action_list or ()) else None
        except (KeyboardInterrupt, InvalidTest, RunInterrupted):
            raise
        except BaseException as exc:  # noqa: B036 - a system that cannot be made is a failure
            message = f"making the system raised {_said(exc)}"
            return _Trace([], _Failure("setup", message, exc, ("setup", "system", *origin_of(exc)), made=self.system))
        if not self._model_checked:
            self._check_model(_fresh(self.model))
            self._model_checked = True
        lanes: list[list[Step]] = [[] for _ in range(concurrency.branches + 1)]
        preempt: list[list[int]] = [[] for _ in range(concurrency.branches)]
        quotas = [concurrency.prefix] + [concurrency.branch_steps] * concurrency.branches
        total = min(picks - 1, sum(quotas))
        sample = sampler(concurrency, total)
        scheduling = steps.scheduling
        episode = _Episode(reference, reference if self.model is not None else None, seed, counts)
        steps.episode = episode
        try:
            for made in range(total):
                if source is not None:
                    source.begin_pick()
                # Where the call is preempted (0: never), drawn first: a step moved to another
                # branch keeps its point, so the shrinker can trade a preemption for a move.
                point = scheduling.by(concurrency.limit, lambda stream: sample(stream, made))
                open_lanes = [k for k, lane in enumerate(lanes) if len(lane) < quotas[k]] or [0]
                lane = steps.lanes.by(len(lanes), lambda stream: open_lanes[stream.integer(0, len(open_lanes))])
                try:
                    action, args = steps.pick()
                except NoMoreElements:
                    break
                step = Step(action, args)
                lanes[lane].append(step)
                if lane:
                    preempt[lane - 1].append(point)
                episode.count(action, "tried")
                if reference is not None:
                    try:
                        episode.settle(self._model_step(action, args)(reference))
                    except Exception:  # noqa: S110 - an error is a result: the reference goes on
                        pass
            if source is not None:
                source.begin_pick()  # the choices among ready branches
            decisions = Decisions(preempt, lambda n: scheduling.by(n, lambda stream: stream.integer(0, n)))
            history = self._run_lanes(system, lanes, decisions)
        finally:
            steps.episode = None
            episode.close()
        return self._judge(system, lanes, history, counts)

    def _run_lanes(self, system: Any, lanes: list[list[Step]], decisions: Decisions) -> History:
        concurrency = self.concurrency
        assert concurrency is not None

        def call(step: Step) -> Callable[[], Any]:
            return functools.partial(step.action.run, system, step.args)

        texts = [[step.action.call_text(self._variable, step.args) for step in lane] for lane in lanes]
        functions = [a.fn for a in self.action_list or () if not isinstance(a.fn, str)]
        return run_history(
            system, [call(s) for s in lanes[0]], [[call(s) for s in lane] for lane in lanes[1:]], decisions,
            tasks=concurrency.tasks, preemption=concurrency.preemption, code=system_code(system, functions), texts=texts,
        )

    def _judge(self, system: Any, lanes: list[list[Step]], history: History, counts: Any) -> _Trace:
        """The verdict on a concurrent history: a deadlock, no linearization, a failed
        expectation, or an invariant false once the branches joined."""
        for record in history.calls:
            step = lanes[record.branch + 1][record.index]
            step.result, step.exception = record.result, record.exception
            step.awaited = type(record.result) is CoroutineType
        done = [step for lane in lanes for step in lane]
        shown = history.side_by_side()

        def failed(kind: str, message: str, exception: BaseException, origin: Any, **more: Any) -> _Trace:
            return _Trace(done, _Failure(kind, message, exception, origin, **more), history, lanes)

        if history.deadlock is not None:
            message = f"deadlock: {history.deadlock}\n{shown}"
            return failed("deadlock", message, AssertionError(message), ("deadlock",))
        steps = [[self._model_step(s.action, s.args) for s in lane] for lane in lanes]
        found = history.linearization(self._reference(), steps[1:], steps[0], self._reference)
        if found is None:
            message = f"no sequential order of the calls explains their results:\n{shown}"
            return failed("linearizability", message, AssertionError(message), ("linearizability",))
        for record in history.calls:
            step = lanes[record.branch + 1][record.index]
            expect = step.action.expect
            if expect is NO_EXPECTATION or step.exception is not None:
                continue
            try:
                holds = expect(step.result) if callable(expect) else _equal(step.result, expect)
                if type(holds) is CoroutineType:
                    holds = _settled(holds)
            except (KeyboardInterrupt, InvalidTest, RunInterrupted):
                raise
            except BaseException as exc:  # noqa: B036 - an expectation that raises does not hold
                message = f"{record.text} returned {safe_repr(step.result)}; the expectation raised {_said(exc)}\n{shown}"
                return failed("expect", message, exc, ("expect", step.action.name, *origin_of(exc)))
            if not holds:
                message = f"{record.text} returned {safe_repr(step.result)}, against the expectation\n{shown}"
                return failed("expect", message, AssertionError(message), ("expect", step.action.name))
        model = found.model if self.model is not None else None
        for check in self.invariants:
            name = getattr(check, "__name__", "invariant")
            try:
                holds = call_with_state(check, system, model)
                if type(holds) is CoroutineType:
                    holds = _settled(holds)
            except (KeyboardInterrupt, InvalidTest, RunInterrupted):
                raise
            except BaseException as exc:  # noqa: B036
                message = f"invariant {name} failed after the branches: {_said(exc)}\n{shown}"
                return failed("invariant", message, exc, ("invariant", name, *origin_of(exc)), check=check)
            if holds is False:
                message = f"invariant {name} is false after the branches\n{shown}"
                return failed("invariant", message, AssertionError(message), ("invariant", name), check=check)
        return _Trace(done, None, history, lanes)

    # -- replays ----------------------------------------------------------------------------------
    def _wiring(self) -> _Steps:
        return self.steps.duplicate()

    def attempt(self, tape: Tape) -> Attempt:
        """Replay a recorded trace on a fresh system (a fresh copy of the action wiring)."""
        session = _MonkeySession(self, 0)
        try:
            return session.attempt(tape.picks, list(tape.draws), None)
        finally:
            session.close()

    def _actions(self) -> list[Action]:
        """Every action: the list given, or those a picker of actions holds."""
        found: list[Action] = list(self.action_list or ())
        if self.action_list is None:
            for _, node in upstream(self.steps):
                value = getattr(node, "value", None)
                for item in value if isinstance(value, (list, tuple)) else (value,):
                    if isinstance(item, Action):
                        found.append(item)
        return found

    def _learning_arguments(self) -> bool:
        """Whether an argument picker of an action learns from its values (a guided picker)."""
        return any(learns(p) for action in self._actions() for p in action.args.values())

    def _check_model(self, model: Any) -> None:
        """A model (a class, or one model object) must have a counterpart for every action
        compared in lockstep: a missing method would silently turn the check off."""
        for action in self._actions():
            wanted = action.model if isinstance(action.model, str) else (action.fn if action.model is None else None)
            if isinstance(wanted, str) and not callable(getattr(model, wanted, None)):
                shown = getattr(model, "__name__", type(model).__name__)
                raise TypeError(
                    f"model {shown} has no method {wanted!r} for the action {action.name!r}: give the model one, "
                    f"or declare the action with model=False (no lockstep check for it)"
                )

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
        return kinds_of(self.steps)

    def may_copy(self) -> bool:
        return True

    def shown(self, attempt: Attempt, seed: int) -> Any:
        return {"trace": attempt.value.steps}

    def conclude(self, report: TestReport, best: Attempt, confirmed: Attempt) -> None:
        assert isinstance(report, MonkeyReport)
        trace: _Trace = best.value
        report.trace = trace.steps
        report.smallest = {"trace": trace.steps}
        if report.first is not None:
            report.first_trace = report.first["trace"]
        if trace.failure is not None:
            report.failure = trace.failure.message
            if not report.flaky:
                report.exception = trace.failure.exception
        report.program = self.program(trace)
        report.history = trace.history

    def finish(self, report: TestReport, seed: int) -> None:
        pass

    def outcome(self, value: Any) -> list[str]:
        """What a trace did, step by step, as text: two plays of the same draws on fresh systems
        must do the same (memory addresses left out of the results)."""
        steps = value["trace"] if isinstance(value, dict) else value.steps
        return [
            f"{step.text(self._variable)} " + (f"raised {type(step.exception).__name__}" if step.exception is not None
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
            arguments={"trace": [step.text(self._variable) for step in steps]}, status_reason=reason, how_generated="generated",
            features=features, timing=timing, metadata={"seed": seed, "index": index},
        )

    def _record(self, seed: int, index: int) -> tuple[_Trace, Tape]:
        steps = self._wiring().set_seed(_trace_seed(seed, index))
        recorder = Recorder()
        with routed(steps, recorder):
            trace = self._trace(steps, recorder, _trace_seed(seed, index), self.picks)
        return trace, recorder.tape

    # -- the report's program --------------------------------------------------------------------------
    def program(self, trace: _Trace) -> str:
        """A Python program that performs ``trace`` on a fresh system and fails the same way."""
        variable = _variable(self.system)
        imports: dict[str, set[str]] = collections.defaultdict(set)
        notes: list[str] = []

        def name_of(obj: Any) -> str:
            qualified = str(getattr(obj, "__qualname__", None) or type(obj).__qualname__)
            module = getattr(obj, "__module__", None)
            head = qualified.split(".")[0]
            # Import what its module really holds; a class of __main__ or of a notebook is
            # taken to be defined where the program runs.
            if module and "<" not in qualified and getattr(sys.modules.get(module), head, None) is not None:
                if module != "__main__":
                    imports[module].add(head)
            elif "<locals>" in qualified:
                notes.append(f"# {qualified} is defined inside a function: define it before running this program")
            return qualified

        factory = self.system if (isinstance(self.system, type) or not hasattr(self.system, "reset")) else type(self.system)
        body = [f"{variable} = {name_of(factory)}()"]
        if trace.history is not None and trace.lanes is not None:
            body.extend(self._concurrent_program(trace.history, trace.lanes, variable, name_of))
            imports["functools"].add("*")
            header = [
                f"import {module}" if names == {"*"} else f"from {module} import {', '.join(sorted(names))}"
                for module, names in sorted(imports.items())
            ] + ["import synthia as sy"]
            return "\n".join([*dict.fromkeys(notes), *header, "", *body])
        if trace.failure is not None and trace.failure.kind == "setup":
            made = trace.failure.made
            if made is not self.system:  # the model failed to be made
                body.append(f"{name_of(made)}()  # the model: raises {type(trace.failure.exception).__name__}")
            else:
                body[0] = f"{name_of(factory)}()  # raises {type(trace.failure.exception).__name__}"
            header = [f"from {module} import {', '.join(sorted(names))}" for module, names in sorted(imports.items())]
            return "\n".join([*dict.fromkeys(notes), *header, *body])
        def exception_name(kind: type[BaseException]) -> str:
            # An exception class the program names must be imported (a builtin needs nothing).
            return kind.__qualname__ if kind.__module__ == "builtins" else name_of(kind)

        failure = trace.failure
        check = failure.check if failure is not None else None
        # An invariant of (system, model) needs the model, stepped along with the system.
        with_model = self.model is not None and check is not None and getattr(check, "method_name", None) is None and _arity(check) >= 2
        if with_model:
            model_factory = self.model if (isinstance(self.model, type) or not hasattr(self.model, "reset")) else type(self.model)
            body.append(f"model = {name_of(model_factory)}()")
        for step in trace.steps[:-1] if failure else trace.steps:
            if not isinstance(step.action.fn, str):
                name_of(step.action.fn)
            if step.exception is not None:
                exception_name(type(step.exception))
            body.extend(_guarded(step.text(variable), step.exception))
            if with_model:
                body.extend(_guarded(step.model_text("model"), None, model_step=True))
        if failure is not None:
            last = trace.steps[-1]
            if not isinstance(last.action.fn, str):
                name_of(last.action.fn)
            call = last.text(variable)
            if failure.kind == "raised":
                body.append(f"{call}  # raises {type(failure.exception).__name__}")
            elif failure.kind == "mismatch" and not isinstance(failure.expected, BaseException):
                body.append(f"assert {call} == {safe_repr(failure.expected)}  # the model's result")
            elif failure.kind == "mismatch":
                raised = exception_name(type(failure.expected))
                body.extend([
                    "try:", f"    {call}", f"except {raised}:", "    pass  # as the model does",
                    "else:", f"    raise AssertionError({f'{call} did not raise {raised}, as the model does'!r})",
                ])
            elif failure.kind == "expect":
                expected = failure.expected
                if callable(expected):
                    text = _expression_of(expected)
                    if text is None:
                        notes.append(f"# the expectation {getattr(expected, '__qualname__', expected)!r} has no source here: define it as expect")
                        text = "expect"
                    elif not text.startswith("lambda"):
                        text = name_of(expected)
                    body.append(f"assert {'await ' if failure.awaited else ''}({text})({call})  # the action's expectation")
                else:
                    body.append(f"assert {call} == {safe_repr(expected)}  # the action's expectation")
            else:
                if last.exception is not None:
                    exception_name(type(last.exception))
                body.extend(_guarded(call, last.exception))
                if with_model:
                    body.extend(_guarded(last.model_text("model"), None, model_step=True))
                method = getattr(check, "method_name", None)
                wait = "await " if failure.awaited else ""
                if method is not None:
                    body.append(f"assert {wait}{variable}.{method}() is not False  # invariant")
                elif with_model:
                    body.append(f"assert {wait}{name_of(check)}({variable}, model) is not False  # invariant")
                else:
                    body.append(f"assert {wait}{name_of(check)}({variable}) is not False  # invariant")
        if any(line.startswith("with contextlib.suppress") for line in body):
            imports["contextlib"].add("*")
        body = _as_script(body, variable, any(step.awaited or step.model_awaited for step in trace.steps), imports)
        header = [
            f"import {module}" if names == {"*"} else f"from {module} import {', '.join(sorted(names))}"
            for module, names in sorted(imports.items())
        ]
        return "\n".join([*dict.fromkeys(notes), *header, *body])

    def _concurrent_program(self, history: History, lanes: list[list[Step]], variable: str, name_of: Callable[[Any], str]) -> list[str]:
        """The statements that replay a concurrent trace under its recorded schedule with
        :func:`synthia.interleave`, then check the history against the sequential model."""
        concurrency = self.concurrency
        assert concurrency is not None

        def partial(step: Step) -> str:
            if not isinstance(step.action.fn, str):
                name_of(step.action.fn)
            text = step.action.call_text(variable, step.args)
            head, _, rest = text.partition("(")
            rest = rest[:-1]
            return f"functools.partial({head}{', ' + rest if rest else ''})"

        def model_step(step: Step) -> str:
            action = step.action
            if self.model is None:
                return f"lambda m: {action.call_text('m', step.args)}"
            if action.model is False or (action.model is None and not isinstance(action.fn, str)):  # no counterpart
                return "lambda m: sy.ANY_RESULT"
            if callable(action.model) and not isinstance(action.model, bool):
                name_of(action.model)
            return f"lambda m: {action.model_text('m', step.args)}"

        def listed(items: list[str], indent: str) -> str:
            return "[" + "".join(f"\n{indent}    {item}," for item in items) + (f"\n{indent}]" if items else "]")

        branches = "".join(f"\n    {listed([partial(s) for s in lane], '    ')}," for lane in lanes[1:])
        choices = list(history.choices)
        while choices and choices[-1] == 0:  # a replay goes on with 0 (the next branch)
            choices.pop()
        options = [f"schedule={history.schedule}"] + ([f"choices={choices}"] if choices else [])
        if lanes[0]:
            options.append(f"prefix={listed([partial(s) for s in lanes[0]], '')}")
        if concurrency.tasks:
            options.append("tasks=True")
        elif concurrency.preemption != "action":
            options.append(f"preemption={concurrency.preemption!r}")
        model = self.model if self.model is not None else self.system
        factory = model if (isinstance(model, type) or not hasattr(model, "reset")) else type(model)
        steps = "".join(f"\n    {listed([model_step(s) for s in lane], '    ')}," for lane in lanes[1:])
        check = [f"model = {name_of(factory)}()", f"assert history.linearizable(model, [{steps}\n]"]
        if lanes[0]:
            check[-1] += f", prefix={listed([model_step(s) for s in lanes[0]], '')}"
        check[-1] += '), "no sequential order of the calls explains their results"'
        return [
            f"history = sy.interleave({variable}, [{branches}\n], {', '.join(options)})",
            "print(history)",
            *check,
        ]

    # -- explanation -------------------------------------------------------------------------------
    def explain_trace(self, tape: Tape, seed: int, redraws: int = 3) -> TraceExplanation:
        """See :meth:`MonkeyReport.explain`."""
        base = self.attempt(tape)
        if base.status != FAIL or base.tape is None:
            raise ValueError("the trace does not fail when replayed")
        replayed = base.tape
        trace: _Trace = base.value
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
        return TraceExplanation(trace.steps, necessary, free, _variable(self.system))


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
            trace = self.monkey._trace(steps, replayer, self.seed, min(picks, self.monkey.picks))
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
        self.learners = _Learners(seed)
        #: A run whose argument pickers learn records every trace as it plays it: such a
        #: trace cannot be played again from its seed alone.
        self.learning = monkey._learning_arguments()
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
                trace = monkey._trace(steps, None, seed, monkey.picks, self.counts, self.learners)
            else:
                with routed(steps, recorder):
                    trace = monkey._trace(steps, recorder, seed, monkey.picks, self.counts, self.learners)
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


def _settled(value: Any) -> Any:
    """Run a coroutine (an async expectation or invariant of a concurrent trace) to its end."""
    return asyncio.run(value)


def _as_script(body: list[str], variable: str, awaits: bool, imports: dict[str, set[str]]) -> list[str]:
    """The program's statements, inside ``async def test_...()`` run by ``asyncio.run`` when
    a step awaits (an async system): the program still runs as a script."""
    if not awaits:
        return body
    imports["asyncio"].add("*")
    name = f"test_{variable}"
    return [f"async def {name}():", *[f"    {line}" for line in body], "", "", f"asyncio.run({name}())"]


def _guarded(call: str, raised: BaseException | None, model_step: bool = False) -> list[str]:
    """A step of a program: a step that raised an exception the check accepted (declared in
    ``raises``, or raised by the model as well) is run so that the program goes on."""
    if model_step:
        return ["with contextlib.suppress(Exception):  # the model", f"    {call}"]
    if raised is None:
        return [call]
    return [f"with contextlib.suppress({type(raised).__name__}):", f"    {call}"]


def _expression_of(fn: Callable[..., Any]) -> str | None:
    """The source of a lambda (or the name of a function), for a program to print: the
    expression that starts at a ``lambda`` of the lines that define it and parses as one
    taking the same parameters (``None`` when there is no source, or no single such lambda)."""
    if getattr(fn, "__name__", "") != "<lambda>":
        return getattr(fn, "__qualname__", None)
    try:
        source = inspect.getsource(fn)
    except (OSError, TypeError):
        return None
    code = fn.__code__
    wanted = list(code.co_varnames[: code.co_argcount])
    found: list[str] = []
    for match in re.finditer(r"\blambda\b", source):
        start = match.start()
        for end in range(min(len(source), start + 400), start, -1):
            try:
                node = ast.parse(source[start:end].strip(), mode="eval").body
            except SyntaxError:
                continue
            if isinstance(node, ast.Tuple) and node.elts:  # "lambda x: ..., next_argument"
                node = node.elts[0]
            if isinstance(node, ast.Lambda) and [a.arg for a in node.args.args] == wanted:
                found.append(ast.unparse(node))
            break
    return found[0] if len(set(found)) == 1 else None


def _said(exc: BaseException) -> str:
    """``Type: message`` of an exception, even one whose ``str`` raises."""
    try:
        text = str(exc)
    except Exception:
        text = "<its str raised>"
    return f"{type(exc).__name__}: {text}"


def _equal(result: Any, expected: Any) -> bool:
    """Whether the system's result equals the model's; a comparison that raises or gives no
    plain truth value (numpy arrays) is settled by ``repr`` or counts as unequal."""
    try:
        return bool(result == expected)
    except Exception:
        return safe_repr(result) == safe_repr(expected)


def _arity(fn: Callable[..., Any]) -> int:
    try:
        return sum(
            1 for p in inspect.signature(fn).parameters.values()
            if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) and p.default is p.empty
        )
    except (TypeError, ValueError):
        return 1


def _trace_seed(seed: int, index: int) -> int:
    return derive_seed(seed, f"trace/{index}")


def _variable(system: Any) -> str:
    """The program's name for the system (see :func:`~synthia.testing.actions.variable_name`)."""
    return variable_name(system)


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
