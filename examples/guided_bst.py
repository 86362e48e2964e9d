"""RLCheck's BST case with a guided picker: many more distinct valid search trees than random.

The wiring makes binary trees (values 0..10, depth at most 4) with plain random choices;
only about a third are binary search trees, and most of those repeat. ``sy.guided`` puts
RLCheck's learner behind the wiring's draws (the node values and the two ``Choice``
decisions): with the tree state (each choice sees its ancestors' values and whether it is
in a left or a right subtree) it learns to make distinct valid BSTs. Then a guided picker
finds a bug that only valid BSTs of 6+ nodes trigger, and ``Assert`` shrinks it to a
6-node tree through the same draws. ``python benchmarks/run.py guided`` runs the full
100,000-trial comparison.
"""
from __future__ import annotations

import time
from typing import Any

import synthia as sy


def bst_wiring() -> sy.Picker:
    tree: sy.Picker = sy.Deferred(
        lambda: sy.Apply(lambda v, l, r: (v, l, r), sy.RandomInteger(0, 11), sy.Choice(None, tree), sy.Choice(None, tree)),
        max_depth=5, fallback=None,
    )
    return tree


def is_bst(t: Any, low: int = -1, high: int = 11) -> bool:
    if t is None:
        return True
    value, left, right = t
    return low < value < high and is_bst(left, low, value) and is_bst(right, value, high)


def text(t: Any) -> str:
    return "" if t is None else f"({t[0]} L{text(t[1])} R{text(t[2])})"


def size(t: Any) -> int:
    return 0 if t is None else 1 + size(t[1]) + size(t[2])


def delete_min(t: Any) -> Any:
    """Remove the smallest value; a planted bug loses a subtree in trees of 6+ nodes."""
    value, left, right = t
    if left is None:
        return right
    if size(t) >= 6 and left[1] is None:
        return (value, None, None)  # the bug: drops the right subtree
    return (value, delete_min(left), right)


def main(trials: int = 5000) -> None:
    plain = bst_wiring().set_seed(1)
    random_unique = {text(t) for t in plain.take(trials) if is_bst(t)}
    guided = sy.guided(bst_wiring(), valid=is_bst, canonical=text, state="tree", only_valid=False, seed=1)
    guided.take(trials)
    print(f"{trials} trials: random {len(random_unique)} distinct valid BSTs, guided {guided.unique_count}")
    print("learning curve (episodes, valid, unique valid):", guided.history)
    assert guided.unique_count > len(random_unique)

    # sy.compile fuses the wiring with the learner's decisions written in place: the same trees, faster.
    def make() -> sy.GuidedPicker:
        return sy.guided(bst_wiring(), valid=is_bst, canonical=text, state="tree", only_valid=False, seed=1)

    timed = {}
    for name, picker in (("guided", make()), ("compiled", sy.compile(make()))):
        started = time.perf_counter()
        timed[name] = (picker.take(trials), trials / (time.perf_counter() - started))
    assert timed["compiled"][0] == timed["guided"][0]
    print(f"the same {trials} trees: guided {timed['guided'][1]:,.0f}/s, compiled {timed['compiled'][1]:,.0f}/s")

    def deleting_the_minimum_keeps_the_others(t: Any) -> None:
        assert size(delete_min(t)) == size(t) - 1

    trees = sy.guided(bst_wiring(), valid=is_bst, canonical=text, state="tree", seed=2)
    report = sy.Assert(deleting_the_minimum_keeps_the_others, sy.RunOptions(stop=sy.FixedCount(5000)), t=trees).run(seed=1)
    print(report)
    assert not report.passed and report.smallest is not None and size(report.smallest["t"]) == 6


if __name__ == "__main__":
    main()
