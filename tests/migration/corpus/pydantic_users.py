# Modelled on the pydantic/FastAPI way of writing property tests (pydantic's docs on
# Hypothesis; FastAPI projects' tests): st.builds of a model with constrained fields given
# strategies, a nested optional model, st.emails(), and the service functions around it.
from hypothesis import given
from hypothesis import strategies as st

from tests.migration.subjects.users import Address, User, age_bracket, export

addresses = st.builds(Address, street=st.text(max_size=10), postcode=st.from_regex(r"[0-9]{5}", fullmatch=True))
users = st.builds(
    User,
    name=st.text(min_size=1, max_size=20),
    age=st.integers(min_value=0, max_value=150),
    email=st.emails(),
    address=st.none() | addresses,
)


@given(users)
def test_age_bracket_is_total(user):
    assert age_bracket(user) in {"minor", "adult", "senior"}


@given(users)
def test_export_validates_back(user):
    assert User.model_validate(export(user)) == user
