"""Chapter 8: guided pickers, learning to make many distinct valid inputs."""
from __future__ import annotations

from typing import Any

import synthia as sy
from synthia.rl.bst import bst_wiring, canonical, is_bst

from . import Tour

TITLE = "8. Guided pickers: a learner steers the draws towards distinct valid inputs"


_tree = bst_wiring
text = canonical


def run(tour: Tour) -> None:
    tour.say(
        """
        A strict precondition starves random generation: of the binary trees a recursive
        wiring makes (values 0..10, depth at most 4), about a third are binary search trees,
        and nearly all of those are the same few small trees. PickIf only throws the others
        away. sy.guided puts RLCheck's learner behind the wiring's typed draws: every
        integer, boolean and Choice decision becomes a choice point with its own Q-table,
        rewarded 20 for a valid input never seen before, 0 for a repeat and -1 for an
        invalid one. Nothing in the wiring changes.
        """
    )
    tour.code(
        """
        value = sy.RandomInteger(0, 11)
        tree = sy.Deferred(lambda: sy.Apply(node, value, sy.Choice(None, tree), sy.Choice(None, tree)),
                           max_depth=4, fallback=sy.Apply(node, value, None, None))
        plain = tree.set_seed(1)
        guided = sy.guided(tree, valid=is_bst, canonical=text, state="tree", only_valid=False, seed=1)
        """
    )
    trials = 4000
    plain = _tree().set_seed(1)
    random_unique = {text(t) for t in plain.take(trials) if is_bst(t)}
    guided = sy.guided(_tree(), valid=is_bst, canonical=text, state="tree", only_valid=False, seed=1)
    guided.take(trials)
    tour.show(f"distinct valid BSTs in {trials} random trees", len(random_unique))
    tour.show(f"distinct valid BSTs in {trials} guided trees", guided.unique_count)
    tour.show("learning curve (episodes, valid, unique valid)", guided.history)
    tour.say(
        """
        The guided picker is an ordinary picker: the same seed gives the same trees,
        reset() forgets what it learnt and replays, duplicate(with_state=True) carries the
        learning over, freeze() keeps the policy and stops learning, to_json() saves it.
        In a harness it replaces PickIf: Assert shrinks what it finds through the same
        draws, and its report says how the valid and unique-valid rates evolved.
        """
    )
    search = sy.guided(_tree(), valid=is_bst, canonical=text, state="tree", seed=2)

    def size(t: Any) -> int:
        return 0 if t is None else 1 + size(t[1]) + size(t[2])

    def check(t: Any) -> None:
        assert size(t) < 6, "an operation that breaks on valid BSTs of 6+ nodes"

    report = sy.Assert(check, sy.RunOptions(stop=sy.FixedCount(5000)), t=search).run(seed=1)
    tour.show("smallest failing BST", text(report.smallest["t"]) if report.smallest else None)
    for note in report.notes:
        tour.show("note", note)
    tour.say(
        """
        The learner runs in Python at every draw, so a guided episode costs several times a
        random one. sy.compile fuses a guided picker's wiring with the learner's decisions
        written in place: the same decisions in the same order, so the same trees and the
        same Q-tables, over twice as many episodes a second -- within 1.3x of RLCheck's
        learner hand-written for this very wiring (python benchmarks/run.py guided). A Monkey whose
        action takes a guided argument keeps learning from trace to trace.
        """
    )
    tour.code(
        """
        fast = sy.compile(sy.guided(tree, valid=is_bst, canonical=text, state="tree",
                                    only_valid=False, seed=1))
        guided.reset()
        fast.take(4000) == guided.take(4000)
        """
    )
    fast = sy.compile(sy.guided(_tree(), valid=is_bst, canonical=text, state="tree", only_valid=False, seed=1))
    guided.reset()
    tour.show("the compiled guided picker gives the same trees", fast.take(trials) == guided.take(trials))
