"""Shrinking a value that came from outside: a failing payload from a production log.

A service writes JSON with an encoder of its own, and a payload in last night's log did not
survive the round trip. The payload is real, but large: which part of it matters?
``sy.shrink(picker, value, test)`` parses the value into the draws a wiring makes it with
(``sy.parse``), then shrinks those draws like any failure a run found, and returns the run's
report. The wiring says what payloads look like; the value must be one it can make, or
``sy.shrink`` says which part of the wiring cannot make it.

Run: ``python examples/shrink_from_outside.py``.
"""
from __future__ import annotations

import json
from typing import Any

import synthia as sy


def encode(value: Any) -> str:
    """The service's encoder (planted bug: a key is written between quotes, unescaped)."""
    if isinstance(value, dict):
        return "{" + ",".join(f'"{key}":{encode(item)}' for key, item in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ",".join(encode(item) for item in value) + "]"
    return json.dumps(value)


def round_trips(payload: Any) -> bool:
    return json.loads(encode(payload)) == payload


words = sy.RandomText(sy.RandomInteger(0, 16))
payloads: sy.Picker[Any] = sy.Deferred(
    lambda: sy.Choice(
        sy.RandomInteger(-10_000, 10_000),
        words,
        sy.ComposeList(payloads, sy.RandomInteger(0, 6)),
        sy.DictPicker(words, payloads, sy.RandomInteger(0, 6)),
    ),
    max_depth=6,
    fallback=0,
)

logged = {
    "order": 5281,
    "customer": {"name": "Ana Souza", "tags": ["gift", "express"]},
    "lines": [{"sku": "A-100", "qty": 3}, {"sku": "B-7", "qty": 1, "note\x00": "fragile"}],
}


def main() -> None:
    report = sy.shrink(payloads, logged, round_trips)
    # The smallest payload that breaks it: a key holding a character JSON must escape.
    print(report.smallest["value"])  # {'\x00': 0}
    print(type(report.exception).__name__)  # JSONDecodeError

    try:  # a value the wiring cannot make: a float, where payloads hold integers
        sy.shrink(payloads, {"total": 19.99}, round_trips)
    except ValueError as error:
        print(str(error)[:56])  # value {'total': 19.99} (dict) cannot be shrunk: the picker


if __name__ == "__main__":
    main()
