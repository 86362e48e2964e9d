"""The numpy pickers (``hypothesis.extra.numpy``'s vocabulary) and ``sy.randoms()``: values of
every dtype and shape, Hypothesis's semantics where they matter (bounds, NaN, ``unique``,
``fill``), element-wise shrinking, and a ``random.Random`` whose calls shrink."""
from __future__ import annotations

import math

import numpy as np
import pytest

import synthia as sy


def test_arrays_of_every_scalar_dtype_and_shape() -> None:
    arrays = sy.arrays(sy.scalar_dtypes(), sy.array_shapes(min_dims=0, max_dims=3)).set_seed(1).take(300)
    assert {a.dtype.kind for a in arrays} == set("biufcmM")
    assert {a.ndim for a in arrays} == {0, 1, 2, 3}
    for kind in ("U4", "S3", "datetime64[ms]", "timedelta64[s]", "complex128", "float16", "uint64", "bool", object):
        a = sy.arrays(kind, (2, 3)).set_seed(2).pick()
        assert a.shape == (2, 3) and a.dtype == np.dtype(kind)


def test_from_dtype_follows_the_bounds_and_the_nan_rules() -> None:
    floats = sy.from_dtype("float64").set_seed(1).take(3000)
    assert any(math.isnan(x) for x in floats) and math.inf in floats and -math.inf in floats  # by default, as Hypothesis
    bounded = sy.from_dtype("float32", min_value=-1.5, max_value=2.0, exclude_max=True).set_seed(1).take(1000)
    assert all(-1.5 <= x < 2.0 and np.float32(x) == x for x in bounded)  # within the bounds, exact in float32
    assert sy.from_dtype("float64", min_value=0.0).set_seed(2).take(500).count(math.inf) > 0  # one infinite bound: inf allowed
    ints = sy.from_dtype("uint8", min_value=3, max_value=9).set_seed(1).take(300)
    assert set(ints) == set(range(3, 10))
    assert all(-128 <= x < 128 for x in sy.from_dtype("int8").set_seed(1).take(300))
    times = sy.from_dtype("datetime64[D]").set_seed(1).take(500)
    assert any(np.isnat(t) for t in times) and not any(np.isnat(t) for t in sy.from_dtype("datetime64[D]", allow_nan=False).set_seed(1).take(500))
    text = sy.from_dtype("U3", alphabet="ab").set_seed(1).take(100)
    assert all(set(t) <= {"a", "b"} and len(t) <= 3 for t in text)
    assert all(not b.endswith(b"\x00") and len(b) <= 4 for b in sy.from_dtype("S4").set_seed(1).take(200))
    small = sy.from_dtype("complex128", max_magnitude=2.0).set_seed(1).take(200)
    assert all(abs(z) <= 2.0 for z in small)


def test_unique_arrays_have_distinct_elements_and_fill_keeps_most_of_the_array() -> None:
    for a in sy.arrays("int8", 20, unique=True).set_seed(1).take(50):
        assert len(set(a.tolist())) == 20
    for a in sy.arrays("float64", 10, elements=sy.from_dtype("float64", allow_nan=True, allow_infinity=False), unique=True).set_seed(1).take(50):
        finite = [x for x in a.tolist() if not math.isnan(x)]
        assert len(set(finite)) == len(finite)  # NaN counts as distinct from each other
    filled = sy.arrays("int16", (100, 100), fill=sy.Constant(-1)).set_seed(1).take(20)
    assert all(a.shape == (100, 100) and (a == -1).sum() >= 10_000 - 200 for a in filled)
    assert any((a != -1).any() for a in filled)
    with pytest.raises(sy.GiveUp):
        sy.arrays("bool", 3, unique=True).set_seed(1).pick()  # only two booleans exist


def test_arrays_shrink_element_by_element() -> None:
    report = sy.Assert(lambda a: a.sum() < 1000, a=sy.arrays("int32", 4, elements=sy.RandomInteger(0, 10_000))).run(seed=1)
    assert report.smallest["a"].tolist() == [0, 0, 0, 1000]
    report = sy.Assert(lambda a: not (a > 100).any(), a=sy.arrays("float64", sy.array_shapes(max_dims=2))).run(seed=2)
    a = report.smallest["a"]
    assert a.shape == (1,) and a.tolist() == [101.0]  # one element, the first float above 100 in the float order
    report = sy.Assert(lambda a: (a != 7).all(), a=sy.arrays("int64", 50, elements=sy.RandomInteger(0, 10), fill=0)).run(seed=3)
    assert report.smallest["a"].tolist() == [7] + [0] * 49  # one explicit element left, at the first position


def test_batched_elements_are_the_values_of_one_pick_each() -> None:
    batched = sy.NumpyArray("int64", 1000, sy.RandomInteger(-50, 50, seed=4))
    one_by_one = sy.NumpyArray("int64", 1000, sy.Apply(int, sy.RandomInteger(-50, 50, seed=4)))  # an Apply never batches
    assert batched.pick().tolist() == one_by_one.pick().tolist() == sy.RandomInteger(-50, 50, seed=4).take(2000)[:1000]
    with pytest.raises(ValueError, match="fit dtype int8"):
        sy.NumpyArray("int8", 10, sy.RandomInteger(0, 1000)).set_seed(1).pick()


def test_dtype_pickers() -> None:
    assert {str(d) for d in sy.integer_dtypes().set_seed(1).take(200)} >= {"int8", "int16", "int32", "int64", ">i2", ">i8"}
    assert {d.itemsize for d in sy.unsigned_integer_dtypes(sizes=(16,)).set_seed(1).take(20)} == {2}
    assert {d.kind for d in sy.floating_dtypes().set_seed(1).take(50)} == {"f"}
    assert {d.kind for d in sy.complex_number_dtypes().set_seed(1).take(50)} == {"c"}
    assert sy.boolean_dtypes().pick() == np.dtype(bool)
    units = {np.datetime_data(d)[0] for d in sy.datetime64_dtypes(max_period="D", min_period="ms").set_seed(1).take(200)}
    assert units == {"D", "h", "m", "s", "ms"}
    assert {np.datetime_data(d)[0] for d in sy.timedelta64_dtypes(max_period="s", min_period="s").set_seed(1).take(5)} == {"s"}
    assert all(d.kind == "S" and 1 <= d.itemsize <= 4 for d in sy.byte_string_dtypes(max_len=4).set_seed(1).take(50))
    assert all(d.kind == "U" and d.itemsize == 4 * 2 for d in sy.unicode_string_dtypes(min_len=2, max_len=2).set_seed(1).take(5))
    records = sy.array_dtypes(sy.integer_dtypes(), max_size=3, allow_subarrays=True).set_seed(1).take(100)
    assert all(1 <= len(d.names) <= 3 for d in records) and any(d.fields["f0"][0].shape for d in records)
    nested = sy.nested_dtypes(max_leaves=6).set_seed(1).take(100)
    assert any(d.fields is not None and any(d.fields[n][0].fields is not None for n in d.names) for d in nested)
    assert all(sy.arrays(d, 2).set_seed(1).pick().dtype == d for d in nested[:20])  # arrays of nested dtypes


def test_shapes_and_indices() -> None:
    shapes = sy.array_shapes(min_dims=2, max_dims=4, min_side=0, max_side=2).set_seed(1).take(200)
    assert all(2 <= len(s) <= 4 and all(0 <= d <= 2 for d in s) for s in shapes)
    a = np.zeros((3, 4, 5))
    for index in sy.basic_indices((3, 4, 5), min_dims=1, max_dims=2, allow_newaxis=True).set_seed(1).take(300):
        assert 1 <= a[index].ndim <= 2  # a valid basic index, of the dimensions asked
    kinds = {type(p) for i in sy.basic_indices((3, 4), allow_newaxis=True).set_seed(1).take(300) for p in (i if isinstance(i, tuple) else (i,))}
    assert kinds == {int, slice, type(Ellipsis), type(None)}
    for index in sy.integer_array_indices((3, 4), result_shape=sy.array_shapes(max_dims=2)).set_seed(1).take(50):
        assert np.zeros((3, 4))[index].shape == index[0].shape
    for shape in sy.broadcastable_shapes((4, 1, 3), min_side=0).set_seed(1).take(200):
        np.broadcast_shapes(shape, (4, 1, 3))
    for shapes in sy.mutually_broadcastable_shapes(3, base_shape=(5, 1)).set_seed(1).take(200):
        assert np.broadcast_shapes(*shapes.input_shapes, (5, 1)) == shapes.result_shape
    for axes in sy.valid_tuple_axes(4, min_size=1, max_size=3).set_seed(1).take(100):
        assert 1 <= len(axes) <= 3 and len({a % 4 for a in axes}) == len(axes)
        np.zeros((2, 2, 2, 2)).sum(axis=axes)


def test_basic_indices_shrink_to_the_simplest_index() -> None:
    report = sy.Assert(lambda i: np.zeros((3, 4))[i].ndim != 1, i=sy.basic_indices((3, 4))).run(seed=1)
    assert report.smallest == {"i": (0,)}


def test_randoms_calls_are_draws_that_shrink() -> None:
    def test_dice(r: object) -> bool:
        return r.randint(1, 6) + r.randint(1, 6) < 11  # type: ignore[attr-defined]

    report = sy.Assert(test_dice, r=sy.randoms()).run(seed=1)
    assert not report.passed and not report.flaky
    # The Random's seed (one draw, the simplest: 0), then the shortlex-smallest pair of rolls.
    assert report.tape is not None and report.tape.values() == [0, 5, 6]

    seen: list[list[int]] = []

    def test_shuffle(r: object) -> bool:
        deck = list(range(8))
        r.shuffle(deck)  # type: ignore[attr-defined]
        seen.append(deck)
        return deck[0] != 7

    report = sy.Assert(test_shuffle, r=sy.randoms()).run(seed=2)
    # The smallest draws, shortlex: each position takes the one before it (the first draw 1, not 7).
    assert not report.passed and seen[-1] == [7, 0, 1, 2, 3, 4, 5, 6]


def test_randoms_replay_the_same_values_and_leave_the_next_inputs_alone() -> None:
    def values(seed: int, calls: int) -> list[float]:
        picker = sy.randoms().set_seed(seed)
        out = []
        for _ in range(3):
            r = picker.pick()
            out.append(r.random())
            for _ in range(calls):
                r.random()  # calls made by a test never move the picker
        return out

    assert values(5, 0) == values(5, 10)
    r = sy.randoms().set_seed(1).pick()
    r.seed(123)  # changes nothing: the values are the run's draws
    assert 0 <= r.random() < 1 and r.choice("abc") in "abc" and sorted(r.sample(range(5), 5)) == list(range(5))
    with pytest.raises(IndexError):
        r.choice([])
    with pytest.raises(ValueError):
        r.randrange(5, 5)
    plain = sy.randoms(use_true_random=True).set_seed(1).take(2)
    assert all(type(p).__name__ == "Random" for p in plain)


def test_a_unique_array_may_have_a_nan_fill_and_integer_dtypes_take_one_size() -> None:
    # As Hypothesis allows: NaN equals nothing, so a NaN fill never repeats; the explicit
    # elements are distinct. Any other fill with unique=True is refused at construction.
    arrays = sy.arrays(dtype=float, elements=sy.RandomFloat(0, 1), fill=np.nan, shape=40, unique=True).set_seed(3)
    explicit = [a[~np.isnan(a)].tolist() for a in arrays.take(50)]
    assert any(len(v) > 3 for v in explicit) and all(len(set(v)) == len(v) for v in explicit)
    with pytest.raises(ValueError, match="unless it is NaN"):
        sy.arrays(dtype=int, elements=sy.RandomInteger(0, 5), fill=0, shape=3, unique=True)
    assert {d.itemsize for d in sy.integer_dtypes(sizes=16).set_seed(1).take(10)} == {2}
