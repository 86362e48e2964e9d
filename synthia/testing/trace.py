"""One trace of a :class:`~synthia.Monkey`: the machine under test, its steps, and playing them.

A *trace* starts from a fresh (or reset) system -- and model -- and performs up to
``max_steps`` actions. Each step chooses an action (among the *enabled* ones, so no step is
wasted on a failing precondition), draws its arguments, performs it on the system and, when
there is a model, on the model too, then checks the result against the model's (lockstep),
the action's expectation and the invariants. The first step that fails ends the trace.

Every choice and argument is a typed draw, and every step is a top-level pick of the
:class:`StepPicker`, so a failing trace is recorded as a tape and shrunk by the generic
shrinker like any input. A concurrent trace is played by :mod:`~synthia.testing.concurrent`;
a trace is printed as a program by :mod:`~synthia.testing.program`.
"""
from __future__ import annotations

import asyncio
import collections
from contextlib import ExitStack
from dataclasses import dataclass
from types import CoroutineType
from typing import Any, Callable, Sequence, TypeVar

from ..core.draws import DrawSource, current_route, leave_routes, restore_current_route, routed
from ..core.exceptions import NoMoreElements
from ..core.graph import learns, notify_failure, picker_notes, upstream
from ..core.picker import Picker, RandomPicker
from ..core.random import derive_seed
from ..engine.coverage import bucket
from ..engine.proposals import FAIL
from ..engine.report import InvalidTest, RunInterrupted, safe_repr
from .actions import NO_EXPECTATION, Action, _positional_arity, call_with_state, variable_name
from .bundles import BundleValue, Bundles
from .eventloop import VirtualLoop, close_loop, run_loop
from .verdict import origin_of, verdict
from .scheduler import Concurrency, History

__all__ = ["Machine", "Step", "Failure", "Trace", "StepPicker", "Episode", "Learners", "trace_class", "fresh", "said", "equal"]

#: A trace's class: the names of its first ``TRACE_PREFIX`` actions and its length's bucket.
TRACE_PREFIX = 3

T = TypeVar("T")


def trace_class(steps: Sequence["Step"], prefix: int = TRACE_PREFIX) -> tuple[Any, ...]:
    """The class of a trace for the stopping rules' coverage statistics: the names of its
    first ``prefix`` actions and the bit length of its number of steps (0, 1, 2-3, 4-7...).

    >>> trace_class([Step(Action("push"), {}), Step(Action("pop"), {})])
    (('push', 'pop'), 2)
    """
    return tuple(step.action.name for step in steps[:prefix]), bucket(len(steps))

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
    #: The variables the step's result was put in, in its action's target bundle.
    made: tuple[str, ...] = ()

    def text(self, target: str = "system", name: str | None = None, full: bool = False) -> str:
        """The step as a line of Python on ``target`` (see :meth:`Action.call_text`)."""
        call = self.action.call_text(target, self.args, name, full)
        return f"await {call}" if self.awaited else call

    def model_text(self, target: str = "model", name: str | None = None, full: bool = False) -> str:
        """The model's counterpart of the step as a line of Python on ``target``."""
        call = self.action.model_text(target, self.args, name, full)
        return f"await {call}" if self.model_awaited else call

    def __repr__(self) -> str:
        return self.text()


class StepCall:
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
class Failure:
    kind: str  # "setup", "raised", "mismatch", "expect", "invariant", "teardown"
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
class Trace:
    steps: list[Step]
    failure: Failure | None
    #: A concurrent trace's history: its prefix and branches, the schedule, what each call did.
    history: History | None = None
    #: A concurrent trace's steps: the prefix's, then each branch's.
    lanes: list[list[Step]] | None = None


def running_sums(weights: Sequence[float]) -> list[float]:
    total, cumulative = 0.0, []
    for w in weights:
        total += w
        cumulative.append(total)
    return cumulative


class Chooser(RandomPicker[int]):
    """Chooses among the enabled actions by weight (its draws are the monkey's choices)."""

    def __init__(self) -> None:
        self._init_stream(None)

    def choose(self, weights: Sequence[float]) -> int:
        return self.among(running_sums(weights))

    def among(self, cumulative: list[float]) -> int:
        """An index by weights given as running sums (one typed draw)."""
        return self._stream.weighted(cumulative)

    def by(self, n: int, sample: Callable[[Any], int]) -> int:
        """An integer of ``[0, n)`` drawn by ``sample`` (one typed draw, ``0`` simplest)."""
        return self._stream.integer_by(0, n, sample)

    def pick(self) -> int:  # pragma: no cover - the monkey picks through its stream
        return self.choose([1.0])


class Learners:
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


class Episode:
    """The state of one trace: the system, the model, and seeded copies of the argument pickers."""

    def __init__(
        self, system: Any, model: Any, seed: int, counts: dict[str, collections.Counter[str]] | None,
        learners: Learners | None = None,
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
        #: The values the trace's actions put in bundles.
        self.bundles = Bundles()
        #: The initializing actions that have not run yet in this trace.
        self.initial: list[Action] = []

    def settle(self, value: Any) -> Any:
        """``value``, or what it returns when awaited if it is a coroutine: an async action,
        model, precondition, expectation or invariant runs to completion on the trace's own
        event loop (one task at a time: the same seed gives the same trace), whose clock is
        virtual (timers fire at once, in order) and which runs in a worker thread when another
        loop runs in this one (a notebook's)."""
        if type(value) is not CoroutineType:
            return value
        if self.loop is None:
            self.loop = VirtualLoop()
        return run_loop(self.loop, value)

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

    def reference(self, action: Action, name: str, chooser: "Chooser") -> BundleValue:
        """Argument ``name`` of ``action``, drawn from its bundle: an index among the values
        there (one typed draw, the oldest value simplest), taken out when it consumes."""
        bundle, consume = action.bundled[name]
        size = self.bundles.size(bundle)
        source = None if self.route is None else self.route.source
        if source is not None:
            source.open_span(("argument", name))
        try:
            index = chooser.by(size, lambda stream: stream.integer(0, size))
        finally:
            if source is not None:
                source.close_span()
        return self.bundles.take(bundle, index, consume)

    def count(self, action: Action, what: str) -> None:
        """Count ``action`` as ``what`` ("tried", "failed") in the discovery's statistics."""
        if self.counts is not None:
            self.counts[what][action.name] += 1

    def close(self) -> None:
        self._stack.close()
        if self.loop is not None:
            close_loop(self.loop)
            self.loop = None


class StepPicker(Picker[tuple[Action, dict[str, Any]]]):
    """The monkey's wiring: each pick is one step -- an action and its arguments."""

    inputs_fields = ("source", "chooser", "lanes", "scheduling", "refs")

    def __init__(self, actions: list[Action] | None, source: Picker[Any] | None, concurrent: bool = False) -> None:
        self.initial = [a for a in actions or () if a.initialize]
        self.actions = [a for a in actions if not a.initialize] if actions is not None else None
        self.source = source
        self.chooser = Chooser() if actions is not None else None
        #: Which value of a bundle an argument takes (only when an action draws from one).
        self.refs = Chooser() if any(a.bundled for a in actions or ()) else None
        #: A concurrent trace's choices: where each step goes (the prefix or a branch), and
        #: the scheduler's decisions.
        self.lanes = Chooser() if concurrent else None
        self.scheduling = Chooser() if concurrent else None
        self.episode: Episode | None = None
        self._queue: list[Any] = []
        #: The running sums of the weights when no action has a precondition (every action is
        #: always enabled: nothing to work out per step), else ``None``.
        self._always: list[float] | None = None
        #: Steps at which every action was enabled (with ``_always``), since the counter was read.
        self.always_enabled = 0
        if self.actions is not None and all(a.precondition is None and not a.bundled for a in self.actions):
            self._always = running_sums([a.weight for a in self.actions])

    def pick(self) -> tuple[Action, dict[str, Any]]:
        episode = self.episode
        assert episode is not None
        actions = self.actions
        if episode.initial:
            chosen = episode.initial.pop(0)
        elif actions is not None:
            cumulative = self._always
            if cumulative is None:
                system, model = episode.system, episode.model
                enabled = [a for a in actions if (not a.bundled or episode.bundles.enough(a.bundled)) and a.enabled(system, model, episode.settle)]
                if not enabled:
                    raise NoMoreElements("no action is enabled")
                cumulative = running_sums([a.weight for a in enabled])
                if episode.counts is not None:
                    episode.counts["enabled"].update(a.name for a in enabled)
            else:
                enabled = actions
                self.always_enabled += 1  # every action was enabled: counted once per run
            assert self.chooser is not None
            chosen = enabled[self.chooser.among(cumulative)]
        else:
            chosen = self._next_enabled(episode)
        if chosen.bundled:
            assert self.refs is not None
            args = chosen.args
            return chosen, {
                name: episode.reference(chosen, name, self.refs) if name in chosen.bundled else episode.argument(chosen, name, args[name])
                for name in chosen.argument_names
            }
        if not chosen.args:
            return chosen, {}
        return chosen, {name: episode.argument(chosen, name, p) for name, p in chosen.args.items()}

    def _next_enabled(self, episode: Episode) -> Action:
        assert self.source is not None
        for _ in range(100):
            if not self._queue:
                value = self.source.pick()
                self._queue = list(value) if isinstance(value, (list, tuple)) else [value]
            candidate = self._queue.pop(0)
            if not isinstance(candidate, Action):
                raise TypeError(f"actions must pick Actions (or lists of them), got {candidate!r} from {self.source!r}")
            if (not candidate.bundled or episode.bundles.enough(candidate.bundled)) and candidate.enabled(episode.system, episode.model, episode.settle):
                episode.count(candidate, "enabled")
                return candidate
        raise NoMoreElements("no enabled action in 100 draws of the action source")

    def _reset_self(self) -> None:
        self._queue = []


def fresh(factory_or_object: Any) -> Any:
    """A fresh system (or model): a factory is called, an object is reset."""
    if factory_or_object is None:
        return None
    if isinstance(factory_or_object, type) or not hasattr(factory_or_object, "reset"):
        return factory_or_object()
    factory_or_object.reset()
    return factory_or_object


class Machine:
    """The system under test as a :class:`~synthia.Monkey` drives it: the ``system`` factory
    (or object with ``reset()``), the ``model`` (or ``None``), the actions (a list, or a
    ``source`` picker of actions), the ``invariants``, the most steps of a trace, the
    concurrent mode (or ``None``) and the ``teardown``. :meth:`play` plays one trace on a
    fresh system."""

    def __init__(
        self, system: Any, model: Any, action_list: list[Action] | None, source: Picker[Any] | None,
        invariants: list[Callable[..., Any]], max_steps: int, concurrency: Concurrency | None,
        teardown: Callable[..., Any] | None = None,
    ) -> None:
        self.system = system
        self.model = model
        self.action_list = action_list
        #: The action wiring: each pick is one step.
        self.steps = StepPicker(action_list, source, concurrency is not None)
        self.invariants = invariants
        #: What runs after every trace (a failing one too): ``teardown(system)``, or with a
        #: model, like an invariant, ``teardown(system, model)`` when it takes two arguments.
        self.teardown = teardown
        self.system_checked = False
        self.max_steps = max_steps
        self.concurrency = concurrency
        #: The program's name for the system.
        self.variable = variable_name(system)
        # A model class or object is checked now; a factory function on its first model.
        self.model_checked = model is None
        if isinstance(model, type) or (model is not None and hasattr(model, "reset")):
            self.check_model(model)
            self.model_checked = True

    @property
    def picks(self) -> int:
        """The most top-level picks a trace takes: its steps (and, concurrent, its schedule)."""
        c = self.concurrency
        return self.max_steps if c is None else c.picks

    def actions(self) -> list[Action]:
        """Every action: the list given, or those a picker of actions holds."""
        found: list[Action] = list(self.action_list or ())
        if self.action_list is None:
            for _, node in upstream(self.steps):
                value = getattr(node, "value", None)
                for item in value if isinstance(value, (list, tuple)) else (value,):
                    if isinstance(item, Action):
                        found.append(item)
        return found

    def learning_arguments(self) -> bool:
        """Whether an argument picker of an action learns from its values (a guided picker)."""
        return any(learns(p) for action in self.actions() for p in action.args.values())

    def check_model(self, model: Any) -> None:
        """A model (a class, or one model object) must have a counterpart for every action
        compared in lockstep: a missing method would silently turn the check off."""
        for action in self.actions():
            wanted = action.model if isinstance(action.model, str) else (action.fn if action.model is None else None)
            if isinstance(wanted, str) and not callable(getattr(model, wanted, None)):
                shown = getattr(model, "__name__", type(model).__name__)
                raise TypeError(
                    f"model {shown} has no method {wanted!r} for the action {action.name!r}: give the model one, "
                    f"or declare the action with model=False (no lockstep check for it)"
                )

    def play(
        self, steps: StepPicker, source: DrawSource | None, seed: int, max_steps: int, counts: Any = None,
        learners: Learners | None = None,
    ) -> Trace:
        try:
            system = _own(fresh, self.system)
            model = _own(fresh, self.model)
        except (KeyboardInterrupt, InvalidTest, RunInterrupted):
            raise
        except BaseException as exc:  # noqa: B036 - a system that cannot be made is a failure, with its report
            which = "system" if "system" not in locals() else "model"
            made = self.system if which == "system" else self.model
            message = f"making the {which} raised {said(exc)}"
            return Trace([], Failure("setup", message, exc, ("setup", which, *origin_of(exc)), made=made))
        if not self.model_checked:
            self.check_model(model)
            self.model_checked = True
        if not self.system_checked:
            self.check_system(system)
            self.system_checked = True
        episode = Episode(system, model, seed, counts, learners)
        episode.initial = list(steps.initial)
        steps.episode = episode
        done: list[Step] = []
        failure: Failure | None = None
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
                failure = _own(self.perform, step, system, model, episode)
                if failure is not None:
                    episode.count(action, "failed")
                    break
            if self.teardown is not None:
                failure = _own(self.torn_down, system, model, episode, failure)
            return Trace(done, failure)
        finally:
            steps.episode = None
            episode.close()

    def torn_down(self, system: Any, model: Any, episode: Episode, failure: Failure | None) -> Failure | None:
        """Run the teardown after a trace (a failing one too): a teardown that raises after a
        passing trace is the trace's failure; after a failing one the first failure stands."""
        assert self.teardown is not None
        try:
            both = _positional_arity(self.teardown) >= 2
            episode.settle(self.teardown(system, model) if both else self.teardown(system))
        except (KeyboardInterrupt, InvalidTest, RunInterrupted):
            raise
        except BaseException as exc:  # noqa: B036 - whatever teardown raises is reported
            if failure is None:
                name = getattr(self.teardown, "__name__", "teardown")
                return Failure("teardown", f"teardown {name} raised {said(exc)}", exc, ("teardown", *origin_of(exc)), check=self.teardown)
        return failure

    def check_system(self, system: Any) -> None:
        """Every action given by a method's name needs that method on the system: a missing
        one is an error of the test (an :class:`InvalidTest`), never a bug found by a trace."""
        for action in self.actions():
            if isinstance(action.fn, str) and not callable(getattr(system, action.fn, None)):
                raise InvalidTest(
                    f"the system {type(system).__qualname__} has no method {action.fn!r} for the action {action.name!r}"
                )

    def perform(self, step: Step, system: Any, model: Any, episode: Episode) -> Failure | None:
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
        call = StepCall(step, self.variable)
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
                    did = f"returned {safe_repr(step.result)}" if raised is None else f"raised {said(raised)}"
                    message = f"{call} {did}; the model raises {said(model_raised)}"
                    return Failure("mismatch", message, AssertionError(message), ("mismatch", call.what), model_raised)
            elif raised is not None:
                if not isinstance(raised, action.raises):
                    return Failure("raised", f"{call} raised {said(raised)}", raised, ("raised", *origin_of(raised)))
                message = f"{call} raised {said(raised)}; the model returns {safe_repr(expected)}"
                return Failure("mismatch", message, AssertionError(message), ("mismatch", call.what), expected)
            elif not equal(step.result, expected):
                message = f"{call} returned {safe_repr(step.result)}; the model returns {safe_repr(expected)}"
                return Failure("mismatch", message, AssertionError(message), ("mismatch", call.what), expected)
        elif raised is not None and not isinstance(raised, action.raises):
            return Failure("raised", f"{call} raised {said(raised)}", raised, ("raised", *origin_of(raised)))
        if action.expect is not NO_EXPECTATION and raised is None:
            try:
                holds = action.expect(step.result) if callable(action.expect) else equal(step.result, action.expect)
                awaited = type(holds) is CoroutineType
                holds = episode.settle(holds)
            except (KeyboardInterrupt, InvalidTest, RunInterrupted):
                raise
            except BaseException as exc:  # noqa: B036 - an expectation that raises does not hold
                message = f"{call} returned {safe_repr(step.result)}; the expectation raised {said(exc)}"
                return Failure("expect", message, exc, ("expect", call.what, *origin_of(exc)), action.expect)
            if verdict(holds, f"the expectation of {action.name!r}") == FAIL:
                message = f"{call} returned {safe_repr(step.result)}, against the expectation"
                return Failure("expect", message, AssertionError(message), ("expect", call.what), action.expect, awaited=awaited)
        if action.target is not None and raised is None:
            step.made = tuple(episode.bundles.put(action.target, step.result))
        if episode.initial:  # invariants hold once every initializing action ran
            return None
        for check in self.invariants:
            name = getattr(check, "__name__", "invariant")
            awaited = False
            guard = getattr(check, "precondition", None)
            if guard is not None and not episode.settle(call_with_state(guard, system, model)):
                continue
            try:
                holds = call_with_state(check, system, model)
                awaited = type(holds) is CoroutineType
                holds = episode.settle(holds)
            except (KeyboardInterrupt, InvalidTest, RunInterrupted):
                raise
            except BaseException as exc:  # noqa: B036
                message = f"invariant {name} failed after {call}: {said(exc)}"
                return Failure("invariant", message, exc, ("invariant", name, *origin_of(exc)), check=check, awaited=awaited)
            if verdict(holds, f"the invariant {name}") == FAIL:
                message = f"invariant {name} is false after {call}"
                return Failure("invariant", message, AssertionError(message), ("invariant", name), check=check, awaited=awaited)
        return None


def said(exc: BaseException) -> str:
    """``Type: message`` of an exception, even one whose ``str`` raises."""
    try:
        text = str(exc)
    except Exception:
        text = "<its str raised>"
    return f"{type(exc).__name__}: {text}"


def equal(result: Any, expected: Any) -> bool:
    """Whether the system's result equals the model's; a comparison that raises or gives no
    plain truth value (numpy arrays) is settled by ``repr`` or counts as unequal."""
    try:
        return bool(result == expected)
    except Exception:
        return safe_repr(result) == safe_repr(expected)


def _own(call: Callable[..., T], *args: Any) -> T:
    """``call(*args)`` -- the user's system, model and actions -- with no route current: a
    picker it builds (a ``take`` or a ``find`` inside an action) draws from its own stream,
    not from the trace's draws (``sy.draw`` is the way an action draws a part of the trace)."""
    outside = leave_routes()
    try:
        return call(*args)
    finally:
        restore_current_route(outside)
