# Modelled on h11's header-value tests (characters in a code point range), the uuid and
# ipaddress round trips of web frameworks, st.emails() in validators' tests, st.from_regex
# for identifiers of a fixed format, and words unique up to case (unique_by), as in idna's
# and packaging's tests.
import string

from hypothesis import given
from hypothesis import strategies as st

from tests.migration.subjects.text import codes_ok, header_value_ok, ip_roundtrip, mail_domain, parse_uuid, word_count


@given(st.text(alphabet=st.characters(min_codepoint=32, max_codepoint=126), max_size=20))
def test_header_values_without_outer_whitespace(value):
    assert header_value_ok(value) == (value == value.strip(" \t"))


@given(st.uuids())
def test_uuid_text_roundtrip(value):
    assert parse_uuid(str(value)) == value


@given(st.ip_addresses(v=4))
def test_ipv4_text_roundtrip(address):
    assert ip_roundtrip(address) == address


@given(st.emails())
def test_mail_domain(address):
    assert mail_domain(address) == address.rsplit("@", 1)[1]


@given(st.from_regex(r"[A-Z]{2}-\d{4}", fullmatch=True))
def test_order_codes_are_accepted(code):
    assert codes_ok(code)


@given(st.lists(st.text(alphabet=string.ascii_letters, min_size=1, max_size=4), unique_by=str.lower, max_size=6))
def test_word_count_of_distinct_words(words):
    assert word_count(" ".join(words)) == len(words)
