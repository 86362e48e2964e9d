"""Markov chains of pickers, and chains read from graphs."""
from __future__ import annotations

import math
from itertools import accumulate
from typing import Any, Callable, Hashable

from ..core.checks import check_number
from ..core.exceptions import NoMoreElements
from ..core.picker import Picker, as_picker
from ..core.random import weighted_index
from .scalars import RandomFloat

__all__ = ["MarkovChain", "MarkovReader"]


class MarkovChain(Picker[Any]):
    """A walk on states, each state emitting a pick of its own picker.

    ``states`` maps a state name to a picker (or a plain value); ``transitions`` maps a
    state to ``{next_state: weight}`` (weights are normalised); ``start`` is the first
    state. The first pick emits from the start state; every later pick first takes a
    transition (drawn with ``decision``, floats in ``[0, 1)``), then emits from the new
    state. A state with no way out ends the stream: the next pick raises
    :class:`~synthia.NoMoreElements`. ``reset()`` goes back to the start state and, like
    every reset, resets the state pickers and the decision source. States and
    transitions can also be added with :meth:`add_state` and :meth:`add_transition`.

    >>> from synthia import Tick
    >>> chain = MarkovChain({"home": "/", "about": "/about", "bye": "exit"},
    ...                     {"home": {"about": 1, "home": 1}, "about": {"home": 1, "bye": 1}},
    ...                     start="home")
    >>> chain.set_seed(3).take(10)
    ['/', '/about', '/', '/', '/about', 'exit']
    """

    inputs_fields = ("states", "decision")

    def __init__(
        self,
        states: dict[Hashable, Any] | None = None,
        transitions: dict[Hashable, dict[Hashable, float]] | None = None,
        start: Hashable = None,
        decision: Picker[float] | None = None,
    ) -> None:
        self.states: dict[Hashable, Picker[Any]] = {}
        self.transitions: dict[Hashable, dict[Hashable, float]] = {}
        self._tables: dict[Hashable, tuple[list[Hashable], list[float]]] = {}
        for name, picker in (states or {}).items():
            self.add_state(name, picker)
        for source, targets in (transitions or {}).items():
            for target, weight in targets.items():
                self.add_transition(source, target, weight)
        if start is None and self.states:
            start = next(iter(self.states))
        if self.states and start not in self.states:
            raise ValueError(f"start must be one of the states {list(self.states)}, got {start!r}")
        self.start = start
        self.decision = RandomFloat() if decision is None else as_picker(decision, "decision", numbers=False)
        self.current: Hashable = None
        self._ended = False

    def add_state(self, name: Hashable, picker: Any) -> "MarkovChain":
        """Add (or replace) a state and what it emits; returns the chain."""
        self.states[name] = as_picker(picker, f"states[{name!r}]", anything=True)
        if getattr(self, "start", None) is None and len(self.states) == 1:
            self.start = name
        return self

    def add_transition(self, source: Hashable, target: Hashable, weight: float = 1.0) -> "MarkovChain":
        """Add a weighted transition between two existing states; returns the chain."""
        for end, label in ((source, "source"), (target, "target")):
            if end not in self.states:
                raise ValueError(f"transition {label} must be a state, got {end!r} (states: {list(self.states)})")
        check_number(weight, f"weight of {source!r} -> {target!r}")
        if not (math.isfinite(weight) and weight >= 0):
            raise ValueError(f"weight of {source!r} -> {target!r} must be non-negative, got {weight!r}")
        self.transitions.setdefault(source, {})[target] = weight
        targets = [t for t, w in self.transitions[source].items() if w > 0]
        weights = [self.transitions[source][t] for t in targets]
        self._tables[source] = (targets, [float(c) for c in accumulate(weights)])
        return self

    def pick(self) -> Any:
        if self.start is None:
            raise NoMoreElements("the Markov chain has no state")
        if self.current is None:
            self.current = self.start
        else:
            table = self._tables.get(self.current)
            if not table or not table[0]:
                raise NoMoreElements(f"state {self.current!r} has no way out")
            u = self.decision.pick()
            if not 0.0 <= u < 1.0:
                raise ValueError(f"decision must pick floats in [0, 1), got {u!r}")
            self.current = table[0][weighted_index(float(u), table[1])]
        return self.states[self.current].pick()

    def probability(self, source: Hashable, target: Hashable) -> float:
        """The normalised probability of going from ``source`` to ``target``."""
        targets = self.transitions.get(source, {})
        total = sum(targets.values())
        return targets.get(target, 0.0) / total if total else 0.0

    def to_dot(self) -> str:
        """The chain as Graphviz DOT: states as circles, transitions labelled with probabilities."""
        names = {state: f"s{i}" for i, state in enumerate(self.states)}
        lines = ["digraph markov {", "  node [shape=circle];"]
        for state, node in names.items():
            shape = ', shape=doublecircle' if state == self.start else ""
            lines.append(f'  {node} [label="{state}"{shape}];')
        for source, targets in self.transitions.items():
            for target, weight in targets.items():
                if weight > 0:
                    lines.append(f'  {names[source]} -> {names[target]} [label="{self.probability(source, target):.2f}"];')
        lines.append("}")
        return "\n".join(lines)

    def _reset_self(self) -> None:
        self.current = None

    def _arguments(self) -> tuple[list[Any], dict[str, Any]]:
        return [list(self.states)], {"start": self.start}


def MarkovReader(
    graph: Any,
    picker_for: Callable[[Hashable], Any] | None = None,
    start: Hashable = None,
    decision: Picker[float] | None = None,
) -> MarkovChain:
    """A :class:`MarkovChain` read from a ``networkx`` graph: one state per node.

    Each node emits ``picker_for(node)`` (the node itself by default); each edge is a
    transition whose weight is the edge's ``weight`` attribute (1 by default), so the
    outgoing edges of a node are equally likely unless weighted. An undirected graph gives
    transitions both ways. ``start`` defaults to the first node.

    >>> import networkx as nx
    >>> chain = MarkovReader(nx.path_graph(3), start=0)
    >>> chain.set_seed(1).take(5)
    [0, 1, 0, 1, 0]
    """
    import networkx as nx

    if not isinstance(graph, nx.Graph):
        raise TypeError(f"graph must be a networkx graph, got {graph!r}")
    chain = MarkovChain(decision=decision)
    for node in graph.nodes:
        chain.add_state(node, picker_for(node) if picker_for else node)
    directed = graph.to_directed() if not graph.is_directed() else graph
    for source, target, data in directed.edges(data=True):
        chain.add_transition(source, target, data.get("weight", 1.0))
    if start is not None:
        if start not in chain.states:
            raise ValueError(f"start must be a node of the graph, got {start!r}")
        chain.start = start
    return chain
