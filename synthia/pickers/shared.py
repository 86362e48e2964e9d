"""Values a picker keeps as data and its copies share: immutable values, and :class:`_Shared`,
the tuple of them that copying returns as it is."""
from __future__ import annotations

from enum import Enum
from typing import Any, Sequence


#: Values a copy may share with the original: nothing can change inside them.
_IMMUTABLE = frozenset({int, float, bool, complex, str, bytes, type(None), range})


def _immutable(items: Sequence[Any]) -> bool:
    """Whether nothing can change inside any of ``items`` (atoms, enum members, tuples and
    frozensets of such): a copy may share them, and they need no picker each."""
    immutable = _IMMUTABLE
    for v in items:
        if type(v) not in immutable and not isinstance(v, Enum):
            if not (type(v) in (tuple, frozenset) and _immutable(v)):  # type: ignore[arg-type]
                return False
    return True


class _Shared(tuple):  # type: ignore[type-arg]
    """A tuple of immutable values that copies of its picker share (copying is free)."""

    __slots__ = ()

    def __copy__(self) -> "_Shared":
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> "_Shared":
        return self

    def __reduce__(self) -> Any:
        return (_Shared, (tuple(self),))
