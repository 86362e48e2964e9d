"""An LRU cache checked in lockstep against a model built on a dict.

The cache forgets to refresh a key that is ``put`` again, so a later insertion evicts the
wrong key. Finding it needs a specific pattern of five operations -- fill the cache, refresh
the oldest key, insert a new one, read the refreshed key -- inside longer random traces;
the Monkey finds it and shrinks it to exactly that pattern with the simplest keys and values.
"""
from __future__ import annotations

from collections import OrderedDict
from typing import Any

import synthia as sy

CAPACITY = 2


class LRUCache:
    """The system under test: a least-recently-used cache of ``CAPACITY`` entries."""

    def __init__(self) -> None:
        self.entries: dict[Any, Any] = {}
        self.order: list[Any] = []  # oldest first

    def get(self, key: Any) -> Any:
        if key not in self.entries:
            return None
        self.order.remove(key)
        self.order.append(key)
        return self.entries[key]

    def put(self, key: Any, value: Any) -> None:
        if key not in self.entries:  # planted bug: an existing key is not moved to the end
            self.order.append(key)
        self.entries[key] = value
        if len(self.order) > CAPACITY:
            oldest = self.order.pop(0)
            del self.entries[oldest]


class LRUModel:
    """The specification, on an OrderedDict."""

    def __init__(self) -> None:
        self.entries: OrderedDict[Any, Any] = OrderedDict()

    def get(self, key: Any) -> Any:
        if key not in self.entries:
            return None
        self.entries.move_to_end(key)
        return self.entries[key]

    def put(self, key: Any, value: Any) -> None:
        self.entries[key] = value
        self.entries.move_to_end(key)
        if len(self.entries) > CAPACITY:
            self.entries.popitem(last=False)


KEYS = sy.RandomInteger(0, 4)
ACTIONS = [
    sy.Action("put", key=KEYS, value=sy.RandomInteger(0, 10)),
    sy.Action("get", key=KEYS),
]


def lru_monkey(**settings: Any) -> sy.Monkey:
    return sy.Monkey(LRUCache, ACTIONS, model=LRUModel, name="lru_cache", **settings)


def main() -> None:
    report = lru_monkey().run(seed=7)
    print(report)


if __name__ == "__main__":
    main()
