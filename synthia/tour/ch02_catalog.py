"""Chapter 2: the catalog of value pickers."""
from __future__ import annotations

import math

import synthia as sy

from . import Tour

TITLE = "2. The catalog: distributions, collections, enumeration, strings, geometry, mutators"


def run(tour: Tour) -> None:
    tour.say(
        """
        Distributions are pickers like any other, and AffineTransform rescales any of them.
        Here: test durations in milliseconds, normally distributed, and request counts
        per minute from a Poisson law.
        """
    )
    tour.code("sy.AsInt(sy.GaussianFloat(mean=120, sd=15)),  sy.PoissonInteger(4.5)")
    tour.values(sy.AsInt(sy.GaussianFloat(120, 15)), 8, seed=1)
    tour.values(sy.PoissonInteger(4.5), 12, seed=1)

    tour.say("Collections: sets of distinct values, tuples, sub-lists, shuffled batches.")
    tour.code("sy.SetPicker(sy.RandomInteger(1, 50), size=6)      # a lottery draw")
    tour.values(sy.Apply(sorted, sy.SetPicker(sy.RandomInteger(1, 50), 6)), 3, seed=7)

    tour.say(
        """
        Enumeration: bounded pickers end with NoMoreElements, and AllPickers walks the
        cartesian product, each combination once, optionally in a random order: exhaustive
        testing of small domains.
        """
    )
    tour.code('sy.AllPickers(sy.AllBooleans(), sy.AllElements(["GET", "POST"]), sy.AllIntegers(200, 202))')
    combos = sy.AllPickers(sy.AllBooleans(), sy.AllElements(["GET", "POST"]), sy.AllIntegers(200, 202))
    tour.values(combos, 20, seed=1, label="all 8")

    tour.say("Strings: random strings over an alphabet, and templates filled by pickers.")
    tour.code(
        """
        ip = sy.StringPattern("192.168.{0}.{1}", sy.RandomInteger(0, 4), sy.RandomInteger(1, 255))
        user = sy.RandomString(sy.RandomInteger(4, 9), alphabet="abcdefghijklmnopqrstuvwxyz")
        """
    )
    tour.values(sy.StringPattern("192.168.{0}.{1}", sy.RandomInteger(0, 4), sy.RandomInteger(1, 255)), 4, seed=3)
    tour.values(sy.RandomString(sy.RandomInteger(4, 9), alphabet="abcdefghijklmnopqrstuvwxyz"), 4, seed=3)

    tour.say(
        """
        Geometry: HyperspherePicker turns a radius and n-1 angles into a point in n
        dimensions. Two Ticks make a spiral (the paper's Figure 1, variation 4).
        """
    )
    spiral = sy.HyperspherePicker(sy.Tick(0, 1 / 6), sy.Tick(sy.Choice(0.0, math.pi / 2), math.pi / 6))
    tour.code("sy.HyperspherePicker(sy.Tick(0, 1/6), sy.Tick(sy.Choice(0.0, math.pi/2), math.pi/6))")
    points = spiral.set_seed(2).take(6)
    tour.show("points", [(round(x, 2), round(y, 2)) for x, y in points])

    tour.say(
        """
        Mutators transform a received object and never modify it: a Choice of mutators
        is itself a mutator (the paper's Figure 4).
        """
    )
    tour.code(
        """
        sy.Mutate(sy.Constant([3, 1, 4, 1, 5]),
                  sy.Choice(sy.MutateElement(sy.Choice(sy.Offset(10), sy.Replace(0))), sy.Swap(), sy.DeleteElement()))
        """
    )
    mutate = sy.Mutate(
        sy.Constant([3, 1, 4, 1, 5]),
        sy.Choice(sy.MutateElement(sy.Choice(sy.Offset(10), sy.Replace(0))), sy.Swap(), sy.DeleteElement()),
    )
    tour.show("seed", 5)
    tour.show("mutants", mutate.set_seed(5).take(5))
