"""The Synthia paper's Figure 3: explaining the first point of a list of points.

A ComposeList makes lists of four points. Each point comes from a PickIf that rejects the
points on the line x = y, over a PrismPicker whose x is a Tick starting at 0 and advancing by
a Freeze'd RandomInteger in [1, 3), and whose y plays back 0, 1, -1. With a seed where the
increment is 1, the first point of the first list is (2, -1): the prism's outputs (0, 0) and
(1, 1) were rejected. The explanation shows that this point is output 2 of the PrismPicker,
that the Tick's output 2 goes back through its outputs 1 and 0 and the Freeze's outputs to a
single RandomInteger draw, and that the y value is element 2 of the Playback's list.

The graph is printed, and rendered to out/figure3.svg (with the wiring diagram beside it)
when Graphviz's dot is installed; otherwise the DOT files are written and the reason printed.
"""
from __future__ import annotations

import pathlib

import synthia as sy
from synthia.explain import RenderError


def figure3() -> sy.Picker:
    x = sy.Tick(0, sy.Freeze(sy.RandomInteger(1, 3)))
    y = sy.Playback([0, 1, -1])
    points = sy.PickIf(sy.PrismPicker(x, y), lambda p: p[0] != p[1])
    return sy.ComposeList(points, 4)


def main() -> None:
    lists = figure3().set_seed(0)
    with sy.recording(lists):
        first = lists.pick()
    print("wiring:", lists)
    print("seed:   0")
    print("first list:", first)
    explanation = sy.explain(lists, 0, sy.NthElement(0))
    print("\nWhy is the first point", first[0], "?")
    print(explanation.describe())
    leaves = [explanation.text(leaf) for leaf in explanation.leaves()]
    print("\nit all comes down to:", "; ".join(leaves))
    out = pathlib.Path("out")
    try:
        print("rendered", explanation.render(out / "figure3.svg"), "and", sy.wiring_diagram(lists).render(out / "figure3-wiring.svg"))
    except RenderError as err:
        print(err)


if __name__ == "__main__":
    main()
