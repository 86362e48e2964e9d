"""The Monkey: traces, lockstep models, preconditions, shrinking to proven minima, programs."""
from __future__ import annotations

import itertools
import pathlib
import subprocess
import sys
from typing import Any

import pytest

import synthia as sy
from synthia.core.draws import Draw, Tape
from synthia.tour.ch06_monkey import Store, StoreModel  # a store that counts a key put twice twice

EXAMPLES = pathlib.Path(__file__).resolve().parent.parent / "examples"
sys.path.insert(0, str(EXAMPLES))

import monkey_bank  # noqa: E402
import monkey_calculator  # noqa: E402
import monkey_event_bus  # noqa: E402
import monkey_lru  # noqa: E402


def brute_force_minimum(monkey: sy.Monkey, max_steps: int, options: list[list[Draw]]) -> Any:
    """The smallest failing trace (by its tape's order) among every trace of at most
    ``max_steps`` steps whose steps are drawn from ``options`` (each the draws of one step),
    replayed through the monkey: what shrinking must reach."""
    for length in range(1, max_steps + 1):
        failing = []
        for steps in itertools.product(options, repeat=length):
            draws = [d for step in steps for d in step]
            attempt = monkey.attempt(Tape(draws, (), length, []))
            if attempt.status == "fail" and attempt.tape is not None and attempt.tape.picks == length:
                failing.append((attempt.tape.key(), [s.text() for s in attempt.details.steps]))
        if failing:
            return min(failing)[1]
    return None


def steps_text(report: sy.MonkeyReport) -> list[str]:
    assert report.trace is not None
    return [s.text() for s in report.trace]


def integer(value: int, low: int, high: int) -> Draw:
    return Draw("integer", value, (low, high))


def choose(index: int, weights: int) -> Draw:
    return Draw("weighted", index, (tuple(float(w) for w in range(1, weights + 1)),))


# -- the examples reach their proven minima in every seed --------------------------------------
def test_bank_account_minimum_is_proven_and_reached_in_every_seed() -> None:
    monkey = monkey_bank.bank_monkey()
    options = [[choose(a, 2), integer(v, 1, 1000)] for a in (0, 1) for v in (1, 2, 3, 4)]
    minimum = brute_force_minimum(monkey, 3, options)
    assert minimum == ["system.deposit(amount=1)", "system.withdraw(amount=1)", "system.withdraw(amount=1)"]
    for seed in range(10):
        assert steps_text(monkey_bank.bank_monkey().run(seed=seed)) == minimum


def test_lru_minimum_is_proven_and_reached_in_every_seed() -> None:
    monkey = monkey_lru.lru_monkey()
    puts = [[choose(0, 2), integer(k, 0, 4), integer(0, 0, 10)] for k in range(3)]
    gets = [[choose(1, 2), integer(k, 0, 4)] for k in range(3)]
    minimum = brute_force_minimum(monkey, 5, puts + gets)
    assert minimum == [
        "system.put(key=0, value=0)", "system.put(key=1, value=0)", "system.put(key=0, value=0)",
        "system.put(key=2, value=0)", "system.get(key=0)",
    ]
    for seed in range(10):
        assert steps_text(monkey_lru.lru_monkey().run(seed=seed)) == minimum


def test_event_bus_minimum_is_proven_and_reached_in_every_seed() -> None:
    monkey = monkey_event_bus.bus_monkey()
    topic = [Draw("float", 0.0, (0.0, 1.0)), Draw("float", 0.5, (0.0, 1.0))]
    # Actions in name order: publish(topic, event), subscribe(topic), unsubscribe(which).
    options = (
        [[choose(0, 3), t, integer(0, 0, 10)] for t in topic]
        + [[choose(1, 3), t] for t in topic]
        + [[choose(2, 3), integer(w, 0, 100)] for w in (0, 1)]
    )
    minimum = brute_force_minimum(monkey, 4, options)
    assert minimum == [
        "system.subscribe(topic='news')", "system.subscribe(topic='news')",
        "system.unsubscribe(which=0)", "system.publish(topic='news', event=0)",
    ]
    for seed in range(10):
        assert steps_text(monkey_event_bus.bus_monkey().run(seed=seed)) == minimum


def test_calculator_sessions_stay_valid_and_reach_the_smallest_failing_session() -> None:
    calc, model = monkey_calculator.Calculator, monkey_calculator.CalculatorModel
    keys = "0123456789+-*"
    failing = []
    for length in range(2, 5):  # every session of at most four keys, ending with "="
        for body in itertools.product(keys, repeat=length - 1):
            if body[0] not in "0123456789" or body[-1] not in "0123456789":
                continue
            if any(a in "+-*" and b in "+-*" for a, b in zip(body, body[1:])):
                continue
            c, m = calc(), model()
            if any(c.press(k) != m.press(k) for k in (*body, "=")):
                failing.append("".join(body))
    assert failing and min(map(len, failing)) == 3
    assert sorted(f for f in failing if len(f) == 3) == [f"{d}*0" for d in "123456789"]
    for seed in range(10):
        report = monkey_calculator.calculator_monkey().run(seed=seed)
        assert [s.args["key"] for s in report.trace] == ["1", "*", "0", "="]  # type: ignore[union-attr]


# -- discovery ----------------------------------------------------------------------------------
def test_no_discovery_trace_replays_another() -> None:
    traces: list[tuple[str, ...]] = []

    class Collect(sy.StoppingRule):
        def observe(self, outcome: sy.testing.Outcome) -> None:
            traces.append(tuple(s.text() for s in outcome.inputs["trace"]))

        def reason_to_stop(self) -> str | None:
            return "enough" if len(traces) >= 40 else None

    class Stack:
        def __init__(self) -> None:
            self.items: list[int] = []

        def push(self, x: int) -> None:
            self.items.append(x)

        def size(self) -> int:
            return len(self.items)

    report = sy.Monkey(Stack, [sy.Action("push", x=sy.RandomInteger(0, 10**6)), sy.Action("size")], stop=Collect(), max_steps=10).run(seed=3)
    assert report.passed and len(traces) == 40 and len(set(traces)) == 40


def _store_monkey(copy_parts: bool = True) -> sy.Monkey:
    actions = [sy.Action("put", key=sy.RandomInteger(0, 10**6), value=sy.RandomInteger(0, 100)), sy.Action("size")]
    return sy.Monkey(Store, actions, model=StoreModel, copy_parts=copy_parts)


def test_a_copied_argument_puts_one_key_twice() -> None:
    # Two keys out of a million are never equal by chance in 100 traces; a trace played again
    # with one step's key copied over another's finds the bug, and it shrinks to three steps.
    reports = [_store_monkey().run(seed=seed) for seed in range(10)]
    found = [r for r in reports if not r.passed]
    assert len(found) >= 5 and not any(r.flaky for r in found)
    for report in found:
        assert [s.text() for s in report.trace] == ["system.put(key=0, value=0)", "system.put(key=0, value=0)", "system.size()"]
        # Found by a probe: a key copied over another, or both keys moved to an edge (0).
        assert any("copied part" in note or "edge values" in note for note in report.notes)
    again = _store_monkey().run(seed=reports.index(found[0]))
    assert again.program == found[0].program and again.tried == found[0].tried
    assert sum(not _store_monkey(copy_parts=False).run(seed=seed).passed for seed in range(10)) <= 2


def test_preconditions_never_waste_a_step() -> None:
    class Stack:
        def __init__(self) -> None:
            self.items: list[int] = []

        def push(self, x: int) -> None:
            self.items.append(x)

        def pop(self) -> int:
            return self.items.pop()  # raises IndexError if called on an empty stack

    actions = [sy.Action("push", x=sy.RandomInteger(0, 9), weight=0.2), sy.Action("pop", precondition=lambda s: s.items)]
    report = sy.Monkey(Stack, actions, stop=sy.FixedCount(50), max_steps=20).run(seed=1)
    assert report.passed, report.failure  # pop never ran on an empty stack
    counts = report.counts
    assert counts["pop"]["enabled"] < counts["push"]["enabled"] == sum(report.lengths[k] * k for k in report.lengths)
    assert sum(c["tried"] for c in counts.values()) == sum(k * n for k, n in report.lengths.items())


# -- the report ---------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "make", [monkey_bank.bank_monkey, monkey_lru.lru_monkey, monkey_event_bus.bus_monkey, monkey_calculator.calculator_monkey]
)
def test_the_printed_program_runs_and_fails_the_same_way(make: Any) -> None:
    report = make().run(seed=4)
    assert not report.passed and report.program
    namespace: dict[str, Any] = {}
    with pytest.raises(AssertionError) as info:
        exec(compile(report.program, "<trace>", "exec"), namespace)
    assert type(report.exception) is AssertionError or isinstance(info.value, AssertionError)


def test_a_failing_system_exception_is_reported_with_its_program() -> None:
    class Fragile:
        def __init__(self) -> None:
            self.n = 0

        def bump(self, by: int) -> None:
            self.n += by
            if self.n > 10:
                raise OverflowError(self.n)

    report = sy.Monkey(Fragile, [sy.Action("bump", by=sy.RandomInteger(0, 8))]).run(seed=2)
    assert isinstance(report.exception, OverflowError)
    assert steps_text(report) == ["system.bump(by=4)", "system.bump(by=7)"]  # by is at most 7
    assert "raises OverflowError" in report.program


def test_the_same_seed_gives_the_same_report_in_a_fresh_process() -> None:
    script = (
        f"import sys; sys.path.insert(0, {str(EXAMPLES)!r})\n"
        "import monkey_lru\n"
        "r = monkey_lru.lru_monkey().run(seed=9)\n"
        "print(r.program, r.tried, r.shrink_tries, r.counts, r.lengths)\n"
    )
    outs = [subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout for _ in range(2)]
    assert outs[0] == outs[1] and "lru_cache.get" in outs[0]


def test_explain_says_which_steps_and_arguments_matter() -> None:
    report = monkey_bank.bank_monkey().run(seed=1)
    explanation = report.explain()
    assert explanation.necessary == [True, True, True]
    assert explanation.free == [{"amount": False}, {"amount": False}, {"amount": False}]
    assert "account.deposit(amount=1)  [necessary; amount: matters]" in explanation.describe()


def test_invariants_and_expectations_fail_the_step() -> None:
    class Box:
        def __init__(self) -> None:
            self.items: list[int] = []

        def put(self, x: int) -> int:
            self.items.append(x)
            return len(self.items) if len(self.items) < 3 else 0  # planted: wrong count at 3

    expecting = sy.Monkey(Box, [sy.Action("put", x=sy.RandomInteger(0, 5), expect=lambda n: n > 0)]).run(seed=1)
    assert "against the expectation" in expecting.failure and len(expecting.trace or []) == 3

    def at_most_two(box: Box) -> bool:
        return len(box.items) <= 2

    invariant = sy.Monkey(Box, [sy.Action("put", x=sy.RandomInteger(0, 5))], invariants=[at_most_two]).run(seed=1)
    assert "invariant at_most_two" in invariant.failure and steps_text(invariant) == ["system.put(x=0)"] * 3


# -- action sources -----------------------------------------------------------------------------
class Shop:
    def __init__(self) -> None:
        self.cart = 0

    def browse(self) -> None:
        pass

    def add(self) -> None:
        self.cart += 1

    def pay(self) -> None:
        if self.cart >= 2:
            raise RuntimeError("payment fails with two items")  # planted bug
        self.cart = 0


def test_a_markov_chain_of_actions_is_a_usage_profile() -> None:
    browse, add, pay = sy.Action("browse"), sy.Action("add"), sy.Action("pay")
    profile = sy.MarkovChain(
        {"browse": browse, "add": add, "pay": pay},
        {"browse": {"browse": 1, "add": 1}, "add": {"add": 1, "pay": 1, "browse": 1}, "pay": {"browse": 1}},
        start="browse",
    )
    for seed in range(5):
        report = sy.Monkey(Shop, profile).run(seed=seed)
        assert steps_text(report) == ["system.browse()", "system.add()", "system.add()", "system.pay()"]


def test_a_behaviour_tree_of_actions_plays_sessions() -> None:
    browse, add, pay = sy.Action("browse"), sy.Action("add"), sy.Action("pay")
    tree = sy.BehaviorTree(sy.Sequence(browse, sy.Selector(sy.Sequence(add, add), add), pay), repeat=True)
    report = sy.Monkey(Shop, tree, max_steps=20).run(seed=1)
    assert steps_text(report) == ["system.browse()", "system.add()", "system.add()", "system.pay()"]


# -- settings and errors --------------------------------------------------------------------------
def test_budgets_and_stopping_rules() -> None:
    class Calm:
        def noop(self) -> None:
            pass

    timed = sy.Monkey(Calm, [sy.Action("noop")], stop=sy.TimeBudget(0.05)).run(seed=1)
    assert timed.passed and "time budget" in timed.reason
    capped = sy.Monkey(Calm, [sy.Action("noop")], time_budget=0.05, stop=sy.FixedCount(10**9)).run(seed=1)
    assert capped.passed and "time budget" in capped.reason
    counted = sy.Monkey(Calm, [sy.Action("noop")], stop=sy.FixedCount(7), max_steps=3).run(seed=1)
    assert counted.tried == 7 and counted.lengths == {3: 7}


@pytest.mark.parametrize(
    "call, error, mentions",
    [
        (lambda: sy.Monkey(5, [sy.Action("x")]), TypeError, "system"),
        (lambda: sy.Monkey(list, []), ValueError, "actions"),
        (lambda: sy.Monkey(list, [lambda s: s]), TypeError, r"actions\[0\]"),
        (lambda: sy.Monkey(list, [sy.Action("x")], max_steps=0), ValueError, "max_steps"),
        (lambda: sy.Monkey(list, [sy.Action("x")], copy_parts="yes"), TypeError, "copy_parts"),
        (lambda: sy.Action(3), TypeError, "fn"),
        (lambda: sy.Action("not a name"), ValueError, "fn"),
        (lambda: sy.Action("x", weight=0), ValueError, "weight"),
        (lambda: sy.Action("x", raises=ValueError("no")), TypeError, "raises"),
        (lambda: sy.Action("x", args={"a": 1}, a=2), ValueError, "twice"),
    ],
)
def test_bad_arguments(call: Any, error: type, mentions: str) -> None:
    with pytest.raises(error, match=mentions):
        call()


MONKEY_CLASS = """
import synthia as sy

@sy.monkey(stop=sy.FixedCount(200))
class TestCounter:
    def __init__(self):
        self.n = 0

    @sy.action(by=sy.RandomInteger(1, 10))
    def add(self, by):
        self.n += by if self.n < 10 else by - 1  # planted bug
        assert self.n >= 0

    @sy.invariant()
    def never_above_30(self):
        return self.n <= 30
"""


def test_the_class_decorator_is_a_pytest_test_with_the_database(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_counter=MONKEY_CLASS)
    first = pytester.runpytest("-p", "no:cacheprovider")
    first.assert_outcomes(failed=1)
    text = first.stdout.str()
    assert "test_counter = TestCounter.machine()" in text and "--synthia-seed=" in text
    assert list((pytester.path / ".synthia" / "failures").iterdir())
    again = pytester.runpytest("-p", "no:cacheprovider")
    again.assert_outcomes(failed=1)
    assert "a saved failure fails again" in again.stdout.str()
