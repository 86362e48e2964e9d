# Modelled on attrs, tests/strategies.py and tests/test_funcs.py: records built with
# @st.composite, asdict/evolve round trips, st.builds of a class with some fields given,
# st.from_type of a NamedTuple of a record and an Enum, and a type registered with
# st.register_type_strategy for the tests that ask for it by type.
from hypothesis import given
from hypothesis import strategies as st

from tests.migration.subjects.records import Config, Pixel, Point, Slug, asdict, config_from_dict, evolve, pixel_from_dict, slug_ok

st.register_type_strategy(Slug, st.from_regex(r"[a-z0-9]{1,8}", fullmatch=True).map(Slug))


@st.composite
def points(draw):
    return Point(draw(st.integers()), draw(st.integers()))


@given(points(), st.integers())
def test_evolve_changes_only_what_it_is_given(point, y):
    moved = evolve(point, y=y)
    assert moved.y == y and moved.x == point.x


@given(st.lists(st.integers(), max_size=5).map(tuple))
def test_asdict_keeps_tuples(value):
    assert asdict(value) == value and type(asdict(value)) is tuple


@given(st.builds(Config, name=st.text(min_size=1), tags=st.lists(st.text(max_size=5))))
def test_config_roundtrip(config):
    assert config_from_dict(asdict(config)) == config


@given(st.from_type(Pixel))
def test_pixel_roundtrip(pixel):
    assert pixel_from_dict(asdict(pixel)) == pixel


@given(st.from_type(Slug))
def test_registered_slugs_are_accepted(slug):
    assert slug_ok(slug)
