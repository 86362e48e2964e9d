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

import collections
import collections.abc as abc
import enum
import functools
import inspect
import operator
import sys
import types
import typing
from contextvars import ContextVar
from typing import Any, Callable, Iterator

from ..core.checks import describe
from ..core.constant import Constant
from ..core.picker import Picker
from .basic import Apply, Choice, Deferred
from .collections import ComposeList, RandomSubList, SetPicker
from .constraints import Constraints, read_constraints
from .fields import MISSING, FieldSpec, RecordSpec, record_spec, resolve_annotation, type_hints
from .floats import AnyFloat
from .integers import AnyInteger
from .records import DictPicker, Struct
from .scalars import RandomBoolean
from .standard import Unsupported, filtered, is_standard, lengths, standard_picker
from .text import RandomText
from .tuples import ArrayPicker

__all__ = ["from_type", "builds", "register_type"]

R = typing.TypeVar("R")

#: The depth of a self-referencing type's values: a type met again inside itself this many
#: times takes its value without the self-reference (an empty list, ``None``, a default).
MAX_DEPTH = 3

#: Pickers and functions given to :func:`register_type`, by type.
_REGISTRY: dict[Any, Any] = {}


def register_type(type_: Any, picker: Any) -> None:
    """Make :func:`from_type` (and :func:`builds`, :class:`~synthia.Struct`, ``@sy.given``)
    use ``picker`` for ``type_``: a picker (a fresh copy of it is wired in at each use, so
    uses never share state) or a function of the type that returns one (for a generic
    class, it receives the parameterised type, ``Box[int]``). ``None`` removes the
    registration. Registered types come first: a standard type can be given another picker.

    >>> import synthia as sy
    >>> class Celsius(float): ...
    >>> sy.register_type(Celsius, sy.Apply(Celsius, sy.RandomFloat(-40.0, 50.0)))
    >>> sy.from_type(list[Celsius])
    ComposeList(Apply(Celsius, RandomFloat(-40.0, 50.0)), length=RandomInteger(0, 11))
    >>> sy.register_type(Celsius, None)
    """
    if picker is None:
        _REGISTRY.pop(type_, None)
        return
    if not isinstance(picker, Picker) and not callable(picker):
        raise TypeError(f"picker must be a picker or a function of the type that returns one, got {picker!r} ({type(picker).__name__})")
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
    DictPicker(RandomText(RandomInteger(0, 11)), ComposeList(RandomBoolean(), length=RandomInteger(0, 11)), RandomInteger(0, 11))
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
    left to the class.

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
        return resolver.top(target, lambda: resolver.record(target, args, overrides))


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


class _Recursive(Exception):
    """A self-reference met while building a type's value without it (its depth reached)."""


class _Entry:
    """A type being built: the picker built for it, the form it takes past ``max_depth``, and
    the :class:`~synthia.Deferred` its self-references go through (made at the first one)."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.picker: Picker[Any] | None = None
        self.base: Picker[Any] | None = None
        self.deferred: Deferred[Any] | None = None


class _Target:
    """What a self-reference's ``Deferred`` builds: the type's picker (or its form past the
    depth), named as the type for the wiring's ``repr``."""

    def __init__(self, entry: _Entry, base: bool) -> None:
        self.entry, self.base = entry, base
        self.__name__ = f"{entry.name} (past max_depth)" if base else entry.name

    def __call__(self) -> Picker[Any]:
        picker = self.entry.base if self.base else self.entry.picker
        assert picker is not None, "a self-reference picked before its type was built"
        return picker

    def __deepcopy__(self, memo: dict[int, Any]) -> "_Target":
        return self  # a copied Deferred holds its copied target already

    def __repr__(self) -> str:
        return self.__name__


class _Absent:
    """The value of a ``TypedDict`` key left out (dropped by :class:`MakeTypedDict`)."""

    def __repr__(self) -> str:
        return "ABSENT"

    def __reduce__(self) -> str:
        return "ABSENT"

    def __deepcopy__(self, memo: dict[int, Any]) -> "_Absent":
        return self


ABSENT = _Absent()


class MakeTypedDict:
    """Builds a ``TypedDict``'s dict from its keys' values, leaving out the absent ones."""

    def __init__(self, cls: Any) -> None:
        self.cls = cls
        self.__name__ = cls.__name__

    def __call__(self, **values: Any) -> dict[str, Any]:
        return {k: v for k, v in values.items() if v is not ABSENT}

    def __repr__(self) -> str:
        return self.__name__


class FlagOf:
    """The union of the members picked of a ``Flag`` (its zero value for none)."""

    def __init__(self, cls: Any) -> None:
        self.cls = cls
        self.__name__ = f"union of {cls.__name__}"

    def __call__(self, members: list[Any]) -> Any:
        return functools.reduce(operator.or_, members, self.cls(0))


class Make:
    """``kind(value)``: a container (or a subclass of a standard type) from one pick."""

    def __init__(self, kind: Any, *args: Any) -> None:
        self.kind, self.args = kind, args
        self.__name__ = getattr(kind, "__name__", repr(kind))

    def __call__(self, value: Any) -> Any:
        return self.kind(*self.args, value)


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


class _Resolver:
    def __init__(self, max_depth: int, names: dict[str, Any]) -> None:
        self.max_depth = max_depth
        self.names = names
        self.stack: dict[Any, _Entry] = {}
        self.forbidden: set[Any] = set()
        self.path: list[str] = []

    # -- errors and paths ---------------------------------------------------------------
    def top(self, tp: Any, build: Callable[[], R]) -> R:
        """``build()``, a self-reference past the bounds reported as a ``TypeError``."""
        nested = bool(self.path)
        try:
            with self.at("" if nested else _name(tp)):
                return build()
        except _Recursive as error:
            if nested:
                raise
            raise TypeError(
                f"from_type cannot build {_name(tp)}: {error.args[0]} is recursive and each of its values holds "
                "another one (no list, Optional or default ends the recursion), so no value is finite"
            ) from None

    @property
    def where(self) -> str:
        return "".join(self.path)

    def at(self, segment: str) -> "_At":
        return _At(self.path, segment)

    def fail(self, tp: Any, reason: str) -> typing.NoReturn:
        where = self.where
        place = f" for {where}" if where and where != _name(tp) else ""
        raise TypeError(f"cannot build a value of {_name(tp)}{place}: {reason}")

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
        key = _key(tp)
        if key in self.forbidden:
            raise _Recursive(_name(tp))
        entry = self.stack.get(key)
        if entry is not None:  # a self-reference: through the type's Deferred
            if entry.deferred is None:
                # ``max_depth`` values nested inside the outermost one: the Deferred's picks
                # count the nested ones, its fallback (the form without the self-reference) is the last.
                entry.deferred = Deferred(
                    _Target(entry, False), max_depth=max(self.max_depth - 1, 0), fallback=Deferred(_Target(entry, True))
                )
            return filtered(entry.deferred, c)
        entry = self.stack[key] = _Entry(_name(tp))
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
        if tp in _BARE:  # list, dict, tuple...: of Any
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

    # -- typing constructs ------------------------------------------------------------------
    def generic(self, tp: Any, origin: Any, args: tuple[Any, ...] | None, c: Constraints) -> Picker[Any]:
        """A parameterised type (``args`` is ``None`` for a bare ``list``, ``dict``, ...)."""
        if args is None:
            if origin is tuple:
                return filtered(self.tuple_of(tp, None, c), c, {"min_length", "max_length"})
            args = ()
        if origin is typing.Union or origin is types.UnionType:
            return filtered(self.union(tp, args), c)
        if origin is typing.Literal:
            values = list(args)
            if not values:
                self.fail(tp, "a Literal needs at least one value")
            return filtered(Choice(*values) if len(values) > 1 else Constant(values[0]), c)
        name = getattr(origin, "_name", None)
        if name in ("Final", "ClassVar", "Required", "NotRequired", "ReadOnly") or origin is typing.Final:
            return self.resolve(args[0], c)
        if origin in (type, typing.Type):
            inner = args[0] if args else object
            options = typing.get_args(inner) if typing.get_origin(inner) in (typing.Union, types.UnionType) else (inner,)
            return filtered(Choice(*[Constant(o) for o in options]) if len(options) > 1 else Constant(options[0]), c)
        if origin in (tuple,):
            return filtered(self.tuple_of(tp, args, c), c, {"min_length", "max_length"})
        if origin in _LISTS:
            items = self.items(args[0] if args else typing.Any, "[]", c)
            if items is None:
                return Apply(origin if origin in (list, collections.deque) else list)
            listed = ComposeList(items, self.count(items, c))
            made = listed if origin not in (collections.deque,) else Apply(Make(collections.deque), listed)
            return filtered(made, c, {"min_length", "max_length"})
        if origin in _SETS:
            return filtered(self.set_of(tp, origin, args, c), c, {"min_length", "max_length"})
        if origin in _DICTS:
            return filtered(self.dict_of(tp, origin, args, c), c, {"min_length", "max_length"})
        if origin in (abc.Callable,):
            self.fail(tp, "synthia does not make functions (give a picker of functions, e.g. sy.Choice(f, g))")
        parameters: Any = getattr(origin, "__parameters__", ())
        if isinstance(origin, type) and parameters:
            # A generic record class (Box[int]): its fields with the type parameters given.
            mapping = dict(zip(parameters, args))
            return self.cls(origin, c, mapping, tp)
        registered = self.registered(origin)
        if registered is not None:
            return filtered(registered, c)
        self.fail(tp, "no picker is known for it (give one with sy.register_type)")

    def union(self, tp: Any, args: tuple[Any, ...]) -> Picker[Any]:
        ordered = sorted(args, key=lambda a: a is not type(None))  # None first: the simplest
        alternatives = []
        for alternative in ordered:
            try:
                alternatives.append(self.resolve(alternative))
            except _Recursive:  # past the depth: the alternatives that end
                continue
        if not alternatives:
            raise _Recursive(_name(tp))
        return Choice(*alternatives) if len(alternatives) > 1 else alternatives[0]

    def items(self, tp: Any, segment: str, c: Constraints) -> Picker[Any] | None:
        """The elements of a collection; ``None`` past a self-reference's depth when the
        collection may be empty (then it is)."""
        try:
            with self.at(segment):
                return self.resolve(tp)
        except _Recursive:
            if c.min_length:
                raise
            return None

    def tuple_of(self, tp: Any, args: tuple[Any, ...] | None, c: Constraints) -> Picker[Any]:
        if args is None:  # a bare tuple
            args = (typing.Any, ...)
        if not args:  # tuple[()]
            return Constant(())
        if len(args) == 2 and args[1] is Ellipsis:
            items = self.items(args[0], "[]", c)
            if items is None:
                return Constant(())
            return Apply(tuple, ComposeList(items, self.count(items, c)))
        if args == ((),):
            return Constant(())
        parts = []
        for i, arg in enumerate(args):
            with self.at(f"[{i}]"):
                parts.append(self.resolve(arg))
        return ArrayPicker(*parts)

    def set_of(self, tp: Any, origin: Any, args: tuple[Any, ...], c: Constraints) -> Picker[Any]:
        kind = frozenset if origin in (frozenset, abc.Set) else set
        items = self.items(args[0] if args else typing.Any, "[]", c)
        if items is None:
            return Apply(kind)
        made: Picker[Any] = SetPicker(items, self.sizes(items, c))
        return made if kind is set else Apply(frozenset, made)

    def dict_of(self, tp: Any, origin: Any, args: tuple[Any, ...], c: Constraints) -> Picker[Any]:
        key_type, value_type = args if len(args) == 2 else (typing.Any, typing.Any)
        if origin is collections.Counter:
            key_type, value_type = (args[0] if args else typing.Any), int
        keys = self.items(key_type, "[key]", c)
        values = self.items(value_type, "[]", c) if keys is not None else None
        if keys is None or values is None:
            return Apply(dict if origin not in (collections.OrderedDict, collections.Counter, collections.defaultdict) else origin)
        if origin is collections.Counter:
            values = AnyInteger(1, 100)
        made: Picker[Any] = DictPicker(keys, values, self.sizes(keys, c))
        if origin is collections.defaultdict:
            return Apply(Make(collections.defaultdict, None), made)
        if origin in (collections.OrderedDict, collections.Counter):
            return Apply(Make(origin), made)
        return made

    def count(self, items: Picker[Any], c: Constraints) -> Picker[int]:
        """The lengths of a list of ``items``: up to 3 more than ``min_length`` when each
        item is a self-reference (a tree's children), so that a tree stays small."""
        if isinstance(items, Deferred) and isinstance(items.build, _Target):
            low = c.min_length or 0
            high = low + 3 if c.max_length is None else min(c.max_length, low + 3)
            return lengths(low, high)
        return lengths(c.min_length, c.max_length)

    def sizes(self, items: Picker[Any], c: Constraints) -> Picker[int]:
        """The sizes of a set (or a dict's keys): at most the number of distinct values."""
        high = c.max_length
        try:
            finite = items.finite_values()
        except Exception:
            finite = None
        if finite is not None:
            try:
                distinct = len(set(finite))
            except TypeError:
                distinct = len(finite)
            high = distinct if high is None else min(high, distinct)
            if c.min_length is not None and c.min_length > distinct:
                self.fail(items, f"min_length={c.min_length} asks for more distinct values than the {distinct} it has")
        return lengths(c.min_length, high)

    # -- classes ------------------------------------------------------------------------
    def cls(self, tp: type, c: Constraints, mapping: dict[Any, Any] | None = None, shown: Any = None) -> Picker[Any]:
        if getattr(tp, "_is_protocol", False):
            self.fail(shown or tp, "it is a Protocol (register a picker for it, or use a class that implements it)")
        if inspect.isabstract(tp):
            self.fail(shown or tp, "it is an abstract class (register a picker for it, or use a concrete subclass)")
        for base in (int, float, complex, str, bytes):
            if issubclass(tp, base) and tp.__init__ is base.__init__ and tp.__new__ is base.__new__:
                return filtered(Apply(tp, standard_picker(base, Constraints())), c)
        return filtered(self.record(tp, (), {}, mapping or {}, shown), c)

    def record(self, target: Any, args: tuple[Any, ...], overrides: dict[str, Any], mapping: dict[Any, Any] | None = None, shown: Any = None) -> Picker[Any]:
        """``target(*args, **fields)``, the fields not given inferred."""
        mapping = mapping or {}
        try:
            spec = record_spec(target, self.names)
        except TypeError as error:
            self.fail(shown or target, str(error))
        names = [f.name for f in spec.fields]
        takes_any = _takes_keywords(target) and spec.kind == "call"
        unknown = [k for k in overrides if k not in names]
        if unknown and not takes_any:
            raise TypeError(f"target {_name(target)} has no argument {unknown[0]!r} (its arguments: {', '.join(names) or 'none'})")
        if spec.kind == "typeddict" and args:
            raise TypeError(f"{_name(target)} is a TypedDict: give its keys as keywords, got positional {args!r}")
        positional = spec.fields[: len(args)]
        if len(args) > len(spec.fields):
            raise TypeError(f"{_name(target)} takes {len(spec.fields)} arguments, got {len(args)} positional")
        given = {f.name for f in positional}
        twice = sorted(given & set(overrides))
        if twice:
            raise TypeError(f"{_name(target)} got the argument {twice[0]!r} twice (positional and keyword)")
        fields: dict[str, Any] = {}
        for spec_field in spec.fields[len(args):]:
            if spec_field.name in overrides:
                fields[spec_field.name] = overrides[spec_field.name]
                continue
            if mapping:
                spec_field.annotation = _substitute(spec_field.annotation, mapping)
            picker = self.field(target, spec_field, required=False, typeddict=spec.kind == "typeddict")
            if picker is not None:
                fields[spec_field.name] = picker
        for name, value in overrides.items():
            if name not in fields:
                fields[name] = value
        return _assemble(spec, list(args), fields)

    def field(self, target: Any, f: FieldSpec, *, required: bool, typeddict: bool = False) -> Picker[Any] | None:
        """The picker of one field: its value half of the time and its default otherwise (the
        default first); ``None`` when the field is best left to its default (its type cannot
        be built, or a self-reference is past its depth)."""
        with self.at(f".{f.name}"):
            try:
                value = self.field_values(target, f)
            except TypeError:
                if f.required or required:
                    raise
                return None
            except _Recursive:
                if f.required or required:
                    raise
                return None
        if required or f.required:
            return value
        if typeddict:
            return Choice(Constant(ABSENT), value)
        default: Picker[Any] | None = None
        if f.factory is not None:
            default = Apply(f.factory)
        elif f.default is not MISSING:
            if f.default is None and _none_first(value):
                return value  # Optional[X] = None: None is its first alternative already
            default = Constant(f.default)
        return value if default is None else Choice(default, value)

    def field_values(self, target: Any, f: FieldSpec) -> Picker[Any]:
        metadata = f.metadata
        if f.options is not None:
            if not f.options:
                self.fail(target, f"the in_ validator of {f.name} allows no value")
            picker: Picker[Any] = Choice(*f.options) if len(f.options) > 1 else Constant(f.options[0])
            if metadata:
                picker = filtered(picker, read_constraints(metadata))
        elif f.instance_of:
            kinds = [self.resolve(_annotated(k, metadata) if metadata else k) for k in f.instance_of]
            picker = Choice(*kinds) if len(kinds) > 1 else kinds[0]
        else:
            annotation = f.annotation
            if annotation is MISSING and f.converter is not None:
                annotation = _converter_type(f.converter)
            if annotation is MISSING:
                self.fail(target, f"the argument {f.name!r} has no annotation (annotate it, or give it: sy.builds({_name(target)}, {f.name}=...))")
            picker = self.resolve(_annotated(annotation, metadata) if metadata else annotation)
        if f.none_allowed and not _none_first(picker):
            picker = Choice(None, picker)
        return picker


class _At:
    def __init__(self, path: list[str], segment: str) -> None:
        self.path, self.segment = path, segment

    def __enter__(self) -> None:
        self.path.append(self.segment)

    def __exit__(self, *exc: Any) -> None:
        self.path.pop()


_LISTS = (list, abc.Sequence, abc.MutableSequence, abc.Iterable, abc.Collection, abc.Reversible, collections.deque)
_SETS = (set, frozenset, abc.Set, abc.MutableSet)
_DICTS = (dict, abc.Mapping, abc.MutableMapping, collections.OrderedDict, collections.Counter, collections.defaultdict)
_BARE = (tuple,) + _LISTS + _SETS + _DICTS


def _assemble(spec: RecordSpec, args: list[Any], fields: dict[str, Any]) -> Picker[Any]:
    target = spec.target
    if spec.kind == "typeddict":
        return Struct(MakeTypedDict(target), **fields)
    positional_only = [f.name for f in spec.fields if f.positional and f.name in fields]
    if not args and not positional_only and fields:
        return Struct(target, **fields)
    # Positional-only parameters (or positional arguments given): a plain Apply.
    leading = list(args) + [fields.pop(name) for name in positional_only]
    return Apply(target, *leading, **fields)


def _annotated(annotation: Any, metadata: tuple[Any, ...]) -> Any:
    """``Annotated[annotation, *metadata]``."""
    return typing.Annotated[(annotation,) + tuple(metadata)]  # type: ignore[valid-type]


def _none_first(picker: Picker[Any]) -> bool:
    """Whether ``picker`` is a ``Choice`` whose first alternative is ``None``."""
    if type(picker) is not Choice:
        return False
    first = picker.alternatives[0]
    return type(first) is Constant and first.value is None


def _takes_keywords(target: Any) -> bool:
    try:
        parameters = inspect.signature(target).parameters.values()
    except (TypeError, ValueError):
        return False
    return any(p.kind is p.VAR_KEYWORD for p in parameters)


def _converter_type(converter: Any) -> Any:
    """What an attrs converter takes: a class itself, else its first parameter's annotation,
    else what it returns (as Hypothesis reads it)."""
    if isinstance(converter, type):
        return converter
    hints = type_hints(converter) if callable(converter) else {}
    parameters = list(inspect.signature(converter).parameters) if callable(converter) else []
    if parameters and parameters[0] in hints:
        return hints[parameters[0]]
    return hints.get("return", MISSING)


def _substitute(annotation: Any, mapping: dict[Any, Any]) -> Any:
    """``annotation`` with the type variables of ``mapping`` replaced (``list[T]`` -> ``list[int]``)."""
    if annotation in mapping if _hashable(annotation) else False:
        return mapping[annotation]
    parameters = getattr(annotation, "__parameters__", ())
    if parameters and not isinstance(annotation, type):
        try:
            return annotation[tuple(mapping.get(p, p) for p in parameters)]
        except TypeError:
            return annotation
    return annotation


def _hashable(value: Any) -> bool:
    try:
        hash(value)
    except TypeError:
        return False
    return True


def _key(tp: Any) -> Any:
    return tp if _hashable(tp) else ("id", id(tp))


def _name(tp: Any) -> str:
    """A type as a reader writes it: ``Order``, ``list[int]``, ``int | None``."""
    if isinstance(tp, type) and not typing.get_args(tp):
        return tp.__qualname__.rsplit("<locals>.", 1)[-1]
    if isinstance(tp, str):
        return tp
    return repr(tp).replace("typing.", "").replace("collections.abc.", "").replace("NoneType", "None")


def any_value() -> Picker[Any]:
    """The values of ``Any`` and ``object``: ``None``, a bool, an int, a float or a string.

    >>> any_value()
    Choice(None, RandomBoolean(), AnyInteger(), AnyFloat(), RandomText(RandomInteger(0, 11)))
    """
    return Choice(None, RandomBoolean(), AnyInteger(), AnyFloat(), RandomText(lengths(None, None)))


def _caller_names() -> dict[str, Any]:
    """The names where the user called ``from_type`` or ``builds`` (its module's globals and
    the function's locals), for annotations written as strings of names defined there."""
    frame = sys._getframe(2)
    return {**frame.f_globals, **frame.f_locals}
