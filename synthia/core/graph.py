"""The one walk over a wiring that reset, seeding, diagrams and explanations share.

A wiring is a directed graph: each picker points to its inputs. It may have
shared pickers (a diamond) and, through :class:`~synthia.Deferred`, cycles.
:func:`upstream` visits every picker reachable from a root exactly once, in a
deterministic depth-first order, together with its *key*: the input names
that lead to it from the root, joined by ``/``.
"""
from __future__ import annotations

from collections import Counter
from typing import Any, Iterator, Protocol, Sequence, TypeVar


class Wired(Protocol):
    """What the walk needs of a picker: its named inputs (:meth:`synthia.Picker.named_inputs`)."""

    def named_inputs(self) -> Iterator[tuple[str, Any]]: ...  # pragma: no cover - a protocol


#: A picker (anything with named inputs): the walk yields the type it was given.
P = TypeVar("P", bound=Wired)

__all__ = ["upstream", "kinds_of", "span_kind", "edges", "picker_notes", "notify_failure", "learns"]


def upstream(root: P) -> Iterator[tuple[str, P]]:
    """Yield ``(key, picker)`` for the root and every picker upstream of it, once each.

    >>> from synthia import ComposeList, RandomInteger
    >>> x = RandomInteger(0, 10)
    >>> [key for key, _ in upstream(ComposeList(x, x))]
    ['', 'element']
    """
    seen: set[int] = {id(root)}
    stack: list[tuple[str, P]] = [("", root)]
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


def kinds_of(wiring: Wired) -> list[str]:
    """The kind of each picker of ``wiring``, by its position in :func:`upstream`'s walk (the
    label of its spans in recorded draws): its class and ``repr`` when another picker of the
    wiring has its class, else a kind of its own (no ``repr`` is built for what pairs with
    nothing). Two pickers of one kind make the same values from the same draws: what
    copying a part of an input over another, and swapping two parts, rely on.

    >>> import synthia as sy
    >>> kinds_of(sy.Apply(lambda a, b: a + b, sy.RandomInteger(0, 9), sy.RandomInteger(0, 9)))[1:]
    ['RandomInteger:RandomInteger(0, 9)', 'RandomInteger:RandomInteger(0, 9)']
    """
    nodes = [node for _, node in upstream(wiring)]
    classes = Counter(type(node) for node in nodes)
    kinds = []
    for position, node in enumerate(nodes):
        kind = f"#{position}"
        if classes[type(node)] > 1:
            try:
                kind = f"{type(node).__qualname__}:{node!r}"
            except Exception:  # a picker whose repr fails pairs with nothing
                pass
        kinds.append(kind)
    return kinds


def span_kind(kinds: "Sequence[str] | None", label: Any) -> Any:
    """The kind of the spans labelled ``label``: ``kinds[label]`` for a picker's position
    (see :func:`kinds_of`), the label itself for a part of a pick (a grammar rule's
    derivation, a Hypothesis strategy's draw) or when no kinds are known.

    >>> span_kind(["a", "b"], 1), span_kind(["a", "b"], ("rule", "expr")), span_kind(None, 1)
    ('b', ('rule', 'expr'), 1)
    """
    if kinds is not None and type(label) is int and 0 <= label < len(kinds):
        return kinds[label]
    return label


def edges(root: P) -> Iterator[tuple[P, str, P]]:
    """Yield ``(consumer, input_name, producer)`` for every cable of the wiring, once each.

    >>> from synthia import ComposeList, RandomInteger
    >>> x = RandomInteger(0, 10)
    >>> [name for _, name, _ in edges(ComposeList(x, x))]
    ['element', 'length']
    """
    for _, node in upstream(root):
        for name, child in node.named_inputs():
            yield node, name, child


def picker_notes(root: Wired) -> list[str]:
    """The lines the pickers of a wiring add to a test report: each picker upstream of
    ``root`` that has a ``report_note()`` method returning a string (a guided picker tells
    its valid and unique-valid rates).

    >>> from synthia import RandomInteger, guided
    >>> g = guided(RandomInteger(0, 10), valid=lambda x: x < 5, seed=1)
    >>> _ = g.take(10)
    >>> picker_notes(g)
    ['guided RandomInteger: ... episodes, ...% valid, ...% unique valid']
    """
    notes: list[str] = []
    for _, node in upstream(root):
        note_of = getattr(node, "report_note", None)
        if callable(note_of):
            note = note_of()
            if isinstance(note, str) and note:
                notes.append(note)
    return notes


def learns(root: Wired) -> bool:
    """Whether a picker upstream of ``root`` learns from its own values (its ``learning``
    attribute is ``True``, as a guided picker's is until it is frozen): a harness carries
    such a picker from one run to the next instead of starting a fresh copy each time.

    >>> from synthia import RandomInteger, guided
    >>> g = guided(RandomInteger(0, 10), seed=1)
    >>> learns(g), learns(g.freeze()), learns(RandomInteger(0, 10))
    (True, False, False)
    """
    return any(getattr(node, "learning", False) is True for _, node in upstream(root))


def notify_failure(root: Wired) -> None:
    """Tell the pickers of a wiring that the value they made last failed the test: each
    picker upstream of ``root`` that has an ``on_failure()`` method is called (a guided
    picker counts the failing input as a new valid one, RLCheck's rule).

    >>> from synthia import RandomInteger, guided
    >>> g = guided(RandomInteger(0, 3), seed=1, epsilon=0.0)
    >>> _ = g.take(5)   # three values exist: some of these are repeats, rewarded 0
    >>> notify_failure(g)
    >>> g.guide.last_reward
    20.0
    """
    for _, node in upstream(root):
        on_failure = getattr(node, "on_failure", None)
        if callable(on_failure):
            on_failure()
