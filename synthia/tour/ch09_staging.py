"""Chapter 7: speed -- a wiring staged into one function, and numpy batches, with the same values."""
from __future__ import annotations

import time
from typing import Any

import synthia as sy

from . import Tour

TITLE = "9. Speed: sy.compile and take_array, the same values faster"


def _per_value(picker: sy.Picker[Any], n: int = 3000) -> float:
    pick = picker.pick
    start = time.perf_counter()
    for _ in range(n):
        pick()
    return (time.perf_counter() - start) / n


def run(tour: Tour) -> None:
    tour.say(
        """
        A wiring is a graph of small objects: each value costs a Python call per picker.
        sy.compile(picker) writes one Python function for a wiring of the core pickers --
        one local per draw, integer ranges inlined on the stream's getrandbits, weighted
        choices unrolled, a loop per list, a local recursive function per Deferred -- that
        draws from the same streams in the same order. So it gives exactly the wiring's
        values: same seed, same sequence. Your functions and pickers are called as they are.
        """
    )
    tour.code(
        """
        leaf = sy.RandomInteger(0, 100)
        tree = sy.Deferred(lambda: sy.Choice(leaf, sy.Apply(lambda l, r: (l, r), tree, tree)),
                           max_depth=3, fallback=leaf)
        fast = sy.compile(tree)
        fast.set_seed(5).take(3) == tree.set_seed(5).take(3)
        """
    )
    leaf = sy.RandomInteger(0, 100)
    tree: sy.Picker[Any] = sy.Deferred(lambda: sy.Choice(leaf, sy.Apply(lambda l, r: (l, r), tree, tree)), max_depth=3, fallback=leaf)
    fast = sy.compile(tree)
    tour.values(fast, n=3, seed=5)
    tour.show("same as the wiring", fast.set_seed(5).take(200) == tree.set_seed(5).take(200))
    tour.show("generated function", "")
    for line in fast.source.splitlines()[:14]:
        tour.show("  ", line)
    unstaged, staged = _per_value(tree), _per_value(fast)
    tour.show("ns per value, unstaged -> staged", f"{unstaged * 1e9:.0f} -> {staged * 1e9:.0f} ({unstaged / staged:.1f}x)")

    tour.say(
        """
        While a failure is recorded, replayed or shrunk (or provenance is recorded), the
        compiled picker picks through the graph, so the draws are exactly the wiring's: an
        Assert over sy.compile(w) finds and shrinks the same smallest failure as over w.
        """
    )
    report = sy.Assert(lambda t: not (isinstance(t, tuple) and isinstance(t[0], tuple)), t=fast).run(seed=3)
    tour.show("smallest failure on the compiled tree", report.smallest)

    tour.say(
        """
        For many numbers from one flat numeric picker, take_array(n) draws them in one numpy
        batch: numpy's MT19937 is put in the picker's exact state and its words mapped as
        getrandbits and random() map them, so the values are take(n)'s, bit for bit, and the
        picker goes on where take(n) would leave it.
        """
    )
    ints = sy.RandomInteger(0, 1000, seed=9)
    array = ints.take_array(100_000)
    tour.show("take_array(100_000)[:6]", array[:6].tolist())
    tour.show("== take(6)", sy.RandomInteger(0, 1000, seed=9).take(6))

    tour.say(
        """
        A Bind builds and seeds a new wiring for every value, and compiled code must call it as
        it is. Declared a function of its value (cache=True), a Bind keeps one wiring per value,
        and compiled it runs close to a hand-written loop: here a pair with y <= x.
        """
    )
    tour.code(
        """
        pairs = sy.Bind(sy.RandomInteger(0, 100),
                        lambda x: sy.Apply(lambda y: (x, y), sy.RandomInteger(0, x + 1)), cache=True)
        sy.compile(pairs).set_seed(2).take(4)
        """
    )
    pairs: sy.Picker[Any] = sy.Bind(sy.RandomInteger(0, 100), lambda x: sy.Apply(lambda y: (x, y), sy.RandomInteger(0, x + 1)), cache=True)
    tour.show("compiled pairs", sy.compile(pairs.duplicate()).set_seed(2).take(4))
    tour.show("== the Bind's own", pairs.set_seed(2).take(4))
