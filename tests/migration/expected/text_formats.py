# Modelled on h11's header-value tests (characters in a code point range), the uuid and
# ipaddress round trips of web frameworks, st.emails() in validators' tests, st.from_regex
# for identifiers of a fixed format, and words unique up to case (unique_by), as in idna's
# and packaging's tests.
import string

import ipaddress
import synthia as sy
from hypothesis import strategies as st

from tests.migration.subjects.text import codes_ok, header_value_ok, ip_roundtrip, mail_domain, parse_uuid, word_count


@sy.given(value=sy.RandomText(sy.RandomInteger(0, 21), ranges=[(32, 126)], nasty=0))
def test_header_values_without_outer_whitespace(value):
    assert header_value_ok(value) == (value == value.strip(" \t"))


@sy.given(value=sy.RandomUUID(None))
def test_uuid_text_roundtrip(value):
    assert parse_uuid(str(value)) == value


@sy.given(address=sy.from_type(ipaddress.IPv4Address))
def test_ipv4_text_roundtrip(address):
    assert ip_roundtrip(address) == address


@sy.given(address=sy.from_strategy(st.emails()))
def test_mail_domain(address):
    assert mail_domain(address) == address.rsplit("@", 1)[1]


@sy.given(code=sy.RegexString(r"[A-Z]{2}-\d{4}"))
def test_order_codes_are_accepted(code):
    assert codes_ok(code)


@sy.given(words=sy.Apply(
    lambda l: [w for i, w in enumerate(l) if w.lower() not in {v.lower() for v in l[:i]}],
    sy.ComposeList(sy.RandomString(sy.RandomInteger(1, 5), string.ascii_letters), sy.RandomInteger(0, 7)),
))
def test_word_count_of_distinct_words(words):
    assert word_count(" ".join(words)) == len(words)
