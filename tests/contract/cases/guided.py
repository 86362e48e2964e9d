"""Contract cases for guided pickers: ``GuidedPicker`` (made by ``guided``)."""
from __future__ import annotations

import synthia as sy

from ..registry import BadArgument, Case, Signature


def _pairs() -> sy.Picker:
    pairs = sy.Apply(lambda a, b: (a, b), sy.RandomInteger(0, 10), sy.RandomInteger(0, 10))
    return sy.guided(pairs, valid=lambda p: p[0] < p[1])


def _tree() -> sy.Picker:
    tree: sy.Picker = sy.Deferred(
        lambda: sy.Apply(lambda v, l, r: (v, l, r), sy.RandomInteger(0, 5), sy.Choice(None, tree), sy.Choice(None, tree)),
        max_depth=3, fallback=None,
    )
    return sy.guided(tree, state="tree", only_valid=False)


def _sentences() -> sy.Picker:
    grammar = sy.GrammarSentence("<s> := <n> | <s> + <n> ; <n> := 1 | 2 | 3 ;", max_depth=5)
    return sy.guided(grammar, valid=lambda s: len(s) > 3, state="tree")


CASES = [
    Case("guided constant", sy.GuidedPicker, lambda: sy.guided(5), random=False),
    Case("guided pairs, valid when ordered", sy.GuidedPicker, _pairs),
    Case("guided tree, tree state", sy.GuidedPicker, _tree),
    Case("guided grammar sentences", sy.GuidedPicker, _sentences),
    Case("guided and frozen lists", sy.GuidedPicker,
         lambda: sy.guided(sy.ComposeList(sy.RandomInteger(0, 4), sy.RandomInteger(0, 5))).freeze()),
]

BAD_ARGUMENTS = [
    BadArgument("guided valid not callable", lambda: sy.guided(sy.RandomInteger(0, 3), valid=3), TypeError, "valid"),
    BadArgument("guided unknown state", lambda: sy.guided(sy.RandomInteger(0, 3), state="graph"), ValueError, "state"),
    BadArgument("guided window 0", lambda: sy.guided(sy.RandomInteger(0, 3), window=0), ValueError, "window"),
    BadArgument("guided epsilon 2", lambda: sy.guided(sy.RandomInteger(0, 3), epsilon=2.0), ValueError, "epsilon"),
    BadArgument("guided two rewards", lambda: sy.guided(sy.RandomInteger(0, 3), rewards=(1, 2)), ValueError, "rewards"),
    BadArgument("guided points not a list", lambda: sy.guided(sy.RandomInteger(0, 3), points=4), TypeError, "points"),
    BadArgument("guided points outside", lambda: sy.guided(sy.RandomInteger(0, 3), points=[sy.RandomInteger(0, 3)]), ValueError, "points"),
    BadArgument("guided max_tries 0", lambda: sy.guided(sy.RandomInteger(0, 3), max_tries=0), ValueError, "max_tries"),
    BadArgument("Guide epsilon -1", lambda: sy.Guide(epsilon=-1.0), ValueError, "epsilon"),
]

SIGNATURES = [
    Signature(sy.GuidedPicker, lambda C: C(sy.RandomInteger(0, 10), lambda x: x % 2 == 0, state="tree", window=3, seed=1)),
    Signature(sy.guided, lambda C: C(sy.RandomInteger(0, 10), valid=lambda x: x > 2, epsilon=0.5, float_buckets=4, seed=1)),
]
