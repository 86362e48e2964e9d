"""Constructor fuzz signatures of the public constructors that are not pickers: the harnesses,
their options and stopping rules, actions, profiles, the draw context, recording and replay.

(They have no ``CASES``: the picker contract does not apply to them.)
"""
from __future__ import annotations

import tempfile
from typing import Any, Callable

import synthia as sy
from synthia.testing import settings

from ..registry import Signature


class Stack:
    """A small system for Monkey signatures."""

    def __init__(self) -> None:
        self.items: list[int] = []

    def push(self, x: int) -> None:
        self.items.append(x)

    def pop(self) -> int:
        return self.items.pop()


def _stack_actions() -> list[sy.Action]:
    return [sy.Action("push", x=sy.RandomInteger(0, 9)), sy.Action("pop", precondition=lambda s: s.items)]


def _inside_a_test(thunk: Callable[[], Any]) -> Any:
    """Make the call inside a running ``Assert`` (where ``draw``, ``assume``, ``event`` and
    ``cover`` work), passing on what it raised."""
    caught: list[BaseException] = []
    result: list[Any] = []

    def test(x: int) -> None:
        try:
            result.append(thunk())
        except Exception as error:  # noqa: BLE001 - handed to the fuzzer below
            caught.append(error)

    sy.Assert(test, sy.FixedCount(1), x=sy.Constant(0)).run(seed=0)
    if caught:
        raise caught[0]
    return result[0] if result else None


def _restoring_profiles(thunk: Callable[[], Any]) -> Any:
    """Make the call, then put the profiles (registered and active) back as they were."""
    registry = dict(settings._registry())
    active = settings._active
    try:
        return thunk()
    finally:
        settings._profiles.clear()
        settings._profiles.update(registry)
        settings._active = active


def _decorate_a_function(decorator: Any) -> Any:
    def method(self: Any, x: int = 0) -> None:
        pass

    return decorator(method)


def _run_a_monkey_class(decorator: Any) -> None:
    class Machine:
        def __init__(self) -> None:
            self.items: list[int] = []

        @sy.action(x=sy.RandomInteger(0, 9))
        def push(self, x: int) -> None:
            self.items.append(x)

    decorator(Machine)().test_monkey()


def _enter(context: Any) -> None:
    with context:
        pass


def _decorate_an_initializer(decorator: Any) -> Any:
    def setup(self: Any, x: int = 0) -> None:
        pass

    return decorator(setup)


def _in_a_bundled_monkey(thunk: Callable[[], Any]) -> Any:
    """Make the call (a ``Bundle``, ``consumes`` or ``multiple``) and use its result in a
    ``@sy.monkey`` class run to its end, as a user would."""
    made = thunk()
    keys = made if isinstance(made, sy.Bundle) else sy.Bundle("keys")

    @sy.monkey(stop=sy.FixedCount(3), max_steps=4)
    class Machine:
        def __init__(self) -> None:
            self.items: list[int] = []

        @sy.action(target=keys, x=sy.RandomInteger(0, 9))
        def push(self, x: int) -> int:
            self.items.append(x)
            return x

        @sy.action(key=keys)
        def read(self, key: int) -> None:
            pass

    Machine().test_monkey()
    return made


_DIRECTORY = tempfile.mkdtemp(prefix="synthia-fuzz-")

SIGNATURES = [
    Signature(sy.Assert, lambda C: C(lambda x, y: x + y >= 0, sy.FixedCount(5), x=sy.RandomInteger(0, 10), y=sy.RandomInteger(0, 10))),
    Signature(
        sy.RunOptions,
        lambda C: C(
            stop=sy.FixedCount(5), restarts=1, shrink_budget=100, shrink_time=1.0, time_budget=5.0, classes=True, observe=False,
            coverage_certainty=1e6, coverage_tolerance=0.05, progress=False, timing=False, copy_parts=True, name="run", database=False,
        ),
    ),
    Signature(sy.Monkey, lambda C: C(Stack, _stack_actions(), None, sy.FixedCount(5), max_steps=5, prefix=2, branch_steps=2)),
    Signature(sy.Action, lambda C: C("push", x=sy.RandomInteger(0, 9), precondition=lambda s: True, weight=2.0, raises=(KeyError,))),
    Signature(sy.action, lambda C: C(x=sy.RandomInteger(0, 9), precondition=lambda s: True, weight=2.0), use=_decorate_a_function),
    Signature(sy.monkey, lambda C: C(stop=sy.FixedCount(3), max_steps=4), use=_run_a_monkey_class),
    Signature(sy.FixedCount, lambda C: C(10)),
    Signature(sy.TimeBudget, lambda C: C(1.5)),
    Signature(
        sy.Bayesian,
        lambda C: C(
            0.9, 0.1, (1.0, 1.0), criteria=("confidence",), combine="any", min_samples=5, max_samples=100,
            coverage=0.8, k=1, window=10, saturation=0.001, information=0.001,
        ),
    ),
    Signature(sy.Progress, lambda C: C(sy.FixedCount(5), description="inputs", enabled=False)),
    Signature(sy.Mutant, lambda C: C("reversed", lambda xs: sorted(xs, reverse=True), "custom")),
    Signature(
        sy.property_coverage,
        lambda C: C(
            lambda f, xs: f(xs) == sorted(xs), sorted, [sy.Mutant("reversed", lambda xs: sorted(xs, reverse=True))],
            stop=sy.FixedCount(5), time_limit_per_mutant=1.0, calls_compared=10, seed=0, xs=sy.ComposeList(sy.RandomInteger(0, 9), 3),
        ),
    ),
    Signature(
        sy.find,
        lambda C: C(sy.RandomInteger(0, 100), lambda x: x > 10, seed=0, max_examples=50, shrink_budget=100, shrink_time=1.0),
        endings=(sy.NoExampleFound,),
    ),
    Signature(sy.given, lambda C: C(sy.FixedCount(5), x=sy.RandomInteger(0, 9))),
    Signature(sy.example, lambda C: C(x=3)),
    Signature(sy.register_profile, lambda C: C("fuzzed", parent="default", max_examples=10, shrink_budget=100), around=_restoring_profiles),
    Signature(sy.load_profile, lambda C: C("default"), around=_restoring_profiles),
    Signature(sy.FailureDatabase, lambda C: C(_DIRECTORY)),
    Signature(sy.interleave, lambda C: C(Stack(), [[lambda: None], [lambda: None]], [[0], [1]], choices=[0], prefix=[lambda: None], preemption="action")),
    Signature(sy.draw, lambda C: C(sy.RandomInteger(0, 9)), around=_inside_a_test),
    Signature(sy.assume, lambda C: C(True), around=_inside_a_test, endings=(sy.UnsatisfiedAssumption,)),
    Signature(sy.event, lambda C: C("small"), around=_inside_a_test),
    Signature(sy.cover, lambda C: C("small", 0.5, True), around=_inside_a_test),
    Signature(sy.note, lambda C: C("a note"), around=_inside_a_test),
    Signature(sy.target, lambda C: C(1.5, label="size"), around=_inside_a_test),
    Signature(sy.Bundle, lambda C: C("keys"), around=_in_a_bundled_monkey),
    Signature(sy.consumes, lambda C: C(sy.Bundle("keys"))),
    Signature(sy.multiple, lambda C: C(1, 2, 3)),
    Signature(sy.initialize, lambda C: C(x=sy.RandomInteger(0, 9)), use=_decorate_an_initializer),
    Signature(sy.precondition, lambda C: C(lambda self: True), use=_decorate_a_function),
    Signature(sy.controlled_primitives, lambda C: C(()), use=_enter),
    Signature(sy.record, lambda C: C(sy.RandomInteger(0, 9), 2)),
    Signature(sy.replay, lambda C: C(sy.RandomInteger(0, 9), [3], reset=True, max_draws=10, spans=True)),
    Signature(sy.parse, lambda C: C(sy.ComposeList(sy.RandomInteger(0, 9), sy.RandomInteger(0, 4)), [3, 4])),
    Signature(
        sy.shrink,
        lambda C: C(sy.ComposeList(sy.RandomInteger(0, 9), sy.RandomInteger(0, 4)), [3, 7], lambda xs: sum(xs) < 5, seed=0,
                    options=sy.RunOptions(shrink_budget=50)),
    ),
]
