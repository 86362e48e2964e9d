"""Collections sized as Hypothesis sizes them: usually short, sometimes long (``sy.AnySize``).

A ring buffer of 16 slots that forgets its oldest item when full is correct for every list of
at most 16 items; its bug needs 17. ``sy.AnySize()`` -- what ``sy.from_type(list[int])`` and the
codemod's ``st.lists(st.integers())`` use -- has a mean of 5 items like a uniform size up to
10, but a list of 20 comes one time in 40, so the run finds the bug and shrinks it to the 17
smallest items. A uniform ``RandomInteger(0, 11)`` size never makes one.
Run: ``python examples/collection_sizes.py``.
"""
from __future__ import annotations

import statistics

import synthia as sy


class RingBuffer:
    """A buffer of ``capacity`` items; the planted bug: when full it silently drops the oldest."""

    def __init__(self, capacity: int = 16) -> None:
        self.capacity = capacity
        self.items: list[int] = []

    def push(self, item: int) -> None:
        if len(self.items) == self.capacity:
            self.items.pop(0)
        self.items.append(item)


def keeps_everything(items: list[int]) -> None:
    buffer = RingBuffer()
    for item in items:
        buffer.push(item)
    assert buffer.items == items, f"{len(items) - len(buffer.items)} items lost"


if __name__ == "__main__":
    sizes = sy.AnySize().set_seed(1).take(4000)
    print("AnySize():", sy.AnySize().set_seed(1).take(12), "mean", round(statistics.mean(sizes), 2),
          "share of 20 or more", round(sum(n >= 20 for n in sizes) / len(sizes), 3))
    print("from_type(list[int]):", sy.from_type(list[int]))

    report = sy.Assert(keeps_everything, items=sy.from_type(list[int])).run(seed=3)
    print("failed:", not report.passed, "after", report.tried, "inputs; smallest:", report.smallest)
    uniform = sy.Assert(keeps_everything, items=sy.ComposeList(sy.AnyInteger(), sy.RandomInteger(0, 11))).run(seed=3)
    print("with RandomInteger(0, 11) sizes:", "passed" if uniform.passed else "failed")
