"""Contract cases for dependent wirings: ``Bind`` (alias ``FlatMap``)."""
from __future__ import annotations

import synthia as sy

from ..registry import BadArgument, Case


def _list_and_index() -> sy.Picker:
    lists = sy.ComposeList(sy.RandomInteger(0, 100), sy.RandomInteger(1, 8))
    return sy.Bind(lists, lambda l: sy.Apply(lambda i: (l, i), sy.RandomInteger(0, len(l))))


def _interval_and_value() -> sy.Picker:
    low = sy.RandomInteger(-100, 100)
    interval = sy.Bind(low, lambda lo: sy.Apply(lambda hi: (lo, hi), sy.RandomInteger(lo + 1, lo + 50)))
    return sy.Bind(interval, lambda iv: sy.Apply(lambda v: (iv, v), sy.RandomInteger(*iv)))


CASES = [
    Case("Bind list and index", sy.Bind, _list_and_index),
    Case("FlatMap interval and value", sy.Bind, _interval_and_value),
    Case("Bind to a constant", sy.Bind, lambda: sy.Bind(sy.RandomInteger(0, 10), lambda n: n * n)),
]

BAD_ARGUMENTS = [
    BadArgument("Bind fn not callable", lambda: sy.Bind(sy.RandomInteger(0, 3), 5), TypeError, "fn"),
    BadArgument("Bind picker not a picker", lambda: sy.Bind([1, 2], len), TypeError, "picker"),
]
