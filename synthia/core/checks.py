"""Argument rules, written once and used by every constructor.

Every rule raises ``TypeError`` (wrong kind of value) or ``ValueError`` (right kind, wrong
value) with a message that names the argument and shows the value, at construction. A
few rules check values while picking (``check_*_pick``): what an arbitrary input picker
will give is unknown until it gives it, so those messages name the input and the
picker that gave the value.

The rules:

* numbers: :func:`check_int`, :func:`check_count` (a size: ``0 <= n <= sys.maxsize``),
  :func:`check_number` (real, NaN never, infinities only when asked), :func:`check_float`
  (a real number as a float: an int beyond the float range is refused, naming it), :func:`check_probability`,
  :func:`check_magnitude`, :func:`check_range` (non-empty half-open ranges);
* weights: :func:`check_weights` (a finite sequence of finite non-negative numbers, not all
  zero) and :func:`cumulative` (their running sums, which never overflow);
* collections and text: :func:`check_values` (a finite collection), :func:`check_text`,
  :func:`check_template` (a ``str.format`` template with a field), :func:`check_hashable`;
* callables, flags and objects: :func:`check_callable` (callable, and callable with the number
  of arguments it will receive), :func:`check_bool`, :func:`check_optional_bool`,
  :func:`check_picker` (a picker where only a picker will do), :func:`check_path` (a file
  path), :func:`check_one_of` (one of a few texts);
* values picked from inputs: :func:`check_count_pick`, :func:`check_unit_pick`, and
  :func:`pick_index` (a position among ``n`` from a float in ``[0, 1)``).

What is accepted *where a picker is expected* is the job of :mod:`synthia.core.inputs`.

>>> check_count(3, "length")
3
>>> check_count(-1, "length")
Traceback (most recent call last):
...
ValueError: length must be >= 0, got -1
>>> cumulative([1e308, 1e308, 1.0])[-1] < float("inf")
True
"""
from __future__ import annotations

import inspect
import types
import math
import string
import sys
from fractions import Fraction
from numbers import Number
from typing import Any, Callable, Iterable, Sequence

__all__ = [
    "MAX_ITEMS",
    "positional_order",
    "describe",
    "check_int",
    "check_count",
    "check_number",
    "check_float",
    "check_probability",
    "check_magnitude",
    "check_range",
    "check_weights",
    "cumulative",
    "check_values",
    "check_text",
    "check_template",
    "check_hashable",
    "check_callable",
    "check_bool",
    "check_optional_bool",
    "check_picker",
    "check_path",
    "check_one_of",
    "check_count_pick",
    "check_unit_pick",
    "pick_index",
]

#: The most items taken from an iterable that is not a collection (a generator): more
#: means it is probably endless. The same bound stops draining a bounded picker that loops.
MAX_ITEMS = 1_000_000


def describe(value: Any) -> str:
    """``value`` and its type, as every message shows them: ``'a' (str)``."""
    try:
        text = repr(value)
    except Exception:  # a user object whose repr fails must not hide the real error
        text = object.__repr__(value)
    if len(text) > 80:
        text = text[:77] + "..."
    return f"{text} ({type(value).__name__})"


def _as_int(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if type(value).__module__ == "numpy" and hasattr(value, "dtype") and value.dtype.kind in "iu":
        return int(value)
    return None


def check_int(value: Any, name: str, *, minimum: int | None = None, maximum: int | None = None) -> int:
    """``value`` as an int (numpy integers accepted); ``TypeError`` for non-ints (bools included),
    ``ValueError`` outside ``[minimum, maximum]``."""
    number = _as_int(value)
    if number is None:
        raise TypeError(f"{name} must be an int, got {describe(value)}")
    if minimum is not None and number < minimum:
        raise ValueError(f"{name} must be >= {minimum}, got {number!r}")
    if maximum is not None and number > maximum:
        raise ValueError(f"{name} must be <= {maximum}, got {number!r}")
    return number


def check_count(value: Any, name: str, *, minimum: int = 0) -> int:
    """A size (a length, a number of items): an int in ``[minimum, sys.maxsize]``.

    ``sys.maxsize`` is the longest a Python list can ever be, so a larger count could
    never be honoured.
    """
    number = check_int(value, name, minimum=minimum)
    if number > sys.maxsize:
        raise ValueError(f"{name} must be at most sys.maxsize ({sys.maxsize}, the longest list Python can hold), got {number!r}")
    return number


def check_number(value: Any, name: str, *, finite: bool = True) -> Any:
    """``value`` if it is a real number (not a bool, not NaN); infinities only when ``finite=False``.

    numpy scalars become Python numbers; other real types (``Fraction``, ``Decimal``) are kept.
    """
    kind = value.__class__
    if kind is int:  # the common cases first, with the same outcome as the general path below
        return value
    if kind is float and value - value == 0.0:  # finite (inf - inf and NaN - NaN are NaN)
        return value
    if isinstance(value, bool) or not isinstance(value, Number):
        raise TypeError(f"{name} must be a number, got {describe(value)}")
    if type(value).__module__ == "numpy" and hasattr(value, "item"):
        value = value.item()
    if isinstance(value, complex):
        raise TypeError(f"{name} must be a real number, got {describe(value)}")
    try:
        as_float = float(value)
    except OverflowError:  # an int too large for a float: finite all the same
        return value
    if math.isnan(as_float):
        raise ValueError(f"{name} must be a number, got NaN: {value!r}")
    if finite and math.isinf(as_float):
        raise ValueError(f"{name} must be finite, got {value!r}")
    return value


def check_float(value: Any, name: str, *, finite: bool = True) -> float:
    """``value`` (see :func:`check_number`) as a float: an int too large for a float
    (``10**400``) is refused with a ``ValueError`` naming ``name``, instead of the
    ``OverflowError`` a later ``float(value)`` would raise.

    >>> check_float(3, "sd")
    3.0
    >>> check_float(10**400, "sd")
    Traceback (most recent call last):
    ...
    ValueError: sd must be within the float range (about 1.8e308), got 1000000000000000000000...000 (an int of 401 digits)
    """
    value = check_number(value, name, finite=finite)
    try:
        return float(value)
    except OverflowError:
        raise ValueError(f"{name} must be within the float range (about 1.8e308), got {_short_number(value)}") from None


def _short_number(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else f"{text[:22]}...{text[-3:]} (an int of {len(text.lstrip('-'))} digits)"


def check_probability(value: Any, name: str) -> float:
    """``value`` as a float in ``[0, 1]``."""
    value = check_float(value, name)
    if not 0.0 <= value <= 1.0:
        raise ValueError(f"{name} must be a probability in [0, 1], got {value!r}")
    return float(value)


def check_magnitude(magnitude: Any) -> float:
    """A shrinking magnitude: a float in ``(0, 1]``."""
    value = check_number(magnitude, "magnitude")
    if not 0 < value <= 1:
        raise ValueError(f"magnitude must be in (0, 1], got {magnitude!r}")
    return float(value)


def check_range(low: Any, high: Any) -> None:
    """A half-open range ``[low, high)`` must hold a value: ``high > low``."""
    if not high > low:
        raise ValueError(
            f"high must be greater than low, got low={low!r}, high={high!r}"
            f" (ranges are half-open like range(): [{low!r}, {high!r}) is empty)"
        )


def _items(values: Any, name: str) -> list[Any]:
    from .picker import Picker

    if isinstance(values, Picker):
        raise TypeError(f"{name} must be a collection of values, got the picker {values!r} (pickers never end: pass a list)")
    if isinstance(values, (str, bytes)) or hasattr(values, "__len__"):
        try:
            return list(values)
        except TypeError:
            pass
        except (OverflowError, MemoryError):
            raise ValueError(f"{name} has too many items to hold in memory, got {describe(values)}") from None
    try:
        iterator = iter(values)
    except TypeError:
        raise TypeError(f"{name} must be a collection of values (a list, tuple, string, range...), got {describe(values)}") from None
    out = []
    for item in iterator:
        out.append(item)
        if len(out) > MAX_ITEMS:
            raise ValueError(f"{name} gave more than {MAX_ITEMS} items: an endless iterator? got {describe(values)}")
    return out


def check_values(values: Any, name: str = "values") -> list[Any]:
    """``values`` as a new list: a collection, or an iterable that ends within :data:`MAX_ITEMS`.

    A picker is refused (it is an endless iterator, and usually a slip for a list).
    """
    return _items(values, name)


def check_weights(weights: Any, count: int, name: str = "weights") -> list[Any]:
    """``weights``: one finite, non-negative number per alternative (``count``), not all zero."""
    kind = weights.__class__
    if (kind is list or kind is tuple) and len(weights) == count:
        # Plain ints and finite floats, none negative, one positive: the general path's outcome.
        fine = positive = False
        for w in weights:
            t = w.__class__
            if not ((t is int or (t is float and w - w == 0.0)) and w >= 0):
                break
            if w > 0:
                positive = True
        else:
            fine = positive
        if fine:
            return list(weights)
    if isinstance(weights, (str, bytes, dict, set, frozenset)) or not hasattr(weights, "__len__"):
        raise TypeError(f"{name} must be a sequence of numbers (a list or tuple), got {describe(weights)}")
    items = _items(weights, name)
    if len(items) != count:
        raise ValueError(f"{name} must have one entry per alternative ({count}), got {len(items)}: {describe(weights)}")
    out = []
    for i, w in enumerate(items):
        w = check_number(w, f"{name}[{i}]")
        if w < 0:
            raise ValueError(f"{name}[{i}] must be non-negative, got {w!r}")
        out.append(w)
    if not any(w > 0 for w in out):
        raise ValueError(f"{name} must not all be zero, got {weights!r}")
    return out


def cumulative(weights: Sequence[Any]) -> list[float]:
    """The running sums of checked ``weights`` (see :func:`check_weights`), as floats.

    Ordinary weights give their plain running sums, so the choice a uniform draw maps to
    is the documented one (:func:`synthia.core.random.weighted_index`). When the sum would
    overflow (weights near ``1e308``, or ints too large for a float), every weight is first
    divided by the same power of two (or, for huge ints, by the largest weight): the
    proportions, and so the choice, stay the same.
    """
    try:
        floats = [float(w) for w in weights]
    except OverflowError:  # an int beyond the float range: exact ratios to the largest one
        top = max(weights)
        floats = [float(Fraction(w) / Fraction(top)) for w in weights]
    sums, total = [], 0.0
    for w in floats:
        total += w
        sums.append(total)
    if math.isinf(total):
        # Dividing by a power of two is exact: the ratios between weights do not move.
        exponent = math.frexp(max(floats))[1]
        return cumulative([math.ldexp(w, -exponent) for w in floats])
    return sums


def checked_weights(weights: Any, count: int, shared: Callable[[list[Any]], Any] = tuple) -> tuple[bool, Any, Any]:
    """Whether the checked ``weights`` (:func:`check_weights`) are all equal, and the weights and
    their running sums (:func:`cumulative`), each made into ``shared(list)``. Weights given as a
    list or tuple of plain ints are checked once per distinct tuple of them and ``shared``
    (what a ``Bind`` building the same ``Choice`` at every pick gives again and again).

    >>> checked_weights([1, 3], 2)
    (False, (1, 3), (1.0, 4.0))
    """
    key = None
    if weights.__class__ is list or weights.__class__ is tuple:
        key = tuple(weights)
        for w in key:
            if w.__class__ is not int:  # (1 and 1.0 are equal keys, and a picker shows its weights)
                key = None
                break
        else:
            known = _WEIGHTS.get((key, count, shared))
            if known is not None:
                return known
    checked = check_weights(weights, count)
    outcome = (len(set(checked)) == 1, shared(checked), shared(cumulative(checked)))
    if key is not None and len(_WEIGHTS) < 512:
        _WEIGHTS[key, count, shared] = outcome
    return outcome


#: :func:`checked_weights`' outcomes for plain ints, per (weights, count, shared).
_WEIGHTS: dict[Any, tuple[bool, Any, Any]] = {}


def check_text(value: Any, name: str) -> str:
    """``value`` if it is a ``str``."""
    if not isinstance(value, str):
        raise TypeError(f"{name} must be a string, got {describe(value)}")
    return value


def check_template(value: Any, name: str) -> str:
    """A :meth:`str.format` template with at least one positional field (``"{}"``, ``"{0:.2f}"``)."""
    check_text(value, name)
    try:
        fields = [field for _, field, _, _ in string.Formatter().parse(value) if field is not None]
        value.format(0)
    except (IndexError, KeyError, ValueError, AttributeError) as error:
        raise ValueError(f"{name} must be a template with one positional field such as '{{}}', got {value!r} ({error})") from None
    if not fields:
        raise ValueError(f"{name} must be a template with a field such as '{{}}' or '{{:.2f}}' (without one every value is the same text), got {value!r}")
    return value


def check_hashable(value: Any, name: str) -> Any:
    """``value`` if it can be a dict key or a set item."""
    try:
        hash(value)
    except TypeError:
        raise TypeError(f"{name} must be hashable (it is used as a key), got {describe(value)}") from None
    return value


def check_callable(
    value: Any, name: str, *, arguments: int | None = None, keywords: Iterable[str] = (), source: str = ""
) -> Callable[..., Any]:
    """``value`` if it is callable -- and, when ``arguments`` is given, callable with that many
    positional arguments (and the ``keywords``), as far as its signature tells. ``source``
    says where those arguments come from, for the message."""
    if type(value) is types.FunctionType and value.__defaults__ is None and value.__kwdefaults__ is None and not keywords:
        # (the usual case, first: a function made again and again inside a Bind; keyed by its
        # code object's identity, kept alive in the table, so that no code is hashed)
        code = value.__code__
        if _ACCEPTS_PLAIN.get((id(code), arguments)) is code:
            return value
    elif not callable(value):
        raise TypeError(f"{name} must be callable, got {describe(value)}")
    if arguments is not None:
        keywords = tuple(keywords)
        # A function made again and again (a lambda inside a Bind) has one code object: its
        # signature is checked once.
        key = None
        if type(value) is types.FunctionType:
            key = (value.__code__, value.__defaults__, _frozen(value.__kwdefaults__), arguments, keywords)
            try:
                if key in _ACCEPTS:
                    return value
            except TypeError:  # unhashable defaults: check every time
                key = None
        try:
            signature = inspect.signature(value)
        except (TypeError, ValueError):  # builtins without a signature: nothing to check
            return value
        keywords = list(keywords)
        try:
            signature.bind(*[None] * arguments, **{k: None for k in keywords})
        except TypeError as error:
            given = f"{arguments} positional argument{'s' if arguments != 1 else ''}"
            if keywords:
                given += f" and the keywords {keywords}"
            if source:
                given += f" ({source})"
            raise TypeError(f"{name} must accept {given}, but {getattr(value, '__name__', value)!r}{signature} cannot: {error}") from None
        if key is not None:
            if len(_ACCEPTS) > 4096:
                _ACCEPTS.clear()
                _ACCEPTS_PLAIN.clear()
            _ACCEPTS.add(key)
            if key[1] is None and key[2] is None and not keywords:
                _ACCEPTS_PLAIN[id(key[0]), arguments] = key[0]
    return value


_FUNCTION = types.FunctionType  # (a global, not an attribute look-up: accepted() runs per picker a Bind builds)
#: Signatures already checked: (code, defaults, keyword defaults, positional count, keywords).
_ACCEPTS: set[Any] = set()
#: The same, for functions without defaults called without keywords: (id of the code, positional
#: count) to the code object.
_ACCEPTS_PLAIN: dict[tuple[int, int | None], Any] = {}


def accepted(fn: Any, arguments: int) -> bool:
    """Whether ``fn`` is a plain function (no defaults) whose code :func:`check_callable` already
    found callable with ``arguments`` positional arguments: a lambda made again and again inside
    a ``Bind``'s pick, checked with one look-up and no keyword arguments.

    >>> f = lambda a: a
    >>> accepted(f, 1), check_callable(f, "fn", arguments=1) is f, accepted(f, 1)
    (False, True, True)
    """
    if fn.__class__ is _FUNCTION and fn.__defaults__ is None and fn.__kwdefaults__ is None:
        code = fn.__code__
        return _ACCEPTS_PLAIN.get((id(code), arguments)) is code
    return False


def _frozen(kwdefaults: dict[str, Any] | None) -> Any:
    return None if kwdefaults is None else tuple(sorted(kwdefaults.items()))


def check_bool(value: Any, name: str) -> bool:
    """``value`` if it is a bool."""
    if not isinstance(value, bool):
        raise TypeError(f"{name} must be a bool, got {describe(value)}")
    return value


def check_optional_bool(value: Any, name: str) -> bool | None:
    """``value`` if it is a bool or ``None`` (a setting left to its default)."""
    if value is not None and not isinstance(value, bool):
        raise TypeError(f"{name} must be True, False or None, got {describe(value)}")
    return value


def check_picker(value: Any, name: str) -> Any:
    """``value`` if it is a picker (where a plain value cannot stand in: a picker to sample,
    explain or export).

    >>> check_picker(3, "picker")
    Traceback (most recent call last):
    ...
    TypeError: picker must be a picker (such as RandomInteger(0, 10)), got 3 (int)
    """
    from .picker import Picker

    if not isinstance(value, Picker):
        raise TypeError(f"{name} must be a picker (such as RandomInteger(0, 10)), got {describe(value)}")
    return value


def check_path(value: Any, name: str) -> Any:
    """``value`` as a ``pathlib.Path``: a ``str`` (not empty) or an ``os.PathLike``."""
    import os
    import pathlib

    if isinstance(value, str) and value:
        return pathlib.Path(value)
    if isinstance(value, os.PathLike):
        path = os.fspath(value)
        if isinstance(path, str):
            return pathlib.Path(path)
    raise TypeError(f"{name} must be a file path (a non-empty str or a pathlib.Path), got {describe(value)}")


def check_one_of(value: Any, name: str, options: Sequence[str]) -> str:
    """``value`` if it is one of the texts ``options``."""
    if not isinstance(value, str) or value not in options:
        raise ValueError(f"{name} must be one of {', '.join(map(repr, options))}, got {describe(value)}")
    return value


def check_count_pick(value: Any, name: str, picker: Any) -> int:
    """A count picked from the input ``name``: a non-negative int (checked at every pick)."""
    number = _as_int(value)
    if number is None or number < 0:
        raise ValueError(f"{name} must pick non-negative ints, got {describe(value)} from {picker!r}")
    return number


def check_unit_pick(value: Any, name: str, picker: Any, *, if_list: str = "") -> float:
    """A float picked from the input ``name``, which must be in ``[0, 1)`` (a decision, a position).

    ``if_list`` is added to the message when the value is a list or tuple (a common slip:
    a list where a position was expected)."""
    try:
        ok = 0.0 <= value < 1.0 and not isinstance(value, bool)
    except TypeError:
        ok = False
    if not ok:
        hint = f": {if_list}" if if_list and isinstance(value, (list, tuple)) else ""
        raise ValueError(f"{name} must pick floats in [0, 1), got {describe(value)} from {picker!r}{hint}")
    return value  # type: ignore[no-any-return]


def flip(coin: Any, name: str) -> bool:
    """One pick of the coin ``name``, which must be a boolean (a numpy boolean counts): a
    coin that gives anything else (``1``, ``"no"``) is refused rather than read as truthy.

    >>> from synthia import Constant
    >>> flip(Constant(True), "spawn")
    True
    >>> flip(Constant("no"), "spawn")
    Traceback (most recent call last):
    ...
    TypeError: spawn must pick booleans, got 'no' (str) from Constant('no')
    """
    value = coin.pick()
    if value is True or value is False:
        return value  # type: ignore[no-any-return]
    if getattr(getattr(value, "dtype", None), "kind", None) == "b" and getattr(value, "shape", None) == ():
        return bool(value)
    raise TypeError(f"{name} must pick booleans, got {describe(value)} from {coin!r}")


def pick_index(picker: Any, n: int, name: str, *, if_list: str = "") -> int:
    """An index in ``[0, n)`` from one pick of ``picker`` (floats in ``[0, 1)``, checked):
    ``floor(u * n)``, kept below ``n`` when rounding reaches it."""
    u = check_unit_pick(picker.pick(), name, picker, if_list=if_list)
    return min(int(u * n), n - 1)


def positional_order(fn: Callable[..., Any], given: int, keys: list[str]) -> list[int] | None:
    """Where each keyword of ``keys`` goes among the parameters after the ``given`` positional
    ones, when they fill exactly the next ``len(keys)`` positional-or-keyword parameters of a
    plain Python function or class; ``None`` when they must be passed by name.

    What ``Apply`` and ``sy.compile`` use to call ``fn`` without building a dict per value.

    >>> def f(a, b, c): ...
    >>> positional_order(f, 1, ["c", "b"]), positional_order(f, 0, ["b"]), positional_order(dict, 0, ["x"])
    ([1, 0], None, None)
    """
    target: Any = fn
    if isinstance(fn, type):
        init = getattr(fn, "__init__", None)
        if type(fn).__call__ is not type.__call__ or fn.__new__ is not object.__new__ or not inspect.isfunction(init):
            return None
        target = init
    elif not inspect.isfunction(fn):
        return None
    try:
        parameters = list(inspect.signature(target).parameters.values())
    except (TypeError, ValueError):  # pragma: no cover - a function always has one
        return None
    if isinstance(fn, type):
        parameters = parameters[1:]  # self
    slots = parameters[given : given + len(keys)]
    if len(slots) < len(keys) or any(p.kind is not inspect.Parameter.POSITIONAL_OR_KEYWORD for p in parameters[: given + len(keys)]):
        return None
    names = [p.name for p in slots]
    if sorted(names) != sorted(keys):
        return None
    return [names.index(k) for k in keys]
