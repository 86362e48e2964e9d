"""The cost of provenance: pick() with recording off, and inside a recording block.

Recording is opt-in; with it off, a wiring must run at the speed of a wiring that has never
been recorded (the first row is that baseline, measured in the same run).
"""
from __future__ import annotations

from typing import Any, Callable

from timing import per_call, table

import synthia as sy


def figure3() -> sy.Picker:
    x = sy.Tick(0, sy.Freeze(sy.RandomInteger(1, 3)))
    return sy.ComposeList(sy.PickIf(sy.PrismPicker(x, sy.Playback([0, 1, -1])), lambda p: p[0] != p[1]), 4)


def run(quick: bool) -> None:
    n = 2_000 if quick else 50_000
    rows = []
    for label, factory in [
        ("ComposeList(RandomInteger(0, 1000), RandomInteger(0, 20))", lambda: sy.ComposeList(sy.RandomInteger(0, 1000), sy.RandomInteger(0, 20))),
        ("Figure 3 wiring", figure3),
    ]:
        never = factory().set_seed(1)
        once = factory().set_seed(1)
        with sy.recording(once):
            once.take(10)

        def picks(picker: Any) -> Callable[[int], None]:
            def body(count: int) -> None:
                pick = picker.pick
                for _ in range(count):
                    pick()

            return body

        base = per_call(picks(never), n)
        after = per_call(picks(once), n)
        recorded = factory().set_seed(1)
        with sy.recording(recorded):
            on = per_call(picks(recorded), max(n // 5, 500), repeat=1)
        rows.append((label, f"{base * 1e6:8.2f} µs", f"{after / base:6.2f}x", f"{on / base:6.2f}x"))
    table(rows, ("wiring", "pick, never recorded", "after a recording", "while recording"))
