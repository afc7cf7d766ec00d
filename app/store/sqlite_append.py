"""The SQLite append on the raw `sqlite3` connection: the event store's hot path.

SQLAlchemy Core costs several times the driver's CPU per statement, and an append is three
statements per action, so on SQLite it is written here once more in plain SQL against the same
schema (`app.store.tables`), stored exactly as SQLAlchemy stores it: JSON as compact text (`null`
for None) and times as naive UTC `YYYY-MM-DD HH:MM:SS.ffffff`. The contract suite runs it against
the other stores, so the two ways of writing cannot drift apart unnoticed.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from datetime import UTC, datetime

from app.service.ports import IdempotencyRecord, MatchUpdate, NewEvent, VersionConflict
from app.store.tables import json_text, require_aware

_ADVANCE = (
    "UPDATE matches SET seq = ?, status = ?, to_act = ?, scores = ?, winners = ?, updated_at = ? "
    "WHERE id = ? AND seq = ?"
)
_SELECT_SEQ = "SELECT seq FROM matches WHERE id = ?"
_INSERT_EVENT = "INSERT INTO events (match_id, seq, type, data, recorded_at) VALUES (?, ?, ?, ?, ?)"
_INSERT_IDEMPOTENCY = (
    "INSERT INTO idempotency_keys (match_id, seat, key, request_hash, response, created_at) "
    "VALUES (?, ?, ?, ?, ?, ?)"
)
_UNIQUE = ("SQLITE_CONSTRAINT_PRIMARYKEY", "SQLITE_CONSTRAINT_UNIQUE")


def _time(at: datetime) -> str:
    return require_aware(at).astimezone(UTC).strftime("%Y-%m-%d %H:%M:%S.%f")


def append(
    raw: sqlite3.Connection,
    match_id: str,
    expected_seq: int,
    events: Sequence[NewEvent],
    update: MatchUpdate,
    at: datetime,
    idempotency: IdempotencyRecord | None,
) -> None:
    """Run inside the writer's transaction; raises `VersionConflict` (nothing written) or `KeyError`."""
    when = _time(at)
    cursor = raw.cursor()
    try:
        cursor.execute(
            _ADVANCE,
            (
                expected_seq + len(events),
                update.status,
                json_text(update.to_act),
                json_text(update.scores),
                json_text(update.winners),
                when,
                match_id,
                expected_seq,
            ),
        )
        if cursor.rowcount != 1:
            row = cursor.execute(_SELECT_SEQ, (match_id,)).fetchone()
            if row is None:
                raise KeyError(match_id)
            raise VersionConflict(match_id, expected_seq, row[0])
        cursor.executemany(
            _INSERT_EVENT,
            [(match_id, expected_seq + i, e.type, json_text(e.data), when) for i, e in enumerate(events, 1)],
        )
        if idempotency is not None:
            i = idempotency
            cursor.execute(
                _INSERT_IDEMPOTENCY, (match_id, i.seat, i.key, i.request_hash, json_text(i.response), when)
            )
    except sqlite3.IntegrityError as e:
        if getattr(e, "sqlite_errorname", None) in _UNIQUE:
            raise VersionConflict(match_id, expected_seq) from e
        raise
    finally:
        cursor.close()
