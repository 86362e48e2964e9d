"""Chapter 3: testing with Assert, shrinking, reports."""
from __future__ import annotations

import synthia as sy

from . import Tour

TITLE = "4. Testing: Assert, shrinking, reports"


def wrong_sort(values: list[int]) -> list[int]:
    out = sorted(values)
    if len(values) > 4 and values[3] + values[4] > 1000:
        out[0], out[-1] = out[-1], out[0]
    return out


def run(tour: Tour) -> None:
    tour.say(
        """
        Assert draws inputs from pickers, runs a test (False or an exception is a
        failure), and shrinks the first failure. In synthia it is the pickers that
        shrink: p.shrink(v) is a new picker of values smaller than v in p's order and
        still in p's domain.
        """
    )
    tour.code("sy.RandomInteger(0, 1000).shrink(700).take(8)")
    tour.show("smaller", sy.RandomInteger(0, 1000).shrink(700, sy.RandomFloat(seed=1)).take(8))
    tour.code("odd = sy.PickIf(sy.RandomInteger(0, 1000), lambda x: x % 2 == 1);  odd.shrink(701).take(8)")
    odd = sy.PickIf(sy.RandomInteger(0, 1000), lambda x: x % 2 == 1)
    tour.show("smaller odd", odd.shrink(701, sy.RandomFloat(seed=1)).take(8))

    tour.say(
        """
        The Synthia paper's Sort example: a sort that is wrong when l[3] + l[4] > 1000,
        on lists of length [0, 2000) with elements in [0, 1000). The first failure is
        a long list; shrinking ends at the smallest one: [0, 0, 0, a, b], a + b = 1001.
        """
    )
    tour.code(
        """
        lists = sy.ComposeList(sy.RandomInteger(0, 1000), sy.RandomInteger(0, 2000))
        report = sy.Assert(lambda l: wrong_sort(l) == sorted(l), l=lists).run(seed=2026)
        """
    )
    lists = sy.ComposeList(sy.RandomInteger(0, 1000), sy.RandomInteger(0, 2000))
    report = sy.Assert(lambda l: wrong_sort(l) == sorted(l), l=lists, name="sort_is_correct").run(seed=2026)
    for line in report.summary().splitlines():
        if not line.strip().startswith("first failing"):
            tour.show("report", line.strip())
    tour.show("first failure length", len(report.first["l"]))  # type: ignore[index]

    tour.say(
        """
        In pytest, decorate a test with @sy.given(x=picker, ...): a failure prints the
        smallest input, the seed and the command that replays it (--synthia-seed), and
        the failing input is saved in .synthia/ and tried first next time.
        """
    )
    tour.code(
        """
        @sy.given(values=sy.ComposeList(sy.RandomInteger(-1000, 1000), sy.RandomInteger(1, 30)))
        def test_dedupe_keeps_every_value(values):
            assert set(dedupe(values)) == set(values)
        """
    )
