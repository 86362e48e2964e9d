"""Wiring diagrams: the picker graph itself, one box per picker, cables as arrows."""
from __future__ import annotations

import pathlib
from typing import Any

import networkx as nx

from ..core.checks import check_picker
from ..core.graph import edges, upstream
from ..core.picker import Picker
from .rendering import render_dot

__all__ = ["WiringDiagram", "wiring_diagram"]


class WiringDiagram:
    """The wiring as a :class:`networkx.MultiDiGraph` (``graph``), with DOT output and rendering.

    Nodes are the pickers (shared pickers appear once); an edge goes from a consumer to
    each of its inputs, labelled with the input's name.
    """

    def __init__(self, root: Picker[Any]) -> None:
        self.root = root
        self.graph = nx.MultiDiGraph()
        for key, node in upstream(root):
            self.graph.add_node(id(node), picker=node, key=key, label=_box(node))
        for consumer, name, producer in edges(root):
            self.graph.add_edge(id(consumer), id(producer), label=name)

    def to_dot(self) -> str:
        lines = ["digraph wiring {", '  rankdir=BT; node [shape=box, style="rounded,filled", fillcolor="#deebf7", fontname="Arial", fontsize=10];']
        for node, data in self.graph.nodes(data=True):
            lines.append(f'  p{node} [label="{_escape(data["label"])}"];')
        for consumer, producer, data in self.graph.edges(data=True):
            lines.append(f'  p{producer} -> p{consumer} [label="{_escape(data["label"])}", fontsize=8];')
        lines.append("}")
        return "\n".join(lines)

    def render(self, path: str | pathlib.Path, format: str | None = None) -> pathlib.Path:
        """Write the diagram to ``path`` in the format its suffix chooses (``.dot``, ``.svg``,
        ``.png``...), as :meth:`Explanation.render <synthia.explain.Explanation.render>`."""
        return render_dot(self.to_dot(), path, format)


def _box(picker: Picker[Any]) -> str:
    name = type(picker).__name__
    args, kwargs = picker.arguments()
    plain = [repr(a) for a in args if not isinstance(a, (Picker, list, dict, tuple))][:3]
    plain += [f"{k}={v!r}" for k, v in kwargs.items() if not isinstance(v, (Picker, list, dict, tuple))][:2]
    return f"{name}({', '.join(plain)})" if plain else name


def _escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace('"', '\\"')


def wiring_diagram(picker: Picker[Any]) -> WiringDiagram:
    """The diagram of ``picker``'s wiring.

    >>> import synthia as sy
    >>> x = sy.RandomInteger(0, 10)
    >>> d = wiring_diagram(sy.Apply(lambda a, b: a + b, x, x))
    >>> d.graph.number_of_nodes(), d.graph.number_of_edges()
    (2, 2)
    """
    return WiringDiagram(check_picker(picker, "picker"))
