"""The walk :func:`~synthia.from_type` makes over a type: where it is (a path such as
``Order.lines[].sku``, for errors), which types are being built (to see a self-reference), and
the small helpers the resolver's parts share (:mod:`synthia.pickers.constructs` for the
``typing`` constructs, :mod:`synthia.pickers.building` for records, :mod:`synthia.pickers.resolve`
for the rest)."""
from __future__ import annotations

import typing
from typing import Any, Callable

from ..core.picker import Picker
from .basic import Choice
from .deferred import Deferred
from .constraints import Constraints
from .floats import AnyFloat
from .integers import AnyInteger
from .scalars import RandomBoolean
from .standard import lengths
from .text import RandomText

__all__: list[str] = []

R = typing.TypeVar("R")


class Recursive(Exception):
    """A self-reference met while building a type's value without it (its depth reached)."""


class Entry:
    """A type being built: the picker built for it, the form it takes past ``max_depth``, and
    the :class:`~synthia.Deferred` its self-references go through (made at the first one)."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.picker: Picker[Any] | None = None
        self.base: Picker[Any] | None = None
        self.deferred: Deferred[Any] | None = None


class Target:
    """What a self-reference's ``Deferred`` builds: the type's picker (or its form past the
    depth), named as the type for the wiring's ``repr``."""

    def __init__(self, entry: Entry, base: bool) -> None:
        self.entry, self.base = entry, base
        self.__name__ = f"{entry.name} (past max_depth)" if base else entry.name

    def __call__(self) -> Picker[Any]:
        picker = self.entry.base if self.base else self.entry.picker
        assert picker is not None, "a self-reference picked before its type was built"
        return picker

    def __deepcopy__(self, memo: dict[int, Any]) -> "Target":
        return self  # a copied Deferred holds its copied target already

    def __repr__(self) -> str:
        return self.__name__


class At:
    def __init__(self, path: list[str], segment: str) -> None:
        self.path, self.segment = path, segment

    def __enter__(self) -> None:
        self.path.append(self.segment)

    def __exit__(self, *exc: Any) -> None:
        self.path.pop()



class Walk:
    """The state of one walk over a type and the methods every part of the resolver uses."""

    def __init__(self, max_depth: int, names: dict[str, Any]) -> None:
        self.max_depth = max_depth
        self.names = names
        #: The types being built (a type met again among them is a self-reference).
        self.stack: dict[Any, Entry] = {}
        #: The types whose form without the self-reference is being built.
        self.forbidden: set[Any] = set()
        self.path: list[str] = []

    def resolve(self, tp: Any, c: Constraints | None = None) -> Picker[Any]:
        raise NotImplementedError  # pragma: no cover - the resolver's

    def registered(self, tp: Any) -> Picker[Any] | None:
        raise NotImplementedError  # pragma: no cover - the resolver's

    def cls(self, tp: type, c: Constraints, mapping: dict[Any, Any] | None = None, shown: Any = None) -> Picker[Any]:
        raise NotImplementedError  # pragma: no cover - the records' part

    # -- errors and paths ---------------------------------------------------------------
    def top(self, tp: Any, build: Callable[[], R]) -> R:
        """``build()``, a self-reference past the bounds reported as a ``TypeError``."""
        nested = bool(self.path)
        try:
            with self.at("" if nested else type_name(tp)):
                return build()
        except Recursive as error:
            if nested:
                raise
            raise TypeError(
                f"from_type cannot build {type_name(tp)}: {error.args[0]} is recursive and each of its values holds "
                "another one (no list, Optional or default ends the recursion), so no value is finite"
            ) from None

    @property
    def where(self) -> str:
        return "".join(self.path)

    def at(self, segment: str) -> "At":
        return At(self.path, segment)

    def fail(self, tp: Any, reason: str) -> typing.NoReturn:
        where = self.where
        place = f" for {where}" if where and where != type_name(tp) else ""
        raise TypeError(f"cannot build a value of {type_name(tp)}{place}: {reason}")

def hashable(value: Any) -> bool:
    try:
        hash(value)
    except TypeError:
        return False
    return True


def type_key(tp: Any) -> Any:
    return tp if hashable(tp) else ("id", id(tp))


def type_name(tp: Any) -> str:
    """A type as a reader writes it: ``Order``, ``list[int]``, ``int | None``."""
    if isinstance(tp, type) and not typing.get_args(tp):
        return tp.__qualname__.rsplit("<locals>.", 1)[-1]
    if isinstance(tp, str):
        return tp
    return repr(tp).replace("typing.", "").replace("collections.abc.", "").replace("NoneType", "None")


def any_value() -> Picker[Any]:
    """The values of ``Any`` and ``object``: ``None``, a bool, an int, a float or a string.

    >>> any_value()
    Choice(None, RandomBoolean(), AnyInteger(), AnyFloat(), RandomText(AnySize()))
    """
    return Choice(None, RandomBoolean(), AnyInteger(), AnyFloat(), RandomText(lengths(None, None)))
