"""Contract cases for the first pickers of the core (scalars, basic, sequences, lists, filters)."""
from __future__ import annotations

import synthia as sy

from ..registry import BadArgument, Case, Signature


def _tree() -> sy.Picker:
    tree = sy.Deferred(
        lambda: sy.Choice(sy.Constant("leaf"), sy.Apply(lambda l, r: (l, r), tree, tree)),
        max_depth=4,
        fallback="leaf",
    )
    return tree


def _diamond() -> sy.Picker:
    shared = sy.RandomInteger(0, 1000)
    return sy.Apply(lambda a, b: (a, b), sy.Apply(lambda x: x + 1, shared), sy.Apply(lambda x: -x, shared))


CASES = [
    Case("RandomInteger", sy.RandomInteger, lambda: sy.RandomInteger(-5, 1000)),
    Case("RandomInteger(high)", sy.RandomInteger, lambda: sy.RandomInteger(3)),
    Case("RandomFloat", sy.RandomFloat, lambda: sy.RandomFloat(-2.5, 7.0)),
    Case("RandomBoolean", sy.RandomBoolean, lambda: sy.RandomBoolean(0.3)),
    Case("Constant", sy.Constant, lambda: sy.Constant([1, 2]), random=False),
    Case("Nothing", sy.Nothing, lambda: sy.Nothing(), random=False, bounded=True),
    Case("Choice of values", sy.Choice, lambda: sy.Choice("a", "b", "c", weights=[1, 2, 3])),
    Case("Choice of pickers", sy.Choice, lambda: sy.Choice(sy.RandomInteger(0, 10), sy.Tick(100, 1))),
    Case("Freeze", sy.Freeze, lambda: sy.ComposeList(sy.Freeze(sy.RandomInteger(0, 10**6)), 3)),
    Case("Once", sy.Once, lambda: sy.Once(sy.RandomInteger(0, 10**6)), bounded=True),
    Case("Tick", sy.Tick, lambda: sy.Tick(sy.RandomInteger(0, 10**6), sy.Freeze(sy.RandomInteger(1, 3)))),
    Case("Tick constant", sy.Tick, lambda: sy.Tick(5, 2), random=False),
    Case("Playback looping", sy.Playback, lambda: sy.Playback([0, 1, -1]), random=False),
    Case("Playback once", sy.Playback, lambda: sy.Playback("abcd", loop=False, start=1), random=False, bounded=True),
    Case("ComposeList", sy.ComposeList, lambda: sy.ComposeList(sy.RandomInteger(0, 1000), sy.RandomInteger(0, 20))),
    Case("PickIf", sy.PickIf, lambda: sy.PickIf(sy.RandomInteger(0, 100), lambda x: x % 2 == 1)),
    Case("Apply", sy.Apply, lambda: sy.Apply(dict, x=sy.RandomInteger(0, 5), y=sy.RandomFloat())),
    Case("Apply diamond", sy.Apply, _diamond),
    Case("Deferred tree", sy.Deferred, _tree),
    Case("Compiled tree", sy.Compiled, lambda: sy.compile(_tree())),
    Case(
        "Compiled record",
        sy.Compiled,
        lambda: sy.compile(
            sy.Apply(dict, n=sy.RandomInteger(-5, 5), xs=sy.ComposeList(sy.Choice(1.5, 2, weights=[3, 1]), 3), t=sy.Tick())
        ),
    ),
    # What shrinking returns is a picker too, and keeps the contract.
    Case("shrunk RandomInteger", sy.RandomInteger, lambda: sy.RandomInteger(-500, 1000).shrink(-377)),
    Case("shrunk RandomFloat", sy.RandomFloat, lambda: sy.RandomFloat(-5.0, 5.0).shrink(4.25)),
    Case("shrunk Choice", sy.Choice, lambda: sy.Choice("a", sy.RandomInteger(0, 10**6), "z").shrink("z")),
    Case(
        "shrunk ComposeList",
        sy.ComposeList,
        lambda: sy.ComposeList(sy.RandomInteger(0, 1000), sy.RandomInteger(0, 50)).shrink(list(range(100, 140))),
    ),
    Case("shrunk PickIf", sy.PickIf, lambda: sy.PickIf(sy.RandomInteger(0, 10**6), lambda x: x % 2).shrink(900_001)),
]

BAD_ARGUMENTS = [
    BadArgument("RandomInteger empty range", lambda: sy.RandomInteger(5, 5), ValueError, "high"),
    BadArgument("RandomInteger float bound", lambda: sy.RandomInteger(0, 2.5), TypeError, "high"),
    BadArgument("RandomFloat reversed", lambda: sy.RandomFloat(1.0, 0.0), ValueError, "high"),
    BadArgument("RandomFloat nan", lambda: sy.RandomFloat(float("nan"), 1.0), ValueError, "low"),
    BadArgument("RandomBoolean p > 1", lambda: sy.RandomBoolean(1.5), ValueError, "1.5"),
    BadArgument("RandomInteger bad seed", lambda: sy.RandomInteger(0, 5, seed="x"), TypeError, "seed"),
    BadArgument("Choice no alternatives", lambda: sy.Choice(), ValueError, "alternative"),
    BadArgument("Choice negative weight", lambda: sy.Choice(1, 2, weights=[1, -1]), ValueError, "weights[1]"),
    BadArgument("Choice weight count", lambda: sy.Choice(1, 2, weights=[1]), ValueError, "weights"),
    BadArgument("Choice zero weights", lambda: sy.Choice(1, weights=[0]), ValueError, "weights"),
    BadArgument("Choice decision not picker", lambda: sy.Choice(1, decision="x"), TypeError, "decision"),
    BadArgument("Tick non-number", lambda: sy.Tick("a"), TypeError, "start"),
    BadArgument("Playback bad start", lambda: sy.Playback([1, 2], start=2), ValueError, "start"),
    BadArgument("Playback loop not bool", lambda: sy.Playback([1], loop="yes"), TypeError, "loop"),
    BadArgument("Playback of a picker", lambda: sy.Playback(sy.Tick()), TypeError, "values"),
    BadArgument("ComposeList negative length", lambda: sy.ComposeList(sy.Tick(), -1), ValueError, "length"),
    BadArgument("ComposeList element not picker", lambda: sy.ComposeList([1], 3), TypeError, "element"),
    BadArgument("PickIf predicate", lambda: sy.PickIf(sy.Tick(), 3), TypeError, "predicate"),
    BadArgument("PickIf max_tries", lambda: sy.PickIf(sy.Tick(), bool, max_tries=0), ValueError, "max_tries"),
    BadArgument("Apply fn", lambda: sy.Apply(42), TypeError, "fn"),
    BadArgument("Deferred build", lambda: sy.Deferred(3), TypeError, "build"),
    BadArgument("Deferred depth", lambda: sy.Deferred(sy.Tick, max_depth=-1, fallback=0), ValueError, "max_depth"),
]

SIGNATURES = [
    Signature(sy.RandomInteger, lambda C: C(-5, 10, seed=1)),
    Signature(sy.RandomFloat, lambda C: C(-2.5, 7.0, seed=1)),
    Signature(sy.RandomBoolean, lambda C: C(0.3, seed=1)),
    Signature(sy.Constant, lambda C: C([1, 2])),
    Signature(sy.Nothing, lambda C: C()),
    Signature(sy.Choice, lambda C: C("a", sy.RandomInteger(0, 10), "c", weights=[1, 2, 3], decision=sy.RandomFloat())),
    Signature(sy.Freeze, lambda C: C(sy.RandomInteger(0, 10))),
    Signature(sy.Once, lambda C: C(sy.RandomInteger(0, 10))),
    Signature(sy.Tick, lambda C: C(sy.RandomInteger(0, 10), 2)),
    Signature(sy.Playback, lambda C: C([0, 1, -1], loop=False, start=1)),
    Signature(sy.ComposeList, lambda C: C(sy.RandomInteger(0, 10), sy.RandomInteger(0, 5))),
    Signature(sy.PickIf, lambda C: C(sy.RandomInteger(0, 100), lambda x: x % 2 == 1, max_tries=100)),
    Signature(sy.Apply, lambda C: C(lambda a, b: (a, b), sy.RandomInteger(0, 5), b=sy.Tick())),
    Signature(sy.Deferred, lambda C: C(lambda: sy.RandomInteger(0, 5), max_depth=3, fallback=0)),
    Signature(sy.Compiled, lambda C: C(sy.ComposeList(sy.RandomInteger(0, 10), sy.RandomInteger(0, 5)))),
    Signature(sy.compile, lambda C: C(sy.Choice(sy.RandomInteger(0, 10), "x", weights=[2, 1]))),
]
