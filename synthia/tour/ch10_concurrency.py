"""Chapter 10: races between threads, found against a model, shrunk and replayed."""
from __future__ import annotations

import threading

import synthia as sy

from . import Tour

TITLE = "10. Concurrency: races found against a model, shrunk, and replayed"


class Cache:
    """A cache whose get_or_set checks, then sets: two threads may both set (a planted race)."""

    def __init__(self) -> None:
        self.entries: dict[int, int] = {}

    def get_or_set(self, key: int, value: int) -> int:
        if key not in self.entries:
            self.entries[key] = value
        return self.entries[key]


class LockedCache(Cache):
    def __init__(self) -> None:
        super().__init__()
        self.lock = threading.Lock()  # seen by the scheduler during a run: no special lock needed

    def get_or_set(self, key: int, value: int) -> int:
        with self.lock:
            return super().get_or_set(key, value)


class CacheModel:
    def __init__(self) -> None:
        self.entries: dict[int, int] = {}

    def get_or_set(self, key: int, value: int) -> int:
        return self.entries.setdefault(key, value)


def run(tour: Tour) -> None:
    tour.say(
        """
        With threads=2 a Monkey trace is a short sequential prefix, then two branches of
        actions run in parallel threads under a controlled scheduler: one branch runs at a
        time, and where each call is preempted -- by default at any line of the system's own
        code, the way races between two lines of one method happen -- is a typed draw. The results must be explained by some
        sequential order of the same calls on the model (linearizability). A race is shrunk
        like any trace, towards fewer calls and fewer preemptions, and printed as a program
        that replays it with sy.interleave.
        """
    )
    tour.code(
        """
        actions = [sy.Action("get_or_set", key=sy.RandomInteger(0, 3), value=sy.RandomInteger(0, 10))]
        report = sy.Monkey(Cache, actions, model=CacheModel, threads=2).run(seed=1)  # the defaults
        """
    )
    actions = [sy.Action("get_or_set", key=sy.RandomInteger(0, 3), value=sy.RandomInteger(0, 10))]
    report = sy.Monkey(Cache, actions, model=CacheModel, threads=2).run(seed=1)
    tour.show("schedules tried", report.tried)
    for line in report.failure.splitlines():
        tour.show("failure", line)
    assert report.history is not None
    tour.show("preemptions", report.history.preemptions)
    tour.show("schedule", report.history.schedule)
    locked = sy.Monkey(LockedCache, actions, model=CacheModel, threads=2).run(seed=1)
    tour.show("the locked cache", f"{'passed' if locked.passed else 'failed'} {locked.tried} schedules")
    tour.say(
        """
        With tasks=2 the branches are asyncio tasks and every await that suspends is a
        point. threading's locks, conditions, events, semaphores and queues are seen by the
        scheduler during a run (a deadlock is reported with its wait-for cycle, never hung);
        docs/concurrency.md says what is controlled and what is not.
        """
    )
