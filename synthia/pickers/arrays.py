"""numpy arrays as Hypothesis's ``hypothesis.extra.numpy`` makes them: :func:`arrays` and
:func:`from_dtype`.

``arrays(dtype, shape)`` is a :class:`~synthia.NumpyArray` whose elements come from
``from_dtype(dtype)`` unless given: every dtype numpy has (booleans, integers, floats with
NaN and infinities, complex numbers, ``datetime64``/``timedelta64`` with ``NaT``, byte and
unicode strings, structured records, objects), each element a part of the draws of its own,
so an array shrinks element by element (to zeros, the empty string, the epoch).
numpy is imported when a function here is called, never by ``import synthia``.
"""
from __future__ import annotations

import math
from typing import Any

from ..core.checks import check_bool, check_float, check_int, check_number, check_text, describe
from ..core.constant import Constant
from ..core.picker import Picker
from ..core.random import derive_seed
from .basic import Apply, Choice
from .dependent import Bind
from .filters import PickIf
from .floats import AnyFloat
from .integers import AnyInteger
from .records import NumpyArray
from .scalars import RandomBoolean
from .standard import lengths
from .strings import RandomString
from .text import RandomBytes, RandomText
from .tuples import ArrayPicker

__all__ = ["arrays", "from_dtype"]


def arrays(dtype: Any, shape: Any, *, elements: Any = None, fill: Any = None, unique: bool = False) -> Picker[Any]:
    """A picker of numpy arrays of ``dtype`` and ``shape`` (Hypothesis's ``arrays``).

    ``dtype``: a dtype, anything ``numpy.dtype`` takes, or a picker of dtypes (such as
    :func:`~synthia.scalar_dtypes`). ``shape``: an int, a tuple, or a picker of them (such
    as :func:`~synthia.array_shapes`). ``elements``: a picker of the values (default
    ``from_dtype(dtype)``: NaN and infinities included for floats); ``unique``: distinct
    elements; ``fill``: a picker (or a value) that fills all but a few explicit positions
    (see :class:`~synthia.NumpyArray`).

    >>> import synthia as sy
    >>> sy.arrays("int8", (2, 2)).set_seed(1).pick().tolist()
    [[80, -128], [127, 1]]
    >>> sy.arrays("float32", 3, elements=sy.from_dtype("float32", min_value=0, max_value=1))
    NumpyArray('float32', 3, Apply(float32, AnyFloat(0.0, 1.0000000000000002, subnormal=True)))
    """
    unique = check_bool(unique, "unique")
    if isinstance(dtype, Picker):
        return Bind(Apply(AsDtype(), dtype), _ArraysOf(shape, elements, fill, unique), cache=True)
    kind = _dtype(dtype)
    if elements is None:
        elements = from_dtype(kind)
    return NumpyArray(kind, shape, elements, unique=unique, fill=fill)


class _ArraysOf:
    """``arrays(d, shape, ...)`` for the dtype ``d`` a ``Bind`` picked (one wiring kept per dtype)."""

    def __init__(self, shape: Any, elements: Any, fill: Any, unique: bool) -> None:
        self.shape, self.elements, self.fill, self.unique = shape, elements, fill, unique
        self.__name__ = "arrays"

    def __call__(self, dtype: Any) -> Picker[Any]:
        # The pickers given (a shape, elements, fill) are copied into the wiring kept for this
        # dtype and seeded from the Bind's stream (a picker built here gets its seed from it),
        # so that the run's seed decides their values too.
        key = RandomBoolean().seed

        def own(value: Any, name: str) -> Any:
            return value.duplicate().set_seed(derive_seed(key, name)) if isinstance(value, Picker) else value

        return arrays(dtype, own(self.shape, "shape"), elements=own(self.elements, "elements"), fill=own(self.fill, "fill"), unique=self.unique)


class AsDtype:
    """A picked dtype as a ``numpy.dtype`` (a clear error for anything else)."""

    __name__ = "dtype"

    def __call__(self, value: Any) -> Any:
        return _dtype(value)


def _dtype(dtype: Any) -> Any:
    import numpy as np

    try:
        return np.dtype(dtype)
    except (TypeError, ValueError):
        raise TypeError(f"dtype must be a numpy dtype (or a picker of them), got {describe(dtype)}") from None


def from_dtype(
    dtype: Any,
    *,
    alphabet: str | None = None,
    min_size: int = 0,
    max_size: int | None = None,
    min_value: Any = None,
    max_value: Any = None,
    allow_nan: bool | None = None,
    allow_infinity: bool | None = None,
    allow_subnormal: bool | None = None,
    exclude_min: bool = False,
    exclude_max: bool = False,
    min_magnitude: float = 0,
    max_magnitude: float | None = None,
) -> Picker[Any]:
    """A picker of the scalars of ``dtype`` (Hypothesis's ``from_dtype``): Python values that
    fit it -- ``bool``, ``int`` within its range, ``float`` exactly representable in its
    width (NaN, infinities and subnormals included unless bounds or ``allow_*`` say
    otherwise), ``complex``, ``numpy.datetime64``/``timedelta64`` in its unit (``NaT``
    unless ``allow_nan=False``), ``bytes``/``str`` of at most its length (no trailing NUL),
    a tuple for a structured dtype.

    ``min_value``/``max_value`` bound numbers, dates and durations (inclusive unless
    ``exclude_min``/``exclude_max``); ``min_size``/``max_size`` and ``alphabet`` shape
    strings; ``min_magnitude``/``max_magnitude`` bound ``abs()`` of complex numbers.

    >>> import synthia as sy
    >>> sy.from_dtype("uint8")
    AnyInteger(0, 256)
    >>> sy.from_dtype("int16", min_value=-5, max_value=5).set_seed(3).take(6)
    [0, -1, 4, -1, -1, 0]
    >>> [str(d) for d in sy.from_dtype("datetime64[D]", allow_nan=False).set_seed(1).take(2)]
    ['-19756052637721455-11-04', '1970-01-07']
    """
    import numpy as np

    kind = _dtype(dtype)
    for name, flag in (("exclude_min", exclude_min), ("exclude_max", exclude_max)):
        check_bool(flag, name)
    for name, option in (("allow_nan", allow_nan), ("allow_infinity", allow_infinity), ("allow_subnormal", allow_subnormal)):
        if option is not None:
            check_bool(option, name)
    if kind.fields is not None:
        if not kind.names:
            raise ValueError(f"dtype {kind} is a structured dtype with no fields: it has no values to make")
        parts = [from_dtype(kind.fields[name][0]) for name in kind.names]
        return ArrayPicker(*parts)
    if kind.subdtype is not None:
        base, shape = kind.subdtype
        return NumpyArray(base, shape, from_dtype(base))
    code = kind.kind
    if code == "b":
        return RandomBoolean()
    if code in "iu":
        info = np.iinfo(kind)
        low, high = _integer_range(int(info.min), int(info.max), min_value, max_value, exclude_min, exclude_max)
        return AnyInteger(low, high + 1)
    if code == "f":
        return _floats(kind, min_value, max_value, allow_nan, allow_infinity, allow_subnormal, exclude_min, exclude_max)
    if code == "c":
        part = np.dtype(f"f{kind.itemsize // 2}")
        bounded = max_magnitude is not None
        if bounded:
            top = float(check_number(max_magnitude, "max_magnitude"))
            components = [_floats(part, -top, top, False, False, allow_subnormal, False, False) for _ in range(2)]
        else:
            components = [_floats(part, None, None, allow_nan, allow_infinity, allow_subnormal, False, False) for _ in range(2)]
        picker: Picker[Any] = Apply(complex, *components)
        low_magnitude = float(check_number(min_magnitude, "min_magnitude"))
        if low_magnitude < 0:
            raise ValueError(f"min_magnitude must be >= 0, got {min_magnitude!r}")
        if low_magnitude > 0:
            picker = PickIf(picker, _AtLeast(low_magnitude))
        if bounded:
            picker = PickIf(picker, _AtMost(top))
        return picker
    if code in "mM":
        return _times(kind, min_value, max_value, allow_nan, exclude_min, exclude_max)
    if code == "S":
        size = lengths(check_int(min_size, "min_size", minimum=0), _top_size(max_size, kind.itemsize or None))
        return PickIf(RandomBytes(size), _no_trailing_nul)
    if code == "U":
        size = lengths(check_int(min_size, "min_size", minimum=0), _top_size(max_size, kind.itemsize // 4 or None))
        if alphabet is not None:
            text = check_text(alphabet, "alphabet").replace("\x00", "")
            if not text:
                raise ValueError(f"alphabet must hold a character other than NUL, got {alphabet!r}")
            return RandomString(size, text)
        return RandomText(size, exclude="\x00", nasty=0.0)
    if code == "O":
        from .walk import any_value

        return any_value()
    raise TypeError(f"dtype {kind} has no scalars synthia makes (a void dtype without fields)")


def _top_size(max_size: Any, itemsize: int | None) -> int | None:
    if max_size is None:
        return itemsize
    size = check_int(max_size, "max_size", minimum=0)
    return size if itemsize is None else min(size, itemsize)


def _integer_range(lowest: int, highest: int, min_value: Any, max_value: Any, exclude_min: bool, exclude_max: bool) -> tuple[int, int]:
    low, high = lowest, highest
    if min_value is not None:
        low = max(low, math.ceil(check_number(min_value, "min_value")) + (1 if exclude_min and float(min_value).is_integer() else 0))
    if max_value is not None:
        high = min(high, math.floor(check_number(max_value, "max_value")) - (1 if exclude_max and float(max_value).is_integer() else 0))
    if low > high:
        raise ValueError(f"no integer of the dtype lies between min_value={min_value!r} and max_value={max_value!r}")
    return low, high


class Narrow:
    """A float made exactly representable in a narrower float dtype (and kept within the
    bounds, when rounding would leave them)."""

    def __init__(self, dtype: Any, low: float, high: float) -> None:
        self.dtype, self.low, self.high = dtype, low, high
        self.__name__ = dtype.name

    def __call__(self, x: float) -> float:
        import numpy as np

        kind = self.dtype.type
        with np.errstate(over="ignore"):  # a float beyond the width: its infinity (then clamped)
            narrow = kind(x)
        # Compared as Python floats: numpy would round a float64 bound to the narrow width.
        if float(narrow) < self.low:
            narrow = np.nextafter(narrow, kind(math.inf))
        elif float(narrow) > self.high:
            narrow = np.nextafter(narrow, kind(-math.inf))
        return float(narrow)


def _floats(
    kind: Any, min_value: Any, max_value: Any, allow_nan: bool | None, allow_infinity: bool | None,
    allow_subnormal: bool | None, exclude_min: bool, exclude_max: bool,
) -> Picker[float]:  # fmt: skip
    import numpy as np

    largest = float(np.finfo(kind).max) if kind.itemsize <= 8 else float(np.finfo(np.float64).max)
    low = -math.inf if min_value is None else check_float(min_value, "min_value", finite=False)
    high = math.inf if max_value is None else check_float(max_value, "max_value", finite=False)
    if exclude_min:
        low = math.nextafter(low, math.inf)
    if exclude_max:
        high = math.nextafter(high, -math.inf)
    if not low <= high:
        raise ValueError(f"no float lies between min_value={min_value!r} and max_value={max_value!r}")
    bounded = min_value is not None or max_value is not None
    nan = (not bounded) if allow_nan is None else allow_nan
    if nan and bounded:
        raise ValueError(f"allow_nan=True cannot go with bounds (NaN is not between min_value={min_value!r} and max_value={max_value!r})")
    infinite_range = low == -math.inf or high == math.inf
    infinity = infinite_range if allow_infinity is None else allow_infinity
    if infinity and not infinite_range:
        raise ValueError(f"allow_infinity=True needs an infinite bound, got min_value={min_value!r}, max_value={max_value!r}")
    finite_low, finite_high = max(low, -largest), min(high, largest)
    subnormal = True if allow_subnormal is None else allow_subnormal
    if finite_low == finite_high and not infinity:
        picker: Picker[float] = Constant(finite_low)
    else:
        picker = AnyFloat(
            -math.inf if infinity and low == -math.inf else finite_low,
            math.inf if infinity and high == math.inf else math.nextafter(finite_high, math.inf),
            nan=nan, infinity=infinity, subnormal=subnormal, signed_zero=low < 0.0 < high,
        )  # fmt: skip
    if kind.itemsize < 8:
        return Apply(Narrow(kind, low, high), picker)
    return picker


class _AtLeast:
    def __init__(self, bound: float) -> None:
        self.bound = bound
        self.__name__ = f"abs >= {bound}"

    def __call__(self, z: complex) -> bool:
        return abs(z) >= self.bound


class _AtMost:
    def __init__(self, bound: float) -> None:
        self.bound = bound
        self.__name__ = f"abs <= {bound}"

    def __call__(self, z: complex) -> bool:
        return abs(z) <= self.bound


def _no_trailing_nul(data: bytes) -> bool:
    """numpy drops the trailing NULs of a bytes value: such a value would not come back."""
    return not data.endswith(b"\x00")


class Moment:
    """``numpy.datetime64(n, unit)`` (or ``timedelta64``) from the integer ``n``."""

    def __init__(self, kind: Any) -> None:
        import numpy as np

        self.type = kind.type
        self.unit = np.datetime_data(kind)[0]
        self.__name__ = f"{kind.name}"

    def __call__(self, n: int) -> Any:
        return self.type(n, self.unit)


def _times(kind: Any, min_value: Any, max_value: Any, allow_nan: bool | None, exclude_min: bool, exclude_max: bool) -> Picker[Any]:
    import numpy as np

    if np.datetime_data(kind)[0] == "generic":
        raise ValueError(f"dtype {kind} has no unit: give one ({kind.str}[s], {kind.str}[D], ...)")
    lowest, highest = -(2**63) + 1, 2**63 - 1  # -2**63 is NaT
    low = None if min_value is None else int(np.asarray(min_value).astype(kind).astype(np.int64))
    high = None if max_value is None else int(np.asarray(max_value).astype(kind).astype(np.int64))
    low, high = _integer_range(lowest, highest, low, high, exclude_min, exclude_max)
    values: Picker[Any] = Apply(Moment(kind), AnyInteger(low, high + 1))
    if allow_nan is not False and min_value is None and max_value is None:
        values = Choice(values, kind.type("NaT"), weights=[0.95, 0.05])
    return values
