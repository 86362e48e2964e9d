# Modelled on the settings of pandas' and numpy's test suites: profiles registered in the
# test module's set-up (a "ci" profile without deadline or the slow health check,
# derandomized; a quick "dev" one) and chosen from the environment, @settings with more
# examples on one test, a pinned @seed, phases without shrinking, and a deadline.
import datetime
import os
import string

from hypothesis import HealthCheck, Phase, Verbosity, given, seed, settings
from hypothesis import strategies as st

from tests.migration.subjects.text import slugify
from tests.migration.subjects.tools import gcd

settings.register_profile("ci", max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)
settings.register_profile("dev", max_examples=20, verbosity=Verbosity.normal)
settings.load_profile(os.getenv("HYPOTHESIS_PROFILE", "dev"))


@settings(max_examples=300)
@given(st.text(alphabet=string.ascii_letters + string.digits + " -_", max_size=30))
def test_slugify_is_idempotent(text):
    assert slugify(slugify(text)) == slugify(text)


@seed(20240501)
@settings(phases=[Phase.explicit, Phase.reuse, Phase.generate])
@given(st.integers(1, 30), st.integers(1, 30))
def test_gcd_divides_both(a, b):
    g = gcd(a, b)
    assert a % g == 0 and b % g == 0 and (a != b or g == a)


@settings(deadline=datetime.timedelta(milliseconds=500))
@given(st.lists(st.sampled_from(string.ascii_lowercase + "0123456789"), min_size=1, max_size=12).map("".join))
def test_slugify_keeps_plain_slugs(word):
    assert slugify(word) == word
