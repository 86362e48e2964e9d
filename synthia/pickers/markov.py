"""Markov chains of pickers, and chains read from graphs."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Callable, Hashable

from bisect import bisect_right

from ..core.checks import check_callable, check_hashable, check_number, check_unit_pick, cumulative, describe
from ..core.emitter import Emitter, is_pure
from ..core.exceptions import NoMoreElements
from ..core.inputs import unit_input, value_input
from ..core.picker import UNSET, Picker
from ..core.random import weighted_index
from .scalars import RandomFloat

__all__ = ["MarkovChain", "MarkovReader"]


class MarkovChain(Picker[Any]):
    """A walk on states, each state emitting a pick of its own picker.

    ``states`` maps a state name to a picker (or a plain value); ``transitions`` maps a
    state to ``{next_state: weight}`` (weights are normalised); ``start`` is the first
    state (the first of ``states`` by default; any hashable name works, ``None``
    included). The first pick emits from the start state; every later pick first takes a
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
        states: Mapping[Hashable, Any] | None = None,
        transitions: Mapping[Hashable, Mapping[Hashable, float]] | None = None,
        start: Hashable = UNSET,
        decision: Any = None,
    ) -> None:
        self.states: dict[Hashable, Picker[Any]] = {}
        self.transitions: dict[Hashable, dict[Hashable, float]] = {}
        self._tables: dict[Hashable, tuple[list[Hashable], list[float]]] = {}
        self.start: Hashable = UNSET
        for name, picker in _mapping(states, "states", "{state: picker or value}").items():
            self.add_state(name, picker)
        for source, targets in _mapping(transitions, "transitions", "{state: {next state: weight}}").items():
            for target, weight in _mapping(targets, f"transitions[{source!r}]", "{next state: weight}").items():
                self.add_transition(source, target, weight)
        if start is not UNSET:
            check_hashable(start, "start")
            if start not in self.states:
                raise ValueError(f"start must be one of the states {list(self.states)}, got {start!r}")
            self.start = start
        self.decision = RandomFloat() if decision is None else unit_input(decision, "decision")
        self.current: Hashable = UNSET

    def add_state(self, name: Hashable, picker: Any) -> "MarkovChain":
        """Add (or replace) a state and what it emits; returns the chain. The first state
        added is the start state unless ``start`` says otherwise."""
        check_hashable(name, "state name")
        self.states[name] = value_input(picker, f"states[{name!r}]")
        if self.start is UNSET:
            self.start = name
        return self

    def add_transition(self, source: Hashable, target: Hashable, weight: float = 1.0) -> "MarkovChain":
        """Add a weighted transition between two existing states; returns the chain."""
        for end, label in ((source, "source"), (target, "target")):
            check_hashable(end, f"transition {label}")
            if end not in self.states:
                raise ValueError(f"transition {label} must be a state, got {end!r} (states: {list(self.states)})")
        weight = check_number(weight, f"weight of {source!r} -> {target!r}")
        if weight < 0:
            raise ValueError(f"weight of {source!r} -> {target!r} must be non-negative, got {weight!r}")
        self.transitions.setdefault(source, {})[target] = weight
        targets = [t for t, w in self.transitions[source].items() if w > 0]
        self._tables[source] = (targets, cumulative([self.transitions[source][t] for t in targets]))
        return self

    def _pick(self) -> Any:
        if self.start is UNSET:
            raise NoMoreElements("the Markov chain has no state")
        if self.current is UNSET:
            self.current = self.start
        else:
            table = self._tables.get(self.current)
            if not table or not table[0]:
                raise NoMoreElements(f"state {self.current!r} has no way out")
            u = self.decision.pick()
            if u.__class__ is not float or not 0.0 <= u < 1.0:  # the usual case stays one test
                u = float(check_unit_pick(u, "decision", self.decision))
            self.current = table[0][weighted_index(u, table[1])]
        return self.states[self.current].pick()

    def stage(self, e: Emitter, out: list[str], ind: str) -> str:
        """The stager's code of a step: a look-up of the current state's transitions (running
        sums, with the state each index falls back to when a weight is zero) and a C
        ``bisect``. The state stays on the chain (``current``), so reset and copies work as
        usual; states and transitions are read when the code is written."""
        if self.start is UNSET:
            return e.call(self, out, ind)
        e.staged += 1
        tables = {}
        for source, targets in self.transitions.items():
            names = [t for t, w in targets.items() if w > 0]
            if not names:
                continue
            sums = cumulative([targets[t] for t in names])
            back = []
            for i in range(len(names) + 1):
                j = min(i, len(names) - 1)
                while j > 0 and sums[j] == sums[j - 1]:
                    j -= 1
                back.append(names[j])
            tables[source] = (tuple(sums), sums[-1], tuple(back))
        chain = e.bind("chain", self, ("chain", id(self)))
        table_name = e.bind("tables", tables)
        unset = e.bind("UNSET", UNSET, "UNSET")
        stuck = e.bind("no_way_out", _no_way_out, "no_way_out")
        bisect = e.bind("bisect_right", bisect_right, "bisect_right")
        state, table = e.var("s"), e.var("tb")
        out.append(f"{ind}{state} = {chain}.current  # MarkovChain")
        out.append(f"{ind}if {state} is {unset}:")
        out.append(f"{ind}    {state} = {e.bind('start', self.start)}")
        out.append(f"{ind}else:")
        out.append(f"{ind}    {table} = {table_name}.get({state})")
        out.append(f"{ind}    if {table} is None:")
        out.append(f"{ind}        {stuck}({state})")
        decision = self.decision
        inner = ind + "    "
        bounds = decision.value_range()
        if bounds is not None and bounds[0] >= 0.0 and bounds[1] <= 1.0:
            u = e.pick(decision, out, inner)
        else:
            check = e.bind("check_unit_pick", check_unit_pick, "check_unit_pick")
            u = e.var("u")
            picked = e.pick(decision, out, inner)
            out.append(f"{inner}{u} = float({check}({picked}, 'decision', {e.bind('decision', decision)}))")
        out.append(f"{inner}{state} = {table}[2][{bisect}({table}[0], {u} * {table}[1])]")
        out.append(f"{ind}{chain}.current = {state}")
        v = e.var("m")
        if all(is_pure(p) for p in self.states.values()):
            values = e.bind("emits", {name: p.pick() for name, p in self.states.items()})
            out.append(f"{ind}{v} = {values}[{state}]")
        else:
            picks = {name: e.env_values[e.env_names.index(e.pick_of(p))] for name, p in self.states.items()}
            out.append(f"{ind}{v} = {e.bind('emits', picks)}[{state}]()")
        return v

    def probability(self, source: Hashable, target: Hashable) -> float:
        """The normalised probability of going from ``source`` to ``target``."""
        targets = [t for t, w in self.transitions.get(source, {}).items() if w > 0]
        if target not in targets:
            return 0.0
        sums = cumulative([self.transitions[source][t] for t in targets])
        i = targets.index(target)
        return (sums[i] - (sums[i - 1] if i else 0.0)) / sums[-1]

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
        self.current = UNSET

    def arguments(self) -> tuple[list[Any], dict[str, Any]]:
        return [list(self.states)], {"start": self.start}


def _mapping(value: Any, name: str, shape: str) -> Mapping[Any, Any]:
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise TypeError(f"{name} must be a dict {shape}, got {describe(value)}")
    return value


def MarkovReader(
    graph: Any,
    picker_for: Callable[[Hashable], Any] | None = None,
    start: Hashable = UNSET,
    decision: Any = None,
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
        raise TypeError(f"graph must be a networkx graph, got {describe(graph)}")
    if picker_for is not None:
        check_callable(picker_for, "picker_for", arguments=1)
    chain = MarkovChain(decision=decision)
    for node in graph.nodes:
        chain.add_state(node, picker_for(node) if picker_for else node)
    directed = graph.to_directed() if not graph.is_directed() else graph
    for source, target, data in directed.edges(data=True):
        chain.add_transition(source, target, data.get("weight", 1.0))
    if start is not UNSET:
        check_hashable(start, "start")
        if start not in chain.states:
            raise ValueError(f"start must be a node of the graph, got {start!r}")
        chain.start = start
    return chain


def _no_way_out(state: Any) -> None:
    raise NoMoreElements(f"state {state!r} has no way out")
