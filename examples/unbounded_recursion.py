"""Recursive data with no depth bound, as a Hypothesis user writes it, found and shrunk.

A JSON encoder that forgets to escape a backslash, tested on JSON values from a recursive
wiring with no ``max_depth`` (Hypothesis's ``st.deferred(lambda: st.none() | ... |
st.lists(json) | st.dictionaries(st.text(), json))``). Such a recursion branches more than it
ends: most values would grow forever. While a run makes inputs, a value past 200 nested picks
of its ``Deferred`` (or 10,000 in all) is discarded, as Hypothesis discards an overrun, and
the run goes on with the others; so is an input whose picker gives up (here a set of booleans
asked for more than two elements). The report says how many inputs were discarded and why.
Run: ``python examples/unbounded_recursion.py``.
"""
from __future__ import annotations

import json
import warnings
from typing import Any

import synthia as sy

text = sy.RandomText(sy.RandomInteger(0, 6), nasty=0)
value: sy.Picker[Any] = sy.Deferred(
    lambda: sy.Choice(
        None,
        sy.AnyInteger(),
        text,
        sy.ComposeList(value, sy.RandomInteger(0, 9)),
        sy.DictPicker(text, value, sy.RandomInteger(0, 9)),
    )
)


def encode(v: Any) -> str:
    """The encoder under test: JSON's escapes, but a backslash is written as it is."""
    if isinstance(v, str):
        return json.dumps(v).replace("\\\\", "\\")
    if isinstance(v, list):
        return "[" + ",".join(encode(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ",".join(encode(k) + ":" + encode(x) for k, x in v.items()) + "}"
    return json.dumps(v)


def round_trips(v: Any) -> bool:
    try:
        return json.loads(encode(v)) == v
    except ValueError:
        return False


def test_round_trip(v: Any) -> bool:
    return round_trips(v)


if __name__ == "__main__":
    # Backslashes are rare among random characters: the search needs a few thousand values.
    report = sy.Assert(test_round_trip, sy.FixedCount(5000), v=value).run(seed=7)
    print("failed:", not report.passed)
    print("smallest:", report.smallest["v"] if report.smallest else None)
    print("discarded:", report.discarded, "inputs", report.discarded_by)

    # A set of booleans cannot hold three elements: inputs asking for more are discarded.
    flags = sy.ComposeList(sy.SetPicker(sy.RandomBoolean(), sy.RandomInteger(0, 5)), sy.RandomInteger(0, 6))
    with warnings.catch_warnings(record=True) as health:
        warnings.simplefilter("always")
        print("three non-empty sets:", sy.find(flags, lambda x: len([s for s in x if s]) >= 3, seed=0))
    print("health:", str(health[0].message).split(":")[1].strip() if health else "no warning")
