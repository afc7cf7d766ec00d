"""SQLite keeps times as UTC text (`SQLITE_TIME`); `sqlite_time` writes it, `parse_sqlite_time` reads it."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.store.rows import SQLITE_TIME, parse_sqlite_time, sqlite_time

AWARE = st.datetimes(
    min_value=datetime(1000, 1, 2), max_value=datetime(9999, 12, 30), timezones=st.sampled_from(
        [UTC, timezone(timedelta(hours=2)), timezone(timedelta(hours=-9, minutes=-30))]
    ),
)  # fmt: skip


@given(AWARE)
def test_a_time_is_written_as_strftime_writes_it_and_read_back_the_same(at: datetime) -> None:
    text = sqlite_time(at)
    assert text == at.astimezone(UTC).strftime(SQLITE_TIME)  # microseconds always, even when 0
    assert parse_sqlite_time(text) == at


def test_whole_seconds_keep_their_microseconds() -> None:
    assert sqlite_time(datetime(2026, 12, 6, 19, 0, tzinfo=UTC)) == "2026-12-06 19:00:00.000000"


def test_a_naive_time_is_refused() -> None:
    with pytest.raises(ValueError, match="naive"):
        sqlite_time(datetime(2026, 12, 6, 19, 0))  # the mistake under test
