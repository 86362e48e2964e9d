# Modelled on hypothesis-jsonschema (Zac-HD/hypothesis-jsonschema): JSON values as an
# st.recursive strategy over scalars with lists and dictionaries, an @st.composite of number
# schemas with values drawn through st.data() in a helper that takes the data object, and
# schema merging checked against membership.
import json

from hypothesis import given
from hypothesis import strategies as st

from tests.migration.subjects.jsonish import canonical, encode, merged_minimum, number_valid

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=5),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=3), children, max_size=4),
    max_leaves=20,
)


@given(JSON)
def test_encode_roundtrip(value):
    assert canonical(json.loads(encode(value))) == canonical(value)


@st.composite
def number_schemas(draw):
    low = draw(st.integers(-100, 100))
    high = draw(st.integers(low + 1, low + 50))
    return {"minimum": low, "exclusiveMaximum": high}


def draw_valid(data, schema):
    return data.draw(st.integers(schema["minimum"], schema["exclusiveMaximum"] - 1))


@given(number_schemas(), st.data())
def test_values_in_the_schema_are_valid(schema, data):
    assert number_valid(schema, draw_valid(data, schema))
    assert not number_valid(schema, schema["exclusiveMaximum"])


@given(
    st.fixed_dictionaries({"minimum": st.integers(-1000, 1000)}),
    st.fixed_dictionaries({"minimum": st.integers(-1000, 1000)}),
    st.integers(-1000, 1000),
)
def test_merged_schema_is_the_intersection(a, b, value):
    both = value >= a["minimum"] and value >= b["minimum"]
    assert (value >= merged_minimum(a, b)["minimum"]) == both
