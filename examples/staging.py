"""Staging and batches: the same values, faster.

A recursive wiring (arithmetic expressions) is compiled with ``sy.compile``: the generated
function is printed, its values are checked against the wiring's for a few seeds, and both are
timed. Then ``take_array`` draws a million ints at once -- the same ints ``take`` would give.
Finally a bug is found and shrunk on the compiled wiring: the same smallest failure as on the
plain one, because while shrinking the compiled picker makes exactly the wiring's draws.
"""
from __future__ import annotations

import time
from typing import Any

import synthia as sy


def expressions() -> sy.Picker[Any]:
    number = sy.RandomInteger(0, 10)
    expr: sy.Picker[Any] = sy.Deferred(
        lambda: sy.Choice(
            number,
            sy.Apply(lambda a, op, b: f"({a} {op} {b})", expr, sy.Choice("+", "-", "*"), expr),
            weights=[3, 2],
        ),
        max_depth=4,
        fallback=number,
    )
    return expr


def per_value(picker: sy.Picker[Any], n: int = 20_000) -> float:
    pick = picker.pick
    start = time.perf_counter()
    for _ in range(n):
        pick()
    return (time.perf_counter() - start) / n


def main() -> None:
    plain = expressions()
    fast = sy.compile(expressions())
    print(fast.source)
    for seed in range(5):
        assert fast.set_seed(seed).take(50) == plain.set_seed(seed).take(50)
    print("seed 1:", fast.set_seed(1).take(3))
    unstaged, staged = per_value(plain), per_value(fast)
    print(f"unstaged {unstaged * 1e9:.0f} ns/value, staged {staged * 1e9:.0f} ns/value ({unstaged / staged:.1f}x)")

    ints = sy.RandomInteger(0, 1000, seed=3)
    ints.duplicate().take_array(10)  # the first batch imports numpy
    start = time.perf_counter()
    array = ints.take_array(1_000_000)
    elapsed = time.perf_counter() - start
    assert array[:1000].tolist() == sy.RandomInteger(0, 1000, seed=3).take(1000)
    print(f"take_array: {len(array):,} ints in {elapsed * 1e3:.0f} ms, the same as take()")

    # A dependent pair (y <= x): a Bind declared a function of its value keeps one wiring per
    # x, so compiled it runs near a hand-written loop; a plain Bind is called as it is.
    pairs: sy.Picker[tuple[int, int]] = sy.Bind(sy.RandomInteger(0, 100), lambda x: sy.Apply(lambda y: (x, y), sy.RandomInteger(0, x + 1)), cache=True)
    fast_pairs = sy.compile(pairs.duplicate())
    assert fast_pairs.set_seed(2).take(1000) == pairs.set_seed(2).take(1000)
    assert all(y <= x for x, y in fast_pairs.take(1000))
    print(f"Bind(cache=True): unstaged {per_value(pairs) * 1e9:.0f} ns/pair, staged {per_value(fast_pairs) * 1e9:.0f} ns/pair")

    def no_big_products(e: str) -> bool:
        return str(e).count("*") < 3  # a planted bug: three products

    reports = [sy.Assert(no_big_products, sy.RunOptions(stop=sy.FixedCount(2000)), e=w).run(seed=4) for w in (expressions(), sy.compile(expressions()))]
    assert reports[0].smallest == reports[1].smallest
    print("smallest failure, plain and compiled:", reports[1].smallest)


if __name__ == "__main__":
    main()
