# Modelled on the settings of pandas' and numpy's test suites: profiles registered in the
# test module's set-up (a "ci" profile without deadline or the slow health check,
# derandomized; a quick "dev" one) and chosen from the environment, @settings with more
# examples on one test, a pinned @seed, phases without shrinking, and a deadline.
import datetime
import os
import string

from hypothesis import settings
import synthia as sy

from tests.migration.subjects.text import slugify
from tests.migration.subjects.tools import gcd

sy.register_profile("ci", max_examples=200, seed=0)
sy.register_profile("dev", max_examples=20)
sy.load_profile(os.getenv("HYPOTHESIS_PROFILE", "dev"))


@sy.RunOptions(max_examples=300)
@sy.given(text=sy.RandomString(sy.RandomInteger(0, 31), string.ascii_letters + string.digits + " -_"))
def test_slugify_is_idempotent(text):
    assert slugify(slugify(text)) == slugify(text)


@sy.RunOptions(shrink_budget=0)
@sy.given(a=sy.RandomInteger(1, 31), b=sy.RandomInteger(1, 31))
def test_gcd_divides_both(a, b):
    g = gcd(a, b)
    assert a % g == 0 and b % g == 0 and (a != b or g == a)


@sy.given(word=sy.Apply("".join, sy.ComposeList(sy.Choice(*string.ascii_lowercase + "0123456789"), sy.RandomInteger(1, 13))))
def test_slugify_keeps_plain_slugs(word):
    assert slugify(word) == word
