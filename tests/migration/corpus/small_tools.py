# Modelled on how projects use Hypothesis's small tools: note() of an intermediate value
# (attrs, dateutil), @example of a known bad input with assume() on the arguments, target()
# to steer towards large distances (Hypothesis's targeted-PBT docs), event() to see the
# cases a run met, reject() of inputs the property is not about, find() for the smallest
# value with a property (Hypothesis's docs), and examples of version strings (packaging).
import math

from hypothesis import assume, event, example, find, given, note, reject, target
from hypothesis import strategies as st

from tests.migration.subjects.tools import clamp, distance, gcd, mean, reciprocal_sum, split_words, version_key


@given(st.lists(st.integers(-1000, 1000), min_size=1))
def test_mean_times_length_is_the_sum(values):
    m = mean(values)
    note(f"mean={m}")
    assert math.isclose(m * len(values), sum(values), abs_tol=1e-6)


@given(st.integers(-50, 50), st.integers(-50, 50), st.integers(-50, 50))
@example(11, 0, 10)
def test_clamp_stays_in_range(x, low, high):
    assume(low <= high)
    assert low <= clamp(x, low, high) <= high


coordinates = st.tuples(st.floats(0, 1000), st.floats(0, 1000))


@given(coordinates, coordinates)
def test_distance_matches_hypot(a, b):
    d = distance(a, b)
    target(d, label="distance")
    assert d == math.hypot(a[0] - b[0], a[1] - b[1])


@given(st.text(alphabet="ab ", max_size=10))
def test_split_has_no_empty_words(text):
    event("double space" if "  " in text else "single spaces")
    assert all(split_words(text))


@given(st.lists(st.integers(-20, 20), max_size=6))
def test_reciprocal_sum(values):
    if 0 in values:
        reject()
    assert math.isclose(reciprocal_sum(values), sum(1 / v for v in values), abs_tol=1e-9)


def test_smallest_pair_with_a_common_factor():
    pair = find(st.tuples(st.integers(2, 50), st.integers(2, 50)), lambda p: gcd(*p) > 1)
    assert pair == (2, 2)


@given(st.tuples(st.integers(0, 20), st.integers(0, 20), st.integers(0, 20)), st.integers(0, 20))
@example((1, 2, 9), 10)
def test_a_later_patch_sorts_after(version, later_patch):
    assume(later_patch > version[2])
    earlier = ".".join(map(str, version))
    later = ".".join(map(str, (version[0], version[1], later_patch)))
    assert version_key(earlier) < version_key(later)
