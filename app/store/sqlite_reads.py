"""The SQLite store's reads: synchronous units of work run on the reader connections.

Rows come back as the port's frozen records: JSON text decoded by orjson, UTC text times tagged
UTC, 0/1 as booleans. A page and its total are read in one read transaction, so they agree.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime

import orjson

from app.service.ports import (
    IdempotencyRecord,
    MatchFilter,
    MatchRecord,
    PlayerMatch,
    PlayerMatchFilter,
    PlayerRecord,
    SeatRecord,
    Snapshot,
    StoredEvent,
    StoredNotice,
)
from app.store.rows import from_json, ints, json_many, parse_sqlite_time, parse_sqlite_time_or_none
from app.store.sqlite_writes import MATCH_COLUMNS, SEAT_COLUMNS

_M_COLUMNS = ", ".join(f"m.{c.strip()}" for c in MATCH_COLUMNS.split(","))
_READ = (
    "SELECT seq, commit_seq, type, data, recorded_at FROM events WHERE match_id = ? AND seq > ? ORDER BY seq"
)
_NOTICES = (
    "SELECT cursor, type, data, recorded_at FROM notices WHERE player_id = ? AND cursor > ? ORDER BY cursor"
)
_PLAYER = "SELECT id, name, key_hash, created_at, cursor, banned_at, ban_reason FROM players"
_DUE = (
    "SELECT id FROM matches WHERE deadline_at <= ? AND status IN ('waiting', 'active') "
    "ORDER BY deadline_at, id LIMIT ?"
)
_STALLED = (
    "SELECT id FROM matches WHERE bot_due = 1 AND status = 'active' AND updated_at <= ? "
    "ORDER BY updated_at, id LIMIT ?"
)
_IDEMPOTENCY = (
    "SELECT match_id, seat, key, request_hash, first_seq, last_seq FROM idempotency_keys "
    "WHERE match_id = ? AND seat = ? AND key = ?"
)
_OPEN = "(status = 'waiting' AND open_seats > 0)"


def match_record(r: sqlite3.Row) -> MatchRecord:
    return MatchRecord(
        id=r[0],
        game=r[1],
        players=r[2],
        options=orjson.loads(r[3]),
        status=r[4],
        seq=r[5],
        created_at=parse_sqlite_time(r[6]),
        updated_at=parse_sqlite_time(r[7]),
        secret=r[8],
        commitment=r[9],
        to_act=tuple(orjson.loads(r[10])),
        scores=ints(from_json(r[11])),
        winners=ints(from_json(r[12])),
        settings=orjson.loads(r[13]),
        visibility=r[14],
        host_token_hash=r[15],
        invite_hash=r[16],
        deadline_at=parse_sqlite_time_or_none(r[17]),
        open_seats=r[18],
        bot_due=bool(r[19]),
    )


def seat_record(r: sqlite3.Row) -> SeatRecord:
    return SeatRecord(r[0], r[1], r[2], r[3], bool(r[4]), parse_sqlite_time_or_none(r[5]), r[6], r[7])


def get_match(conn: sqlite3.Connection, match_id: str) -> MatchRecord | None:
    rows = conn.execute(f"SELECT {MATCH_COLUMNS} FROM matches WHERE id = ?", (match_id,)).fetchall()
    return match_record(rows[0]) if rows else None


def lobby_query(flt: MatchFilter) -> tuple[str, str, list[object]]:
    """The lobby's page statement (LIMIT and OFFSET come after `args`), its count, and `args`."""
    where = ["1 = 1" if flt.include_unlisted else "visibility = 'public'"]
    args: list[object] = []
    if flt.status is not None:
        where.append("status = ?")
        args.append(flt.status)
    if flt.game is not None:
        where.append("game = ?")
        args.append(flt.game)
    if flt.open is not None:
        where.append(_OPEN if flt.open else f"NOT {_OPEN}")
    cond = " AND ".join(where)
    page = (
        f"SELECT {MATCH_COLUMNS} FROM matches WHERE {cond} ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?"
    )
    return page, f"SELECT count(*) FROM matches WHERE {cond}", args


def list_matches(conn: sqlite3.Connection, flt: MatchFilter) -> tuple[list[MatchRecord], int]:
    page, count, args = lobby_query(flt)
    with _snapshot(conn):
        rows = conn.execute(page, (*args, flt.limit, flt.offset)).fetchall()
        total = conn.execute(count, args).fetchall()[0][0]
    return [match_record(r) for r in rows], total


def get_seats(conn: sqlite3.Connection, match_id: str) -> list[SeatRecord]:
    query = f"SELECT {SEAT_COLUMNS} FROM seats WHERE match_id = ? ORDER BY seat"
    return [seat_record(r) for r in conn.execute(query, (match_id,))]


def seat_by_token(conn: sqlite3.Connection, token_hash: str) -> SeatRecord | None:
    rows = conn.execute(f"SELECT {SEAT_COLUMNS} FROM seats WHERE token_hash = ?", (token_hash,)).fetchall()
    return seat_record(rows[0]) if rows else None


def read(conn: sqlite3.Connection, match_id: str, after: int, limit: int | None) -> list[StoredEvent]:
    if limit is None:
        rows = conn.execute(_READ, (match_id, after)).fetchall()
    else:
        rows = conn.execute(_READ + " LIMIT ?", (match_id, after, limit)).fetchall()
    times: dict[str, datetime] = {}  # the events of one commit share their time: parse it once
    out = []
    for (seq, commit, type_, _, at), data in zip(rows, json_many([r[3] for r in rows]), strict=True):
        when = times.get(at)
        if when is None:
            when = times[at] = parse_sqlite_time(at)
        out.append(StoredEvent(match_id, seq, type_, data, when, commit))
    return out


def get_idempotent(conn: sqlite3.Connection, match_id: str, seat: int, key: str) -> IdempotencyRecord | None:
    rows = conn.execute(_IDEMPOTENCY, (match_id, seat, key)).fetchall()
    return IdempotencyRecord(*rows[0]) if rows else None


def due_matches(conn: sqlite3.Connection, now: str, limit: int) -> list[str]:
    return [r[0] for r in conn.execute(_DUE, (now, limit))]


def stalled_bots(conn: sqlite3.Connection, before: str, limit: int) -> list[str]:
    return [r[0] for r in conn.execute(_STALLED, (before, limit))]


def player(conn: sqlite3.Connection, column: str, value: str) -> PlayerRecord | None:
    rows = conn.execute(f"{_PLAYER} WHERE {column} = ?", (value,)).fetchall()
    if not rows:
        return None
    id_, name, key_hash, created_at, cursor, banned_at, reason = rows[0]
    return PlayerRecord(
        id_,
        name,
        key_hash,
        parse_sqlite_time(created_at),
        cursor,
        parse_sqlite_time_or_none(banned_at),
        reason,
    )


_BANNED_AMONG = (
    "SELECT p.id FROM json_each(?) AS j JOIN players AS p ON p.id = j.value WHERE p.banned_at IS NOT NULL"
)


def banned_among(conn: sqlite3.Connection, player_ids: list[str]) -> set[str]:
    return {r[0] for r in conn.execute(_BANNED_AMONG, (orjson.dumps(player_ids).decode(),))}


def player_matches(conn: sqlite3.Connection, flt: PlayerMatchFilter) -> tuple[list[PlayerMatch], int]:
    where, args = ["s.player_id = ?"], [flt.player_id]
    if flt.status is not None:
        where.append("m.status = ?")
        args.append(flt.status)
    if flt.game is not None:
        where.append("m.game = ?")
        args.append(flt.game)
    if flt.to_act:
        where.append("EXISTS (SELECT 1 FROM json_each(m.to_act) AS t WHERE t.value = s.seat)")
    source = f"seats AS s JOIN matches AS m ON m.id = s.match_id WHERE {' AND '.join(where)}"
    page = f"SELECT {_M_COLUMNS}, s.seat FROM {source} ORDER BY m.updated_at DESC, m.id DESC LIMIT ? OFFSET ?"
    with _snapshot(conn):
        rows = conn.execute(page, (*args, flt.limit, flt.offset)).fetchall()
        total = conn.execute(f"SELECT count(*) FROM {source}", args).fetchall()[0][0]
    return [PlayerMatch(match_record(r), r[-1]) for r in rows], total


def read_notices(
    conn: sqlite3.Connection, player_id: str, after: int, limit: int | None
) -> list[StoredNotice]:
    if limit is None:
        rows = conn.execute(_NOTICES, (player_id, after)).fetchall()
    else:
        rows = conn.execute(_NOTICES + " LIMIT ?", (player_id, after, limit)).fetchall()
    return [
        StoredNotice(player_id, cursor, type_, orjson.loads(data), parse_sqlite_time(at))
        for cursor, type_, data, at in rows
    ]


def get_snapshot(conn: sqlite3.Connection, match_id: str) -> Snapshot | None:
    query = "SELECT seq, version, data FROM snapshots WHERE match_id = ?"
    rows = conn.execute(query, (match_id,)).fetchall()
    return Snapshot(match_id, rows[0][0], rows[0][1], bytes(rows[0][2])) if rows else None


def ping(conn: sqlite3.Connection) -> None:
    conn.execute("SELECT 1").fetchall()


@contextmanager
def _snapshot(conn: sqlite3.Connection) -> Iterator[None]:
    """One read transaction: every statement inside sees the same commit."""
    conn.execute("BEGIN")
    try:
        yield
    finally:
        conn.execute("COMMIT")
