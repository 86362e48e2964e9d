"""What blocked branches wait for, in words: the primitives named by where they sit in the
system (``transfers.a``, ``jobs.not_empty``), who holds each lock, and the wait-for cycle of
a deadlock."""
from __future__ import annotations

from typing import Any, Callable, Sequence

from .primitives import Lock, waited_condition

__all__ = ["names_of", "describe_deadlock"]

_MAX_OBJECTS = 5000
_MAX_DEPTH = 4
_ATOMS = (str, bytes, int, float, complex, bool, type(None))


def names_of(system: Any, variable: str) -> dict[int, tuple[Any, str]]:
    """``id`` of each object reachable from ``system`` through attributes, list, tuple and
    dict items (a few levels deep) -> the object and its shortest path (``transfers.a``,
    ``pool.items[0]``)."""
    names: dict[int, tuple[Any, str]] = {}
    layer: list[tuple[Any, str]] = [(system, variable)]
    for _ in range(_MAX_DEPTH + 1):
        following: list[tuple[Any, str]] = []
        for obj, path in layer:
            if id(obj) in names or len(names) >= _MAX_OBJECTS or isinstance(obj, (type, *_ATOMS)):
                continue
            names[id(obj)] = (obj, path)
            if isinstance(obj, dict):
                following.extend((v, f"{path}[{k!r}]") for k, v in list(obj.items())[:64])
            elif isinstance(obj, (list, tuple)):
                following.extend((v, f"{path}[{i}]") for i, v in enumerate(list(obj)[:64]))
            else:
                try:
                    attributes = vars(obj)
                except TypeError:
                    continue
                following.extend((v, f"{path}.{k}") for k, v in list(attributes.items()))
        layer = following
    return names


def label(obj: Any, names: dict[int, tuple[Any, str]]) -> str:
    """The name of a primitive in the system (an Event's inner condition is the Event)."""
    found = names.get(id(obj))
    if found is None:
        return f"a {type(obj).__name__}"
    name = found[1]
    for inner in ("._cond", "._lock", "._block"):
        if name.endswith(inner):
            return name[: -len(inner)]
    return name


def describe_deadlock(
    blocked: Sequence[tuple[str, int | None, Any]], names: dict[int, tuple[Any, str]], who: Callable[[int], str],
) -> str:
    """What each blocked branch -- ``(its name, its thread's ident, what it waits on)`` --
    holds and waits for, and the wait-for cycle among them when there is one; ``who`` names
    the thread of an ident (``"branch 2"``, ``"the prefix"``).

    >>> a, b = Lock(), Lock()
    >>> a.acquire(), b.acquire()
    (True, True)
    >>> names = names_of({"a": a, "b": b}, "locks")
    >>> a.owner, b.owner = 1, 2
    >>> print(describe_deadlock([("branch 1", 1, b), ("branch 2", 2, a)], names, lambda ident: f"branch {ident}"))
    branch 1 holds locks['a'] and waits for locks['b'] (held by branch 2); branch 2 holds locks['b'] and waits for locks['a'] (held by branch 1); the wait-for cycle: branch 1 -> locks['b'] -> branch 2 -> locks['a'] -> branch 1
    """
    locks = [obj for obj, _ in names.values() if isinstance(obj, Lock)]
    parts = []
    edges: dict[str, tuple[str, str]] = {}
    for name, ident, waitable in blocked:
        held = [label(lock, names) for lock in locks if lock.owner is not None and lock.owner == ident]
        condition = waited_condition(waitable)
        if condition is not None:
            wanted = f"a notification on {label(condition, names)}"
        else:
            wanted = label(waitable, names)
            owner = getattr(waitable, "owner", None)
            if owner is not None:
                holder = who(owner)
                wanted += f" (held by {holder})"
                edges[name] = (label(waitable, names), holder)
        parts.append(f"{name}{' holds ' + ', '.join(held) + ' and' if held else ''} waits for {wanted}")
    text = "; ".join(parts)
    cycle = _cycle(edges)
    if cycle:
        text += "; the wait-for cycle: " + " -> ".join(f"{at} -> {lock}" for at, lock in cycle) + f" -> {cycle[0][0]}"
    else:
        text += f", and nothing left can wake {'it' if len(blocked) == 1 else 'them'}"
    return text


def _cycle(edges: dict[str, tuple[str, str]]) -> list[tuple[str, str]]:
    for start in edges:
        path: list[tuple[str, str]] = []
        seen: set[str] = set()
        at = start
        while at in edges and at not in seen:
            seen.add(at)
            lock, holder = edges[at]
            path.append((at, lock))
            at = holder
        if at == start and path:
            return path
    return []
