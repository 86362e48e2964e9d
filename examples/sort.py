"""The original Synthia's ``Sort`` example: a sort that is wrong when ``l[3] + l[4] > 1000``.

Lists have a length in [0, 2000) and elements in [0, 1000). A random list longer than four
elements fails about half of the time, so a failure comes at once, but it is a long list of
large numbers. Shrinking cuts the list to five elements (the fewest that can fail), sends the
first three to 0 and brings the last two down until their sum is 1001, the smallest sum that
still fails: ``[0, 0, 0, a, b]`` with ``a + b = 1001``. (The Java original stopped at lists
like ``[0, 32, 472, 289, 897]``.)
"""
from __future__ import annotations

import synthia as sy


def wrong_sort(values: list[int]) -> list[int]:
    out = sorted(values)
    if len(values) > 4 and values[3] + values[4] > 1000:
        out[0], out[-1] = out[-1], out[0]  # the planted bug
    return out


def main() -> None:
    lists = sy.ComposeList(sy.RandomInteger(0, 1000), sy.RandomInteger(0, 2000))
    report = sy.Assert(lambda l: wrong_sort(l) == sorted(l), sy.RunOptions(name="sort_is_correct"), l=lists).run(seed=2026)
    print(report)
    smallest = report.smallest["l"]
    print(f"\nfirst failure had {len(report.first['l'])} elements; the smallest has {len(smallest)}: {smallest}")


if __name__ == "__main__":
    main()
