"""The one walk over a wiring that reset, seeding, diagrams and explanations share.

A wiring is a directed graph: each picker points to its inputs. It may have
shared pickers (a diamond) and, through :class:`~synthia.Deferred`, cycles.
:func:`upstream` visits every picker reachable from a root exactly once, in a
deterministic depth-first order, together with its *key*: the input names
that lead to it from the root, joined by ``/``.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

if TYPE_CHECKING:  # pragma: no cover
    from .picker import Picker

__all__ = ["upstream", "edges"]


def upstream(root: "Picker") -> Iterator[tuple[str, "Picker"]]:
    """Yield ``(key, picker)`` for the root and every picker upstream of it, once each.

    >>> from synthia import ComposeList, RandomInteger
    >>> x = RandomInteger(0, 10)
    >>> [key for key, _ in upstream(ComposeList(x, x))]
    ['', 'element']
    """
    seen: set[int] = {id(root)}
    stack: list[tuple[str, Picker]] = [("", root)]
    while stack:
        key, node = stack.pop()
        yield key, node
        children = []
        for name, child in node.named_inputs():
            if id(child) not in seen:
                seen.add(id(child))
                # An empty name (a staged picker's wiring) keeps its consumer's key.
                children.append((f"{key}/{name}" if key and name else key or name, child))
        stack.extend(reversed(children))


def edges(root: "Picker") -> Iterator[tuple["Picker", str, "Picker"]]:
    """Yield ``(consumer, input_name, producer)`` for every cable of the wiring, once each.

    >>> from synthia import ComposeList, RandomInteger
    >>> x = RandomInteger(0, 10)
    >>> [name for _, name, _ in edges(ComposeList(x, x))]
    ['element', 'length']
    """
    for _, node in upstream(root):
        for name, child in node.named_inputs():
            yield node, name, child
