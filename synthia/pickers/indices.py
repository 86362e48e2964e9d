"""Indices and broadcastable shapes for numpy arrays, as ``hypothesis.extra.numpy`` names them:
:func:`basic_indices`, :func:`integer_array_indices`, :func:`broadcastable_shapes`,
:func:`mutually_broadcastable_shapes` (with :class:`BroadcastableShapes`) and
:func:`valid_tuple_axes`.

Each is a wiring of the catalog's pickers: an index is a tuple of per-dimension parts (an
integer, a slice), each a part of the draws of its own, so a failing index shrinks part by
part (integers to 0, slices to ``slice(None)``).
"""
from __future__ import annotations

import math
from typing import Any, NamedTuple, Sequence

from ..core.checks import check_bool, check_int
from ..core.picker import Picker
from .basic import Apply, Choice, Constant
from .collections import ComposeList, RandomSubList
from .dependent import Bind
from .dtypes import MAX_DIMS, array_shapes
from .filters import PickIf
from .records import MAX_ARRAY_ELEMENTS, NumpyArray
from .scalars import RandomBoolean, RandomInteger
from .tuples import ArrayPicker

__all__ = [
    "basic_indices",
    "integer_array_indices",
    "broadcastable_shapes",
    "mutually_broadcastable_shapes",
    "BroadcastableShapes",
    "valid_tuple_axes",
]


def _shape(shape: Any, name: str = "shape") -> tuple[int, ...]:
    if isinstance(shape, int) and not isinstance(shape, bool):
        shape = (shape,)
    if not isinstance(shape, tuple) or not all(isinstance(d, int) and not isinstance(d, bool) and d >= 0 for d in shape):
        raise ValueError(f"{name} must be a tuple of non-negative ints, got {shape!r}")
    if len(shape) > MAX_DIMS:
        raise ValueError(f"{name} must have at most {MAX_DIMS} dimensions, got {len(shape)}")
    return shape


class NonZero:
    """A slice step from a drawn integer: 0 becomes 1 (a step is never 0)."""

    __name__ = "non-zero"

    def __call__(self, n: int) -> int:
        return n or 1


def _part(side: int) -> Picker[Any]:
    """One dimension's part of a basic index: an integer in range, or a slice."""
    reach = max(side, 1)
    bound: Picker[Any] = Choice(None, RandomInteger(-reach, reach + 1))
    step: Picker[Any] = Choice(None, Apply(NonZero(), RandomInteger(-reach, reach + 1)))
    piece = Apply(slice, bound, Choice(None, RandomInteger(-reach, reach + 1)), step)
    if side == 0:
        return piece
    return Choice(RandomInteger(-side, side), piece)


class BasicIndex:
    """Assembles a basic index from its drawn parts and reports its result's dimensions."""

    def __init__(self, ndim: int) -> None:
        self.ndim = ndim
        self.__name__ = "index"

    def __call__(self, used: int, parts: tuple[Any, ...], ellipsis: bool, newaxes: list[int], bare: bool) -> Any:
        index: list[Any] = list(parts[:used])
        for position in sorted(newaxes, reverse=True):
            index.insert(min(position, len(index)), None)
        if ellipsis:
            index.append(Ellipsis)
        if len(index) == 1 and bare:
            return index[0]
        return tuple(index)


def result_ndim(index: Any, ndim: int) -> int:
    """The number of dimensions ``array[index]`` has, for a basic index of an array of ``ndim``.

    >>> result_ndim((0, slice(None), None), 3)
    3
    """
    parts = index if isinstance(index, tuple) else (index,)
    kept = sum(1 for p in parts if isinstance(p, slice))
    new = sum(1 for p in parts if p is None)
    indexed = sum(1 for p in parts if p is not None and p is not Ellipsis)
    return kept + new + (ndim - indexed)


class _DimsBetween:
    def __init__(self, ndim: int, low: int, high: int) -> None:
        self.ndim, self.low, self.high = ndim, low, high
        self.__name__ = f"{low} to {high} dimensions"

    def __call__(self, index: Any) -> bool:
        return self.low <= result_ndim(index, self.ndim) <= self.high


def basic_indices(
    shape: Any, *, min_dims: int = 0, max_dims: int | None = None, allow_newaxis: bool = False, allow_ellipsis: bool = True
) -> Picker[Any]:
    """Basic indices of an array of ``shape`` (integers, slices, ``Ellipsis`` and, with
    ``allow_newaxis``, ``None``) whose result has ``min_dims`` to ``max_dims`` dimensions
    (default: as many as ``shape`` has, plus 2 with new axes). A one-part index is given
    bare (``3``) or as a 1-tuple (``(3,)``), as Hypothesis does.

    >>> import numpy as np, synthia as sy
    >>> a = np.zeros((3, 4))
    >>> sorted({a[i].ndim for i in sy.basic_indices((3, 4)).set_seed(1).take(50)})
    [0, 1, 2]
    >>> sy.basic_indices((3, 4)).set_seed(1).take(2)
    [(slice(-3, 1, None), Ellipsis), ()]
    """
    sides = _shape(shape)
    low = check_int(min_dims, "min_dims", minimum=0, maximum=MAX_DIMS)
    newaxis = check_bool(allow_newaxis, "allow_newaxis")
    ellipsis = check_bool(allow_ellipsis, "allow_ellipsis")
    most = len(sides) + (2 if newaxis else 0)
    high = min(most, MAX_DIMS) if max_dims is None else check_int(max_dims, "max_dims", minimum=0, maximum=MAX_DIMS)
    if high < low:
        raise ValueError(f"max_dims must be at least min_dims, got min_dims={low}, max_dims={high}")
    if low > most:
        raise ValueError(f"min_dims={low} is more dimensions than an index of shape {sides} can give (at most {most})")
    parts = ArrayPicker(*[_part(side) for side in sides]) if sides else Constant(())
    index = Apply(
        BasicIndex(len(sides)),
        RandomInteger(0, len(sides) + 1),
        parts,
        RandomBoolean() if ellipsis else False,
        ComposeList(RandomInteger(0, len(sides) + 1), RandomInteger(0, 3)) if newaxis else Constant([]),
        RandomBoolean(),
    )
    return PickIf(index, _DimsBetween(len(sides), low, high))


class IntegerArrays:
    """The integer arrays that index ``shape``, all of one result shape (one per dimension)."""

    def __init__(self, shape: tuple[int, ...], dtype: Any) -> None:
        self.shape, self.dtype = shape, dtype
        self.__name__ = "integer arrays"

    def __call__(self, result_shape: tuple[int, ...]) -> Picker[Any]:
        return ArrayPicker(*[NumpyArray(self.dtype, result_shape, RandomInteger(-side, side)) for side in self.shape])


def integer_array_indices(shape: Any, *, result_shape: Any = None, dtype: Any = "int") -> Picker[Any]:
    """Tuples of integer arrays that index an array of ``shape`` (every side positive), one
    array per dimension, all of a shape from ``result_shape`` (default :func:`array_shapes`):
    ``array[index]`` has that shape.

    >>> import numpy as np, synthia as sy
    >>> index = sy.integer_array_indices((3, 2), result_shape=sy.array_shapes(max_dims=1)).set_seed(2).pick()
    >>> np.zeros((3, 2))[index].shape == index[0].shape
    True
    """
    import numpy as np

    sides = _shape(shape)
    if not sides or not all(sides):
        raise ValueError(f"shape must have at least one dimension and no side of 0 (nothing to index), got {shape!r}")
    try:
        kind = np.dtype(dtype)
    except (TypeError, ValueError):
        kind = None
    if kind is None or kind.kind not in "iu":
        raise TypeError(f"dtype must be an integer dtype, got {dtype!r}")
    if max(sides) > int(np.iinfo(kind).max) + 1:
        raise ValueError(f"shape has a side of {max(sides)}, more than dtype {kind} can index")
    shapes = array_shapes() if result_shape is None else result_shape
    if not isinstance(shapes, Picker):  # a plain shape stands for itself (checked now)
        shapes = Constant(AsShape("result_shape")(shapes))
    return Bind(Apply(AsShape("result_shape"), shapes), IntegerArrays(sides, kind), cache=True)


class AsShape:
    """A picked shape as a tuple of sides (a clear error naming the argument otherwise)."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.__name__ = "shape"

    def __call__(self, value: Any) -> tuple[int, ...]:
        if isinstance(value, list):
            value = tuple(value)
        try:
            shape = _shape(value, self.name)
        except ValueError:
            raise ValueError(f"{self.name} must pick shapes (tuples of non-negative ints), got {value!r}") from None
        if math.prod(shape) > MAX_ARRAY_ELEMENTS:
            raise ValueError(f"{self.name} must give shapes of at most {MAX_ARRAY_ELEMENTS:,} elements, got {shape!r}")
        return shape


class Rightmost:
    """The last ``ndim`` sides of those drawn right to left: a shape."""

    __name__ = "shape"

    def __call__(self, ndim: int, sides: tuple[int, ...]) -> tuple[int, ...]:
        return tuple(reversed(sides[:ndim]))


def _side_options(side: int, low: int, high: int) -> Picker[int] | None:
    """The sides that broadcast with ``side`` within ``[low, high]`` (``None``: none)."""
    if side == 1:
        return RandomInteger(low, high + 1) if low <= high else None
    options = [s for s in (1, side) if low <= s <= high]
    if not options:
        return None
    return Choice(*options) if len(options) > 1 else Constant(options[0])


def _dims_and_sides(shape: tuple[int, ...], min_dims: int, max_dims: int | None, min_side: int, max_side: int | None) -> tuple[int, int, int, int]:
    low_dims = check_int(min_dims, "min_dims", minimum=0, maximum=MAX_DIMS)
    high_dims = min(max(len(shape), low_dims) + 2, MAX_DIMS) if max_dims is None else check_int(max_dims, "max_dims", minimum=0, maximum=MAX_DIMS)
    if high_dims < low_dims:
        raise ValueError(f"max_dims must be at least min_dims, got min_dims={low_dims}, max_dims={high_dims}")
    low_side = check_int(min_side, "min_side", minimum=0)
    default_high = max((*shape[len(shape) - high_dims :], low_side)) + 2 if shape else low_side + 2
    high_side = default_high if max_side is None else check_int(max_side, "max_side", minimum=0)
    if high_side < low_side:
        raise ValueError(f"max_side must be at least min_side, got min_side={low_side}, max_side={high_side}")
    return low_dims, high_dims, low_side, high_side


def broadcastable_shapes(
    shape: Any, *, min_dims: int = 0, max_dims: int | None = None, min_side: int = 1, max_side: int | None = None
) -> Picker[tuple[int, ...]]:
    """Shapes that broadcast with ``shape``: ``min_dims`` to ``max_dims`` dimensions, sides
    from ``min_side`` to ``max_side`` (each aligned side equal to ``shape``'s, or 1).

    >>> import numpy as np, synthia as sy
    >>> all(np.broadcast_shapes(s, (3, 1)) for s in sy.broadcastable_shapes((3, 1)).set_seed(1).take(50))
    True
    """
    base = _shape(shape)
    low_dims, high_dims, low_side, high_side = _dims_and_sides(base, min_dims, max_dims, min_side, max_side)
    if high_dims == 0:
        return Constant(())
    positions: list[Picker[int]] = []
    for j in range(high_dims):
        options = _side_options(base[-1 - j] if j < len(base) else 1, low_side, high_side)
        if options is None:
            if j < low_dims:
                raise ValueError(f"no side in [min_side={min_side}, max_side={high_side}] broadcasts with side {base[-1 - j]} of {base}")
            high_dims = j
            break
        positions.append(options)
    if high_dims < low_dims:
        raise ValueError(f"no shape of at least {min_dims} dimensions broadcasts with {base} within the sides given")
    return Apply(Rightmost(), RandomInteger(low_dims, high_dims + 1), ArrayPicker(*positions) if positions else Constant(()))


class BroadcastableShapes(NamedTuple):
    """What :func:`mutually_broadcastable_shapes` gives: the input shapes and their broadcast."""

    input_shapes: tuple[tuple[int, ...], ...]
    result_shape: tuple[int, ...]


class MutualShapes:
    """Input shapes from shared sides (each input keeps a side or puts 1), and their result."""

    def __init__(self, base: tuple[int, ...]) -> None:
        self.base = base
        self.__name__ = "broadcastable shapes"

    def __call__(self, sides: tuple[int, ...], inputs: tuple[tuple[int, tuple[bool, ...]], ...]) -> BroadcastableShapes:
        import numpy as np

        shapes = []
        for ndim, ones in inputs:
            shapes.append(tuple(reversed([1 if one else sides[j] for j, one in enumerate(ones[:ndim])])))
        result = tuple(np.broadcast_shapes(*shapes, self.base))
        return BroadcastableShapes(tuple(shapes), result)


def mutually_broadcastable_shapes(
    num_shapes: int, *, signature: Any = None, base_shape: Any = (), min_dims: int = 0, max_dims: int | None = None,
    min_side: int = 1, max_side: int | None = None,
) -> Picker[BroadcastableShapes]:  # fmt: skip
    """``num_shapes`` shapes that broadcast together and with ``base_shape``, as a
    :class:`BroadcastableShapes` ``(input_shapes, result_shape)``. (A generalised ufunc
    ``signature`` is not supported: a ``TypeError`` says so.)

    >>> import numpy as np, synthia as sy
    >>> shapes = sy.mutually_broadcastable_shapes(3).set_seed(2).take(30)
    >>> all(np.broadcast_shapes(*s.input_shapes) == s.result_shape for s in shapes)
    True
    """
    count = check_int(num_shapes, "num_shapes", minimum=1, maximum=MAX_DIMS)
    if signature is not None:
        raise TypeError(f"signature (a generalised ufunc signature) is not supported by synthia, got {signature!r}")
    base = _shape(base_shape, "base_shape")
    low_dims, high_dims, low_side, high_side = _dims_and_sides(base, min_dims, max_dims, min_side, max_side)
    sides: list[Picker[int]] = []
    ones: list[Picker[bool]] = []
    for j in range(high_dims):
        fixed = base[-1 - j] if j < len(base) else 1
        if fixed != 1:
            if not low_side <= fixed <= high_side and not low_side <= 1:
                raise ValueError(f"no side in [min_side={min_side}, max_side={high_side}] broadcasts with side {fixed} of base_shape {base}")
            sides.append(Constant(fixed))
            ones.append(RandomBoolean() if low_side <= 1 and low_side <= fixed <= high_side else Constant(not low_side <= fixed <= high_side))
        else:
            sides.append(RandomInteger(low_side, high_side + 1))
            ones.append(RandomBoolean() if low_side <= 1 else Constant(False))
    inputs = ArrayPicker(
        *[ArrayPicker(RandomInteger(low_dims, high_dims + 1), ArrayPicker(*ones) if ones else Constant(())) for _ in range(count)]
    )
    return Apply(MutualShapes(base), ArrayPicker(*sides) if sides else Constant(()), inputs)


class Axes:
    """Axes picked as a tuple, each written positive or negative as drawn."""

    def __init__(self, ndim: int) -> None:
        self.ndim = ndim
        self.__name__ = "axes"

    def __call__(self, axes: list[int], negative: tuple[bool, ...]) -> tuple[int, ...]:
        return tuple(a - self.ndim if negative[a] else a for a in axes)


class _SizeBetween:
    def __init__(self, low: int, high: int) -> None:
        self.low, self.high = low, high
        self.__name__ = f"{low} to {high} axes"

    def __call__(self, axes: Sequence[int]) -> bool:
        return self.low <= len(axes) <= self.high


def valid_tuple_axes(ndim: int, *, min_size: int = 0, max_size: int | None = None) -> Picker[tuple[int, ...]]:
    """Tuples of distinct axes of an array of ``ndim`` dimensions (each positive or
    negative), of ``min_size`` to ``max_size`` axes: the ``axis`` argument of a reduction.

    >>> import synthia as sy
    >>> sy.valid_tuple_axes(3).set_seed(1).take(4)
    [(-1,), (-3,), (-2,), (-2, 2)]
    """
    n = check_int(ndim, "ndim", minimum=0, maximum=MAX_DIMS)
    low = check_int(min_size, "min_size", minimum=0)
    high = n if max_size is None else check_int(max_size, "max_size", minimum=0)
    if not low <= high <= n:
        raise ValueError(f"min_size <= max_size <= ndim must hold, got min_size={low}, max_size={high}, ndim={n}")
    if n == 0:
        return Constant(())
    picked = Apply(Axes(n), RandomSubList(range(n)), ArrayPicker(*[RandomBoolean() for _ in range(n)]))
    return PickIf(picked, _SizeBetween(low, high)) if (low, high) != (0, n) else picked
