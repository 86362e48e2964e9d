"""A small reactive object: an event bus whose subscribers are notified when events are
published. Written in the decorator style (the test class holds the bus and a model, checks
them in plain assertions, and guards actions with preconditions).

The planted bug: unsubscribing the first subscriber of a topic while others remain makes
the next publication skip one of them. Preconditions keep every step meaningful (nobody
unsubscribes a token that does not exist), and the per-action counts show that no step is
wasted. The smallest failing trace: subscribe, subscribe, unsubscribe the first, publish.
"""
from __future__ import annotations

from collections import defaultdict
from typing import Any, Callable

import synthia as sy


class EventBus:
    """The system under test."""

    def __init__(self) -> None:
        self.subscribers: dict[str, list[tuple[int, Callable[[Any], None]]]] = defaultdict(list)
        self.next_token = 0

    def subscribe(self, topic: str, callback: Callable[[Any], None]) -> int:
        self.next_token += 1
        self.subscribers[topic].append((self.next_token, callback))
        return self.next_token

    def unsubscribe(self, token: int) -> None:
        for topic, entries in self.subscribers.items():
            for i, (t, _) in enumerate(entries):
                if t == token:
                    del entries[i]
                    if i == 0 and entries:
                        entries.append(entries.pop(0))  # planted bug: reorders and later skips one
                        self._skip = entries[0][0]
                    return
        raise KeyError(token)

    def publish(self, topic: str, event: Any) -> int:
        delivered = 0
        for token, callback in list(self.subscribers[topic]):
            if token == getattr(self, "_skip", None):
                continue
            callback(event)
            delivered += 1
        return delivered


class BusTest:
    """The bus under test and the model it must agree with (how many deliveries)."""

    def __init__(self) -> None:
        self.bus = EventBus()
        self.tokens: dict[int, str] = {}  # the model: token -> topic
        self.received: list[Any] = []

    @sy.action(topic=sy.Choice("news", "sport"))
    def subscribe(self, topic: str) -> None:
        token = self.bus.subscribe(topic, self.received.append)
        self.tokens[token] = topic

    @sy.action(which=sy.RandomInteger(0, 100), precondition=lambda self: self.tokens)
    def unsubscribe(self, which: int) -> None:
        token = sorted(self.tokens)[which % len(self.tokens)]
        self.bus.unsubscribe(token)
        del self.tokens[token]

    @sy.action(topic=sy.Choice("news", "sport"), event=sy.RandomInteger(0, 10))
    def publish(self, topic: str, event: int) -> None:
        expected = sum(1 for t in self.tokens.values() if t == topic)
        delivered = self.bus.publish(topic, event)
        assert delivered == expected, f"{delivered} deliveries, {expected} subscribers"

    @sy.invariant()
    def tokens_are_unique(self) -> bool:
        return len(set(self.tokens)) == len(self.tokens)


def bus_monkey(**settings: Any) -> sy.Monkey:
    return sy.Monkey.from_class(BusTest, name="event_bus", **settings)


def main() -> None:
    report = bus_monkey().run(seed=11)
    print(report)


if __name__ == "__main__":
    main()
