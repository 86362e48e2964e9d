"""A bank account tested against a model: a planted overdraft bug, found and shrunk to the
smallest trace, printed as a program you can run.

The account keeps the amount available for withdrawal in a cache that deposits update but
withdrawals forget, so after a first withdrawal the limit is too high and a second one can
overdraw the account. The model is the specification: a withdrawal above the balance raises
``InsufficientFunds``. The Monkey performs deposits and withdrawals on both in lockstep; a
withdrawal that the model refuses but the account accepts is a mismatch. The smallest
failing trace: deposit 1, withdraw 1, withdraw 1.
"""
from __future__ import annotations

import synthia as sy


class InsufficientFunds(Exception):
    """A withdrawal larger than the balance."""


class Account:
    """The system under test."""

    def __init__(self) -> None:
        self.balance = 0
        self.available = 0  # what may be withdrawn, cached

    def deposit(self, amount: int) -> int:
        if amount <= 0:
            raise ValueError(f"deposit a positive amount, not {amount}")
        self.balance += amount
        self.available = self.balance
        return self.balance

    def withdraw(self, amount: int) -> int:
        if amount > self.available:
            raise InsufficientFunds(f"{amount} > {self.available}")
        self.balance -= amount  # planted bug: self.available is not lowered too
        return self.balance


class AccountModel:
    """The specification."""

    def __init__(self) -> None:
        self.balance = 0

    def deposit(self, amount: int) -> int:
        self.balance += amount
        return self.balance

    def withdraw(self, amount: int) -> int:
        if amount > self.balance:
            raise InsufficientFunds(f"{amount} > {self.balance}")
        self.balance -= amount
        return self.balance


ACTIONS = [
    sy.Action("deposit", amount=sy.RandomInteger(1, 1000)),
    sy.Action("withdraw", amount=sy.RandomInteger(1, 1000), raises=InsufficientFunds),
]


def bank_monkey(**settings: object) -> sy.Monkey:
    return sy.Monkey(Account, ACTIONS, model=AccountModel, name="bank_account", **settings)  # type: ignore[arg-type]


def main() -> None:
    report = bank_monkey().run(seed=2026)
    print(report)
    print("\nwhich steps and arguments matter:")
    print(report.explain())


if __name__ == "__main__":
    main()
