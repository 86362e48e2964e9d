"""Structures as ``networkx`` graphs: random trees, random graphs, Barabási–Albert graphs."""
from __future__ import annotations

from typing import Any, Iterator

import networkx as nx

from ..core.checks import check_count_pick, check_int, check_probability, check_text, describe
from ..core.inputs import count_input, value_input
from ..core.picker import RandomPicker

__all__ = ["TreePicker", "GraphPicker", "BarabasiAlbert", "graph_to_dot"]


class TreePicker(RandomPicker[nx.DiGraph]):
    """Random trees as ``networkx.DiGraph`` arborescences.

    ``depth`` and ``degree`` are ints or pickers; ``node`` is a picker of labels (each
    node's ``label`` attribute). Each tree has exactly the picked depth: one child of
    every node on a chosen path continues to the full depth, the other children get a
    random smaller depth. Nodes are numbered 0 (the root, ``tree.graph["root"]``), 1, ...

    >>> from synthia import Tick
    >>> tree = TreePicker(Tick(0, 1), depth=2, degree=2).set_seed(1).pick()
    >>> sorted(tree.edges), nx.dag_longest_path_length(tree)
    ([(0, 1), (0, 2), (2, 3), (2, 4)], 2)
    """

    inputs_fields = ("node", "depth", "degree")

    def __init__(self, node: Any, depth: Any, degree: Any, *, seed: int | None = None) -> None:
        self.node = value_input(node, "node")
        self.depth = count_input(depth, "depth")
        self.degree = count_input(degree, "degree")
        self._init_stream(seed)

    def _pick(self) -> nx.DiGraph:
        tree = nx.DiGraph()
        depth = check_count_pick(self.depth.pick(), "depth", self.depth)
        tree.add_node(0, label=self.node.pick())
        tree.graph["root"] = 0
        # Depth first, with a stack of generators rather than recursion: any depth works.
        stack = [self._children(tree, 0, depth, True)]
        while stack:
            child = next(stack[-1], None)
            if child is None:
                stack.pop()
            else:
                stack.append(self._children(tree, *child))
        return tree

    def _children(self, tree: nx.DiGraph, parent: int, remaining: int, full: bool) -> Iterator[tuple[int, int, bool]]:
        """Add the children of ``parent`` one by one, yielding each (with its depth) to grow next."""
        if remaining <= 0:
            return
        degree = check_count_pick(self.degree.pick(), "degree", self.degree)
        if degree == 0 and full:
            degree = 1  # the path that reaches the picked depth needs a child here
        continuing = self._stream.below(degree) if full and degree else -1
        for i in range(degree):
            child = tree.number_of_nodes()
            tree.add_node(child, label=self.node.pick())
            tree.add_edge(parent, child)
            depth = remaining - 1 if i == continuing else self._stream.below(remaining)
            yield child, depth, full and i == continuing




class GraphPicker(RandomPicker[nx.Graph]):
    """Random graphs G(n, p): ``size`` nodes labelled by ``node``, each pair linked with probability ``p``.

    >>> g = GraphPicker(size=6, p=0.5).set_seed(2).pick()
    >>> g.number_of_nodes(), g.number_of_edges()
    (6, 7)
    """

    inputs_fields = ("node", "size")

    def __init__(self, node: Any = None, size: Any = 10, p: float = 0.2, *, seed: int | None = None) -> None:
        self.node = None if node is None else value_input(node, "node")
        self.size = count_input(size, "size")
        self.p = check_probability(p, "p")
        self._init_stream(seed)

    def _nodes(self, graph: nx.Graph, n: int) -> None:
        for i in range(n):
            graph.add_node(i, label=i if self.node is None else self.node.pick())

    def _pick(self) -> nx.Graph:
        graph = nx.Graph()
        n = check_count_pick(self.size.pick(), "size", self.size)
        self._nodes(graph, n)
        boolean, p = self._stream.boolean, self.p
        for a in range(n):
            for b in range(a + 1, n):
                if boolean(p):
                    graph.add_edge(a, b)
        return graph


class BarabasiAlbert(GraphPicker):
    """Scale-free graphs by preferential attachment (Barabási–Albert).

    Starting from ``m`` connected nodes, each new node links to ``m`` distinct existing
    nodes chosen with probability proportional to their degree, so a few hubs get many
    links (a heavy-tailed degree distribution, as in web site maps).

    >>> g = BarabasiAlbert(size=200, m=1).set_seed(3).pick()
    >>> g.number_of_edges(), max(d for _, d in g.degree()) > 10
    (199, True)
    """

    def __init__(self, node: Any = None, size: Any = 50, m: int = 1, *, seed: int | None = None) -> None:
        super().__init__(node, size, 0.0, seed=seed)
        self.m = check_int(m, "m", minimum=1)

    def _pick(self) -> nx.Graph:
        graph = nx.Graph()
        n = check_count_pick(self.size.pick(), "size", self.size)
        self._nodes(graph, n)
        m = self.m
        ends: list[int] = []  # every edge end once: picking from it is picking by degree
        for a in range(min(m, n)):
            for b in range(a + 1, min(m, n)):
                graph.add_edge(a, b)
                ends += [a, b]
        for new in range(min(m, n), n):
            targets: set[int] = set()
            pool = ends or list(range(new))
            while len(targets) < min(m, new):
                targets.add(pool[self._stream.below(len(pool))])
            for t in sorted(targets):
                graph.add_edge(new, t)
                ends += [new, t]
        return graph

    def arguments(self) -> tuple[list[Any], dict[str, Any]]:
        return [], {"size": self.size, "m": self.m}


def graph_to_dot(graph: nx.Graph, name: str = "G") -> str:
    """DOT text of a generated graph or tree (labels from the ``label`` node attribute).

    >>> print(graph_to_dot(nx.path_graph(2)))
    graph G {
      0 [label="0"];
      1 [label="1"];
      0 -- 1;
    }
    """
    if not isinstance(graph, nx.Graph):
        raise TypeError(f"graph must be a networkx graph, got {describe(graph)}")
    check_text(name, "name")
    if not name.isidentifier():
        raise ValueError(f"name must be a DOT identifier (letters, digits, underscores), got {name!r}")
    directed = graph.is_directed()
    lines = [f"{'digraph' if directed else 'graph'} {name} {{"]
    for node, data in graph.nodes(data=True):
        label = str(data.get("label", node)).replace('"', '\\"')
        lines.append(f'  {node} [label="{label}"];')
    arrow = "->" if directed else "--"
    for a, b in graph.edges:
        lines.append(f"  {a} {arrow} {b};")
    lines.append("}")
    return "\n".join(lines)
