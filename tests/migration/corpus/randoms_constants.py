# Modelled on tests of functions that take a random source (st.randoms(), as in more-itertools'
# and toolz's sampling tests) and on lookups over large tables of constants with
# st.sampled_from (every 16-bit port, a block of Unicode code points), and permutations.
from hypothesis import given
from hypothesis import strategies as st

from tests.migration.subjects.randomness import code_point_name, port_service, reverse_permutation, sample, shuffled


@given(st.lists(st.integers(), max_size=8), st.randoms())
def test_a_shuffle_is_a_permutation(values, rng):
    assert sorted(shuffled(values, rng)) == sorted(values)


@given(st.lists(st.integers(), min_size=3, max_size=10, unique=True), st.randoms())
def test_a_sample_has_distinct_elements(values, rng):
    chosen = sample(values, 3, rng)
    assert len(set(chosen)) == 3 and set(chosen) <= set(values)


@given(st.sampled_from(range(0x10000)))
def test_every_port_has_a_service(port):
    assert port_service(port) in {"ssh", "http", "https", "unknown"}


CODE_POINTS = [c for c in range(0x1F300, 0x1F700)]


@given(st.sampled_from(CODE_POINTS))
def test_symbols_have_names(code):
    import unicodedata

    assert code_point_name(code) == unicodedata.name(chr(code), "")


@given(st.permutations([1, 2, 3, 4, 5]))
def test_reverse_of_a_permutation(values):
    assert reverse_permutation(list(values)) == list(values)[::-1]
