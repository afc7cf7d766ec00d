"""The challenges' columns and row conversions, shared by the SQLite and PostgreSQL seek stores."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import TypeVar

import orjson

from app.service.seek_ports import ChallengeRecord
from app.store.rows import Row, json_text

T = TypeVar("T")

COLUMNS = (
    "id, from_id, from_name, to_ids, to_names, game, players, options, settings, created_at, expires_at, "
    "status, answers, reason, match_id, version"
)
UPDATABLE = ("status", "answers", "reason", "match_id", "version")


def values(c: ChallengeRecord, time: Callable[[datetime], object]) -> tuple[object, ...]:
    """The row of `c`, times converted by `time` (SQLite stores text, PostgreSQL timestamps)."""
    return (
        *(c.id, c.from_id, c.from_name, json_text(list(c.to_ids)), json_text(list(c.to_names)), c.game),
        *(c.players, json_text(c.options), json_text(c.settings), time(c.created_at), time(c.expires_at)),
        *(c.status, json_text(c.answers), c.reason, c.match_id, c.version),
    )


def record(r: Row, parse: Callable[[T], datetime]) -> ChallengeRecord:
    created: datetime = parse(r[9])
    expires: datetime = parse(r[10])
    return ChallengeRecord(
        *(r[0], r[1], r[2], tuple(orjson.loads(r[3])), tuple(orjson.loads(r[4])), r[5], r[6]),
        *(orjson.loads(r[7]), orjson.loads(r[8]), created, expires, r[11], orjson.loads(r[12])),
        *(r[13], r[14], r[15]),
    )
