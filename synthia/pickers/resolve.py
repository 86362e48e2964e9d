"""Pickers from types: :func:`from_type`, :func:`builds` and :func:`register_type`.

``from_type(T)`` reads a type -- a standard scalar type, a ``typing`` construct, an enum, a
record class (dataclass, attrs, pydantic v2 model, named tuple, ``TypedDict``, any class
through its ``__init__``) -- and wires the catalog's pickers into a picker of its values:
a record is a :class:`~synthia.Struct` (so each field is a labelled part of explanations
and shrinks through its own draws), a list a :class:`~synthia.ComposeList`, a union a
:class:`~synthia.Choice`, a self-referencing type a :class:`~synthia.Deferred` of bounded
depth. What it builds is an ordinary wiring: its ``repr`` shows it, and any part of it can
be replaced (``builds(Order, lines=...)``) or registered (``register_type``).

Defaults: a field with a default (or a default factory) takes it **half of the time**, and
a value of its type otherwise; the default is the first alternative, so a failure shrinks
towards it. (Hypothesis's ``builds`` always leaves such a field at its default.)
"""
from __future__ import annotations

import enum
import functools
import operator
import sys
import typing
from contextvars import ContextVar
from typing import Any

from ..core.checks import describe
from ..core.constant import Constant
from ..core.picker import Picker
from .basic import Apply, Choice
from .deferred import Deferred
from .building import Building
from .collections import RandomSubList
from .constraints import Constraints, read_constraints
from .constructs import BARE, Constructs
from .fields import record_spec, resolve_annotation
from .standard import Unsupported, filtered, is_standard, standard_picker
from .walk import Entry, Recursive, Target, any_value, type_key, type_name

__all__ = ["from_type", "builds", "register_type"]

#: The depth of a self-referencing type's values: a type met again inside itself this many
#: times takes its value without the self-reference (an empty list, ``None``, a default).
MAX_DEPTH = 3

#: Pickers and functions given to :func:`register_type`, by type.
_REGISTRY: dict[Any, Any] = {}


def register_type(type_: Any, picker: Any) -> None:
    """Make :func:`from_type` (and :func:`builds`, :class:`~synthia.Struct`, ``@sy.given``)
    use ``picker`` for ``type_``: a picker (a fresh copy of it is wired in at each use, so
    uses never share state), a function of the type that returns one (for a generic
    class, it receives the parameterised type, ``Box[int]``) or a plain value (always
    that value, as everywhere a picker is expected). ``None`` removes the
    registration. Registered types come first: a standard type can be given another picker.

    >>> import synthia as sy
    >>> class Celsius(float): ...
    >>> sy.register_type(Celsius, sy.Apply(Celsius, sy.RandomFloat(-40.0, 50.0)))
    >>> sy.from_type(list[Celsius])
    ComposeList(Apply(Celsius, RandomFloat(-40.0, 50.0)), length=AnySize())
    >>> sy.register_type(Celsius, None)
    """
    if picker is None:
        _REGISTRY.pop(type_, None)
        return
    if not isinstance(picker, Picker) and not callable(picker):
        picker = Constant(picker)  # a plain value, as everywhere a picker is expected: always that value
    try:
        hash(type_)
    except TypeError:
        raise TypeError(f"type_ must be a type (hashable), got {type_!r}") from None
    if isinstance(type_, (str, int, float)) or type_ is None:
        raise TypeError(f"type_ must be a type, got {type_!r} ({type(type_).__name__})")
    _REGISTRY[type_] = picker


def from_type(type_: Any, *, max_depth: int = MAX_DEPTH) -> Picker[Any]:
    """A picker of the values of ``type_``: standard types, ``typing`` constructs, enums and
    record classes, nested in any way (see the module's docstring and docs/types.md).

    ``max_depth`` bounds a self-referencing type: at most that many of its values nest inside
    the outermost one (a tree of ``max_depth + 1`` levels); the innermost takes the form
    without the self-reference (an empty list, ``None``, the field's default). A type it cannot build is a ``TypeError`` naming the type
    and where it sits (``Order.lines[].sku``).

    >>> import dataclasses, synthia as sy
    >>> @dataclasses.dataclass
    ... class Point:
    ...     x: int
    ...     y: int = 0
    >>> sy.from_type(Point)
    Struct(Point, x=AnyInteger(), y=Choice(0, AnyInteger()))
    >>> sy.from_type(dict[str, list[bool]])
    DictPicker(RandomText(AnySize()), ComposeList(RandomBoolean(), length=AnySize()), AnySize())
    """
    if isinstance(max_depth, bool) or not isinstance(max_depth, int) or max_depth < 0:
        raise ValueError(f"max_depth must be a non-negative int, got {max_depth!r}")
    names = _caller_names()
    if not _is_type(type_):
        raise TypeError(f"type_ must be a type (a class, a typing construct, a NewType, a TypeVar), got {describe(type_)}")
    if isinstance(type_, (str, typing.ForwardRef)) and resolve_annotation(type_, names, names) is type_:
        text = type_ if isinstance(type_, str) else type_.__forward_arg__
        raise TypeError(f"type_ {text!r} is a name that does not resolve where from_type is called (pass the type itself)")
    with _resolver(max_depth, names) as resolver:
        return resolver.top(type_, lambda: resolver.resolve(type_))


def _is_type(tp: Any) -> bool:
    """Whether ``tp`` can be read as a type (a class, a typing construct, a string naming one)."""
    if tp is None or isinstance(tp, (type, str, typing.ForwardRef, typing.TypeVar)):
        return True
    if typing.get_origin(tp) is not None or getattr(tp, "__supertype__", None) is not None:
        return True
    return type(tp).__module__ in ("typing", "typing_extensions", "types")


def builds(target: Any, /, *args: Any, **overrides: Any) -> Picker[Any]:
    """A picker of ``target(*args, **fields)``: ``args`` and ``overrides`` are pickers (or
    plain values) for the arguments they name; every other argument is inferred from its
    annotation (a dataclass field, an attrs attribute with its validators, a pydantic field
    with its constraints, a ``TypedDict`` key, an ``__init__`` parameter), and one with a
    default takes it half of the time (the simplest alternative). ``init=False`` fields are
    left to the class. A target whose arguments cannot be read (a builtin such as ``int``
    or ``datetime.timezone``) is called with the arguments given and no others, as
    Hypothesis's ``builds`` does.

    >>> import dataclasses, synthia as sy
    >>> @dataclasses.dataclass
    ... class Item:
    ...     sku: str
    ...     quantity: int = 1
    >>> sy.builds(Item, sku=sy.Choice("pen", "ink"))
    Struct(Item, sku=Choice('pen', 'ink'), quantity=Choice(1, AnyInteger()))
    >>> sy.builds(Item, colour="red")
    Traceback (most recent call last):
    ...
    TypeError: target Item has no argument 'colour' (its arguments: sku, quantity)
    """
    if not callable(target):
        raise TypeError(f"target must be a class or a function, got {target!r} ({type(target).__name__})")
    with _resolver(MAX_DEPTH, _caller_names()) as resolver:
        return resolver.top(target, lambda: resolver.record(target, args, overrides, as_given=True))


def infer_fields(cls: Any, names: list[str]) -> dict[str, Picker[Any]]:
    """Pickers for the fields ``names`` of the record class ``cls``, inferred from their
    types (what :class:`~synthia.Struct` uses for the required fields it is not given)."""
    with _resolver(MAX_DEPTH, {}) as resolver:
        def fill() -> dict[str, Picker[Any]]:
            spec = record_spec(cls, resolver.names)
            wanted = {f.name: f for f in spec.fields if f.name in names}
            out: dict[str, Picker[Any]] = {}
            for name in names:
                picker = resolver.field(cls, wanted[name], required=True)
                assert picker is not None  # a required field always gets its picker
                out[name] = picker
            return out

        return resolver.top(cls, fill)


class FlagOf:
    """The union of the members picked of a ``Flag`` (its zero value for none)."""

    def __init__(self, cls: Any) -> None:
        self.cls = cls
        self.__name__ = f"union of {cls.__name__}"

    def __call__(self, members: list[Any]) -> Any:
        return functools.reduce(operator.or_, members, self.cls(0))


_ACTIVE: ContextVar["_Resolver | None"] = ContextVar("synthia_from_type", default=None)


class _resolver:
    """The resolver of the ``from_type`` under way (a registered function that calls
    ``from_type`` shares it, so that recursion through it is seen), or a new one."""

    def __init__(self, max_depth: int, names: dict[str, Any]) -> None:
        self.max_depth, self.names = max_depth, names

    def __enter__(self) -> "_Resolver":
        active = _ACTIVE.get()
        if active is not None:
            self.token = None
            return active
        resolver = _Resolver(self.max_depth, self.names)
        self.token = _ACTIVE.set(resolver)
        return resolver

    def __exit__(self, *exc: Any) -> None:
        if self.token is not None:
            _ACTIVE.reset(self.token)


class _Resolver(Constructs, Building):
    """One walk over a type (see :mod:`synthia.pickers.walk`): the standard types, enums, type
    variables and registered types here, the ``typing`` constructs and records in its parts."""

    # -- the walk -----------------------------------------------------------------------
    def resolve(self, tp: Any, c: Constraints | None = None) -> Picker[Any]:
        """The picker of ``tp`` (under the constraints ``c``)."""
        if isinstance(tp, Picker):
            return tp if c is None else filtered(tp, c)
        if isinstance(tp, (str, typing.ForwardRef)):
            resolved = resolve_annotation(tp, self.names, self.names)
            if resolved is tp:
                text = tp if isinstance(tp, str) else tp.__forward_arg__
                self.fail(text, f"the name {text!r} does not resolve (define it at module level, or give the field a picker)")
            tp = resolved
        if typing.get_origin(tp) is typing.Annotated:
            c = read_constraints(tp.__metadata__, Constraints() if c is None else c)
            if c.picker is not None:
                return filtered(c.picker.duplicate(), c)
            return self.resolve(tp.__origin__, c)
        if c is None:
            c = Constraints()
        if len(self.path) > 200:
            self.fail(tp, "the type nests more than 200 levels deep")
        key = type_key(tp)
        if key in self.forbidden:
            raise Recursive(type_name(tp))
        entry = self.stack.get(key)
        if entry is not None:  # a self-reference: through the type's Deferred
            if entry.deferred is None:
                # ``max_depth`` values nested inside the outermost one: the Deferred's picks
                # count the nested ones, its fallback (the form without the self-reference) is the last.
                entry.deferred = Deferred(
                    Target(entry, False), max_depth=max(self.max_depth - 1, 0), fallback=Deferred(Target(entry, True))
                )
            return filtered(entry.deferred, c)
        entry = self.stack[key] = Entry(type_name(tp))
        try:
            picker = self.build(tp, c)
        finally:
            del self.stack[key]
        if entry.deferred is not None:
            entry.picker = picker
            self.forbidden.add(key)
            try:
                entry.base = self.build(tp, c)
            finally:
                self.forbidden.discard(key)
            if self.max_depth == 0:
                return entry.base  # no value of the type nested inside another
        return picker

    def build(self, tp: Any, c: Constraints) -> Picker[Any]:
        registered = self.registered(tp)
        if registered is not None:
            return filtered(registered, c)
        origin = typing.get_origin(tp)
        if origin is not None:
            return self.generic(tp, origin, typing.get_args(tp), c)
        if tp in BARE:  # list, dict, tuple...: of Any
            return self.generic(tp, tp, None, c)
        if tp is None or tp is type(None):
            return filtered(Constant(None), c)
        if tp is typing.Any or tp is object:
            return filtered(any_value(), c)
        if isinstance(tp, typing.TypeVar):
            return self.typevar(tp, c)
        supertype = getattr(tp, "__supertype__", None)
        if supertype is not None and callable(tp):  # a NewType: the values of its supertype
            return self.resolve(supertype, c)
        if not isinstance(tp, type):
            self.fail(tp, f"{tp!r} is not a type")
        if issubclass(tp, enum.Enum):
            return filtered(self.enum(tp), c)
        if is_standard(tp):
            try:
                return standard_picker(tp, c)
            except Unsupported as error:
                self.fail(tp, str(error))
        return self.cls(tp, c)

    def registered(self, tp: Any) -> Picker[Any] | None:
        try:
            entry = _REGISTRY.get(tp)
            if entry is None:
                origin = typing.get_origin(tp)
                entry = _REGISTRY.get(origin) if origin is not None else None
        except TypeError:  # an unhashable annotation: nothing registered for it
            return None
        if entry is None:
            return None
        if isinstance(entry, Picker):
            return entry.duplicate()
        made = entry(tp)
        if not isinstance(made, Picker):
            self.fail(tp, f"the function registered for it returned {made!r} ({type(made).__name__}), not a picker")
        return made

    def typevar(self, tp: Any, c: Constraints) -> Picker[Any]:
        if tp.__bound__ is not None:
            return self.resolve(tp.__bound__, c)
        if tp.__constraints__:
            return filtered(Choice(*[self.resolve(t) for t in tp.__constraints__]), c)
        return filtered(any_value(), c)

    def enum(self, tp: Any) -> Picker[Any]:
        members = list(tp)
        if issubclass(tp, enum.Flag):
            return Apply(FlagOf(tp), RandomSubList(members))
        if not members:
            self.fail(tp, "the enum has no members")
        return Choice(*members) if len(members) > 1 else Constant(members[0])



def _caller_names() -> dict[str, Any]:
    """The names where the user called ``from_type`` or ``builds`` (its module's globals and
    the function's locals), for annotations written as strings of names defined there."""
    frame = sys._getframe(2)
    return {**frame.f_globals, **frame.f_locals}
