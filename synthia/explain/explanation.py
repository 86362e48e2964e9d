"""Explanation graphs: build them from recorded logs, query them, render them."""
from __future__ import annotations

import itertools
import pathlib
from typing import Any

import networkx as nx

from ..core.checks import check_int, check_picker
from ..core.picker import Picker
from .designators import Designator, NthElement, NthOutput
from .recording import log_of
from .rules import Alternative, And, Derived, ListElement, Opaque, Or, Origin, Ref, rule_for
from .rendering import RenderError, render_dot

__all__ = ["Explanation", "explain", "RenderError", "render_dot"]


def _label(value: Any, limit: int = 40) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _short(picker: Picker[Any]) -> str:
    text = repr(picker)
    return text if len(text) <= 48 else text[:45] + "..."


class Explanation:
    """Why a value looks the way it does: a DAG from the value to the draws that made it.

    ``graph`` is a :class:`networkx.DiGraph` with edges from what is explained to what
    explains it; ``root`` its root. Every node has ``kind`` (``"value"``, ``"and"`` or
    ``"or"``); value nodes have ``picker``, ``index`` (output index since the last reset,
    ``None`` for an element of a list given to the picker), ``part`` (a designator or
    ``None``) and ``value``; leaves are value nodes with no successors, with ``leaf``
    set to ``"draw"`` (a random draw), ``"constant"``, ``"list"`` or ``"opaque"`` (a
    picker with no rule).
    """

    def __init__(self, graph: nx.DiGraph, root: Any) -> None:
        self.graph = graph
        self.root = root

    # -- queries -----------------------------------------------------------------------
    def leaves(self) -> list[Any]:
        """The leaf nodes (where provenance ends)."""
        return [n for n in self.graph if self.graph.out_degree(n) == 0]

    def node(self, picker: Picker[Any], index: int | None, part: Designator | None = None) -> Any:
        """The node of ``part`` of output ``index`` of ``picker`` (``KeyError`` if absent)."""
        key = ("value", id(picker), index, part)
        if key not in self.graph:
            raise KeyError(f"no node for {part} of output {index} of {picker!r}")
        return key

    def children(self, node: Any) -> list[Any]:
        """What directly explains ``node``."""
        return list(self.graph.successors(node))

    def as_dnf(self) -> list[frozenset[Any]]:
        """Alternative sets of leaves that explain the root: ORs give alternatives, ANDs merge."""
        memo: dict[Any, list[frozenset[Any]]] = {}
        for node in reversed(list(nx.topological_sort(self.graph))):
            successors = list(self.graph.successors(node))
            kind = self.graph.nodes[node]["kind"]
            if not successors:
                memo[node] = [frozenset([node])]
            elif kind == "or":
                memo[node] = list(dict.fromkeys(c for s in successors for c in memo[s]))
            else:
                clauses: list[frozenset[Any]] = [frozenset()]
                for s in successors:
                    clauses = [a | b for a in clauses for b in memo[s]]
                memo[node] = list(dict.fromkeys(clauses))
        return memo[self.root]

    def simplified(self) -> "Explanation":
        """The same explanation keeping only the root, the AND/OR nodes and the leaves."""
        keep = {self.root} | {n for n, d in self.graph.nodes(data=True) if d["kind"] != "value"} | set(self.leaves())
        graph = nx.DiGraph()
        for node in keep:
            graph.add_node(node, **self.graph.nodes[node])
        for node in keep:
            stack, seen = list(self.graph.successors(node)), set()
            while stack:
                child = stack.pop()
                if child in seen:
                    continue
                seen.add(child)
                if child in keep:
                    graph.add_edge(node, child)
                else:
                    stack.extend(self.graph.successors(child))
        return Explanation(graph, self.root)

    # -- text and pictures ------------------------------------------------------------
    def describe(self, node: Any = None) -> str:
        """A readable tree (shared sub-explanations are shown once, then referred to)."""
        lines: list[str] = []
        shown: set[Any] = set()

        def walk(n: Any, depth: int, fields: dict[int, str]) -> None:
            data = self.graph.nodes[n]
            pad = "  " * depth
            if data["kind"] != "value":
                lines.append(f"{pad}{'AND' if data['kind'] == 'and' else 'OR'}")
            else:
                # A named input of the picker above (a record's field) is shown by its name.
                name = fields.get(id(data["picker"])) if data["index"] is not None else None
                label = f"{name}: " if name is not None else ""
                lines.append(f"{pad}{label}{self.text(n)}" + (" (see above)" if n in shown else ""))
                if n in shown:
                    return
                shown.add(n)
                fields = _named_inputs(data["picker"])
            for child in self.graph.successors(n):
                walk(child, depth + 1, fields)

        walk(self.root if node is None else node, 0, {})
        return "\n".join(lines)

    def text(self, node: Any) -> str:
        """One line for a node: the part, the output, the picker, the value."""
        data = self.graph.nodes[node]
        if data["kind"] != "value":
            return "∧" if data["kind"] == "and" else "∨"
        if data.get("argument") is not None and data["index"] is None and data.get("leaf") != "list":
            part = f"{data['part']} of " if data["part"] is not None else ""
            flag = {True: " [free: any value works]", False: " [matters]"}.get(data.get("free"), "")
            return f"{part}argument {data['argument']} from {_short(data['picker'])} = {_label(data['value'])}{flag}"
        where = "element of its list" if data["index"] is None else f"output {data['index']}"
        part = f"{data['part']} of " if data["part"] is not None else ""
        extra = {"draw": " [random draw]", "opaque": " [opaque: no rule]", "constant": "", "list": ""}.get(data.get("leaf", ""), "")
        if data.get("derivation"):
            extra = f" [derived: {data['derivation']}]"
        if data.get("leaf") == "alternative":
            return f"{part}alternative [{data['alternative']}] of {_short(data['picker'])} = {_label(data['value'])}"
        if data["index"] is None:
            return f"element {data['part']} of the list of {_short(data['picker'])} = {_label(data['value'])}"
        if data.get("free") is True:
            extra += " [free: any value works]"
        elif data.get("free") is False:
            extra += " [matters]"
        return f"{part}{where} of {_short(data['picker'])} = {_label(data['value'])}{extra}"

    def __str__(self) -> str:
        return self.describe()

    def __repr__(self) -> str:
        return f"<Explanation of {self.text(self.root)}: {self.graph.number_of_nodes()} nodes>"

    def to_dot(self) -> str:
        """Graphviz DOT source: AND nodes are small blue ∧ circles, OR red ∨, leaves filled."""
        ids = {node: f"n{i}" for i, node in enumerate(self.graph)}
        lines = ["digraph explanation {", '  node [shape=box, style=filled, fontname="Arial", fontsize=10];']
        for node, data in self.graph.nodes(data=True):
            if data["kind"] == "and":
                attrs = 'label="∧", shape=circle, width=0.3, fixedsize=true, fillcolor="#4f81bd", fontcolor=white'
            elif data["kind"] == "or":
                attrs = 'label="∨", shape=circle, width=0.3, fixedsize=true, fillcolor="#c0504d", fontcolor=white'
            else:
                leaf = data.get("leaf")
                color = {"draw": "#ffe699", "constant": "#e2efda", "list": "#e2efda", "alternative": "#e2efda", "opaque": "#d9d9d9"}.get(leaf or "", "#deebf7")
                attrs = f'label="{_escape(self.text(node))}", fillcolor="{color}"'
            lines.append(f"  {ids[node]} [{attrs}];")
        for a, b in self.graph.edges:
            lines.append(f"  {ids[a]} -> {ids[b]};")
        lines.append("}")
        return "\n".join(lines)

    def render(self, path: str | pathlib.Path, format: str | None = None) -> pathlib.Path:
        """Write the graph to ``path``, in the format its suffix chooses: ``.dot``/``.gv`` the
        DOT source, ``.svg``, ``.png``, ``.pdf``... the picture Graphviz's ``dot`` draws
        (:class:`RenderError` without it). An unknown suffix is a ``ValueError``; nothing
        but ``path`` is written (see :mod:`synthia.explain.rendering`)."""
        return render_dot(self.to_dot(), path, format)


def _named_inputs(picker: Any) -> dict[int, str]:
    """The inputs of ``picker`` given by name (the keyword inputs of an ``Apply``, the fields of
    a ``Struct``), by the identity of their picker."""
    named = getattr(picker, "kwargs", None)
    if not isinstance(named, dict):
        return {}
    return {id(p): str(name) for name, p in named.items() if isinstance(p, Picker)}


def _escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace('"', '\\"')


def explain(picker: Picker[Any], index: int = 0, part: Designator | None = None) -> Explanation:
    """Explain ``part`` of output ``index`` of ``picker``, recorded in a :func:`~synthia.recording` block.

    >>> import synthia as sy
    >>> clock = sy.Tick(0, sy.Freeze(sy.RandomInteger(1, 3))).set_seed(1)
    >>> with sy.recording(clock):
    ...     values = clock.take(3)
    >>> e = sy.explain(clock, 2)
    >>> sorted(e.graph.nodes[leaf]["value"] for leaf in e.leaves())
    [0, 1]
    """
    check_picker(picker, "picker")
    index = check_int(index, "index", minimum=0)
    if part is not None and not isinstance(part, Designator):
        raise TypeError(f"part must be a designator (such as NthElement(0)) or None, got {part!r} ({type(part).__name__})")
    if isinstance(part, NthOutput):
        index, part = part.n, None
    graph = nx.DiGraph()
    counter = itertools.count()
    todo: list[Any] = []

    def value_node(p: Picker[Any], i: int | None, pt: Designator | None, value: Any) -> Any:
        key = ("value", id(p), i, pt)
        if key not in graph:
            graph.add_node(key, kind="value", picker=p, index=i, part=pt, value=value)
            todo.append(key)
        return key

    def ref_node(ref: Ref) -> Any:
        entries = log_of(ref.picker)
        if ref.index >= len(entries):
            from .recording import NotRecorded

            raise NotRecorded(f"output {ref.index} of {ref.picker!r} was not recorded")
        value = entries[ref.index].value
        return value_node(ref.picker, ref.index, ref.part, ref.part.get(value) if ref.part is not None else value)

    def link(source: Any, spec: Any, owner: Any) -> None:
        """Link ``source`` (the explained value node ``owner`` or one of its Boolean nodes) to ``spec``."""
        if isinstance(spec, Ref):
            graph.add_edge(source, ref_node(spec))
        elif isinstance(spec, Alternative):
            value = spec.picker.values[spec.k]  # type: ignore[attr-defined]
            key = ("value", id(spec.picker), None, ("alternative", spec.k, spec.part))
            graph.add_node(key, kind="value", picker=spec.picker, index=None, part=spec.part, leaf="alternative",
                           alternative=spec.k, value=spec.part.get(value) if spec.part is not None else value)
            graph.add_edge(source, key)
        elif isinstance(spec, Origin):
            graph.nodes[owner]["draw"] = True  # the picker's own draw joins its inputs
        else:
            kind = "and" if isinstance(spec, And) else "or"
            boolean = (kind, next(counter))
            graph.add_node(boolean, kind=kind)
            graph.add_edge(source, boolean)
            for child in spec.children:
                link(boolean, child, owner)

    def attach(parent: Any, spec: Any) -> None:
        p = graph.nodes[parent]["picker"]
        if isinstance(spec, (Ref, And, Or)):
            link(parent, spec, parent)
        elif isinstance(spec, ListElement):
            element = p.values[spec.k]
            graph.add_edge(parent, value_node(p, None, NthElement(spec.k), element))
            graph.nodes[("value", id(p), None, NthElement(spec.k))]["leaf"] = "list"
        elif isinstance(spec, Opaque):
            graph.nodes[parent]["leaf"] = "opaque"
        elif isinstance(spec, Derived):
            graph.nodes[parent]["leaf"] = "draw"
            graph.nodes[parent]["derivation"] = spec.path
        else:
            from ..core.constant import Constant

            graph.nodes[parent]["leaf"] = "constant" if isinstance(p, Constant) else "draw"

    root = ref_node(Ref(picker, index, part))
    while todo:
        node = todo.pop()
        data = graph.nodes[node]
        if data["index"] is None:
            continue  # an element of a list given to the picker: a leaf
        entry = log_of(data["picker"])[data["index"]]
        attach(node, rule_for(data["picker"])(data["picker"], data["index"], data["part"], entry))
    return Explanation(graph, root)
