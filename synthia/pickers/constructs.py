"""The ``typing`` constructs :func:`~synthia.from_type` reads: unions, literals, tuples, lists,
sets and dicts (and their ``collections.abc`` spellings), as a part of the resolver."""
from __future__ import annotations

import collections
import collections.abc as abc
import types
import typing
from typing import Any

from ..core.constant import Constant
from ..core.picker import Picker
from .basic import Apply, Choice
from .deferred import Deferred
from .collections import ComposeList, SetPicker
from .constraints import Constraints
from .integers import AnyInteger
from .records import DictPicker
from .standard import filtered, lengths
from .tuples import ArrayPicker
from .walk import Recursive, Target, Walk, type_name

__all__: list[str] = []


class Make:
    """``kind(value)``: a container (or a subclass of a standard type) from one pick."""

    def __init__(self, kind: Any, *args: Any) -> None:
        self.kind, self.args = kind, args
        self.__name__ = getattr(kind, "__name__", repr(kind))

    def __call__(self, value: Any) -> Any:
        return self.kind(*self.args, value)


LISTS = (list, abc.Sequence, abc.MutableSequence, abc.Iterable, abc.Collection, abc.Reversible, collections.deque)
SETS = (set, frozenset, abc.Set, abc.MutableSet)
DICTS = (dict, abc.Mapping, abc.MutableMapping, collections.OrderedDict, collections.Counter, collections.defaultdict)
BARE = (tuple,) + LISTS + SETS + DICTS




class Constructs(Walk):
    """The resolver's part for parameterised types."""

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
        if origin in LISTS:
            items = self.items(args[0] if args else typing.Any, "[]", c)
            if items is None:
                return Apply(origin if origin in (list, collections.deque) else list)
            listed = ComposeList(items, self.count(items, c))
            made = listed if origin not in (collections.deque,) else Apply(Make(collections.deque), listed)
            return filtered(made, c, {"min_length", "max_length"})
        if origin in SETS:
            return filtered(self.set_of(tp, origin, args, c), c, {"min_length", "max_length"})
        if origin in DICTS:
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
            except Recursive:  # past the depth: the alternatives that end
                continue
        if not alternatives:
            raise Recursive(type_name(tp))
        return Choice(*alternatives) if len(alternatives) > 1 else alternatives[0]

    def items(self, tp: Any, segment: str, c: Constraints) -> Picker[Any] | None:
        """The elements of a collection; ``None`` past a self-reference's depth when the
        collection may be empty (then it is)."""
        try:
            with self.at(segment):
                return self.resolve(tp)
        except Recursive:
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
        if isinstance(items, Deferred) and isinstance(items.build, Target):
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
