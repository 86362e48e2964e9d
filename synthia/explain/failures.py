"""Explaining a failure found by ``Assert``: which parts of the smallest failing input come
from which pickers of the wiring, and which of those draws matter to the failure.

The smallest input comes out of shrinking, not out of one run of the wiring, so it is
explained *structurally*: each argument is decomposed along its wiring (a list into its
elements, a tuple into its components, a ``Choice`` into the alternative that can produce
the value, a filter or ``Freeze`` into its input) down to the pickers that drew each part.
Every such draw is then re-drawn a few times from its own picker, everything else fixed,
and the test re-run: a draw whose variation never changes the verdict is *free* ("any value
works here"). Hypothesis's explain phase does this per top-level argument only.
"""
from __future__ import annotations

import copy
import itertools
from typing import TYPE_CHECKING, Any

import networkx as nx

import synthia.pickers as catalog
from ..core.picker import Picker
from .designators import Designator, NthElement, Path
from .explanation import Explanation

if TYPE_CHECKING:  # pragma: no cover
    from ..testing.report import TestReport

__all__ = ["explain_failure"]


def _path(steps: tuple[Designator, ...]) -> Designator | None:
    if not steps:
        return None
    return steps[0] if len(steps) == 1 else Path(steps)


def _decompose(graph: nx.DiGraph, picker: Picker[Any], value: Any, steps: tuple[Designator, ...], argument: str, counter: Any) -> Any:
    """Add the node of ``value`` (made by ``picker``) and its decomposition; return the node."""
    node = ("value", argument, steps, next(counter))
    graph.add_node(node, kind="value", picker=picker, index=None, part=_path(steps), value=value, argument=argument)
    children: list[Any] = []
    if isinstance(picker, (catalog.ComposeList, catalog.ListPicker)) and isinstance(value, list):
        sources = [picker.element] * len(value) if isinstance(picker, catalog.ComposeList) else [
            picker.pickers[i % len(picker.pickers)] for i in range(len(value))
        ]
        children = [_decompose(graph, p, v, steps + (NthElement(i),), argument, counter) for i, (p, v) in enumerate(zip(sources, value))]
    elif isinstance(picker, (catalog.ArrayPicker, catalog.PrismPicker)) and isinstance(value, tuple):
        components = picker.pickers if isinstance(picker, catalog.ArrayPicker) else picker.coordinates
        children = [_decompose(graph, p, v, steps + (NthElement(i),), argument, counter) for i, (p, v) in enumerate(zip(components, value))]
    elif isinstance(picker, catalog.Choice):
        i = picker._source_of(value)
        if i is not None:
            children = [_decompose(graph, picker.alternatives[i], value, steps, argument, counter)]
    elif isinstance(picker, (catalog.PickIf, catalog.Freeze, catalog.Once, catalog.Bound)):
        children = [_decompose(graph, picker.picker, value, steps, argument, counter)]
    elif isinstance(picker, catalog.Deferred):
        children = [_decompose(graph, picker.target, value, steps, argument, counter)]
    if len(children) > 1:
        conjunction = ("and", argument, steps, next(counter))
        graph.add_node(conjunction, kind="and")
        graph.add_edge(node, conjunction)
        for child in children:
            graph.add_edge(conjunction, child)
    elif children:
        graph.add_edge(node, children[0])
    else:
        graph.nodes[node]["leaf"] = "constant" if isinstance(picker, catalog.Constant) else "draw"
    return node


def _substitute(value: Any, steps: tuple[Designator, ...], part: Any) -> Any:
    if not steps:
        return part
    head, rest = steps[0], steps[1:]
    assert isinstance(head, NthElement)
    items = list(value)
    items[head.i] = _substitute(items[head.i], rest, part)
    return tuple(items) if isinstance(value, tuple) else items


def explain_failure(report: "TestReport", redraws: int = 5) -> Explanation:
    """The explanation graph of ``report``'s smallest failing input, with free draws marked.

    The root is an AND node over one node per argument (``argument`` attribute); leaves
    are the parts drawn by a picker, each with ``free`` set: ``True`` when ``redraws``
    other draws of that picker, everything else fixed, all still fail.
    """
    if report.passed or report.smallest is None or report.harness is None:
        raise ValueError("only a failed report has a failing input to explain")
    harness = report.harness
    graph = nx.DiGraph()
    root = ("and", "failure")
    graph.add_node(root, kind="and", value=report.smallest)
    counter = itertools.count()
    for name, value in report.smallest.items():
        graph.add_edge(root, _decompose(graph, harness.inputs[name], value, (), name, counter))
    explanation = Explanation(graph, root)
    for leaf in explanation.leaves():
        data = graph.nodes[leaf]
        if data.get("leaf") != "draw":
            data["free"] = None
            continue
        steps = data["part"].steps if data["part"] is not None else ()
        source = data["picker"].duplicate()
        verdicts = []
        for trial in range(redraws):
            try:
                other = source.set_seed(7919 * (trial + 1)).pick()
            except Exception:
                continue
            inputs = copy.deepcopy(report.smallest)
            inputs[data["argument"]] = _substitute(inputs[data["argument"]], steps, other)
            verdicts.append(harness.check(inputs)[0])
        data["free"] = bool(verdicts) and not any(verdicts)
    return explanation
