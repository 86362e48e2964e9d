"""Constraints on a type's values, read from ``typing.Annotated`` metadata: the
``annotated-types`` objects (``Gt``, ``Ge``, ``Lt``, ``Le``, ``Interval``, ``MultipleOf``,
``MinLen``, ``MaxLen``, ``Len``, ``Predicate``), pydantic's field constraints (``Field(gt=0)``,
``pattern``, ``allow_inf_nan``, ``max_digits``, ``decimal_places``) and a picker given as
metadata (``Annotated[int, sy.RandomInteger(0, 10)]``).

Nothing here imports ``annotated_types`` or pydantic: the metadata is read by its
attributes (``gt``, ``min_length``, ...), so any library that spells constraints the same
way is understood, and ``import synthia`` stays light.
"""
from __future__ import annotations

import dataclasses
import math
import operator
from typing import Any, Callable, Iterable

from ..core.picker import Picker

__all__: list[str] = []

#: The bound attributes, and how two of them combine (the tighter wins).
_TIGHTER: dict[str, Callable[[Any, Any], Any]] = {"gt": max, "ge": max, "lt": min, "le": min}
#: The attributes of a constraint object that carry a plain value.
_PLAIN = ("multiple_of", "pattern", "allow_inf_nan", "max_digits", "decimal_places")


@dataclasses.dataclass
class Constraints:
    """What ``Annotated`` metadata asks of a value (``None``: no constraint).

    >>> from annotated_types import Gt, Le, MaxLen
    >>> read_constraints([Gt(0), Le(10), MaxLen(3), "a note"])
    Constraints(gt=0, le=10, max_length=3)
    """

    gt: Any = None
    ge: Any = None
    lt: Any = None
    le: Any = None
    multiple_of: Any = None
    min_length: int | None = None
    max_length: int | None = None
    pattern: str | None = None
    allow_inf_nan: bool | None = None
    max_digits: int | None = None
    decimal_places: int | None = None
    predicates: list[Callable[[Any], Any]] = dataclasses.field(default_factory=list)
    #: A picker given as metadata: it makes the values, the other constraints filter them.
    picker: Picker[Any] | None = None

    def __bool__(self) -> bool:
        return any(v not in (None, []) for v in dataclasses.astuple(self)) or self.picker is not None

    @property
    def bounded(self) -> bool:
        return any(getattr(self, name) is not None for name in _TIGHTER)

    def checks(self) -> list[Callable[[Any], bool]]:
        """One named predicate per constraint (what a filter over any picker tests).

        >>> [c.__name__ for c in Constraints(ge=1, max_length=3).checks()]
        ['ge 1', 'max_length 3']
        """
        out: list[Callable[[Any], bool]] = []
        for name in ("gt", "ge", "lt", "le"):
            bound = getattr(self, name)
            if bound is not None:
                out.append(Check(name, bound))
        if self.multiple_of is not None:
            out.append(Check("multiple_of", self.multiple_of))
        if self.min_length is not None:
            out.append(Check("min_length", self.min_length))
        if self.max_length is not None:
            out.append(Check("max_length", self.max_length))
        if self.pattern is not None:
            out.append(Check("pattern", self.pattern))
        return out

    def __repr__(self) -> str:
        shown = [f"{f.name}={getattr(self, f.name)!r}" for f in dataclasses.fields(self) if getattr(self, f.name) not in (None, [])]
        return f"Constraints({', '.join(shown)})"


_COMPARE = {"gt": operator.gt, "ge": operator.ge, "lt": operator.lt, "le": operator.le}


class Check:
    """One constraint as a predicate, named as it reads (``gt 0``): what a ``PickIf`` shows.

    >>> Check("gt", 0)(1), Check("max_length", 2)("abc"), Check("multiple_of", 3)(9)
    (True, False, True)
    """

    def __init__(self, kind: str, bound: Any) -> None:
        self.kind, self.bound = kind, bound
        self.__name__ = f"{kind} {bound}"

    def __call__(self, value: Any) -> bool:
        kind, bound = self.kind, self.bound
        try:
            if kind in _COMPARE:
                return bool(_COMPARE[kind](value, bound))
            if kind == "multiple_of":
                return bool(value % bound == 0)
            if kind == "min_length":
                return len(value) >= bound
            if kind == "max_length":
                return len(value) <= bound
            if kind == "pattern":
                import re

                return re.search(bound, value) is not None
        except TypeError:
            return False
        raise ValueError(f"unknown constraint {kind!r}")  # pragma: no cover - kinds are ours

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Check) and (self.kind, self.bound) == (other.kind, other.bound)

    def __hash__(self) -> int:
        return hash((self.kind, repr(self.bound)))

    def __repr__(self) -> str:
        return self.__name__


def read_constraints(metadata: Iterable[Any], into: Constraints | None = None) -> Constraints:
    """The constraints of ``Annotated`` metadata, merged (the tighter bound wins); metadata
    that is no constraint (a note, a unit) is ignored.

    >>> from annotated_types import Interval, Len, Predicate
    >>> read_constraints([Interval(ge=0, lt=5), Len(1, 4), Predicate(str.isdigit)])
    Constraints(ge=0, lt=5, min_length=1, max_length=4, predicates=[<method 'isdigit' of 'str' objects>])
    """
    out = Constraints() if into is None else into
    for item in metadata:
        if isinstance(item, Picker):
            out.picker = item
            continue
        if isinstance(item, (str, bytes, int, float, type)) or item is None:
            continue
        if getattr(item, "__is_annotated_types_grouped_metadata__", False):
            read_constraints(iter(item), out)  # Interval, Len, pydantic's StringConstraints
            continue
        inner = getattr(item, "metadata", None)
        if type(item).__name__ == "FieldInfo" and isinstance(inner, list):
            read_constraints(inner, out)  # Annotated[int, pydantic.Field(gt=0)]
            continue
        if type(item).__name__ == "Predicate" and callable(getattr(item, "func", None)):
            out.predicates.append(item.func)
            continue
        for name, tighter in _TIGHTER.items():
            bound = getattr(item, name, None)
            if bound is not None:
                current = getattr(out, name)
                setattr(out, name, bound if current is None else tighter(current, bound))
        for name in ("min_length", "max_length"):
            size = getattr(item, name, None)
            if size is not None:
                current = getattr(out, name)
                setattr(out, name, size if current is None else (max if name == "min_length" else min)(current, size))
        for name in _PLAIN:
            value = getattr(item, name, None)
            if value is not None:
                setattr(out, name, value)
    return out


def integer_bounds(c: Constraints) -> tuple[int | None, int | None]:
    """The inclusive ``(lowest, highest)`` integers the bounds allow (``None``: unbounded).

    >>> integer_bounds(Constraints(gt=0.5, lt=10))
    (1, 9)
    """
    low = high = None
    if c.ge is not None:
        low = math.ceil(c.ge)
    if c.gt is not None:
        low = max(low, math.floor(c.gt) + 1) if low is not None else math.floor(c.gt) + 1
    if c.le is not None:
        high = math.floor(c.le)
    if c.lt is not None:
        high = min(high, math.ceil(c.lt) - 1) if high is not None else math.ceil(c.lt) - 1
    return low, high
