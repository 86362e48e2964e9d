"""Structured values: :class:`Struct` (records), :class:`DictPicker`, :class:`NumpyArray`, :class:`Permutation`.

Why ``Struct`` and not ``Record``: synthia's :class:`~synthia.Record` is the behaviour
picker that passes values through and keeps them (the Java name). A *struct* -- a fixed
set of named fields, each from its own picker -- is the other meaning of "record", and
the name says it without clashing.
"""
from __future__ import annotations

import dataclasses
import keyword
import math
from typing import Any, Mapping, Sequence

from ..core.checks import check_bool, check_callable, check_count_pick, check_float, check_int, check_number, check_values, describe
from ..core.exceptions import GiveUp
from ..core.inputs import count_input, element_input, value_input
from ..core.constant import Constant
from ..core.picker import Picker, RandomPicker
from ..core.parsing import Parse
from ..core.routing import open_span
from ..core.random import shuffle
from .basic import Apply

__all__ = ["Struct", "DictPicker", "NumpyArray", "Permutation"]

def _fields_of(cls: Any) -> list[tuple[str, bool]] | None:
    """``[(init argument name, required)]`` of a dataclass, named tuple, attrs class or
    pydantic model; else ``None``."""
    if dataclasses.is_dataclass(cls) and isinstance(cls, type):
        return [
            (f.name, f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING)
            for f in cls.__dataclass_fields__.values()
            if f.init and getattr(f, "_field_type", None) is not getattr(dataclasses, "_FIELD_CLASSVAR", None)
        ]
    model_fields = getattr(cls, "model_fields", None)
    if isinstance(cls, type) and isinstance(model_fields, dict) and hasattr(cls, "model_validate"):  # pydantic v2
        from .fields import record_spec

        return [(f.name, f.required) for f in record_spec(cls).fields]
    if isinstance(cls, type) and issubclass(cls, tuple) and hasattr(cls, "_fields"):
        defaults = getattr(cls, "_field_defaults", {})
        return [(name, name not in defaults) for name in cls._fields]
    attributes = getattr(cls, "__attrs_attrs__", None)
    if attributes is not None:
        out = []
        for a in attributes:
            if getattr(a, "init", True):
                name = getattr(a, "alias", None) or a.name.lstrip("_")
                out.append((name, type(a.default).__name__ == "_Nothing" or repr(a.default) == "NOTHING"))
        return out
    return None


class Struct(Apply[Any]):
    """A record: a dict, a dataclass, a named tuple or an attrs class, one picker per field.

    ``Struct(cls, field=picker, ...)`` builds ``cls(field=pick, ...)``; ``Struct(dict, ...)``
    or ``Struct({"field": picker, ...})`` builds a dict. Field names are strings, any
    strings (``"a b"``, ``"class"``, ``""``); a dict key of another type (``1``, a tuple),
    which Hypothesis's ``st.fixed_dictionaries`` accepts, is refused with a ``TypeError``. Values that are not pickers are
    constants. For a dataclass, named tuple or attrs class the fields are checked at
    construction (an unknown field is a ``TypeError``) and picked in the class's order;
    a required field not given is inferred from its type, as :func:`~synthia.from_type`
    does (``Struct(Point)`` builds every field; a field with a default not given keeps its
    default -- :func:`~synthia.builds` varies those too); :attr:`columns` lists the field
    names (the columns of :func:`synthia.to_dataframe`).

    It is an :class:`~synthia.Apply` with named inputs, so explanations follow each field,
    and it shrinks field by field through its draws (the first field first).

    >>> from synthia import RandomInteger, Choice
    >>> Struct(dict, name=Choice("ada", "alan"), age=RandomInteger(0, 100)).set_seed(1).pick()
    {'name': 'ada', 'age': 49}
    >>> Struct(dict, name="ada").columns
    ['name']
    """

    def __init__(self, cls: Any = dict, /, **fields: Any) -> None:
        if isinstance(cls, Mapping):
            for key in cls:
                if not isinstance(key, str):
                    raise TypeError(
                        f"Struct field names must be strings, got the key {key!r} ({type(key).__name__}): for a dict with other "
                        f"keys, write sy.Apply(lambda *values: dict(zip(keys, values)), *pickers)"
                    )
            fields = {**dict(cls), **fields}
            cls = dict
        if not callable(cls):
            raise TypeError(f"cls must be a class, dict or a dict of pickers, got {cls!r} ({type(cls).__name__})")
        known = _fields_of(cls)
        if known is not None:
            names = [name for name, _ in known]
            unknown = [k for k in fields if k not in names]
            if unknown:
                raise TypeError(f"{cls.__name__} has no field {unknown[0]!r} (fields: {names})")
            missing = [name for name, required in known if required and name not in fields]
            if missing:  # inferred from their types (sy.builds infers every field)
                from .resolve import infer_fields

                fields = {**fields, **infer_fields(cls, missing)}
            fields = {name: fields[name] for name in names if name in fields}
        if not fields:
            raise ValueError(f"a Struct needs at least one field, got none for {cls!r}")
        check_callable(cls, "cls", arguments=0, keywords=fields, source="the fields given to Struct")
        self._inputs(cls, (), fields)
        self.cls = cls

    def parse_draws(self, value: Any, parse: Parse) -> list[Any] | None:
        """The fields' draws, field by field: a dict's entries (its keys exactly the
        fields), or the attributes of an instance of the class (its fields)."""
        if self.cls is dict:
            if type(value) is not dict or list(value) != list(self.kwargs):
                parse.fail(self, f"cannot make {value!r:.60} (a dict with the keys {list(self.kwargs)})")
                return None
            named = dict(value)
        elif type(value) is self.cls:
            named = {k: getattr(value, k) for k in self.kwargs}
        else:
            parse.fail(self, f"cannot make {value!r:.60} (not a {getattr(self.cls, '__name__', self.cls)})")
            return None
        return self._parse_inputs((), named, parse)

    @property
    def columns(self) -> list[str]:
        """The field names, in the order they are picked."""
        return list(self.kwargs)

    def arguments(self) -> tuple[list[Any], dict[str, Any]]:
        args, kwargs = super().arguments()
        if self.cls is dict and not all(k.isidentifier() and not keyword.iskeyword(k) for k in kwargs):
            return [kwargs], {}  # Struct({'a b': ...}): keys that cannot be written as keywords
        return [self.cls], kwargs


class DictPicker(Picker[dict[Any, Any]]):
    """A dict of ``size`` entries with **distinct** keys from ``keys`` and values from ``values``.

    Each entry is a key pick then a value pick. A key already present is drawn again;
    after ``max_tries`` draws in a row that add nothing, :class:`~synthia.GiveUp`.
    Shrinks through its draws: fewer entries, then entry by entry.

    >>> from synthia import RandomInteger, Choice
    >>> DictPicker(Choice("a", "b", "c"), RandomInteger(0, 10), 2).set_seed(3).pick()
    {'c': 3, 'b': 3}
    """

    inputs_fields = ("keys", "values", "size")

    def __init__(self, keys: Picker[Any], values: Any, size: Any, *, max_tries: int = 1000) -> None:
        self.keys = element_input(keys, "keys", "DictPicker")
        self.values = element_input(values, "values", "DictPicker")
        self.size = count_input(size, "size")
        self.max_tries = check_int(max_tries, "max_tries", minimum=1)

    def _pick(self) -> dict[Any, Any]:
        n = check_count_pick(self.size.pick(), "size", self.size)
        out: dict[Any, Any] = {}
        key, value, misses = self.keys.pick, self.values.pick, 0
        while len(out) < n:
            k = key()
            try:
                seen = k in out
            except TypeError:
                raise TypeError(f"keys must pick hashable values (dict keys), but {self.keys!r} picked {k!r} ({type(k).__name__})") from None
            if seen:
                misses += 1
                if misses >= self.max_tries:
                    raise GiveUp(f"DictPicker found only {len(out)} distinct keys of {self.keys!r} for a size of {n}")
                continue
            misses = 0
            out[k] = value()
        return out

    def parse_draws(self, value: Any, parse: Parse) -> list[Any] | None:
        """The size's draws, then each entry's key and value draws, in the dict's order."""
        if type(value) is not dict:
            return None
        draws = parse(self.size, len(value))
        for k, v in value.items():
            key, item = parse(self.keys, k), parse(self.values, v)
            if draws is None or key is None or item is None:
                return None
            draws += key + item
        return draws

    def arguments(self) -> tuple[list[Any], dict[str, Any]]:
        return [self.keys, self.values, self.size], {}


class NumpyArray(RandomPicker[Any]):
    """A numpy array of a ``dtype`` and a ``shape`` (an int, a tuple, or a picker of either).

    ``elements`` is a picker of the values (one pick per element, in C order, each its own
    part of the draws, so an array shrinks element by element) or ``None``: then each
    element is one typed draw of the dtype -- an integer over the dtype's range (or
    ``[low, high)`` if given), a float of ``[low, high)`` (default ``[0, 1)``), a boolean.
    All-minimal draws give zeros (or the value of the range closest to zero).
    (:func:`~synthia.arrays` gives every dtype its elements, as Hypothesis's ``arrays`` does.)

    ``unique=True``: the elements are distinct (drawn again when one repeats; NaN counts as
    distinct; :class:`~synthia.GiveUp` after ``1000`` draws in a row that add nothing).
    ``fill`` (a picker or a value): the array is one pick of ``fill`` everywhere but at a
    few positions, each a position and an element drawn in a part of its own, so a failure
    shrinks to fewer explicit elements (Hypothesis's ``fill``: large arrays stay cheap).
    With elements that batch (:meth:`~synthia.Picker.take_array`: ``RandomInteger``,
    ``RandomFloat``, ``RandomBoolean``, a ``Choice`` of numbers), a dense array is drawn in
    one vectorised batch (the same values as one pick each).

    >>> NumpyArray("int8", (2, 3), seed=1).pick().tolist()
    [[66, -53, -29], [-54, 23, 122]]
    >>> NumpyArray("float64", 3, low=-1.0, high=1.0, seed=1).pick().shape
    (3,)
    >>> from synthia import RandomInteger
    >>> NumpyArray("int64", 6, RandomInteger(0, 100), fill=-1).set_seed(2).pick().tolist()
    [-1, 96, -1, 41, -1, 61]
    """

    inputs_fields = ("shape", "elements", "fill")

    def __init__(
        self,
        dtype: Any,
        shape: Any,
        elements: Picker[Any] | None = None,
        *,
        low: float | None = None,
        high: float | None = None,
        unique: bool = False,
        fill: Any = None,
        seed: int | None = None,
    ) -> None:
        import numpy as np

        if isinstance(dtype, np.generic):  # np.dtype(np.int64(4)) would read a value as its type
            raise TypeError(f"dtype must be a numpy dtype (such as 'int16' or np.float32), got the value {dtype!r}")
        try:
            self.dtype = np.dtype(dtype)
        except TypeError:
            raise TypeError(f"dtype must be a numpy dtype, got {dtype!r}") from None
        if not isinstance(shape, Picker):
            _check_shape(shape)
        self.shape = value_input(shape, "shape")
        self.elements = None if elements is None else element_input(elements, "elements", "NumpyArray")
        self.unique = check_bool(unique, "unique")
        if fill is not None and elements is None:
            raise ValueError(f"fill needs elements (the values at the explicit positions), got fill={fill!r} and elements=None")
        if fill is not None and unique and not _is_nan(fill):
            raise ValueError(f"fill cannot be given with unique=True unless it is NaN (the fill value would repeat), got fill={fill!r}")
        self.fill = None if fill is None else value_input(fill, "fill")
        kind = self.dtype.kind
        self.low: float
        self.high: float
        if elements is None and kind not in "iubf":
            raise ValueError(f"elements must be given for dtype {self.dtype} (only ints, floats and booleans are drawn directly)")
        if kind in "iu":
            info = np.iinfo(self.dtype)
            self.low = int(info.min) if low is None else check_int(low, "low", minimum=int(info.min), maximum=int(info.max))
            self.high = int(info.max) + 1 if high is None else check_int(high, "high", minimum=int(info.min) + 1, maximum=int(info.max) + 1)
        else:
            self.low = 0.0 if low is None else check_float(low, "low")
            self.high = 1.0 if high is None else check_float(high, "high")
            if kind == "f":
                largest = float(np.finfo(self.dtype).max)
                for name, bound in (("low", self.low), ("high", self.high)):
                    if abs(bound) > largest:
                        raise ValueError(f"{name} must fit dtype {self.dtype} (magnitude at most {largest:g}), got {bound!r}")
        if kind in "iuf" and not self.low < self.high:
            raise ValueError(f"high must be greater than low, got low={low!r}, high={high!r}")
        if self.elements is not None and not isinstance(elements, Picker):
            self._array([elements], (1,))  # a plain value that cannot become the dtype is refused now
        if self.fill is not None and not isinstance(fill, Picker):
            self._array([fill], (1,), "fill")
        self._init_stream(seed)

    def _pick(self) -> Any:
        import numpy as np

        shape = _check_shape(self.shape.pick())
        count = int(np.prod(shape)) if shape else 1
        if self.elements is not None:
            flat = self._elements(count)
            if not isinstance(flat, list):  # a batch, already an array
                return self._batch_array(flat, shape)
        else:
            stream, kind = self._stream, self.dtype.kind
            if kind == "b":
                flat = [stream.boolean(0.5) for _ in range(count)]
            elif kind == "f":
                flat = [stream.floating(self.low, self.high) for _ in range(count)]
            else:
                from .times import toward

                flat = [toward(stream, int(self.low), int(self.high), 0) for _ in range(count)]
        return self._array(flat, shape)

    def _elements(self, count: int) -> Any:
        """The elements of an array of ``count`` (a list, or a numpy batch)."""
        elements = self.elements
        assert elements is not None
        if self.fill is not None:
            return self._sparse(count)
        if self.unique:
            return self._distinct(count)
        if count > 1 and type(elements) in _BATCHING:
            try:
                return elements.take_array(count)
            except TypeError:  # a Choice of values that are not numbers
                pass
        pick = elements.pick
        return [pick() for _ in range(count)]

    def _distinct(self, count: int) -> list[Any]:
        pick = self.elements.pick  # type: ignore[union-attr]
        out: list[Any] = []
        seen: set[Any] = set()
        misses = 0
        while len(out) < count:
            value = pick()
            try:
                key = value.item() if hasattr(value, "item") else value
                repeated = key == key and key in seen  # NaN is never equal, so never a repeat
            except TypeError:
                raise TypeError(f"unique=True needs hashable elements, got {describe(value)} from {self.elements!r}") from None
            if repeated:
                misses += 1
                if misses >= 1000:
                    raise GiveUp(f"NumpyArray found only {len(out)} distinct values of {self.elements!r} for {count} elements")
                continue
            misses = 0
            seen.add(key)
            out.append(value)
        return out

    def _sparse(self, count: int) -> list[Any]:
        fill = self.fill.pick()  # type: ignore[union-attr]
        self._array([fill], (1,), "fill")  # a fill value that cannot be the dtype is named as such
        out = [fill] * count
        if not count:
            return out
        pick, stream = self.elements.pick, self._stream  # type: ignore[union-attr]
        more = min(count, FILL_AVERAGE) / (min(count, FILL_AVERAGE) + 1.0)
        placed: set[Any] = set()  # with unique=True (and a NaN fill): an explicit value is placed once
        for _ in range(count):
            source = open_span(stream, _FILLED_ELEMENT)
            try:
                if not stream.boolean(more):
                    break
                value = pick()  # (then its position: the order of the draws as before)
                position = stream.integer(0, count)
                if self.unique:
                    key = value.item() if hasattr(value, "item") else value
                    if key == key and key in placed:
                        continue
                    placed.add(key)
                out[position] = value
            finally:
                if source is not None:
                    source.close_span()
        return out

    def _batch_array(self, batch: Any, shape: tuple[int, ...]) -> Any:
        import numpy as np

        if batch.dtype == self.dtype:
            return batch.reshape(shape)
        array = batch.astype(self.dtype)
        if self.dtype.kind in "iub" and not np.array_equal(array, batch):
            bad = batch[array != batch][0]
            raise ValueError(f"elements must give values that fit dtype {self.dtype}, but {self.elements!r} gave {bad!r}")
        return array.reshape(shape)

    def _array(self, flat: list[Any], shape: tuple[int, ...], name: str = "elements") -> Any:
        import numpy as np

        try:
            if self.dtype.kind == "O":  # element by element: a list or a tuple is one element
                array = np.empty(len(flat), dtype=object)
                for i, value in enumerate(flat):
                    array[i] = value
            else:
                array = np.array(flat, dtype=self.dtype)
            if array.shape != (len(flat),):
                raise ValueError(f"picked values are not scalars (array of shape {array.shape})")
        except (TypeError, ValueError, OverflowError) as error:
            bad = next(iter(flat), None)
            source = self.elements if name == "elements" else self.fill
            raise ValueError(f"{name} must give values that fit dtype {self.dtype}, but {source!r} gave {bad!r}: {error}") from None
        return array.reshape(shape)

    def arguments(self) -> tuple[list[Any], dict[str, Any]]:
        args: list[Any] = [str(self.dtype), self.shape]
        if self.elements is not None:
            args.append(self.elements)
        kwargs: dict[str, Any] = {}
        if self.unique:
            kwargs["unique"] = True
        if self.fill is not None:
            kwargs["fill"] = self.fill
        return args, kwargs


#: How many explicit elements an array with ``fill`` has on average (at most its size).
FILL_AVERAGE = 10
#: The label of the span of one explicit element of an array with ``fill``.
_FILLED_ELEMENT = "filled element"


def _batching() -> tuple[type, ...]:
    from .basic import Choice
    from .scalars import RandomBoolean, RandomFloat, RandomInteger

    return (RandomInteger, RandomFloat, RandomBoolean, Choice)


#: The most elements a :class:`NumpyArray` holds (one draw each: more would take minutes).
MAX_ARRAY_ELEMENTS = 10**8


_BATCHING = _batching()


def _check_shape(shape: Any) -> tuple[int, ...]:
    if isinstance(shape, int) and not isinstance(shape, bool):
        shape = (shape,)
    if not isinstance(shape, tuple) or not all(isinstance(d, int) and not isinstance(d, bool) and d >= 0 for d in shape):
        raise ValueError(f"shape must be a non-negative int or a tuple of them, got {shape!r}")
    if math.prod(shape) > MAX_ARRAY_ELEMENTS:
        raise ValueError(f"shape must hold at most {MAX_ARRAY_ELEMENTS:,} elements, got {shape!r}")
    return shape


class Permutation(RandomPicker[list[Any]]):
    """A random ordering of ``values`` (every permutation equally likely).

    Fisher-Yates from the first position up (:func:`synthia.core.random.shuffle`), so
    all-minimal draws leave ``values`` in their order: a permutation shrinks towards the
    given order, one swap at a time.

    >>> Permutation("abcde", seed=1).pick()
    ['c', 'a', 'd', 'e', 'b']
    """

    def __init__(self, values: Sequence[Any], *, seed: int | None = None) -> None:
        self.values = check_values(values)
        self._init_stream(seed)

    def _pick(self) -> list[Any]:
        out = list(self.values)
        shuffle(self._stream, out)
        return out

    def arguments(self) -> tuple[list[Any], dict[str, Any]]:
        return [self.values], {}


def _is_nan(fill: Any) -> bool:
    """Whether ``fill`` is NaN, or a ``Constant`` of NaN: the one fill a unique array may have
    (NaN equals nothing, so it never repeats), as Hypothesis allows."""
    value = fill.value if isinstance(fill, Constant) else fill
    return isinstance(value, float) and value != value
