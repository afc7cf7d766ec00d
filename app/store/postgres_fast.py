"""The PostgreSQL hot path on the raw asyncpg driver: append and read-after-seq.

Every action appends once and every live process reads the new events once, so these two go
straight to asyncpg (its own small pool) instead of through SQLAlchemy's async layer, which costs
about as much CPU again as the driver itself. They are the same statements as the Core versions in
`app.store.sql` against the same schema (`app.store.tables`); the contract suite runs them.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from datetime import datetime

import asyncpg
import orjson
from sqlalchemy.engine import URL

from app.service.ports import IdempotencyRecord, MatchUpdate, NewEvent, StoredEvent, VersionConflict
from app.store.tables import json_text, require_aware

POOL_MIN, POOL_MAX = 2, 10

_APPEND = """
WITH advanced AS (
    UPDATE matches
    SET seq = $1, status = $2, to_act = $3::jsonb, scores = $4::jsonb, winners = $5::jsonb, updated_at = $6
    WHERE id = $7 AND seq = $8
    RETURNING id
), appended AS (
    INSERT INTO events (match_id, seq, type, data, recorded_at)
    SELECT advanced.id, $8 + e.n, e.event ->> 'type', e.event -> 'data', $6
    FROM advanced, jsonb_array_elements($9::jsonb) WITH ORDINALITY AS e (event, n)
), remembered AS (
    INSERT INTO idempotency_keys (match_id, seat, key, request_hash, response, created_at)
    SELECT $7, $10::integer, $11::text, $12::text, $13::jsonb, $6
    FROM advanced
    WHERE $11::text IS NOT NULL
)
SELECT count(*) FROM advanced
"""
_SELECT_SEQ = "SELECT seq FROM matches WHERE id = $1"
_READ = "SELECT seq, type, data, recorded_at FROM events WHERE match_id = $1 AND seq > $2 ORDER BY seq"
_READ_LIMIT = _READ + " LIMIT $3"


class FastPostgres:
    """A lazily opened asyncpg pool for the two hot statements."""

    def __init__(self, url: URL) -> None:
        self._dsn = url.set(drivername="postgresql").render_as_string(hide_password=False)
        self._pool: asyncpg.Pool | None = None
        self._opening = asyncio.Lock()

    async def _acquire_pool(self) -> asyncpg.Pool:
        if self._pool is None:
            async with self._opening:
                if self._pool is None:
                    self._pool = await asyncpg.create_pool(self._dsn, min_size=POOL_MIN, max_size=POOL_MAX)
        return self._pool

    async def append(
        self,
        match_id: str,
        expected_seq: int,
        events: Sequence[NewEvent],
        update: MatchUpdate,
        at: datetime,
        idempotency: IdempotencyRecord | None,
    ) -> None:
        require_aware(at)
        i = idempotency
        args = (
            expected_seq + len(events),
            update.status,
            json_text(update.to_act),
            json_text(update.scores),
            json_text(update.winners),
            at,
            match_id,
            expected_seq,
            json_text([{"type": e.type, "data": e.data} for e in events]),
            None if i is None else i.seat,
            None if i is None else i.key,
            None if i is None else i.request_hash,
            None if i is None else json_text(i.response),
        )
        pool = await self._acquire_pool()
        async with pool.acquire() as conn:
            try:
                appended = await conn.fetchval(_APPEND, *args)
            except asyncpg.UniqueViolationError as e:
                raise VersionConflict(match_id, expected_seq) from e
            if appended != 1:
                actual = await conn.fetchval(_SELECT_SEQ, match_id)
                if actual is None:
                    raise KeyError(match_id)
                raise VersionConflict(match_id, expected_seq, actual)

    async def read(self, match_id: str, after: int, limit: int | None) -> list[StoredEvent]:
        pool = await self._acquire_pool()
        async with pool.acquire() as conn:
            if limit is None:
                rows = await conn.fetch(_READ, match_id, after)
            else:
                rows = await conn.fetch(_READ_LIMIT, match_id, after, limit)
        return [StoredEvent(match_id, seq, kind, orjson.loads(data), at) for seq, kind, data, at in rows]

    async def close(self) -> None:
        async with self._opening:  # a pool still being opened is closed too, not leaked
            if self._pool is not None:
                await self._pool.close()
                self._pool = None
