"""Chapter 1: pickers, wiring, reset, duplicate and seeds."""
from __future__ import annotations

import synthia as sy

from . import Tour

TITLE = "1. Pickers and wirings"


def run(tour: Tour) -> None:
    tour.say(
        """
        A picker returns a value on every pick(). Pickers take other pickers as
        inputs, like the modules of a synthesizer patched with cables. Every run
        below prints its seed: the same seed gives the same values on any machine.
        """
    )
    tour.code("dice = sy.RandomInteger(1, 7)          # [1, 7), like range")
    tour.values(sy.RandomInteger(1, 7), 10, seed=2026)

    tour.say("A list of dice whose length is itself random: the length is a cable too.")
    tour.code("hand = sy.ComposeList(sy.RandomInteger(1, 7), length=sy.RandomInteger(2, 6))")
    hand = sy.ComposeList(sy.RandomInteger(1, 7), length=sy.RandomInteger(2, 6))
    tour.values(hand, 4, seed=2026)

    tour.say(
        """
        Pickers are stateful. Tick counts; Freeze keeps its first value; Playback
        replays a list. Here a clock starts at 0 and advances by a step drawn once.
        """
    )
    tour.code("clock = sy.Tick(0, sy.Freeze(sy.RandomInteger(1, 4)))")
    clock = sy.Tick(0, sy.Freeze(sy.RandomInteger(1, 4)))
    tour.values(clock, 6, seed=7)

    tour.say(
        """
        reset() replays from the start; duplicate() copies a wiring (with_state=True
        continues where the original is); shared pickers stay shared in the copy.
        """
    )
    first = clock.take(3)
    twin = clock.duplicate(with_state=True)
    tour.show("clock continues", first)
    tour.show("original next 3", clock.take(3))
    tour.show("copy next 3    ", twin.take(3))
    clock.reset()
    tour.show("after reset()  ", clock.take(3))

    tour.say(
        """
        Apply computes a value from upstream picks, which is how Python code builds
        records. Choice picks among values or pickers by weight; PickIf filters.
        """
    )
    tour.code(
        """
        user = sy.Apply(dict,
                        name=sy.Choice("ada", "grace", "alan"),
                        age=sy.PickIf(sy.RandomInteger(0, 120), lambda a: a >= 18),
                        admin=sy.RandomBoolean(0.1))
        """
    )
    user: sy.Picker[dict] = sy.Apply(
        dict,
        name=sy.Choice("ada", "grace", "alan"),
        age=sy.PickIf(sy.RandomInteger(0, 120), lambda a: a >= 18),
        admin=sy.RandomBoolean(0.1),
    )
    tour.values(user, 3, seed=99)

    tour.say(
        """
        Deferred lets a wiring refer to itself: here binary trees of bounded depth,
        written with pickers alone.
        """
    )
    tour.code(
        """
        tree = sy.Deferred(lambda: sy.Choice("leaf", sy.Apply(lambda l, r: (l, r), tree, tree)),
                           max_depth=3, fallback="leaf")
        """
    )
    tree: sy.Picker[object] = sy.Deferred(
        lambda: sy.Choice("leaf", sy.Apply(lambda l, r: (l, r), tree, tree)), max_depth=3, fallback="leaf"
    )
    tour.values(tree, 3, seed=14, label="trees ")
