"""The fields of a record class, as :func:`~synthia.builds` and :class:`~synthia.Struct` read
them: dataclasses, attrs classes, pydantic v2 models, named tuples, ``TypedDict``\\ s, and
any other callable through its signature and annotations.

Each field is a :class:`FieldSpec`: the keyword the constructor takes, its annotation, and
what the class says of its values (a default or a default factory; for attrs, the options
of an ``in_`` validator, the type of an ``instance_of`` one, whether ``None`` is allowed, a
converter). Nothing here imports attrs or pydantic: their classes are recognised by the
attributes they carry, and their modules are imported only for a class that has them.
"""
from __future__ import annotations

import dataclasses
import inspect
import sys
import typing
from typing import Any, Callable

__all__: list[str] = []


class _Missing:
    """No default (a required field)."""

    def __repr__(self) -> str:
        return "MISSING"


MISSING: Any = _Missing()


@dataclasses.dataclass
class FieldSpec:
    """One field of a record: the constructor's keyword ``name`` and what is known of its values."""

    name: str
    #: The annotation (a type, a string or ``ForwardRef`` not yet resolved), or ``MISSING``.
    annotation: Any = MISSING
    #: A plain default, or ``MISSING``.
    default: Any = MISSING
    #: A default factory (called with no argument), or ``None``.
    factory: Callable[[], Any] | None = None
    #: Whether the field may be left out (it has a default, or a ``TypedDict`` key not required).
    optional: bool = False
    #: attrs: the options of an ``in_`` validator, the types of ``instance_of`` validators,
    #: whether an ``optional`` validator allows ``None``, and the converter.
    options: tuple[Any, ...] | None = None
    instance_of: tuple[Any, ...] = ()
    none_allowed: bool = False
    converter: Any = None
    #: Constraints read off validators (attrs' ``gt``, ``max_len``, ``matches_re``), as
    #: ``Annotated`` metadata objects with the same attribute names.
    metadata: tuple[Any, ...] = ()
    #: Only positional (a function's ``/`` parameters).
    positional: bool = False

    @property
    def required(self) -> bool:
        return not self.optional


@dataclasses.dataclass
class RecordSpec:
    """What a record class's constructor takes. ``kind`` is ``"typeddict"`` (a dict whose
    optional keys may be absent) or ``"call"`` (``target(**fields)``)."""

    target: Any
    kind: str
    fields: list[FieldSpec]


class Bound:
    """A bound read off an attrs number validator, spelled as ``annotated-types`` spells it
    (``Bound("gt", 0)`` has ``gt == 0``): what :func:`~synthia.pickers.constraints.read_constraints` reads."""

    def __init__(self, **bounds: Any) -> None:
        for key, value in bounds.items():
            setattr(self, key, value)
        self.shown = bounds

    def __repr__(self) -> str:
        return f"Bound({', '.join(f'{k}={v!r}' for k, v in self.shown.items())})"


def type_hints(owner: Any, localns: dict[str, Any] | None = None) -> dict[str, Any]:
    """The annotations of ``owner`` (a class or a function) with ``Annotated`` kept, forward
    references resolved where they can be (in the owner's module, then in ``localns``, then
    the owner's own name); one that cannot stays a string, for the caller to report.

    >>> class Node:
    ...     value: int
    ...     next: "Node | None"
    >>> type_hints(Node)["next"] == (Node | None)
    True
    """
    names = dict(localns or {})
    if isinstance(owner, type):
        names.setdefault(owner.__name__, owner)
    try:
        return typing.get_type_hints(owner, localns=names, include_extras=True)
    except Exception:  # a name that does not resolve: each annotation alone
        pass
    out: dict[str, Any] = {}
    sources = reversed(owner.__mro__) if isinstance(owner, type) else [owner]
    for source in sources:
        module = sys.modules.get(getattr(source, "__module__", ""), None)
        globalns = dict(vars(module)) if module is not None else {}
        for key, annotation in dict(getattr(source, "__annotations__", {})).items():
            out[key] = resolve_annotation(annotation, globalns, names)
    return out


def resolve_annotation(annotation: Any, globalns: dict[str, Any], localns: dict[str, Any]) -> Any:
    """A string or ``ForwardRef`` annotation evaluated in the namespaces (as it was if it does not)."""
    text = annotation if isinstance(annotation, str) else getattr(annotation, "__forward_arg__", None)
    if text is None:
        return annotation
    try:
        return eval(text, globalns, localns)  # noqa: S307 - an annotation, as typing evaluates it
    except Exception:
        return annotation


def is_pydantic_model(cls: Any) -> bool:
    return isinstance(cls, type) and isinstance(getattr(cls, "model_fields", None), dict) and hasattr(cls, "model_validate")


def is_attrs_class(cls: Any) -> bool:
    return isinstance(cls, type) and getattr(cls, "__attrs_attrs__", None) is not None


def is_typeddict(cls: Any) -> bool:
    return isinstance(cls, type) and issubclass(cls, dict) and hasattr(cls, "__required_keys__") and hasattr(cls, "__optional_keys__")


def is_namedtuple(cls: Any) -> bool:
    return isinstance(cls, type) and issubclass(cls, tuple) and hasattr(cls, "_fields")


def record_spec(target: Any, localns: dict[str, Any] | None = None) -> RecordSpec:
    """The fields ``target`` takes (``TypeError`` if its signature cannot be read).

    >>> @dataclasses.dataclass
    ... class Item:
    ...     sku: str
    ...     quantity: int = 1
    ...     tags: list[str] = dataclasses.field(default_factory=list)
    >>> [(f.name, f.optional) for f in record_spec(Item).fields]
    [('sku', False), ('quantity', True), ('tags', True)]
    """
    if is_typeddict(target):
        return _typeddict(target, localns)
    if is_pydantic_model(target):
        return RecordSpec(target, "call", _pydantic(target, localns))
    if is_attrs_class(target):
        return RecordSpec(target, "call", _attrs(target, localns))
    return RecordSpec(target, "call", _signature(target, localns))


def _signature(target: Any, localns: dict[str, Any] | None) -> list[FieldSpec]:
    try:
        signature = inspect.signature(target)
    except (TypeError, ValueError) as error:
        raise TypeError(f"cannot read the arguments of {getattr(target, '__qualname__', target)!r}: {error}") from None
    owner: Any = target
    if isinstance(target, type) and not dataclasses.is_dataclass(target) and not is_namedtuple(target):
        owner = getattr(target, "__init__") if "__init__" in _own_dicts(target) else target
    hints = type_hints(owner, localns)
    if owner is not target and isinstance(target, type):
        hints = {**type_hints(target, localns), **hints}
    known: dict[str, Any] = getattr(target, "__dataclass_fields__", {}) if dataclasses.is_dataclass(target) else {}
    defaults: dict[str, Any] = dict(getattr(target, "_field_defaults", {})) if is_namedtuple(target) else {}
    out = []
    for name, parameter in signature.parameters.items():
        if parameter.kind in (parameter.VAR_POSITIONAL, parameter.VAR_KEYWORD):
            continue
        annotation = hints.get(name, MISSING if parameter.annotation is parameter.empty else parameter.annotation)
        if isinstance(annotation, dataclasses.InitVar):
            annotation = annotation.type
        spec = FieldSpec(name, annotation, positional=parameter.kind is parameter.POSITIONAL_ONLY)
        dc = known.get(name)
        if dc is not None and dc.default_factory is not dataclasses.MISSING:
            spec.factory, spec.optional = dc.default_factory, True
        elif dc is not None and dc.default is not dataclasses.MISSING:
            spec.default, spec.optional = dc.default, True
        elif name in defaults:
            spec.default, spec.optional = defaults[name], True
        elif parameter.default is not parameter.empty:
            spec.default, spec.optional = parameter.default, True
        out.append(spec)
    return out


def _own_dicts(cls: type) -> set[str]:
    """The names defined by ``cls`` or a base other than ``object``."""
    names: set[str] = set()
    for base in cls.__mro__[:-1]:
        names.update(vars(base))
    return names


def _typeddict(target: Any, localns: dict[str, Any] | None) -> RecordSpec:
    hints = type_hints(target, localns)
    optional = set(target.__optional_keys__)
    out = []
    for name, annotation in hints.items():
        # Required[...] and NotRequired[...]: __optional_keys__ knows them, unless the
        # annotations were strings when the class was made (``from __future__ import annotations``).
        absent_ok = name in optional
        while _special_name(annotation) in ("Required", "NotRequired", "ReadOnly"):
            if _special_name(annotation) != "ReadOnly":
                absent_ok = _special_name(annotation) == "NotRequired"
            annotation = typing.get_args(annotation)[0]
        out.append(FieldSpec(name, annotation, optional=absent_ok))
    return RecordSpec(target, "typeddict", out)


def _special_name(annotation: Any) -> str | None:
    origin = typing.get_origin(annotation)
    return getattr(origin, "_name", None) if origin is not None else None


def _pydantic(model: Any, localns: dict[str, Any] | None) -> list[FieldSpec]:
    by_name = bool(getattr(model, "model_config", {}).get("populate_by_name"))
    out = []
    for name, info in model.model_fields.items():
        if getattr(info, "init", None) is False:
            continue
        keyword = name
        if not by_name:
            alias = info.validation_alias if isinstance(info.validation_alias, str) else info.alias
            keyword = alias if isinstance(alias, str) else name
        annotation = info.annotation
        if isinstance(annotation, (str, typing.ForwardRef)):
            module = sys.modules.get(model.__module__)
            annotation = resolve_annotation(annotation, dict(vars(module)) if module else {}, {model.__name__: model, **(localns or {})})
        spec = FieldSpec(keyword, annotation, metadata=tuple(info.metadata))
        if info.default_factory is not None:
            if _takes_no_argument(info.default_factory):
                spec.factory = info.default_factory
            spec.optional = True
        elif not info.is_required():
            spec.default, spec.optional = info.default, True
        out.append(spec)
    return out


def _takes_no_argument(factory: Callable[..., Any]) -> bool:
    try:
        inspect.signature(factory).bind()
    except TypeError:
        return False
    except ValueError:  # a builtin without a signature: list, dict
        return True
    return True


def _attrs(cls: Any, localns: dict[str, Any] | None) -> list[FieldSpec]:
    import attrs

    try:
        attrs.resolve_types(cls, localns={cls.__name__: cls, **(localns or {})}, include_extras=True)
    except Exception:  # a name that does not resolve: reported at that field
        pass
    out = []
    for a in attrs.fields(cls):
        if not a.init:
            continue
        spec = FieldSpec(a.alias or a.name.lstrip("_"), MISSING if a.type is None else a.type, converter=a.converter)
        if isinstance(a.default, attrs.Factory):  # type: ignore[arg-type]
            if not a.default.takes_self:
                spec.factory = a.default.factory
            spec.optional = True
        elif a.default is not attrs.NOTHING:
            spec.default, spec.optional = a.default, True
        _read_validator(a.validator, spec)
        out.append(spec)
    return out


def _read_validator(validator: Any, spec: FieldSpec) -> None:
    """What attrs validators say of a field's values (as Hypothesis reads them, and the
    number, length and pattern validators besides)."""
    if validator is None:
        return
    kind = type(validator).__name__
    if kind == "_OptionalValidator":
        spec.none_allowed = True
        inner = getattr(validator, "validator", None)
        for v in inner if isinstance(inner, (list, tuple)) else [inner]:
            _read_validator(v, spec)
    elif kind == "_AndValidator":
        for v in getattr(validator, "_validators", ()):
            _read_validator(v, spec)
    elif kind == "_InValidator":
        options = validator.options
        spec.options = tuple(sorted(options, key=repr)) if isinstance(options, (set, frozenset)) else tuple(options)
    elif kind == "_InstanceOfValidator":
        types = validator.type
        spec.instance_of += tuple(types) if isinstance(types, tuple) else (types,)
    elif kind == "_NumberValidator":
        op = {"<": "lt", "<=": "le", ">": "gt", ">=": "ge"}.get(getattr(validator, "compare_op", ""))
        if op is not None:
            spec.metadata += (Bound(**{op: validator.bound}),)
    elif kind == "_MaxLengthValidator":
        spec.metadata += (Bound(max_length=validator.max_length),)
    elif kind == "_MinLengthValidator":
        spec.metadata += (Bound(min_length=validator.min_length),)
    elif kind == "_MatchesReValidator":
        pattern = getattr(validator.pattern, "pattern", validator.pattern)
        spec.metadata += (Bound(pattern=pattern),)
