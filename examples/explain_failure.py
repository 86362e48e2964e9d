"""Explaining a shrunk failure: which random draws matter, and which are free.

A rectangle-packing check receives a list of boxes (width, height) and fails when two boxes
side by side are wider than the shelf (100): the planted bug ignores every box but the first
two. Assert finds and shrinks a failure to two boxes whose widths add up to 101;
report.explain() replays the draws of that smallest failing input -- the real run that made
it -- under provenance recording, then tries other values for each draw (the simplest, the
ends of its range, random ones) with every other draw kept. The list's length and the widths
matter; the heights are free ("any value works here"), which tells the reader at a glance that
height has nothing to do with the bug. Hypothesis's explain phase works per top-level argument
only.
"""
from __future__ import annotations

import synthia as sy


def fits_on_shelf(boxes: list[tuple[int, int]]) -> bool:
    if len(boxes) < 2:
        return True
    return boxes[0][0] + boxes[1][0] <= 100  # planted bug: only looks at the first two boxes


def main() -> None:
    box = sy.ArrayPicker(sy.RandomInteger(1, 80), sy.RandomInteger(1, 50))
    boxes = sy.ComposeList(box, sy.RandomInteger(0, 8))
    report = sy.Assert(fits_on_shelf, sy.RunOptions(name="boxes_fit"), boxes=boxes).run(seed=12)
    print(report.summary())
    explanation = report.explain()
    print("\nexplained:")
    print(explanation.describe())
    free = [explanation.text(n) for n in explanation.leaves() if explanation.graph.nodes[n].get("free")]
    print(f"\n{len(free)} free draws, for example: {free[0] if free else '-'}")


if __name__ == "__main__":
    main()
