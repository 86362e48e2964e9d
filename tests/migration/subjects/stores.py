"""Systems with state, after the state machines of Hypothesis's docs and of real projects:
a key-value store (its DatabaseComparison example), a bounded cache, a sorted list (after
sortedcontainers), water jugs (Die Hard) and a ledger of accounts."""
from __future__ import annotations

import bisect
from typing import Any

from . import BUGGY


class Store:
    """A key-value store with a write-ahead log."""

    def __init__(self) -> None:
        self.data: dict[bytes, bytes] = {}
        self.log: list[tuple[str, bytes]] = []
        self.closed = False

    def put(self, key: bytes, value: bytes) -> None:
        self.log.append(("put", key))
        self.data[key] = value

    def delete(self, key: bytes) -> None:
        self.log.append(("delete", key))
        if BUGGY and len(key) >= 2:
            return  # planted: long keys are never deleted
        self.data.pop(key, None)

    def get(self, key: bytes) -> bytes | None:
        return self.data.get(key)

    def close(self) -> None:
        self.closed = True


class LRU:
    def __init__(self, capacity: int) -> None:
        self.capacity = capacity
        self.items: dict[int, int] = {}

    def put(self, key: int, value: int) -> None:
        if key in self.items:
            del self.items[key]
        elif len(self.items) >= self.capacity:
            oldest = next(iter(self.items))
            if BUGGY and len(self.items) >= 3:
                oldest = list(self.items)[-1]  # planted: the newest entry is evicted
            del self.items[oldest]
        self.items[key] = value

    def get(self, key: int) -> int | None:
        if key not in self.items:
            return None
        value = self.items.pop(key)
        self.items[key] = value
        return value


class SortedList:
    def __init__(self) -> None:
        self.values: list[int] = []

    def add(self, value: int) -> None:
        if BUGGY and self.values and value == self.values[-1]:
            self.values.insert(0, value)  # planted: a repeated maximum goes first
            return
        bisect.insort(self.values, value)

    def remove(self, value: int) -> None:
        self.values.remove(value)

    def __len__(self) -> int:
        return len(self.values)


class Jugs:
    def __init__(self) -> None:
        self.small = 0
        self.big = 0

    def fill_small(self) -> None:
        self.small = 3

    def fill_big(self) -> None:
        self.big = 5

    def empty_small(self) -> None:
        self.small = 0

    def empty_big(self) -> None:
        self.big = 0

    def pour_small_into_big(self) -> None:
        moved = min(self.small, 5 - self.big)
        if BUGGY and self.big >= 3:
            moved = self.small  # planted: a nearly full big jug overflows
        self.small -= moved
        self.big += moved

    def pour_big_into_small(self) -> None:
        moved = min(self.big, 3 - self.small)
        self.big -= moved
        self.small += moved


class Ledger:
    """Accounts opened, credited, transferred between and closed."""

    def __init__(self) -> None:
        self.balances: dict[str, int] = {}
        self.counter = 0

    def open(self, initial: int) -> str:
        self.counter += 1
        name = f"acct{self.counter}"
        self.balances[name] = initial
        return name

    def transfer(self, source: str, target: str, amount: int) -> bool:
        if self.balances[source] < amount:
            return False
        self.balances[source] -= amount
        if BUGGY and source == target and amount > 50:
            return True  # planted: a large transfer to the same account loses the money
        self.balances[target] += amount
        return True

    def close(self, name: str) -> int:
        return self.balances.pop(name)

    def total(self) -> int:
        return sum(self.balances.values())


def make(kind: str) -> Any:
    return {"store": Store, "sorted": SortedList, "jugs": Jugs, "ledger": Ledger}[kind]()
