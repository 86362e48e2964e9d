"""Golden values: the first 20 values of seeded wirings, pinned in ``golden_values.json``.

Any change to the randomness mapping (streams, seed derivation, bits to values, the order in
which typed draws are made) or to the semantics of these pickers changes them; such a
change must be deliberate and documented (docs/core.md, "The mapping"). The same values
hold on Python 3.10-3.13 and numpy 1.26-2.x: the mapping uses only ``random.Random``'s
``getrandbits`` and ``random``, whose algorithms have not changed since Python 2.3.
Run this file as a script to print the values the current code gives.
"""
from __future__ import annotations

import json
import pathlib
from typing import Any, Callable

import pytest

import synthia as sy

SEED = 20261123
GOLDEN = json.loads((pathlib.Path(__file__).resolve().parent / "golden_values.json").read_text())

WIRINGS: dict[str, Callable[[], sy.Picker[Any]]] = {
    "integers": lambda: sy.RandomInteger(-50, 50),
    "power_of_two": lambda: sy.RandomInteger(0, 1024),
    "floats": lambda: sy.RandomFloat(0.0, 10.0),
    "widest_floats": lambda: sy.RandomFloat(-1e308, 1e308),
    "booleans": lambda: sy.RandomBoolean(0.3),
    "choice": lambda: sy.Choice("a", "b", sy.Tick(0, 1), weights=[1, 2, 3]),
    "lists": lambda: sy.ComposeList(sy.RandomInteger(0, 1000), sy.RandomInteger(0, 5)),
    "strings": lambda: sy.RandomString(sy.RandomInteger(0, 6), alphabet="abc"),
    "points": lambda: sy.PickIf(
        sy.Apply(lambda x, y: (x, y), sy.Tick(0, sy.Freeze(sy.RandomInteger(1, 3))), sy.Playback([0, 1, -1])),
        lambda p: p[0] != p[1],
    ),
    "scramble": lambda: sy.Scramble(sy.Playback(list(range(6))), count=6),
    "enumeration": lambda: sy.AllIntegers(0, 100, scramble=True),
    "sublists": lambda: sy.RandomSubList(list(range(8))),
    "grammar": lambda: sy.GrammarSentence("<e> := <n> | <e> + <n> ; <n> := ^[1-9][0-9]?$ ;", max_depth=4),
    "gaussian": lambda: sy.Apply(lambda x: round(x, 9), sy.GaussianFloat(0.0, 1.0)),
    "poisson_small": lambda: sy.PoissonInteger(4),
    "poisson_large": lambda: sy.PoissonInteger(250),
    "tree_edges": lambda: sy.Apply(
        lambda t: sorted(t.edges), sy.TreePicker(sy.Tick(), sy.RandomInteger(0, 3), sy.RandomInteger(0, 3))
    ),
}


def values(name: str) -> Any:
    """The first 20 values of a wiring, as JSON gives them back (tuples become lists)."""
    return json.loads(json.dumps(WIRINGS[name]().set_seed(SEED).take(20)))


def test_every_wiring_is_pinned() -> None:
    assert sorted(WIRINGS) == sorted(GOLDEN)


@pytest.mark.parametrize("name", sorted(WIRINGS))
def test_golden_values(name: str) -> None:
    assert values(name) == GOLDEN[name]


if __name__ == "__main__":
    print(json.dumps({name: values(name) for name in WIRINGS}, indent=1))
