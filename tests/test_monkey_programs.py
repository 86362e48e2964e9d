"""A printed Monkey program is a regression test: it fails on the buggy system and passes on a
fixed one, whatever the kind of failure (a raise, a wrong result, an exception the model
raises, an expectation, an invariant of the system or of the system and the model), with
expected exceptions on the way."""
from __future__ import annotations

from typing import Any

import pytest

import synthia as sy


class Stack:
    """A stack whose pop of the last item of three or more forgets to shrink (planted)."""

    BUG = True

    def __init__(self) -> None:
        self.items: list[int] = []

    def push(self, x: int) -> None:
        self.items.append(x)

    def pop(self) -> int:
        if not self.items:
            raise IndexError("pop from an empty stack")
        if self.BUG and len(self.items) >= 3:
            return self.items[-1]  # forgets to remove it
        return self.items.pop()

    def size(self) -> int:
        return len(self.items)

    def top(self) -> int:
        if not self.items:
            raise IndexError("empty")
        return self.items[-1]

    def pop_delta(self) -> int:
        """Pops, and returns how the size changed (-1, always)."""
        before = self.size()
        self.pop()
        return self.size() - before

    def consistent(self) -> bool:
        return self.size() < 3 or not self.BUG or len(self.items) == self.size()


class FixedStack(Stack):
    BUG = False


class StackModel(FixedStack):
    """The model: the stack without its planted bug."""


def same_size(stack: Stack, model: StackModel) -> bool:
    return stack.size() == model.size()


def no_more_than_two_after_pops(stack: Stack) -> bool:
    return True


class LenientStack(FixedStack):
    def top(self) -> int:
        return self.items[-1] if self.items else -1  # the model raises IndexError here


def _run_program(program: str, stack_class: type, name: str = "Stack") -> None:
    """Run a printed program with ``name`` bound to ``stack_class`` (its import left out)."""
    lines = [line for line in program.splitlines() if not line.startswith("from tests.")]
    namespace: dict[str, Any] = {name: stack_class, "StackModel": StackModel, "same_size": same_size}
    exec("\n".join(lines), namespace)  # noqa: S102 - the program the report printed


KEYS = sy.RandomInteger(0, 5)


def _monkeys() -> dict[str, sy.Monkey]:
    pop, push = sy.Action("pop", raises=IndexError), sy.Action("push", x=KEYS)
    return {
        # the model's result differs from the system's
        "wrong result": sy.Monkey(Stack, [push, pop, sy.Action("size")], model=StackModel),
        # an invariant of (system, model): the program steps the model too
        "invariant of system and model": sy.Monkey(Stack, [push, pop], model=StackModel, invariants=[same_size]),
        # an expectation on the result (a lambda: printed from its source)
        "expectation": sy.Monkey(
            Stack, [push, sy.Action("pop_delta", expect=lambda change: change == -1, precondition=lambda stack: stack.size() > 0)]
        ),
    }


@pytest.mark.parametrize("kind", list(_monkeys()))
def test_the_program_fails_on_the_buggy_system_and_passes_on_the_fixed_one(kind: str) -> None:
    report = _monkeys()[kind].run(seed=3)
    assert not report.passed and not report.flaky, report.summary()
    with pytest.raises(AssertionError):
        _run_program(report.program, Stack)
    _run_program(report.program, FixedStack)


class StickyStack(FixedStack):
    """A pop on an empty stack raises, as it should, but leaves the size wrong (planted)."""

    def __init__(self) -> None:
        super().__init__()
        self.broken = 0

    def pop(self) -> int:
        if not self.items:
            self.broken = 1
        return super().pop()

    def size(self) -> int:
        return len(self.items) + self.broken


def test_a_step_that_raised_an_expected_exception_does_not_end_the_program() -> None:
    # The failure needs a pop on an empty stack, which raises IndexError as the action accepts.
    actions = [sy.Action("pop", raises=IndexError), sy.Action("push", x=KEYS), sy.Action("size")]
    report = sy.Monkey(StickyStack, actions, model=StackModel).run(seed=5)
    assert not report.passed and "with contextlib.suppress(IndexError):" in report.program
    with pytest.raises(AssertionError):
        _run_program(report.program, StickyStack, "StickyStack")
    _run_program(report.program, FixedStack, "StickyStack")  # the expected IndexError on the way is suppressed


def test_a_model_that_raises_where_the_system_does_not_prints_a_check_of_the_exception() -> None:
    report = sy.Monkey(LenientStack, [sy.Action("top", raises=IndexError)], model=StackModel).run(seed=0)
    assert not report.passed and "except IndexError" in report.program
    with pytest.raises(AssertionError, match="did not raise IndexError"):
        _run_program(report.program, LenientStack, "LenientStack")
    _run_program(report.program, FixedStack, "LenientStack")


EXAMPLES = [
    ("monkey_bank", "bank_monkey", "Account", "AccountModel"),
    ("monkey_lru", "lru_monkey", "LRUCache", "LRUModel"),
    ("monkey_calculator", "calculator_monkey", "Calculator", "CalculatorModel"),
]


@pytest.mark.parametrize("module, factory, system, fixed", EXAMPLES, ids=[e[0] for e in EXAMPLES])
def test_an_examples_program_fails_as_printed_and_passes_on_a_correct_system(module: str, factory: str, system: str, fixed: str) -> None:
    # Each example's model is a correct implementation of the same interface: the printed
    # program, run as a script, fails on the example's system and passes on the model.
    import importlib
    import pathlib
    import subprocess
    import sys

    examples = pathlib.Path(__file__).resolve().parent.parent / "examples"
    sys.path.insert(0, str(examples))
    try:
        program = getattr(importlib.import_module(module), factory)().run(seed=7).program
    finally:
        sys.path.remove(str(examples))

    import os

    # The script imports this worktree's synthia, installed or not.
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(examples.parent), os.environ.get("PYTHONPATH")]))}

    def run(text: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-c", text], capture_output=True, text=True, cwd=examples, timeout=60, env=env)

    buggy = run(program)
    assert buggy.returncode != 0 and "AssertionError" in buggy.stderr, buggy.stderr
    correct = program.replace(f"from {module} import {system}", f"from {module} import {fixed} as {system}", 1)
    assert correct != program
    passed = run(correct)
    assert passed.returncode == 0, passed.stderr
