"""Golden values: the first 20 values of five seeded wirings, pinned.

Any change to the randomness mapping (streams, seed derivation, bits to values) or to the
semantics of these pickers changes them; such a change must be deliberate and documented.
"""
from __future__ import annotations

import pytest

import synthia as sy

SEED = 20261123

WIRINGS = {
    "integers": lambda: sy.RandomInteger(-50, 50),
    "floats": lambda: sy.RandomFloat(0.0, 10.0),
    "choice": lambda: sy.Choice("a", "b", sy.Tick(0, 1), weights=[1, 2, 3]),
    "lists": lambda: sy.ComposeList(sy.RandomInteger(0, 1000), sy.RandomInteger(0, 5)),
    "points": lambda: sy.PickIf(
        sy.Apply(lambda x, y: (x, y), sy.Tick(0, sy.Freeze(sy.RandomInteger(1, 3))), sy.Playback([0, 1, -1])),
        lambda p: p[0] != p[1],
    ),
}

GOLDEN = {
    "integers": [13, -39, -25, 48, 23, -39, -11, -12, 40, 10, -44, -10, -27, -35, -20, 24, -6, 0, 9, -34],
    "floats": [8.145220838308855, 0.9103742389036695, 7.715603081210447, 0.9298882509362227, 3.0864366813756225, 2.979190849212474, 4.722054604717726, 9.902449795620281, 1.8527127892696138, 2.380363560228359, 5.848729040254854, 9.956813069183157, 3.9781575249917243, 1.285098476394877, 7.455283264404512, 6.742418745026717, 7.512847239340495, 2.8458223598583987, 7.672087797149779, 1.881516727272774],
    "choice": [0, 1, 'a', 'b', 'b', 'b', 2, 3, 'b', 'a', 'a', 'b', 4, 5, 'a', 6, 'b', 'b', 'b', 7],
    "lists": [[548, 741], [707], [485, 374, 696, 836], [878, 622], [905, 684], [512, 427], [64, 411], [125, 753], [83, 917], [922, 772, 553, 702], [], [374], [638], [538, 524, 440, 325], [926], [139], [645, 889], [115], [958], [884, 661]],
    "points": [(2, 1), (4, -1), (6, 0), (8, 1), (10, -1), (12, 0), (14, 1), (16, -1), (18, 0), (20, 1), (22, -1), (24, 0), (26, 1), (28, -1), (30, 0), (32, 1), (34, -1), (36, 0), (38, 1), (40, -1)],
}


@pytest.mark.parametrize("name", sorted(WIRINGS))
def test_golden_values(name: str) -> None:
    assert WIRINGS[name]().set_seed(SEED).take(20) == GOLDEN[name]
