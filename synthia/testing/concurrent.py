"""The concurrent driver of a :class:`~synthia.Monkey`: a sequential prefix, then branches of
calls in parallel under the controlled scheduler (:mod:`~synthia.testing.scheduler`), and the
verdict on their history -- a deadlock, no linearization against the sequential model
(:mod:`~synthia.testing.linearizability`), an exception the actions do not declare, a failed
expectation, a false invariant.

Each step is a top-level pick (its lane -- the prefix or a branch --, its action and
arguments, then its preemption point); the scheduler's choices among ready branches are the
trace's last pick. So a schedule is recorded, replayed and shrunk with the actions, like any
draw; :mod:`~synthia.testing.schedules` says how discovery draws them. The threading
primitives the system makes while the trace runs (its construction included) are ones the
scheduler sees (:mod:`~synthia.testing.primitives`).
"""
from __future__ import annotations

import contextlib
import functools
from types import CoroutineType
from typing import Any, Callable

from ..core.draws import DrawSource
from ..core.exceptions import NoMoreElements
from ..engine.proposals import FAIL
from ..engine.report import InvalidTest, RunInterrupted, safe_repr
from .actions import NO_EXPECTATION, Action, call_with_state
from .eventloop import VirtualLoop, close_loop, run_loop
from .verdict import origin_of, run_coroutine, verdict
from .linearizability import ANY_RESULT
from .primitives import controlled_primitives
from .scheduler import POINTS, Code, Decisions, History, run_history, system_code
from .schedules import Plan
from .trace import Episode, Failure, Machine, Step, StepPicker, Trace, equal, fresh, said

__all__ = ["play_concurrent"]


def fresh_reference(machine: Machine) -> Any:
    """A fresh sequential model: the model, or (without one) a fresh system, as Lin does."""
    return fresh(machine.model) if machine.model is not None else machine.system()


def model_step(machine: Machine, action: Action, args: dict[str, Any]) -> Callable[[Any], Any]:
    """What ``action`` does on a sequential model (:data:`ANY_RESULT` without a counterpart)."""
    if machine.model is None:
        return lambda reference: action.run(reference, args)

    def step(model: Any) -> Any:
        counterpart = action.model_step(model)
        return ANY_RESULT if counterpart is None else counterpart(args)

    return step


_CODES: dict[tuple[Any, ...], Code] = {}


def code_of(machine: Machine, system: Any) -> Code:
    """The code whose lines are points: the system's class, the actions' functions, ``within``."""
    concurrency = machine.concurrency
    assert concurrency is not None
    functions = tuple(a.fn for a in machine.action_list or () if not isinstance(a.fn, str))
    key = (system if isinstance(system, type) else type(system), functions, concurrency.within)
    code = _CODES.get(key)
    if code is None:
        if len(_CODES) > 256:
            _CODES.clear()
        code = _CODES[key] = system_code(system, functions, concurrency.within)
    return code


def play_concurrent(machine: Machine, steps: StepPicker, source: DrawSource | None, seed: int, picks: int, counts: Any) -> Trace:
    """A sequential prefix, then branches in parallel under the controlled scheduler; the
    results must be linearizable against the sequential model. Each step is a pick (its
    lane, its action and arguments, its preemption point); the schedule's choices are the
    last pick. The system is made, and the trace run, with the threading primitives the
    scheduler sees."""
    concurrency = machine.concurrency
    assert concurrency is not None and steps.lanes is not None and steps.scheduling is not None
    exploration, discovering = concurrency.explorations.for_trace(steps, seed, counts is not None)
    factory = machine.system if isinstance(machine.system, type) else type(machine.system) if hasattr(machine.system, "reset") else None
    early = code_of(machine, factory) if factory is not None else Code()
    window = contextlib.nullcontext() if concurrency.tasks else controlled_primitives(early.modules)
    with window:
        try:
            system = fresh(machine.system)
            # Preconditions see a reference stepped through the actions generated so far.
            # (and steps that put values in bundles: in concurrent mode, what the reference returns).
            needs = any(a.precondition is not None or a.target is not None or a.bundled for a in machine.action_list or ())
            reference = fresh_reference(machine) if needs else None
        except (KeyboardInterrupt, InvalidTest, RunInterrupted):
            raise
        except BaseException as exc:  # noqa: B036 - a system that cannot be made is a failure
            message = f"making the system raised {said(exc)}"
            return Trace([], Failure("setup", message, exc, ("setup", "system", *origin_of(exc)), made=machine.system))
        if not machine.model_checked:
            machine.check_model(fresh(machine.model))
            machine.model_checked = True
        lanes: list[list[Step]] = [[] for _ in range(concurrency.branches + 1)]
        preempt: list[list[int]] = [[] for _ in range(concurrency.branches)]
        #: Per branch, the rank in which each of its calls was made.
        made: list[list[int]] = [[] for _ in range(concurrency.branches)]
        calls = concurrency.branches * concurrency.branch_steps
        total = min(picks - 2, concurrency.prefix + calls)
        plan = Plan(concurrency, exploration)
        scheduling = steps.scheduling
        episode = Episode(reference, reference if machine.model is not None else None, seed, counts)
        steps.episode = episode
        try:
            # The trace's first pick: how many preemptions its schedule may make (the first
            # ones, in the order its calls are made), so that shrinking tries fewer first.
            if source is not None:
                source.begin_pick()
            budget = scheduling.by(calls + 1, plan.budget)
            if concurrency.preemption == "auto":
                plan.preemption = ("line", "opcode")[scheduling.by(2, plan.granularity)]
            for _ in range(total):
                if source is not None:
                    source.begin_pick()
                lane = steps.lanes.by(len(lanes), lambda stream: plan.lane(stream, lanes))
                try:
                    action, args = steps.pick()
                except NoMoreElements:
                    break
                step = Step(action, args)
                lanes[lane].append(step)
                position = len(lanes[lane]) - 1
                # The step's preemption point, drawn last: a step moved to another lane keeps it.
                point = scheduling.by(POINTS, lambda stream: plan.point(stream, lane, position, action.name))
                if lane:
                    preempt[lane - 1].append(point)
                    made[lane - 1].append(sum(len(lane) for lane in lanes))
                episode.count(action, "tried")
                if reference is not None:
                    try:
                        result = episode.settle(model_step(machine, action, args)(reference))
                    except Exception:  # noqa: S110 - an error is a result: the reference goes on
                        pass
                    else:
                        if action.target is not None and result is not ANY_RESULT:
                            step.made = tuple(episode.bundles.put(action.target, result))
                if plan.full(lanes):
                    break
            if source is not None:
                source.begin_pick()  # the choices among ready branches
            honour(preempt, made, budget)
            decisions = Decisions(
                preempt, lambda candidates: scheduling.by(len(candidates), lambda stream: plan.choose(stream, candidates)), plan.switched,
            )
            history = run_lanes(machine, system, lanes, decisions, plan.preemption)
        finally:
            steps.episode = None
            episode.close()
    if discovering:
        drawn = {(record.branch, record.index): decisions.at(record.branch, record.index) for record in history.calls}
        exploration.observe(history.preemption if not concurrency.tasks else "suspension", [
            (lanes[r.branch + 1][r.index].action.name, r.points, drawn[(r.branch, r.index)]) for r in history.calls if r.branch >= 0
        ])
    trace = judge(machine, system, lanes, history, counts)
    if machine.teardown is not None:
        trace.failure = torn_down(machine, system, trace.failure)
    return trace


def torn_down(machine: Machine, system: Any, failure: Failure | None) -> Failure | None:
    """The teardown after the branches joined (see :meth:`Machine.torn_down`)."""
    teardown = machine.teardown
    assert teardown is not None
    try:
        done = teardown(system)
        if type(done) is CoroutineType:
            run_coroutine(done)
    except (KeyboardInterrupt, InvalidTest, RunInterrupted):
        raise
    except BaseException as exc:  # noqa: B036 - whatever teardown raises is reported
        if failure is None:
            name = getattr(teardown, "__name__", "teardown")
            return Failure("teardown", f"teardown {name} raised {said(exc)}", exc, ("teardown", *origin_of(exc)), check=teardown)
    return failure


def honour(preempt: list[list[int]], made: list[list[int]], budget: int) -> None:
    """Keep the first ``budget`` preemption points (in the order the calls were made); the
    others are ``0`` (never)."""
    nonzero = sorted((made[k][i], k, i) for k, points in enumerate(preempt) for i, point in enumerate(points) if point)
    for _, k, i in nonzero[budget:]:
        preempt[k][i] = 0


def run_lanes(machine: Machine, system: Any, lanes: list[list[Step]], decisions: Decisions, preemption: str) -> History:
    concurrency = machine.concurrency
    assert concurrency is not None

    def call(step: Step) -> Callable[[], Any]:
        return functools.partial(step.action.run, system, step.args)

    texts = [[step.action.call_text(machine.variable, step.args) for step in lane] for lane in lanes]
    return run_history(
        system, [call(s) for s in lanes[0]], [[call(s) for s in lane] for lane in lanes[1:]], decisions,
        tasks=concurrency.tasks, preemption=preemption, code=code_of(machine, system), texts=texts,
        variable=machine.variable,
    )


def judge(machine: Machine, system: Any, lanes: list[list[Step]], history: History, counts: Any) -> Trace:
    """The verdict on a concurrent history: a deadlock, no linearization, an exception no
    action declares, a failed expectation, or an invariant false once the branches joined."""
    for record in history.calls:
        step = lanes[record.branch + 1][record.index]
        step.result, step.exception = record.result, record.exception
        step.awaited = type(record.result) is CoroutineType
    done = [step for lane in lanes for step in lane]
    shown = history.side_by_side()

    def failed(kind: str, message: str, exception: BaseException, origin: Any, **more: Any) -> Trace:
        return Trace(done, Failure(kind, message, exception, origin, **more), history, lanes)

    if history.deadlock is not None:
        message = f"deadlock: {history.deadlock}\n{shown}"
        return failed("deadlock", message, AssertionError(message), ("deadlock",))
    steps = [[model_step(machine, s.action, s.args) for s in lane] for lane in lanes]
    found = history.linearization(fresh_reference(machine), steps[1:], steps[0], functools.partial(fresh_reference, machine))
    if found is None:
        message = f"no sequential order of the calls explains their results:\n{shown}"
        return failed("linearizability", message, AssertionError(message), ("linearizability",))
    for record in history.calls:
        # An exception the action does not declare fails, as in a sequential trace -- unless
        # the model raises it too (the linearization found agrees with it).
        step = lanes[record.branch + 1][record.index]
        exc = record.exception
        if exc is None or isinstance(exc, step.action.raises):
            continue
        if machine.model is not None and step.action.model_step(found.model) is not None:
            continue
        message = f"{record.text} raised {said(exc)}\n{shown}"
        return failed("raised", message, exc, ("raised", *origin_of(exc)))
    for record in history.calls:
        step = lanes[record.branch + 1][record.index]
        expect = step.action.expect
        if expect is NO_EXPECTATION or step.exception is not None:
            continue
        try:
            holds = expect(step.result) if callable(expect) else equal(step.result, expect)
            if type(holds) is CoroutineType:
                holds = settled(holds)
        except (KeyboardInterrupt, InvalidTest, RunInterrupted):
            raise
        except BaseException as exc:  # noqa: B036 - an expectation that raises does not hold
            message = f"{record.text} returned {safe_repr(step.result)}; the expectation raised {said(exc)}\n{shown}"
            return failed("expect", message, exc, ("expect", step.action.name, *origin_of(exc)))
        if verdict(holds, f"the expectation of {step.action.name!r}") == FAIL:
            message = f"{record.text} returned {safe_repr(step.result)}, against the expectation\n{shown}"
            return failed("expect", message, AssertionError(message), ("expect", step.action.name))
    model = found.model if machine.model is not None else None
    for check in machine.invariants:
        name = getattr(check, "__name__", "invariant")
        try:
            holds = call_with_state(check, system, model)
            if type(holds) is CoroutineType:
                holds = settled(holds)
        except (KeyboardInterrupt, InvalidTest, RunInterrupted):
            raise
        except BaseException as exc:  # noqa: B036
            message = f"invariant {name} failed after the branches: {said(exc)}\n{shown}"
            return failed("invariant", message, exc, ("invariant", name, *origin_of(exc)), check=check)
        if verdict(holds, f"the invariant {name}") == FAIL:
            message = f"invariant {name} is false after the branches\n{shown}"
            return failed("invariant", message, AssertionError(message), ("invariant", name), check=check)
    return Trace(done, None, history, lanes)


def settled(value: Any) -> Any:
    """Run a coroutine (an async expectation or invariant of a concurrent trace) to its end."""
    loop = VirtualLoop()
    try:
        return run_loop(loop, value)
    finally:
        close_loop(loop)
