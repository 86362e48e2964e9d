"""Cache keys made from a call's arguments."""
from __future__ import annotations

from typing import Any


class HashedTuple(tuple):  # type: ignore[type-arg]
    """A tuple that keeps its hash (keys are hashed on every lookup)."""

    hashed: int | None = None

    def __hash__(self) -> int:
        hashed = self.hashed
        if hashed is None:
            self.hashed = hashed = tuple.__hash__(self)
        return hashed


_MARK = (HashedTuple,)


def hashkey(*args: Any, **kwargs: Any) -> HashedTuple:
    """The key of a call: its positional arguments, then its keywords, sorted."""
    if kwargs:
        return HashedTuple(args + sum(sorted(kwargs.items()), _MARK))
    return HashedTuple(args)
