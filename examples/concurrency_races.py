"""Races planted in real-looking objects, found by a concurrent Monkey, shrunk, and replayed.

Four objects, each with a race and a locked (correct) version -- plain ``threading`` locks
and ``asyncio.Lock``, which the scheduler sees -- and a sequential model:

* ``Counter``: ``increment`` is ``self.value += 1``, one line but several bytecodes: two
  threads can read the same value on a free-threaded build (found at opcode points, which
  the defaults try once the first 250 schedules at line points found nothing);
* ``Cache``: ``get_or_set`` checks that a key is absent, then sets it: two threads can both
  see it absent and return different values for one key;
* ``Account``: an asyncio account whose ``transfer`` awaits (an audit write) between the
  check of the balance and the debit: two tasks can overdraw it (``tasks=2``);
* ``Queue``: ``size`` reads the count of puts, then the count of gets: a put and a get in
  between make the size negative.

Each is found with the concurrent Monkey's default settings: only ``threads=2`` (or
``tasks=2``).

Run it: ``python examples/concurrency_races.py`` prints, for each, the smallest failing
history and the program that replays it, and that the locked version passes.
"""
from __future__ import annotations

import asyncio
import threading
from typing import Any

import synthia as sy


# -- a counter ------------------------------------------------------------------------------
class Counter:
    """A hit counter shared by threads; ``+=`` is not atomic (planted race)."""

    def __init__(self) -> None:
        self.value = 0

    def increment(self) -> None:
        self.value += 1

    def get(self) -> int:
        return self.value


class LockedCounter(Counter):
    def __init__(self) -> None:
        super().__init__()
        self.lock = threading.Lock()  # made during a controlled run: a lock the scheduler sees

    def increment(self) -> None:
        with self.lock:
            self.value += 1


class CounterModel:
    def __init__(self) -> None:
        self.value = 0

    def increment(self) -> None:
        self.value += 1

    def get(self) -> int:
        return self.value


# -- a cache ----------------------------------------------------------------------------------
class Cache:
    """``get_or_set`` checks, then sets: two threads may both set (planted race)."""

    def __init__(self) -> None:
        self.entries: dict[int, int] = {}

    def get_or_set(self, key: int, value: int) -> int:
        if key not in self.entries:
            self.entries[key] = value
        return self.entries[key]

    def get(self, key: int) -> int | None:
        return self.entries.get(key)


class LockedCache(Cache):
    def __init__(self) -> None:
        super().__init__()
        self.lock = threading.Lock()

    def get_or_set(self, key: int, value: int) -> int:
        with self.lock:
            return super().get_or_set(key, value)


class CacheModel:
    def __init__(self) -> None:
        self.entries: dict[int, int] = {}

    def get_or_set(self, key: int, value: int) -> int:
        return self.entries.setdefault(key, value)

    def get(self, key: int) -> int | None:
        return self.entries.get(key)


# -- an asyncio account -----------------------------------------------------------------------
class Account:
    """An async account: ``transfer`` awaits an audit write between the check and the debit."""

    def __init__(self) -> None:
        self.balance = 10
        self.log: list[int] = []

    async def audit(self, amount: int) -> None:
        await asyncio.sleep(0)  # stands for a write to an audit service
        self.log.append(amount)

    async def transfer(self, amount: int) -> bool:
        if self.balance < amount:
            return False
        await self.audit(amount)  # planted race: another transfer may pass the check meanwhile
        self.balance -= amount
        return True

    async def get_balance(self) -> int:
        return self.balance


class LockedAccount(Account):
    def __init__(self) -> None:
        super().__init__()
        self.lock = asyncio.Lock()

    async def transfer(self, amount: int) -> bool:
        async with self.lock:
            return await super().transfer(amount)


class AccountModel:
    def __init__(self) -> None:
        self.balance = 10

    def transfer(self, amount: int) -> bool:
        if self.balance < amount:
            return False
        self.balance -= amount
        return True

    def get_balance(self) -> int:
        return self.balance


# -- a queue ----------------------------------------------------------------------------------
class Queue:
    """A FIFO queue that counts its puts and gets. Its writers take the lock; ``size`` only
    reads, so it does not -- and reads the two counts in two steps (planted race)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.items: dict[int, int] = {}
        self.puts = 0
        self.gets = 0

    def put(self, item: int) -> None:
        with self.lock:
            self.items[self.puts] = item
            self.puts += 1

    def get(self) -> int | None:
        with self.lock:
            if self.gets == self.puts:
                return None
            self.gets += 1
            return self.items.pop(self.gets - 1)

    def size(self) -> int:
        puts = self.puts
        gets = self.gets  # a put and a get may come between the two reads
        return puts - gets


class LockedQueue(Queue):
    def size(self) -> int:
        with self.lock:
            return super().size()


class QueueModel:
    def __init__(self) -> None:
        self.items: list[int] = []

    def put(self, item: int) -> None:
        self.items.append(item)

    def get(self) -> int | None:
        return self.items.pop(0) if self.items else None

    def size(self) -> int:
        return len(self.items)


# -- the monkeys ------------------------------------------------------------------------------
KEYS = sy.RandomInteger(0, 3)

#: Per race: the buggy system, its locked version, the model, the actions, the concurrent options.
RACES: dict[str, tuple[type, type, type, list[sy.Action], dict[str, Any]]] = {
    "counter": (Counter, LockedCounter, CounterModel, [sy.Action("increment"), sy.Action("get")], dict(threads=2)),
    "cache": (
        Cache, LockedCache, CacheModel,
        [sy.Action("get_or_set", key=KEYS, value=sy.RandomInteger(0, 10)), sy.Action("get", key=KEYS)],
        dict(threads=2),
    ),
    "account": (
        Account, LockedAccount, AccountModel,
        [sy.Action("transfer", amount=sy.RandomInteger(1, 11)), sy.Action("get_balance")], dict(tasks=2),
    ),
    "queue": (
        Queue, LockedQueue, QueueModel,
        [sy.Action("put", item=sy.RandomInteger(0, 10)), sy.Action("get"), sy.Action("size")], dict(threads=2),
    ),
}


def race_monkey(name: str, locked: bool = False, schedules: int = 2000, **options: Any) -> sy.Monkey:
    """The concurrent monkey of race ``name`` (its locked version with ``locked``)."""
    system, fixed, model, actions, given = RACES[name]
    return sy.Monkey(fixed if locked else system, actions, model=model, stop=sy.FixedCount(schedules), **{**given, **options})


def main() -> None:
    for name in RACES:
        report = race_monkey(name).run(seed=1)
        print(f"== {name}: {'passed' if report.passed else 'failed'} after {report.tried} schedules")
        print(report.failure)
        print(report.program)
        locked = race_monkey(name, locked=True, schedules=200).run(seed=1)
        print(f"locked {name}: {'passed' if locked.passed else 'FAILED'} {locked.tried} schedules\n")


if __name__ == "__main__":
    main()
