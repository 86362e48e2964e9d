"""Records for :func:`~synthia.from_type` and :func:`~synthia.builds`: one picker per argument
of a class's (or a function's) constructor, as a part of the resolver. A field with a default
takes it half of the time (first); a ``TypedDict`` key that may be absent is absent half of
the time (first)."""
from __future__ import annotations

import inspect
import typing
from typing import Any

from ..core.constant import Constant
from ..core.picker import Picker
from .basic import Apply, Choice
from .constraints import Constraints, read_constraints
from .fields import MISSING, FieldSpec, RecordSpec, record_spec, type_hints
from .records import Struct
from .standard import filtered, standard_picker
from .walk import Recursive, Walk, hashable, type_name

__all__: list[str] = []


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



class Building(Walk):
    """The resolver's part for record classes and functions."""

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

    def record(self, target: Any, args: tuple[Any, ...], overrides: dict[str, Any], mapping: dict[Any, Any] | None = None,
               shown: Any = None, *, as_given: bool = False) -> Picker[Any]:
        """``target(*args, **fields)``, the fields not given inferred. With ``as_given``, a
        target whose arguments cannot be read (a builtin such as ``int`` or
        ``datetime.timezone``) is called with what was given, as Hypothesis's ``builds`` does."""
        mapping = mapping or {}
        try:
            spec = record_spec(target, self.names)
        except TypeError as error:
            if as_given:
                return Apply(target, *args, **overrides)
            self.fail(shown or target, str(error))
        names = [f.name for f in spec.fields]
        takes_any = _takes_keywords(target) and spec.kind == "call"
        unknown = [k for k in overrides if k not in names]
        if unknown and not takes_any:
            raise TypeError(f"target {type_name(target)} has no argument {unknown[0]!r} (its arguments: {', '.join(names) or 'none'})")
        if spec.kind == "typeddict" and args:
            raise TypeError(f"{type_name(target)} is a TypedDict: give its keys as keywords, got positional {args!r}")
        positional = spec.fields[: len(args)]
        if len(args) > len(spec.fields):
            raise TypeError(f"{type_name(target)} takes {len(spec.fields)} arguments, got {len(args)} positional")
        given = {f.name for f in positional}
        twice = sorted(given & set(overrides))
        if twice:
            raise TypeError(f"{type_name(target)} got the argument {twice[0]!r} twice (positional and keyword)")
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
            except Recursive:
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
                self.fail(target, f"the argument {f.name!r} has no annotation (annotate it, or give it: sy.builds({type_name(target)}, {f.name}=...))")
            picker = self.resolve(_annotated(annotation, metadata) if metadata else annotation)
        if f.none_allowed and not _none_first(picker):
            picker = Choice(None, picker)
        return picker



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
    if annotation in mapping if hashable(annotation) else False:
        return mapping[annotation]
    parameters = getattr(annotation, "__parameters__", ())
    if parameters and not isinstance(annotation, type):
        try:
            return annotation[tuple(mapping.get(p, p) for p in parameters)]
        except TypeError:
            return annotation
    return annotation
