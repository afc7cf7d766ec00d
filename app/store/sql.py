"""`EventStore` on SQLAlchemy 2 Core, for SQLite and PostgreSQL.

Appending is optimistic and atomic: it moves `matches.seq` from the expected value to the new one
(`UPDATE … WHERE seq = :expected`) and inserts the events and the idempotency record, in one
transaction (SQLite, `sqlite_append`) or one statement (PostgreSQL, `postgres_fast`), both on the
raw driver because it is the hot path. A writer that finds the row moved on, or hits a unique
violation on `(match_id, seq)` or on the idempotency key, gets `VersionConflict`, and nothing of it
is written.

Every other method runs one synchronous unit of Core work (the `_…` functions below) through a
`Database` (`app.store.engine`), which decides where it runs: a worker thread for SQLite, asyncpg
under `run_sync` for PostgreSQL. Statements are built once at import.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import Row, bindparam, func, insert, select, text, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from app.service.ports import (
    IdempotencyRecord,
    MatchFilter,
    MatchRecord,
    MatchUpdate,
    NewEvent,
    SeatRecord,
    SeatTaken,
    StoredEvent,
)
from app.store import sqlite_append
from app.store.engine import Database, PostgresDatabase, SQLiteDatabase, create_database
from app.store.tables import events, idempotency_keys, matches, seats

_INSERT_MATCH = insert(matches)
_INSERT_SEATS = insert(seats)
_INSERT_EVENTS = insert(events)
_SELECT_MATCH = select(matches).where(matches.c.id == bindparam("match_id"))
_SELECT_SEATS = select(seats).where(seats.c.match_id == bindparam("match_id")).order_by(seats.c.seat)
_SELECT_SEAT_BY_TOKEN = select(seats).where(seats.c.token_hash == bindparam("token_hash"))
_SELECT_IDEMPOTENCY = select(
    idempotency_keys.c.match_id,
    idempotency_keys.c.seat,
    idempotency_keys.c.key,
    idempotency_keys.c.request_hash,
    idempotency_keys.c.response,
).where(
    idempotency_keys.c.match_id == bindparam("match_id"),
    idempotency_keys.c.seat == bindparam("seat"),
    idempotency_keys.c.key == bindparam("key"),
)
_READ = (
    select(events.c.seq, events.c.type, events.c.data, events.c.recorded_at)
    .where(events.c.match_id == bindparam("match_id"), events.c.seq > bindparam("after"))
    .order_by(events.c.seq)
)
_READ_LIMIT = _READ.limit(bindparam("limit"))
# Bind names differ from column names: SQLAlchemy reserves those for the SET clause.
_CLAIM_SEAT = (
    update(seats)
    .where(
        seats.c.match_id == bindparam("seat_match_id"),
        seats.c.seat == bindparam("seat_no"),
        seats.c.name.is_(None),
    )
    .values(name=bindparam("new_name"), token_hash=bindparam("new_token_hash"), joined_at=bindparam("at"))
)
_SELECT_1 = text("SELECT 1")


class SqlEventStore:
    """The store's methods prepare parameters and hand a unit of work to `db` (see `engine`)."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def create_match(
        self, match: MatchRecord, seats: Sequence[SeatRecord], events: Sequence[NewEvent] = ()
    ) -> None:
        if match.seq != len(events):
            raise ValueError(f"match {match.id}: seq {match.seq} but {len(events)} events")
        rows = [
            {"match_id": match.id, "seq": i, "type": e.type, "data": e.data, "recorded_at": match.created_at}
            for i, e in enumerate(events, 1)
        ]
        try:
            await self.db.write(_create_match, _columns(match), [_columns(s) for s in seats], rows)
        except IntegrityError as e:
            if _is_unique_violation(e):
                raise ValueError(f"match {match.id} exists") from e
            raise

    async def get_match(self, match_id: str) -> MatchRecord | None:
        return await self.db.read(_get_match, match_id)

    async def list_matches(self, flt: MatchFilter) -> tuple[list[MatchRecord], int]:
        return await self.db.read(_list_matches, flt)

    async def get_seats(self, match_id: str) -> list[SeatRecord]:
        return await self.db.read(_get_seats, match_id)

    async def claim_seat(self, match_id: str, seat: int, name: str, token_hash: str, at: datetime) -> None:
        params = {
            "seat_match_id": match_id,
            "seat_no": seat,
            "new_name": name,
            "new_token_hash": token_hash,
            "at": at,
        }
        if not await self.db.write(_claim_seat, params):
            raise SeatTaken(f"seat {seat} of match {match_id} is not free")

    async def seat_by_token(self, token_hash: str) -> SeatRecord | None:
        return await self.db.read(_seat_by_token, token_hash)

    async def append(
        self,
        match_id: str,
        expected_seq: int,
        events: Sequence[NewEvent],
        update: MatchUpdate,
        at: datetime,
        idempotency: IdempotencyRecord | None = None,
    ) -> int:
        # The hot path runs on the raw drivers: `postgres_fast` (one statement) and `sqlite_append`
        # (one transaction); both raise `VersionConflict` and write nothing when they lose.
        if isinstance(self.db, PostgresDatabase):
            await self.db.fast.append(match_id, expected_seq, events, update, at, idempotency)
        else:
            assert isinstance(self.db, SQLiteDatabase)
            await self.db.write_raw(
                sqlite_append.append, match_id, expected_seq, events, update, at, idempotency
            )
        return expected_seq + len(events)

    async def read(self, match_id: str, after: int = 0, limit: int | None = None) -> list[StoredEvent]:
        if isinstance(self.db, PostgresDatabase):
            return await self.db.fast.read(match_id, after, limit)
        return await self.db.read(_read, match_id, after, limit)

    async def get_idempotent(self, match_id: str, seat: int, key: str) -> IdempotencyRecord | None:
        return await self.db.read(_get_idempotent, {"match_id": match_id, "seat": seat, "key": key})

    async def ping(self) -> None:
        await self.db.read(_ping)

    async def close(self) -> None:
        await self.db.close()


def create_store(url: str) -> SqlEventStore:
    """An `SqlEventStore` on `url` (`sqlite:///…` or `postgresql://…`, any driver suffix).

    The schema must exist already: run `app.store.migrate.upgrade(url)` first.
    """
    return SqlEventStore(create_database(url))


# --- units of work: synchronous, run by `Database.write` / `Database.read` ---------------------


def _create_match(
    conn: Connection, match: dict[str, Any], seats: list[dict[str, Any]], events: list[dict[str, Any]]
) -> None:
    conn.execute(_INSERT_MATCH, match)
    if seats:
        conn.execute(_INSERT_SEATS, seats)
    if events:
        conn.execute(_INSERT_EVENTS, events)


def _claim_seat(conn: Connection, params: dict[str, Any]) -> bool:
    return conn.execute(_CLAIM_SEAT, params).rowcount == 1


def _get_match(conn: Connection, match_id: str) -> MatchRecord | None:
    row = conn.execute(_SELECT_MATCH, {"match_id": match_id}).first()
    return None if row is None else _match_record(row)


def _list_matches(conn: Connection, flt: MatchFilter) -> tuple[list[MatchRecord], int]:
    where = []
    if flt.status is not None:
        where.append(matches.c.status == flt.status)
    if flt.game is not None:
        where.append(matches.c.game == flt.game)
    page = (
        select(matches)
        .where(*where)
        .order_by(matches.c.created_at.desc(), matches.c.id.desc())
        .limit(flt.limit)
        .offset(flt.offset)
    )
    total = conn.execute(select(func.count()).select_from(matches).where(*where)).scalar_one()
    return [_match_record(r) for r in conn.execute(page)], total


def _get_seats(conn: Connection, match_id: str) -> list[SeatRecord]:
    return [_seat_record(r) for r in conn.execute(_SELECT_SEATS, {"match_id": match_id})]


def _seat_by_token(conn: Connection, token_hash: str) -> SeatRecord | None:
    row = conn.execute(_SELECT_SEAT_BY_TOKEN, {"token_hash": token_hash}).first()
    return None if row is None else _seat_record(row)


def _read(conn: Connection, match_id: str, after: int, limit: int | None) -> list[StoredEvent]:
    params: dict[str, Any] = {"match_id": match_id, "after": after}
    if limit is not None:
        params["limit"] = limit
    result = conn.execute(_READ if limit is None else _READ_LIMIT, params)
    return [StoredEvent(match_id, seq, type_, data, at) for seq, type_, data, at in result]


def _get_idempotent(conn: Connection, key: dict[str, Any]) -> IdempotencyRecord | None:
    row = conn.execute(_SELECT_IDEMPOTENCY, key).first()
    return None if row is None else IdempotencyRecord(*row)


def _ping(conn: Connection) -> None:
    conn.execute(_SELECT_1)


def _is_unique_violation(error: IntegrityError) -> bool:
    orig = error.orig
    sqlite_name = getattr(orig, "sqlite_errorname", None)
    if sqlite_name is not None:
        return sqlite_name in ("SQLITE_CONSTRAINT_PRIMARYKEY", "SQLITE_CONSTRAINT_UNIQUE")
    return getattr(orig, "sqlstate", None) == "23505"  # PostgreSQL unique_violation


def _columns(record: Any) -> dict[str, Any]:
    """A record dataclass as a row: its field names are the column names."""
    return {f.name: getattr(record, f.name) for f in dataclasses.fields(record)}


def _tuple(value: list[int] | None) -> tuple[int, ...] | None:
    return None if value is None else tuple(value)


def _match_record(r: Row[Any]) -> MatchRecord:
    m = r._mapping
    return MatchRecord(
        **{**m, "to_act": tuple(m["to_act"]), "scores": _tuple(m["scores"]), "winners": _tuple(m["winners"])}
    )


def _seat_record(r: Row[Any]) -> SeatRecord:
    return SeatRecord(**r._mapping)
