"""Chapter 4: provenance."""
from __future__ import annotations

import synthia as sy

from . import Tour

TITLE = "5. Provenance: why a value looks the way it does"


def run(tour: Tour) -> None:
    tour.say(
        """
        Any output, or part of one, can be explained down to the random draws that made
        it. Recording is opt-in: inside `with sy.recording(picker):` every picker of the
        wiring logs what it produced and consumed; a plain pick() pays nothing. Here is
        the paper's Figure 3: lists of four points whose x is a Tick advancing by a
        frozen random step and whose y plays back 0, 1, -1, rejecting points on x = y.
        """
    )
    tour.code(
        """
        x = sy.Tick(0, sy.Freeze(sy.RandomInteger(1, 3)))
        lists = sy.ComposeList(sy.PickIf(sy.PrismPicker(x, sy.Playback([0, 1, -1])),
                                         lambda p: p[0] != p[1]), 4)
        with sy.recording(lists.set_seed(0)):
            first = lists.pick()
        print(sy.explain(lists, 0, sy.NthElement(0)).describe())
        """
    )
    x = sy.Tick(0, sy.Freeze(sy.RandomInteger(1, 3)))
    lists = sy.ComposeList(sy.PickIf(sy.PrismPicker(x, sy.Playback([0, 1, -1])), lambda p: p[0] != p[1]), 4)
    with sy.recording(lists.set_seed(0)):
        first = lists.pick()
    tour.show("first list", first)
    for line in sy.explain(lists, 0, sy.NthElement(0)).describe().splitlines():
        tour.show("why", line)

    tour.say(
        """
        A failure found by Assert is explained too: report.explain() replays the draws of
        the smallest failing input -- the real run that made it -- and tries other values
        for each draw with everything else fixed. Draws whose value never changes the
        verdict are marked free.
        """
    )
    boxes = sy.ComposeList(sy.ArrayPicker(sy.RandomInteger(1, 80), sy.RandomInteger(1, 50)), sy.RandomInteger(0, 8))
    report = sy.Assert(lambda boxes: len(boxes) < 2 or boxes[0][0] + boxes[1][0] <= 100, boxes=boxes).run(seed=12)
    tour.code("report = sy.Assert(fits_on_shelf, boxes=boxes).run(seed=12); report.explain()")
    tour.show("smallest", report.smallest)
    explanation = report.explain()
    for leaf in explanation.leaves():
        tour.show("draw", explanation.text(leaf))
