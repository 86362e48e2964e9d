"""Monkey against Hypothesis's RuleBasedStateMachine on the same objects, in one run.

Three planted bugs, each tested the same way by both (the same actions, argument ranges,
model and a 50-step limit per trace; Hypothesis with ``stateful_step_count=50``, no database):

* the bank account of ``examples/monkey_bank.py`` (an overdraft after two withdrawals);
* the LRU cache of ``examples/monkey_lru.py`` (a five-operation pattern);
* a keypad that opens on a hidden four-key code: a five-step pattern inside long traces, so
  the first failing trace is long (up to 50 steps) and must be shrunk to five.

Printed per object: the time to the first failure, the time to the final (shrunk) trace, the
final trace's length and whether it is the proven minimum, as medians over the seeds.
"""
from __future__ import annotations

import pathlib
import statistics
import sys
import time
from typing import Any

from timing import table

import synthia as sy

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "examples"))
import monkey_bank  # noqa: E402
import monkey_lru  # noqa: E402

CODE = [3, 1, 2, 0]


class Keypad:
    """Opens with the right code; a planted backdoor also opens on ``CODE`` pressed in order."""

    def __init__(self) -> None:
        self.pressed: list[int] = []

    def press(self, key: int) -> None:
        self.pressed = (self.pressed + [key])[-4:]

    def open(self) -> bool:
        opened = self.pressed == CODE  # the backdoor
        self.pressed = []
        return opened


class KeypadModel:
    def __init__(self) -> None:
        self.pressed: list[int] = []

    def press(self, key: int) -> None:
        self.pressed = (self.pressed + [key])[-4:]

    def open(self) -> bool:
        self.pressed = []
        return False  # no code opens it


def keypad_monkey(**settings: Any) -> sy.Monkey:
    return sy.Monkey(
        Keypad, [sy.Action("press", key=sy.RandomInteger(0, 4), weight=4), sy.Action("open")], model=KeypadModel, **settings
    )


MINIMA = {
    "bank account": 3,
    "LRU cache": 5,
    "keypad code": 5,
}


class _Watch:
    """Counts the steps of the current Hypothesis trace and notes when a check first fails."""

    def __init__(self) -> None:
        self.steps = 0
        self.start = time.perf_counter()
        self.first_failure: float | None = None

    def step(self) -> None:
        self.steps += 1

    def check(self, condition: bool, message: str = "") -> None:
        if not condition:
            if self.first_failure is None:
                self.first_failure = time.perf_counter() - self.start
            raise AssertionError(message)


def hypothesis_machines(watch: _Watch) -> dict[str, Any]:
    from hypothesis import strategies as st
    from hypothesis.stateful import RuleBasedStateMachine, rule

    class Bank(RuleBasedStateMachine):
        def __init__(self) -> None:
            super().__init__()
            watch.steps = 0
            self.account, self.model = monkey_bank.Account(), monkey_bank.AccountModel()

        @rule(amount=st.integers(1, 999))
        def deposit(self, amount: int) -> None:
            watch.step()
            watch.check(self.account.deposit(amount) == self.model.deposit(amount))

        @rule(amount=st.integers(1, 999))
        def withdraw(self, amount: int) -> None:
            watch.step()
            try:
                expected = self.model.withdraw(amount)
            except monkey_bank.InsufficientFunds:
                try:
                    self.account.withdraw(amount)
                except monkey_bank.InsufficientFunds:
                    return
                watch.check(False, "overdraft")
            watch.check(self.account.withdraw(amount) == expected)

    class LRU(RuleBasedStateMachine):
        def __init__(self) -> None:
            super().__init__()
            watch.steps = 0
            self.cache, self.model = monkey_lru.LRUCache(), monkey_lru.LRUModel()

        @rule(key=st.integers(0, 3), value=st.integers(0, 9))
        def put(self, key: int, value: int) -> None:
            watch.step()
            watch.check(self.cache.put(key, value) == self.model.put(key, value))

        @rule(key=st.integers(0, 3))
        def get(self, key: int) -> None:
            watch.step()
            watch.check(self.cache.get(key) == self.model.get(key))

    class Pad(RuleBasedStateMachine):
        def __init__(self) -> None:
            super().__init__()
            watch.steps = 0
            self.pad, self.model = Keypad(), KeypadModel()

        @rule(key=st.integers(0, 3))
        def press(self, key: int) -> None:
            watch.step()
            self.pad.press(key)
            self.model.press(key)

        @rule()
        def open(self) -> None:
            watch.step()
            watch.check(self.pad.open() == self.model.open())

    return {"bank account": Bank, "LRU cache": LRU, "keypad code": Pad}


def hypothesis_run(label: str, examples: int) -> tuple[float, float, int | None]:
    """(seconds to the first failure, seconds in all, steps of the final trace or None if no
    failure was found)."""
    from hypothesis import HealthCheck, settings
    from hypothesis.stateful import run_state_machine_as_test

    watch = _Watch()
    machine = hypothesis_machines(watch)[label]
    found = False
    try:
        run_state_machine_as_test(
            machine,
            settings=settings(
                max_examples=examples, stateful_step_count=50, database=None, deadline=None,
                suppress_health_check=list(HealthCheck), print_blob=False,
            ),
        )
    except AssertionError:
        found = True
    first = watch.first_failure if watch.first_failure is not None else float("nan")
    return first, time.perf_counter() - watch.start, (watch.steps if found else None)


def run(quick: bool) -> None:
    seeds = [0] if quick else [0, 1, 2, 3, 4]
    examples = 200 if quick else 2000
    ours_all = {"bank account": monkey_bank.bank_monkey, "LRU cache": monkey_lru.lru_monkey, "keypad code": keypad_monkey}
    rows = []
    for label, make in ours_all.items():
        firsts, totals, lengths, firsts_long = [], [], [], []
        for seed in seeds:
            start = time.perf_counter()
            report = make(stop=sy.FixedCount(examples)).run(seed=seed)
            totals.append(time.perf_counter() - start)
            firsts.append(report.time_to_failure if report.time_to_failure is not None else float("nan"))
            lengths.append(len(report.trace or []))
            firsts_long.append(len(report.first_trace or []))
        theirs = [hypothesis_run(label, examples) for _ in seeds]
        found = [n for _, _, n in theirs if n is not None]
        h_first = statistics.median(f for f, _, _ in theirs)
        h_total = statistics.median(t for _, t, _ in theirs)
        ours_total = statistics.median(totals)
        h_final = f"{statistics.median(found):3.0f} ({sum(n == MINIMA[label] for n in found)}/{len(seeds)})" if found else "not found"
        rows.append(
            (
                label,
                f"{statistics.median(firsts) * 1e3:8.1f} ms",
                f"{h_first * 1e3:8.1f} ms",
                f"{ours_total:6.2f} s",
                f"{h_total:6.2f} s",
                f"{h_total / ours_total:5.1f}x",
                f"{statistics.median(firsts_long):4.0f}",
                f"{statistics.median(lengths):3.0f} ({sum(n == MINIMA[label] for n in lengths)}/{len(seeds)})",
                h_final,
            )
        )
    print(f"\nMonkey vs Hypothesis RuleBasedStateMachine (medians over seeds {seeds}, up to {examples} traces of 50 steps):")
    table(
        rows,
        ("object", "synthia 1st", "Hypothesis 1st", "synthia total", "Hypothesis total", "ratio", "1st trace", "synthia final (minimal)", "Hypothesis final (minimal)"),
    )
    print("proven minimal traces: bank 3 steps, LRU 5, keypad 5 (tests/test_monkey.py computes them by brute force)")
    trace_cost(quick)
    long_trace(quick)


class _Stack:
    def __init__(self) -> None:
        self.items: list[int] = []

    def push(self, x: int) -> None:
        self.items.append(x)

    def pop(self) -> int | None:
        return self.items.pop() if self.items else None

    def size(self) -> int:
        return len(self.items)


def trace_cost(quick: bool) -> None:
    """What a passing trace costs beside an ``Assert`` input of the same draws: a list of 50
    steps, each a choice among three actions and, for one, an argument (no model)."""
    runs = 100 if quick else 1000
    rows = []
    steps = [sy.Action("push", x=sy.RandomInteger(0, 100)), sy.Action("pop"), sy.Action("size")]
    monkey = sy.Monkey(_Stack, steps, stop=sy.FixedCount(runs), max_steps=50, copy_parts=False)
    same_draws = sy.ComposeList(sy.Choice(sy.RandomInteger(0, 100), "pop", "size"), 50)
    lists = sy.Assert(lambda l: True, sy.RunOptions(stop=sy.FixedCount(runs), copy_parts=False), l=same_draws)
    best_monkey = best_list = float("inf")
    for seed in range(3):
        start = time.process_time()
        monkey.run(seed=seed)
        best_monkey = min(best_monkey, time.process_time() - start)
        start = time.process_time()
        lists.run(seed=seed)
        best_list = min(best_list, time.process_time() - start)
    rows.append(("50-step trace of a stack", f"{best_monkey / runs * 1e3:6.3f} ms", f"{best_list / runs * 1e3:6.3f} ms", f"{best_monkey / best_list:5.1f}x"))
    print(f"\nWhat a passing trace costs ({runs} traces, best of 3 runs, CPU time):")
    table(rows, ("trace", "Monkey per trace", "Assert, a list of the same draws", "ratio"))


def long_trace(quick: bool) -> None:
    """Shrinking a failing trace of 45-50 steps to its five-step minimum."""
    rows = []
    wanted = 1 if quick else 3
    seed = 0
    while len(rows) < wanted and seed < 500:
        report = keypad_monkey(stop=sy.FixedCount(2000)).run(seed=seed)
        seed += 1
        if report.first_trace is None or len(report.first_trace) < 45:
            continue
        rows.append(
            (
                f"keypad, seed {seed - 1}",
                f"{len(report.first_trace)}",
                f"{len(report.trace or [])}",
                f"{report.time_shrinking:5.2f} s",
                f"{report.shrink_tries}",
            )
        )
    print("\nShrinking a long failing trace (the keypad's first failing traces of 45 steps or more):")
    table(rows, ("trace", "first steps", "final steps", "shrinking time", "replays"))
    print("target: a 50-step failing trace shrinks to the minimum in under 2 s")
