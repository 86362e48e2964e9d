"""Chapter 6: monkey testing stateful objects."""
from __future__ import annotations

from collections import OrderedDict
from typing import Any

import synthia as sy

from . import Tour

TITLE = "6. Monkey: drive an object with actions, check it, shrink the trace"


class LRUCache:
    """A cache of two entries that forgets to refresh a key put again (a planted bug)."""

    def __init__(self) -> None:
        self.entries: dict[Any, Any] = {}
        self.order: list[Any] = []

    def get(self, key: Any) -> Any:
        if key not in self.entries:
            return None
        self.order.remove(key)
        self.order.append(key)
        return self.entries[key]

    def put(self, key: Any, value: Any) -> None:
        if key not in self.entries:
            self.order.append(key)
        self.entries[key] = value
        if len(self.order) > 2:
            del self.entries[self.order.pop(0)]


class LRUModel:
    def __init__(self) -> None:
        self.entries: OrderedDict[Any, Any] = OrderedDict()

    def get(self, key: Any) -> Any:
        if key in self.entries:
            self.entries.move_to_end(key)
        return self.entries.get(key)

    def put(self, key: Any, value: Any) -> None:
        self.entries[key] = value
        self.entries.move_to_end(key)
        if len(self.entries) > 2:
            self.entries.popitem(last=False)


class Store:
    """A key-value store that counts a key put twice as two keys (the planted bug)."""

    def __init__(self) -> None:
        self.items: dict[int, int] = {}
        self.count = 0

    def put(self, key: int, value: int) -> None:
        self.count += 1
        self.items[key] = value

    def size(self) -> int:
        return self.count


class StoreModel:
    def __init__(self) -> None:
        self.items: dict[int, int] = {}

    def put(self, key: int, value: int) -> None:
        self.items[key] = value

    def size(self) -> int:
        return len(self.items)


def run(tour: Tour) -> None:
    tour.say(
        """
        Monkey performs traces of actions on a system -- each trace from a fresh object --
        and checks every step against a model run in lockstep, the action's expectation and
        the invariants. Each step chooses among the enabled actions (preconditions hold), so
        no step is wasted. A failing trace is shrunk on its draws, like any input, to the
        fewest actions with the simplest arguments, and printed as a program you can run.
        """
    )
    tour.code(
        """
        keys = sy.RandomInteger(0, 4)
        report = sy.Monkey(LRUCache, [sy.Action("put", key=keys, value=sy.RandomInteger(0, 10)),
                                      sy.Action("get", key=keys)], model=LRUModel).run(seed=7)
        print(report.program)
        """
    )
    keys = sy.RandomInteger(0, 4)
    report = sy.Monkey(
        LRUCache, [sy.Action("put", key=keys, value=sy.RandomInteger(0, 10)), sy.Action("get", key=keys)], model=LRUModel
    ).run(seed=7)
    tour.show("first failing trace", f"{len(report.first_trace or [])} steps")
    tour.show("failure", report.failure)
    for line in report.program.splitlines():
        tour.show("program", line)
    tour.show("actions tried/enabled", {name: f"{c['tried']}/{c['enabled']}" for name, c in report.counts.items()})

    tour.say(
        """
        Keys drawn from a million values are never equal by chance, and the store below
        fails only when one key is put twice. After the 8th, 24th and 40th traces (then one
        in 256), the trace is played again with one step's part copied over another's of the
        same kind -- here one put's key over another's -- then, if that passes, with its
        integers moved to the edges of their ranges (two keys at 0), as Assert's probes are.
        """
    )
    tour.code(
        """
        actions = [sy.Action("put", key=sy.RandomInteger(0, 10**6), value=sy.RandomInteger(0, 100)), sy.Action("size")]
        report = sy.Monkey(Store, actions, model=StoreModel).run(seed=0)
        """
    )
    actions = [sy.Action("put", key=sy.RandomInteger(0, 10**6), value=sy.RandomInteger(0, 100)), sy.Action("size")]
    report = sy.Monkey(Store, actions, model=StoreModel).run(seed=0)
    tour.show("notes", report.notes)
    for line in report.program.splitlines():
        tour.show("program", line)
    tour.show("without copies", "passed" if sy.Monkey(Store, actions, model=StoreModel, copy_parts=False).run(seed=0).passed else "failed")

    tour.say(
        """
        The action source can itself be a wiring: a MarkovChain of actions is a usage
        profile, a BehaviorTree a scripted session, a GrammarSequence of actions the valid
        sessions of a grammar (shrunk traces stay valid). A test class with @sy.action
        methods and @sy.invariant checks, decorated with @sy.monkey(), is a pytest test in
        the style of Hypothesis's state machines.
        """
    )
