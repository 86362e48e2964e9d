# Modelled on numpy's and scikit-learn's property tests with hypothesis.extra.numpy:
# arrays of a dtype and a drawn shape with bounded float elements, from_dtype scalars,
# basic_indices of a drawn shape through st.data(), integer_array_indices, unique arrays
# whose length is shared with another argument (st.shared), and mutually broadcastable shapes.
import numpy as np
import math
import synthia as sy
from hypothesis import strategies as st

from tests.migration.subjects.arrays import add_broadcast, gather, rank, rescale, saturating_add, take


@sy.given(values=sy.arrays(np.float64, sy.array_shapes(max_dims=2, max_side=5), elements=sy.AnyFloat(-1e6, math.nextafter(1e6, math.inf), signed_zero=True)))
def test_rescale_maps_into_the_unit_interval(values):
    scaled = rescale(values)
    assert np.all((scaled >= 0) & (scaled <= 1))


@sy.given(a=sy.from_dtype(np.dtype("int16")), b=sy.from_dtype(np.dtype("int16")))
def test_saturating_add_stays_in_range(a, b):
    assert saturating_add(a, b) == max(-32768, min(32767, int(a) + int(b)))


@sy.given()
def test_take_matches_indexing():
    shape = sy.draw(sy.array_shapes(min_dims=1, max_dims=3, max_side=4))
    array = np.arange(int(np.prod(shape))).reshape(shape)
    index = sy.draw(sy.basic_indices(shape))
    assert np.array_equal(take(array, index), array[index])


@sy.given(
    sized=sy.Bind(sy.RandomInteger(1, 9), lambda n: sy.ArrayPicker(sy.arrays(np.int64, n, elements=sy.RandomInteger(-100, 101), unique=True), n)),
)
def test_rank_is_a_permutation(sized):
    values, n = sized
    assert len(values) == n
    assert sorted(rank(values).tolist()) == list(range(n))


@sy.given(index=sy.integer_array_indices((3, 4), result_shape=sy.array_shapes(max_dims=2, max_side=3)))
def test_gather_matches_fancy_indexing(index):
    array = np.arange(12).reshape(3, 4)
    assert np.array_equal(gather(array, index), array[index])


@sy.given(shapes=sy.mutually_broadcastable_shapes(num_shapes=2, max_dims=3, max_side=3))
def test_add_broadcasts(shapes):
    a, b = (np.ones(s) for s in shapes.input_shapes)
    assert add_broadcast(a, b).shape == shapes.result_shape
