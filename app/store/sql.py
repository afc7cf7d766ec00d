"""`EventStore` on SQLAlchemy 2 Core (async), for SQLite and PostgreSQL.

Appending is optimistic: one transaction moves `matches.seq` from the expected value to the new one
(`UPDATE … WHERE seq = :expected`), inserts the events and the idempotency record. A writer that
finds the row moved on, or hits a unique violation on `(match_id, seq)` or on the idempotency key,
gets `VersionConflict` and its transaction is rolled back, so nothing of it is written. The hot
statements are built once at import; SQLAlchemy caches their compiled form.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import Row, bindparam, func, insert, select, text, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine

from app.service.ports import (
    IdempotencyRecord,
    MatchFilter,
    MatchRecord,
    MatchUpdate,
    NewEvent,
    SeatRecord,
    SeatTaken,
    StoredEvent,
    VersionConflict,
)
from app.store.engine import create_engines
from app.store.tables import events, idempotency_keys, matches, seats

_INSERT_MATCH = insert(matches)
_INSERT_SEATS = insert(seats)
_INSERT_EVENTS = insert(events)
_INSERT_IDEMPOTENCY = insert(idempotency_keys)
_SELECT_MATCH = select(matches).where(matches.c.id == bindparam("match_id"))
_SELECT_SEQ = select(matches.c.seq).where(matches.c.id == bindparam("match_id"))
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
_ADVANCE = (
    update(matches)
    .where(matches.c.id == bindparam("match_id"), matches.c.seq == bindparam("expected_seq"))
    .values(
        seq=bindparam("new_seq"),
        status=bindparam("new_status"),
        to_act=bindparam("new_to_act"),
        scores=bindparam("new_scores"),
        winners=bindparam("new_winners"),
        updated_at=bindparam("at"),
    )
)
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
    """Writes go through `writer` (one transaction each), reads through `reader` (autocommit)."""

    def __init__(self, writer: AsyncEngine, reader: AsyncEngine | None = None) -> None:
        self.writer = writer
        self.reader = reader if reader is not None else writer

    async def create_match(self, match: MatchRecord, seats: Sequence[SeatRecord]) -> None:
        async with self.writer.begin() as conn:
            try:
                await conn.execute(_INSERT_MATCH, _columns(match))
                if seats:
                    await conn.execute(_INSERT_SEATS, [_columns(s) for s in seats])
            except IntegrityError as e:
                if _is_unique_violation(e):
                    raise ValueError(f"match {match.id} exists") from e
                raise

    async def get_match(self, match_id: str) -> MatchRecord | None:
        async with self.reader.connect() as conn:
            row = (await conn.execute(_SELECT_MATCH, {"match_id": match_id})).first()
        return None if row is None else _match_record(row)

    async def list_matches(self, flt: MatchFilter) -> tuple[list[MatchRecord], int]:
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
        count = select(func.count()).select_from(matches).where(*where)
        async with self.reader.connect() as conn:
            rows = (await conn.execute(page)).all()
            total = (await conn.execute(count)).scalar_one()
        return [_match_record(r) for r in rows], total

    async def get_seats(self, match_id: str) -> list[SeatRecord]:
        async with self.reader.connect() as conn:
            rows = (await conn.execute(_SELECT_SEATS, {"match_id": match_id})).all()
        return [_seat_record(r) for r in rows]

    async def claim_seat(self, match_id: str, seat: int, name: str, token_hash: str, at: datetime) -> None:
        params = {
            "seat_match_id": match_id,
            "seat_no": seat,
            "new_name": name,
            "new_token_hash": token_hash,
            "at": at,
        }
        async with self.writer.begin() as conn:
            result = await conn.execute(_CLAIM_SEAT, params)
            if result.rowcount != 1:
                raise SeatTaken(f"seat {seat} of match {match_id} is not free")

    async def seat_by_token(self, token_hash: str) -> SeatRecord | None:
        async with self.reader.connect() as conn:
            row = (await conn.execute(_SELECT_SEAT_BY_TOKEN, {"token_hash": token_hash})).first()
        return None if row is None else _seat_record(row)

    async def append(
        self,
        match_id: str,
        expected_seq: int,
        events: Sequence[NewEvent],
        update: MatchUpdate,
        at: datetime,
        idempotency: IdempotencyRecord | None = None,
    ) -> int:
        new_seq = expected_seq + len(events)
        advance = {
            "match_id": match_id,
            "expected_seq": expected_seq,
            "new_seq": new_seq,
            "new_status": update.status,
            "new_to_act": update.to_act,
            "new_scores": update.scores,
            "new_winners": update.winners,
            "at": at,
        }
        rows = [
            {"match_id": match_id, "seq": expected_seq + i, "type": e.type, "data": e.data, "recorded_at": at}
            for i, e in enumerate(events, 1)
        ]
        try:
            async with self.writer.begin() as conn:
                # The UPDATE comes first: it takes the write lock (SQLite) or the row lock
                # (PostgreSQL) at once, so a concurrent loser waits and then sees the new seq.
                if (await conn.execute(_ADVANCE, advance)).rowcount != 1:
                    actual = (await conn.execute(_SELECT_SEQ, {"match_id": match_id})).scalar()
                    if actual is None:
                        raise KeyError(match_id)
                    raise VersionConflict(match_id, expected_seq, actual)
                if rows:
                    await conn.execute(_INSERT_EVENTS, rows[0] if len(rows) == 1 else rows)
                if idempotency is not None:
                    await conn.execute(_INSERT_IDEMPOTENCY, {**_columns(idempotency), "created_at": at})
        except IntegrityError as e:
            if _is_unique_violation(e):
                raise VersionConflict(match_id, expected_seq) from e
            raise
        return new_seq

    async def read(self, match_id: str, after: int = 0, limit: int | None = None) -> list[StoredEvent]:
        params: dict[str, Any] = {"match_id": match_id, "after": after}
        if limit is not None:
            params["limit"] = limit
        async with self.reader.connect() as conn:
            result = await conn.execute(_READ if limit is None else _READ_LIMIT, params)
            return [StoredEvent(match_id, seq, type_, data, at) for seq, type_, data, at in result]

    async def get_idempotent(self, match_id: str, seat: int, key: str) -> IdempotencyRecord | None:
        params = {"match_id": match_id, "seat": seat, "key": key}
        async with self.reader.connect() as conn:
            row = (await conn.execute(_SELECT_IDEMPOTENCY, params)).first()
        return None if row is None else IdempotencyRecord(*row)

    async def ping(self) -> None:
        async with self.reader.connect() as conn:
            await conn.execute(_SELECT_1)

    async def close(self) -> None:
        if self.reader.sync_engine.pool is not self.writer.sync_engine.pool:
            await self.reader.dispose()
        await self.writer.dispose()


def create_store(url: str) -> SqlEventStore:
    """An `SqlEventStore` on `url` (`sqlite[+aiosqlite]:///…` or `postgresql[+asyncpg]://…`).

    The schema must exist already: run `app.store.migrate.upgrade(url)` first.
    """
    writer, reader = create_engines(url)
    return SqlEventStore(writer, reader)


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
