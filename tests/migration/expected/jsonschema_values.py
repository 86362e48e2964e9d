# Modelled on hypothesis-jsonschema (Zac-HD/hypothesis-jsonschema): JSON values as an
# st.recursive strategy over scalars with lists and dictionaries, an @st.composite of number
# schemas with values drawn through st.data() in a helper that takes the data object, and
# schema merging checked against membership.
import json

from hypothesis import given
import synthia as sy
from hypothesis import strategies as st

from tests.migration.subjects.jsonish import canonical, encode, merged_minimum, number_valid

JSON = sy.Deferred(lambda: sy.Choice(sy.Choice(sy.Constant(None), sy.RandomBoolean(), sy.AnyInteger(), sy.AnyFloat(subnormal=True, signed_zero=True), sy.RandomText(sy.RandomInteger(0, 6), nasty=0)), sy.Choice(sy.ComposeList(JSON, sy.RandomInteger(0, 5)), sy.DictPicker(sy.RandomText(sy.RandomInteger(0, 4), nasty=0), JSON, sy.RandomInteger(0, 5)))), max_depth=3, fallback=sy.Choice(sy.Constant(None), sy.RandomBoolean(), sy.AnyInteger(), sy.AnyFloat(subnormal=True, signed_zero=True), sy.RandomText(sy.RandomInteger(0, 6), nasty=0)))


@sy.given(value=JSON)
def test_encode_roundtrip(value):
    assert canonical(json.loads(encode(value))) == canonical(value)


@sy.composite
def number_schemas(draw):
    low = draw(sy.RandomInteger(-100, 101))
    high = draw(sy.RandomInteger(low + 1, low + 50 + 1))
    return {"minimum": low, "exclusiveMaximum": high}


def draw_valid(schema):
    return sy.draw(sy.RandomInteger(schema["minimum"], schema["exclusiveMaximum"]))


@sy.given(schema=number_schemas())
def test_values_in_the_schema_are_valid(schema):
    assert number_valid(schema, draw_valid(schema))
    assert not number_valid(schema, schema["exclusiveMaximum"])


@sy.given(
    a=sy.Struct({"minimum": sy.RandomInteger(-1000, 1001)}),
    b=sy.Struct({"minimum": sy.RandomInteger(-1000, 1001)}),
    value=sy.RandomInteger(-1000, 1001),
)
def test_merged_schema_is_the_intersection(a, b, value):
    both = value >= a["minimum"] and value >= b["minimum"]
    assert (value >= merged_minimum(a, b)["minimum"]) == both
