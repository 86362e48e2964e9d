"""Bugs that need two equal parts: copied parts, and values that shrink as values.

Three planted bugs that independent random draws almost never reach, because each needs two
parts of an input to be equal:

* a review rule that forgets that an author cannot approve their own change (two ids out of
  a billion, equal);
* a ``remove_one`` that removes every copy of a value (a list with a repeated element);
* a price table keyed by SKU that counts a SKU added twice as two products.

``Assert`` and ``Monkey`` give a few inputs a part copied over another part of the same kind
(the 8th, 24th and 40th, then one in 256) and replay it through the wiring -- and when that
passes, the same input with its integers at the edges of their ranges -- so these are found;
shrinking keeps the equal parts equal. ``AnyInteger`` meets every magnitude and edge
value, and its value is one draw, so ``x == y`` made by different means shrinks to the
smallest equal pair. Run: ``python examples/equal_parts.py``.
"""
from __future__ import annotations

from typing import Any

import synthia as sy


def may_approve(change: dict[str, Any]) -> bool:
    """The review rule under test: large changes need a reviewer (the author check is missing)."""
    return change["lines"] < 400 or change["reviewer"] is not None


def test_no_self_review(change: dict[str, Any]) -> None:
    if may_approve(change):
        assert change["reviewer"] != change["author"], "an author approved their own change"


def remove_one(values: list[int], value: int) -> list[int]:
    return [v for v in values if v != value]  # planted bug: removes every copy


def test_remove_one(pair: tuple[list[int], int]) -> None:
    values, i = pair
    assert len(remove_one(values, values[i])) == len(values) - 1, "more than one element removed"


class PriceTable:
    def __init__(self) -> None:
        self.prices: dict[int, int] = {}
        self.products = 0

    def add(self, sku: int, price: int) -> None:
        self.products += 1  # planted bug: a SKU added twice is counted twice
        self.prices[sku] = price

    def count(self) -> int:
        return self.products


class PriceModel:
    def __init__(self) -> None:
        self.prices: dict[int, int] = {}

    def add(self, sku: int, price: int) -> None:
        self.prices[sku] = price

    def count(self) -> int:
        return len(self.prices)


def main() -> None:
    ids = sy.RandomInteger(0, 10**9)
    changes = sy.Struct(dict, author=ids, reviewer=sy.RandomInteger(0, 10**9), lines=sy.RandomInteger(0, 2000))
    report = sy.Assert(test_no_self_review, change=changes).run(seed=4)
    print("self review: first failing input #%s" % report.first_index, report.first)
    print("             smallest", report.smallest)
    print("             without copies:", "passed" if sy.Assert(test_no_self_review, sy.RunOptions(copy_parts=False), change=changes).run(seed=4).passed else "failed")

    lists = sy.ComposeList(sy.RandomInteger(-10**6, 10**6), sy.RandomInteger(1, 10))
    with_index = sy.Bind(lists, lambda l: sy.Apply(lambda i: (l, i), sy.RandomInteger(0, len(l))))
    report = sy.Assert(test_remove_one, pair=with_index).run(seed=4)
    print("remove_one:  smallest", report.smallest, "(first failing input #%s)" % report.first_index)

    equal = sy.Assert(lambda x, y: x != y or x < 10, x=sy.AnyInteger(), y=sy.AnyInteger()).run(seed=11)
    print("x == y:      first", equal.first, "smallest", equal.smallest)

    actions = [sy.Action("add", sku=sy.RandomInteger(0, 10**6), price=sy.RandomInteger(1, 100)), sy.Action("count")]
    monkey = sy.Monkey(PriceTable, actions, model=PriceModel).run(seed=0)
    print("price table:", monkey.notes)
    print(monkey.program)


if __name__ == "__main__":
    main()
