"""`SeekStore` on PostgreSQL: `PostgresSeekStore`, on the event store's own pool.

`claim` runs one transaction: it locks the group's seeks `FOR UPDATE SKIP LOCKED` while they are
open, and gives up (rolls back, writes nothing) unless it got every one of them, so two processes
that planned overlapping groups never wait on each other and never both win; then it marks them
matched, creates the match (`app.store.postgres_sql.CREATE_MATCH`, one statement) and writes the
notices with the players' next cursors. `add_seek` locks the player's row so that the cap on open
seeks holds under concurrent requests.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

import asyncpg

from app.service import seek_ports as sp
from app.service.ports import NewNotice, StoredNotice
from app.service.seek_ports import ChallengeRecord, MatchWrite
from app.store import challenges_sql as ch
from app.store import postgres_sql as sql
from app.store import seeks_sql as sk
from app.store import webhooks_sql as wh
from app.store.postgres import PostgresEventStore
from app.store.rows import json_text

_INSERT = (
    f"INSERT INTO seeks ({sk.COLUMNS}) VALUES "
    "($1, $2, $3, $4, $5::jsonb, $6::jsonb, $7::jsonb, $8, $9, $10, $11, $12, $13, $14, $15, $16)"
)
_SELECT = f"SELECT {sk.COLUMNS} FROM seeks"
_LOCK_PLAYER = "SELECT 1 FROM players WHERE id = $1 FOR UPDATE"
_COUNT_OPEN = "SELECT count(*) FROM seeks WHERE player_id = $1 AND status = 'open' AND expires_at > $2"
_LOCK_SEEKS = "SELECT id FROM seeks WHERE id = ANY($1::text[]) AND status = 'open' FOR UPDATE SKIP LOCKED"
_MATCHED = (
    "UPDATE seeks SET status = 'matched', match_id = $1, seat = s.seat "
    "FROM unnest($2::text[], $3::int[]) AS s (id, seat) WHERE seeks.id = s.id"
)
_NEXT_CURSOR = "UPDATE players SET cursor = cursor + 1 WHERE id = $1 RETURNING cursor"
_INSERT_NOTICE = (
    "INSERT INTO notices (player_id, cursor, type, data, recorded_at) VALUES ($1, $2, $3, $4::jsonb, $5)"
)


_CH_INSERT = (
    f"INSERT INTO challenges ({ch.COLUMNS}) VALUES ($1, $2, $3, $4::jsonb, $5::jsonb, $6, $7, $8::jsonb, "
    "$9::jsonb, $10, $11, $12, $13::jsonb, $14, $15, $16)"
)
_CH_SELECT = (
    "SELECT id, from_id, from_name, to_ids::text, to_names::text, game, players, options::text, "
    "settings::text, created_at, expires_at, status, answers::text, reason, match_id, version FROM challenges"
)
_CH_UPDATE = (
    "UPDATE challenges SET status = $1, answers = $2::jsonb, reason = $3, match_id = $4, version = $5 "
    "WHERE id = $6 AND version = $7"
)
_CH_MINE = f"{_CH_SELECT} WHERE from_id = $1 OR to_ids ? $1 ORDER BY created_at DESC, id DESC LIMIT $2"


def _same(at: datetime) -> datetime:
    return at


def _seek(r: asyncpg.Record) -> sp.SeekRecord:
    return sk.record(r, _same)


class _Conflict(Exception):
    pass


async def _ch_notices(
    conn: asyncpg.Connection, notices: Sequence[NewNotice], at: datetime
) -> tuple[StoredNotice, ...]:
    return tuple([await write_notice(conn, n, at) for n in notices])


class PostgresChallenges:
    """The challenge and bot-flag methods of `PostgresSeekStore`."""

    _store: PostgresEventStore

    async def add_challenge(
        self, challenge: ChallengeRecord, notices: Sequence[NewNotice]
    ) -> tuple[StoredNotice, ...]:
        try:
            async with (await self._store.pool()).acquire() as conn, conn.transaction():
                await conn.execute(_CH_INSERT, *ch.values(challenge, _same))
                return await _ch_notices(conn, notices, challenge.created_at)
        except asyncpg.IntegrityConstraintViolationError as e:
            raise KeyError(f"challenge {challenge.id}: {e}") from e

    async def get_challenge(self, challenge_id: str) -> ChallengeRecord | None:
        rows = await (await self._store.pool()).fetch(f"{_CH_SELECT} WHERE id = $1", challenge_id)
        return ch.record(rows[0], _same) if rows else None

    async def player_challenges(self, player_id: str, limit: int) -> list[ChallengeRecord]:
        rows = await (await self._store.pool()).fetch(_CH_MINE, player_id, limit)
        return [ch.record(r, _same) for r in rows]

    async def update_challenge(
        self, challenge: ChallengeRecord, write: MatchWrite | None, notices: Sequence[NewNotice], at: datetime
    ) -> tuple[StoredNotice, ...] | None:
        row = ch.values(challenge, _same)
        try:
            async with (await self._store.pool()).acquire() as conn, conn.transaction():
                written = () if write is None else await write_match(conn, write)
                done = await conn.execute(_CH_UPDATE, *row[11:], challenge.id, challenge.version - 1)
                if done != "UPDATE 1":
                    raise _Conflict
                return written + await _ch_notices(conn, notices, at)
        except _Conflict:
            return None

    async def expire_challenges(self, now: datetime) -> int:
        query = (
            "UPDATE challenges SET status = 'expired', version = version + 1 "
            "WHERE status = 'open' AND expires_at <= $1"
        )
        return int(str(await (await self._store.pool()).execute(query, now)).split()[-1])

    async def player_bot(self, player_id: str) -> bool | None:
        rows = await (await self._store.pool()).fetch("SELECT bot FROM players WHERE id = $1", player_id)
        return bool(rows[0][0]) if rows else None

    async def set_player_bot(self, player_id: str, bot: bool) -> bool:
        done = await (await self._store.pool()).execute(
            "UPDATE players SET bot = $2 WHERE id = $1", player_id, bot
        )
        return str(done) == "UPDATE 1"


_WH_SELECT = (
    "SELECT id, player_id, url, events::text, secret, created_at, cursor, attempts, failing_since, next_at, "
    "lease_until FROM webhooks"
)
_WH_DUE = (
    "SELECT w.id FROM webhooks w JOIN players p ON p.id = w.player_id WHERE w.cursor < p.cursor "
    "AND (w.next_at IS NULL OR w.next_at <= $1) AND (w.lease_until IS NULL OR w.lease_until <= $1) "
    "ORDER BY w.next_at NULLS FIRST, w.id LIMIT $2"
)
_WH_LEASE = (
    "UPDATE webhooks SET lease_until = $3 WHERE id = $1 AND (lease_until IS NULL OR lease_until <= $2) "
    "RETURNING id, player_id, url, events::text, secret, created_at, cursor, attempts, failing_since, "
    "next_at, lease_until"
)
_WH_ATTEMPT = (
    f"INSERT INTO webhook_attempts (seq, {wh.ATTEMPT_COLUMNS}) VALUES "
    "((SELECT coalesce(max(seq), 0) + 1 FROM webhook_attempts WHERE webhook_id = $1), "
    "$1, $2, $3, $4, $5, $6, $7, $8, $9)"
)


class PostgresWebhooks:
    """The webhook methods of `PostgresSeekStore`."""

    _store: PostgresEventStore

    async def add_webhook(self, webhook: sp.WebhookRecord) -> None:
        row = wh.values(webhook, _same)
        marks = ", ".join(f"${i}" + ("::jsonb" if i == 4 else "") for i in range(1, len(row) + 1))
        await (await self._store.pool()).execute(
            f"INSERT INTO webhooks ({wh.COLUMNS}) VALUES ({marks})", *row
        )

    async def get_webhook(self, webhook_id: str) -> sp.WebhookRecord | None:
        rows = await (await self._store.pool()).fetch(f"{_WH_SELECT} WHERE id = $1", webhook_id)
        return wh.record(rows[0], _same) if rows else None

    async def player_webhooks(self, player_id: str) -> list[sp.WebhookRecord]:
        query = f"{_WH_SELECT} WHERE player_id = $1 ORDER BY created_at, id"
        return [wh.record(r, _same) for r in await (await self._store.pool()).fetch(query, player_id)]

    async def delete_webhook(self, webhook_id: str) -> bool:
        done = await (await self._store.pool()).execute("DELETE FROM webhooks WHERE id = $1", webhook_id)
        return str(done) == "DELETE 1"

    async def due_webhooks(self, now: datetime, limit: int) -> list[str]:
        return [r[0] for r in await (await self._store.pool()).fetch(_WH_DUE, now, limit)]

    async def lease_webhook(self, webhook_id: str, now: datetime, until: datetime) -> sp.WebhookRecord | None:
        rows = await (await self._store.pool()).fetch(_WH_LEASE, webhook_id, now, until)
        return wh.record(rows[0], _same) if rows else None

    async def webhook_progress(
        self, webhook_id: str, progress: sp.WebhookProgress, attempt: sp.AttemptRecord | None
    ) -> None:
        p = progress
        async with (await self._store.pool()).acquire() as conn, conn.transaction():
            await conn.execute(
                "UPDATE webhooks SET cursor = $2, attempts = $3, failing_since = $4, next_at = $5 "
                "WHERE id = $1",
                *(webhook_id, p.cursor, p.attempts, p.failing_since, p.next_at),
            )
            if attempt is not None:
                a = attempt
                await conn.execute(
                    _WH_ATTEMPT, a.webhook_id, a.delivery_id, a.cursor, a.type, a.attempt, a.at, a.outcome,
                    a.status_code, a.error,
                )  # fmt: skip
                await conn.execute(
                    "DELETE FROM webhook_attempts WHERE webhook_id = $1 AND seq <= "
                    "(SELECT max(seq) FROM webhook_attempts WHERE webhook_id = $1) - $2",
                    webhook_id,
                    wh.KEEP_ATTEMPTS,
                )

    async def release_webhook(self, webhook_id: str) -> None:
        await (await self._store.pool()).execute(
            "UPDATE webhooks SET lease_until = NULL WHERE id = $1", webhook_id
        )

    async def webhook_attempts(self, webhook_id: str, limit: int) -> list[sp.AttemptRecord]:
        query = (
            f"SELECT {wh.ATTEMPT_COLUMNS} FROM webhook_attempts WHERE webhook_id = $1 "
            "ORDER BY seq DESC LIMIT $2"
        )
        return [
            wh.attempt(r, _same) for r in await (await self._store.pool()).fetch(query, webhook_id, limit)
        ]


class PostgresSeekStore(PostgresChallenges, PostgresWebhooks):
    def __init__(self, store: PostgresEventStore) -> None:
        self._store = store

    async def _fetch(self, query: str, *args: object) -> list[asyncpg.Record]:
        return list(await (await self._store.pool()).fetch(query, *args))

    async def add_seek(self, seek: sp.SeekRecord, max_open: int, now: datetime) -> bool:
        s = seek
        async with (await self._store.pool()).acquire() as conn, conn.transaction():
            await conn.execute(_LOCK_PLAYER, s.player_id)
            if await conn.fetchval(_COUNT_OPEN, s.player_id, now) >= max_open:
                return False
            await conn.execute(_INSERT, *sk.values(s, _same))
            return True

    async def get_seek(self, seek_id: str) -> sp.SeekRecord | None:
        rows = await self._fetch(f"{_SELECT} WHERE id = $1", seek_id)
        return _seek(rows[0]) if rows else None

    async def open_seeks(self, now: datetime, limit: int, game: str | None = None) -> list[sp.SeekRecord]:
        where = "status = 'open' AND expires_at > $1 AND ($3::text IS NULL OR game = $3)"
        query = f"{_SELECT} WHERE {where} ORDER BY created_at, id LIMIT $2"
        return [_seek(r) for r in await self._fetch(query, now, limit, game)]

    async def player_seeks(self, player_id: str, limit: int) -> list[sp.SeekRecord]:
        query = f"{_SELECT} WHERE player_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2"
        return [_seek(r) for r in await self._fetch(query, player_id, limit)]

    async def cancel_seek(self, seek_id: str) -> bool:
        query = "UPDATE seeks SET status = 'cancelled' WHERE id = $1 AND status = 'open'"
        return str(await (await self._store.pool()).execute(query, seek_id)) == "UPDATE 1"

    async def expire_seeks(self, now: datetime) -> int:
        query = "UPDATE seeks SET status = 'expired' WHERE status = 'open' AND expires_at <= $1"
        return int(str(await (await self._store.pool()).execute(query, now)).split()[-1])

    async def claim(self, claim: sp.SeekClaim) -> tuple[StoredNotice, ...] | None:
        ids = list(claim.seats)
        async with (await self._store.pool()).acquire() as conn, conn.transaction():
            locked = await conn.fetch(_LOCK_SEEKS, ids)
            if len(locked) != len(ids):
                return None  # the transaction ends with nothing written
            written = await write_match(conn, claim.write)
            await conn.execute(_MATCHED, claim.write.match.id, ids, [claim.seats[i] for i in ids])
            return written


async def write_match(conn: asyncpg.Connection, w: MatchWrite) -> tuple[StoredNotice, ...]:
    """Create a seated match and write its notices (inside the caller's transaction)."""
    m = w.match
    await conn.execute(sql.CREATE_MATCH, *sql.create_match_args(m, list(w.seat_rows), list(w.events)))
    return tuple([await write_notice(conn, n, m.created_at) for n in w.notices])


async def write_notice(conn: asyncpg.Connection, n: NewNotice, at: datetime) -> StoredNotice:
    cursor = await conn.fetchval(_NEXT_CURSOR, n.player_id)
    await conn.execute(_INSERT_NOTICE, n.player_id, cursor, n.type, json_text(n.data), at)
    return StoredNotice(n.player_id, cursor, n.type, dict(n.data), at)
