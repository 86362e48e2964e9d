"""The concurrent driver of a :class:`~synthia.Monkey`: a sequential prefix, then branches of
calls in parallel under the controlled scheduler (:mod:`~synthia.testing.scheduler`), and the
verdict on their history -- a deadlock, no linearization against the sequential model
(:mod:`~synthia.testing.linearizability`), a failed expectation, a false invariant.

Each step is a top-level pick (its preemption point, its lane -- the prefix or a branch --
then its action and arguments); the scheduler's choices among ready branches are the trace's
last pick. So a schedule is recorded, replayed and shrunk with the actions, like any draw.
"""
from __future__ import annotations

import asyncio
import functools
from types import CoroutineType
from typing import Any, Callable

from ..core.draws import DrawSource
from ..core.exceptions import NoMoreElements
from ..engine.proposals import FAIL
from ..engine.report import InvalidTest, RunInterrupted, safe_repr
from .actions import NO_EXPECTATION, Action, call_with_state
from .verdict import origin_of, verdict
from .linearizability import ANY_RESULT
from .scheduler import Decisions, History, run_history, sampler, system_code
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


def play_concurrent(machine: Machine, steps: StepPicker, source: DrawSource | None, seed: int, picks: int, counts: Any) -> Trace:
    """A sequential prefix, then branches in parallel under the controlled scheduler; the
    results must be linearizable against the sequential model. Each step is a pick (its
    lane -- the prefix or a branch -- then its action and arguments); the schedule's
    decisions are the last pick."""
    concurrency = machine.concurrency
    assert concurrency is not None and steps.lanes is not None and steps.scheduling is not None
    try:
        system = fresh(machine.system)
        # Preconditions see a reference stepped through the actions generated so far.
        reference = fresh_reference(machine) if any(a.precondition is not None for a in machine.action_list or ()) else None
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
    quotas = [concurrency.prefix] + [concurrency.branch_steps] * concurrency.branches
    total = min(picks - 1, sum(quotas))
    sample = sampler(concurrency, total)
    scheduling = steps.scheduling
    episode = Episode(reference, reference if machine.model is not None else None, seed, counts)
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
                    episode.settle(model_step(machine, action, args)(reference))
                except Exception:  # noqa: S110 - an error is a result: the reference goes on
                    pass
        if source is not None:
            source.begin_pick()  # the choices among ready branches
        decisions = Decisions(preempt, lambda n: scheduling.by(n, lambda stream: stream.integer(0, n)))
        history = run_lanes(machine, system, lanes, decisions)
    finally:
        steps.episode = None
        episode.close()
    return judge(machine, system, lanes, history, counts)


def run_lanes(machine: Machine, system: Any, lanes: list[list[Step]], decisions: Decisions) -> History:
    concurrency = machine.concurrency
    assert concurrency is not None

    def call(step: Step) -> Callable[[], Any]:
        return functools.partial(step.action.run, system, step.args)

    texts = [[step.action.call_text(machine.variable, step.args) for step in lane] for lane in lanes]
    functions = [a.fn for a in machine.action_list or () if not isinstance(a.fn, str)]
    return run_history(
        system, [call(s) for s in lanes[0]], [[call(s) for s in lane] for lane in lanes[1:]], decisions,
        tasks=concurrency.tasks, preemption=concurrency.preemption, code=system_code(system, functions), texts=texts,
    )


def judge(machine: Machine, system: Any, lanes: list[list[Step]], history: History, counts: Any) -> Trace:
    """The verdict on a concurrent history: a deadlock, no linearization, a failed
    expectation, or an invariant false once the branches joined."""
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
    return asyncio.run(value)
