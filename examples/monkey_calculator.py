"""A pocket calculator driven by valid key sequences from a grammar (the Java original's
``CalculatorMonkeyGrammar``, done right).

Each trace is a sentence of a grammar of calculator sessions -- numbers, operators, a final
``=`` -- whose tokens become key-press actions, so every trace is a valid session and so is
every shrunk one. The calculator is compared with a model after every key (the display).
The planted bug: multiplying by zero leaves the first operand on the display. The smallest
session: ``1 * 0 =``.
"""
from __future__ import annotations

import synthia as sy

SESSIONS = """
<session> := <expression> = ;
<expression> := <number> | <expression> <operator> <number> ;
<number> := <digit> | <digit> <number> ;
<digit> := 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9 ;
<operator> := + | - | * ;
"""


class Calculator:
    """A left-to-right pocket calculator: ``press(key)`` returns the display."""

    def __init__(self) -> None:
        self.total: int | None = None
        self.operator: str | None = None
        self.entry = ""

    def _apply(self) -> None:
        value = int(self.entry or "0")
        if self.total is None or self.operator is None:
            self.total = value
        elif self.operator == "+":
            self.total += value
        elif self.operator == "-":
            self.total -= value
        elif value != 0:  # planted bug: "* 0" keeps the first operand
            self.total *= value
        self.entry = ""

    def press(self, key: str) -> str:
        if key.isdigit():
            self.entry += key
            return self.entry
        self._apply()
        self.operator = None if key == "=" else key
        return str(self.total)


class CalculatorModel(Calculator):
    """The specification: the same calculator, multiplying correctly."""

    def _apply(self) -> None:
        if self.operator == "*" and self.total is not None:
            self.total *= int(self.entry or "0")
            self.entry = ""
            return
        super()._apply()


KEYS = {key: sy.Action("press", name=f"press {key}", key=key) for key in "0123456789+-*="}
sessions = sy.GrammarSequence(SESSIONS, max_depth=8, to_object=KEYS.__getitem__)


def calculator_monkey(**settings: object) -> sy.Monkey:
    return sy.Monkey(Calculator, sessions, model=CalculatorModel, name="calculator", **settings)  # type: ignore[arg-type]


def main() -> None:
    print("three sessions:", [" ".join(a.args["key"].pick() for a in s) for s in sessions.set_seed(3).take(3)])
    report = calculator_monkey().run(seed=5)
    print(report)


if __name__ == "__main__":
    main()
