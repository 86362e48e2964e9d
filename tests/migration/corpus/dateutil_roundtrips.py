# Modelled on dateutil, tests/property/test_isoparse_prop.py and test_tz_prop.py: isoformat
# round trips of datetimes in a bounded range, offsets and durations formatted and parsed
# back, and a calendar function checked against the standard library.
import datetime as dt

from hypothesis import given
from hypothesis import strategies as st

from tests.migration.subjects import dates


@given(dt_val=st.datetimes(min_value=dt.datetime(1900, 1, 1), max_value=dt.datetime(2100, 12, 31)))
def test_isoformat_roundtrip(dt_val):
    assert dates.isoparse(dt_val.isoformat()) == dt_val


@given(st.integers(min_value=-12 * 60, max_value=14 * 60))
def test_offset_roundtrip(minutes):
    assert dates.parse_offset(dates.format_offset(minutes)) == minutes


@given(st.timedeltas(min_value=dt.timedelta(0), max_value=dt.timedelta(days=30)))
def test_duration_roundtrip(delta):
    assert dates.parse_duration(dates.format_duration(delta)) == delta


@given(st.dates(dt.date(2000, 1, 1), dt.date(2000, 12, 31)))
def test_day_of_year_in_a_leap_year(day):
    assert dates.day_of_year(day) == day.timetuple().tm_yday
