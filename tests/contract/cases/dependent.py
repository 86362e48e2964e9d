"""Contract cases for dependent wirings: ``Bind`` (alias ``FlatMap``) and ``Composite``."""
from __future__ import annotations

import synthia as sy

from ..registry import BadArgument, Case, Signature


def _list_and_index() -> sy.Picker:
    lists = sy.ComposeList(sy.RandomInteger(0, 100), sy.RandomInteger(1, 8))
    return sy.Bind(lists, lambda l: sy.Apply(lambda i: (l, i), sy.RandomInteger(0, len(l))))


def _interval_and_value() -> sy.Picker:
    low = sy.RandomInteger(-100, 100)
    interval = sy.Bind(low, lambda lo: sy.Apply(lambda hi: (lo, hi), sy.RandomInteger(lo + 1, lo + 50)))
    return sy.Bind(interval, lambda iv: sy.Apply(lambda v: (iv, v), sy.RandomInteger(*iv)))


def _point(draw: object, size: int) -> tuple[int, int]:
    x = draw(sy.RandomInteger(0, size))  # type: ignore[operator]
    return (x, draw(sy.RandomInteger(0, x + 1)))  # type: ignore[operator]


_WORDS = sy.ComposeList(sy.RandomString(3, "abc"), sy.RandomInteger(1, 5))


def _word_and_position(draw: object) -> tuple[list[str], int]:
    words = draw(_WORDS)  # a picker built outside: drawn through a copy  # type: ignore[operator]
    return (words, draw(sy.RandomInteger(0, len(words))))  # type: ignore[operator]


CASES = [
    Case("Composite point", sy.Composite, lambda: sy.Composite(_point, 20)),
    Case("Composite with an outside picker", sy.Composite, lambda: sy.composite(_word_and_position)()),
    Case("Composite in a list", sy.Composite, lambda: sy.ComposeList(sy.Composite(_point, 5), sy.RandomInteger(0, 4))),
    Case("Bind list and index", sy.Bind, _list_and_index),
    Case("FlatMap interval and value", sy.Bind, _interval_and_value),
    Case("Bind to a constant", sy.Bind, lambda: sy.Bind(sy.RandomInteger(0, 10), lambda n: n * n)),
    Case("Bind cache=True int pair", sy.Bind, lambda: sy.Bind(
        sy.RandomInteger(0, 30), lambda x: sy.Apply(lambda y: (x, y), sy.RandomInteger(0, x + 1)), cache=True)),
    Case("Bind cache=True list and index", sy.Bind, lambda: sy.Bind(
        sy.Apply(tuple, sy.ComposeList(sy.RandomInteger(0, 5), sy.RandomInteger(1, 3))),
        lambda t: sy.Apply(lambda i: (t, i), sy.RandomInteger(0, len(t))), cache=True)),
]

BAD_ARGUMENTS = [
    BadArgument("Composite fn not callable", lambda: sy.Composite(5), TypeError, "fn"),
    BadArgument("composite fn not callable", lambda: sy.composite(5), TypeError, "fn"),
    BadArgument("Bind fn not callable", lambda: sy.Bind(sy.RandomInteger(0, 3), 5), TypeError, "fn"),
    BadArgument("Bind fn arity", lambda: sy.Bind(sy.RandomInteger(0, 3), lambda: 0), TypeError, "fn must accept 1"),
    BadArgument("Bind cache not a bool", lambda: sy.Bind(sy.RandomInteger(0, 3), lambda n: n, cache=1), TypeError, "cache"),
]

SIGNATURES = [
    Signature(sy.Composite, lambda C: C(_point, 8, seed=1)),
    Signature(sy.Bind, lambda C: C(sy.RandomInteger(1, 5), lambda n: sy.RandomInteger(0, n), seed=1)),
    Signature(sy.Bind, lambda C: C(sy.RandomInteger(1, 5), lambda n: sy.RandomInteger(0, n), cache=True, seed=1)),
]
