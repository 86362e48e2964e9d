"""Designators: names for a part of a value ("element 0 of output 3").

A designator is applied to a value with :meth:`Designator.get`. Composition reads
right to left, like the paper's ``1 ∘ 1``: ``NthElement(0).of(NthElement(2))``
designates element 0 of element 2. Parts compose with ``/`` as a path, outermost
first: ``NthElement(2) / NthElement(0)`` is the same designator.

>>> part = NthElement(2) / Key("x")
>>> part
NthElement(2) / Key('x')
>>> part.get([0, 1, {"x": 7}])
7
>>> str(part)
"['x'] of [2]"
"""
from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

__all__ = ["Designator", "NthOutput", "NthElement", "Key", "Attribute", "Character", "Member", "Path"]


class Designator:
    """Base class: a way to pick a part out of a value."""

    def get(self, value: Any) -> Any:  # pragma: no cover - interface
        raise NotImplementedError

    @property
    def steps(self) -> tuple["Designator", ...]:
        """The elementary designators from the outermost to the innermost."""
        return (self,)

    def __repr__(self) -> str:
        args = ", ".join(repr(getattr(self, f.name)) for f in fields(self))  # type: ignore[arg-type]
        return f"{type(self).__name__}({args})"

    def __truediv__(self, inner: "Designator") -> "Designator":
        return Path(self.steps + inner.steps)

    def of(self, outer: "Designator") -> "Designator":
        """This part of the part ``outer`` (``NthElement(0).of(NthElement(2))``)."""
        return outer / self

    @property
    def head(self) -> "Designator":
        """The outermost step."""
        return self.steps[0]

    @property
    def rest(self) -> "Designator | None":
        """Everything after the outermost step (``None`` when there is nothing)."""
        steps = self.steps[1:]
        if not steps:
            return None
        return steps[0] if len(steps) == 1 else Path(steps)


@dataclass(frozen=True, repr=False)
class NthOutput(Designator):
    """The ``n``-th value a picker output since its last reset (0-based)."""

    n: int

    def get(self, value: Any) -> Any:
        return value

    def __str__(self) -> str:
        return f"output {self.n}"




@dataclass(frozen=True, repr=False)
class NthElement(Designator):
    """Element ``i`` of a list, tuple or other sequence."""

    i: int

    def get(self, value: Any) -> Any:
        return value[self.i]

    def __str__(self) -> str:
        return f"[{self.i}]"


@dataclass(frozen=True, repr=False)
class Key(Designator):
    """The value under key ``key`` of a mapping."""

    key: Any

    def get(self, value: Any) -> Any:
        return value[self.key]

    def __str__(self) -> str:
        return f"[{self.key!r}]"


@dataclass(frozen=True, repr=False)
class Attribute(Designator):
    """Attribute ``name`` of an object."""

    name: str

    def get(self, value: Any) -> Any:
        return getattr(value, self.name)

    def __str__(self) -> str:
        return f".{self.name}"


@dataclass(frozen=True, repr=False)
class Character(Designator):
    """Character ``i`` of a string."""

    i: int

    def get(self, value: Any) -> Any:
        return value[self.i]

    def __str__(self) -> str:
        return f"character {self.i}"


@dataclass(frozen=True, repr=False)
class Member(Designator):
    """The member ``item`` of a set (the part is the item itself)."""

    item: Any

    def get(self, value: Any) -> Any:
        if self.item not in value:
            raise KeyError(self.item)
        return self.item

    def __str__(self) -> str:
        return f"member {self.item!r}"


@dataclass(frozen=True, repr=False)
class Path(Designator):
    """A composition of designators, outermost first."""

    parts: tuple[Designator, ...]

    @property
    def steps(self) -> tuple[Designator, ...]:
        return self.parts

    def get(self, value: Any) -> Any:
        for part in self.parts:
            value = part.get(value)
        return value

    def __str__(self) -> str:
        return " of ".join(str(p) for p in reversed(self.parts))

    def __repr__(self) -> str:
        return " / ".join(repr(p) for p in self.parts)
