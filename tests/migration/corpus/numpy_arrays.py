# Modelled on numpy's and scikit-learn's property tests with hypothesis.extra.numpy:
# arrays of a dtype and a drawn shape with bounded float elements, from_dtype scalars,
# basic_indices of a drawn shape through st.data(), integer_array_indices, unique arrays
# whose length is shared with another argument (st.shared), and mutually broadcastable shapes.
import numpy as np
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from tests.migration.subjects.arrays import add_broadcast, gather, rank, rescale, saturating_add, take


@given(hnp.arrays(np.float64, hnp.array_shapes(max_dims=2, max_side=5), elements=st.floats(-1e6, 1e6)))
def test_rescale_maps_into_the_unit_interval(values):
    scaled = rescale(values)
    assert np.all((scaled >= 0) & (scaled <= 1))


@given(hnp.from_dtype(np.dtype("int16")), hnp.from_dtype(np.dtype("int16")))
def test_saturating_add_stays_in_range(a, b):
    assert saturating_add(a, b) == max(-32768, min(32767, int(a) + int(b)))


@given(st.data())
def test_take_matches_indexing(data):
    shape = data.draw(hnp.array_shapes(min_dims=1, max_dims=3, max_side=4))
    array = np.arange(int(np.prod(shape))).reshape(shape)
    index = data.draw(hnp.basic_indices(shape))
    assert np.array_equal(take(array, index), array[index])


@given(
    hnp.arrays(np.int64, st.shared(st.integers(1, 8), key="n"), elements=st.integers(-100, 100), unique=True),
    st.shared(st.integers(1, 8), key="n"),
)
def test_rank_is_a_permutation(values, n):
    assert len(values) == n
    assert sorted(rank(values).tolist()) == list(range(n))


@given(hnp.integer_array_indices((3, 4), result_shape=hnp.array_shapes(max_dims=2, max_side=3)))
def test_gather_matches_fancy_indexing(index):
    array = np.arange(12).reshape(3, 4)
    assert np.array_equal(gather(array, index), array[index])


@given(hnp.mutually_broadcastable_shapes(num_shapes=2, max_dims=3, max_side=3))
def test_add_broadcasts(shapes):
    a, b = (np.ones(s) for s in shapes.input_shapes)
    assert add_broadcast(a, b).shape == shapes.result_shape
