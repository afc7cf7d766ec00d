"""`SeekStore` on SQLite: `SqliteSeekStore`, on the event store's own writer and reader threads.

Every write is one unit of work on the ONE writer connection, inside `BEGIN IMMEDIATE` (see
`app.store.sqlite_threads`): SQLite's write lock makes each the only writer of the file while it
runs, also against other processes on the same file. So `claim` checks that every seek is still
open and writes the match in the same locked transaction; a seek gone raises inside the job's
savepoint, which rolls back the job alone.
"""

from __future__ import annotations

import functools
import sqlite3
from collections.abc import Sequence
from datetime import datetime

from app.service import seek_ports as sp
from app.service.ports import NewNotice, StoredNotice
from app.service.seek_ports import ChallengeRecord, MatchWrite
from app.store import challenges_sql as ch
from app.store import seeks_sql as sk
from app.store import sqlite_writes as writes
from app.store import webhooks_sql as wh
from app.store.rows import json_text, parse_sqlite_time, sqlite_time
from app.store.sqlite import SqliteEventStore

_INSERT = f"INSERT INTO seeks ({sk.COLUMNS}) VALUES ({', '.join('?' * 16)})"
_COUNT_OPEN = "SELECT count(*) FROM seeks WHERE player_id = ? AND status = 'open' AND expires_at > ?"
_SELECT = f"SELECT {sk.COLUMNS} FROM seeks"
_MATCHED = "UPDATE seeks SET status = 'matched', match_id = ?, seat = ? WHERE id = ? AND status = 'open'"
_NEXT_CURSOR = "UPDATE players SET cursor = cursor + 1 WHERE id = ? RETURNING cursor"
_INSERT_NOTICE = "INSERT INTO notices (player_id, cursor, type, data, recorded_at) VALUES (?, ?, ?, ?, ?)"


class Gone(Exception):
    """A row the write depends on changed (a seek not open, a challenge at another version): the
    job rolls back."""


def _add(conn: sqlite3.Connection, row: tuple[object, ...], max_open: int, now: str) -> bool:
    if conn.execute(_COUNT_OPEN, (row[1], now)).fetchone()[0] >= max_open:
        return False
    conn.execute(_INSERT, row)
    return True


def write_match(conn: sqlite3.Connection, w: MatchWrite) -> tuple[StoredNotice, ...]:
    """Create a seated match and write its notices (inside the caller's transaction)."""
    m = w.match
    writes.create_match(
        conn,
        writes.match_row(m),
        [writes.seat_row(s, m.id) for s in w.seat_rows],
        writes.event_rows(m.id, 0, list(w.events), sqlite_time(m.created_at)),
    )
    written = []
    when = sqlite_time(m.created_at)
    for n in w.notices:
        written.append(write_notice(conn, n, when, m.created_at))
    return tuple(written)


def write_notice(conn: sqlite3.Connection, n: NewNotice, when: str, at: datetime) -> StoredNotice:
    cursor = conn.execute(_NEXT_CURSOR, (n.player_id,)).fetchone()[0]
    conn.execute(_INSERT_NOTICE, (n.player_id, cursor, n.type, json_text(n.data), when))
    return StoredNotice(n.player_id, cursor, n.type, dict(n.data), at)


def _claim(conn: sqlite3.Connection, claim: sp.SeekClaim) -> tuple[StoredNotice, ...]:
    written = write_match(conn, claim.write)  # first: the seeks' match_id refers to it
    for seek_id, seat in claim.seats.items():
        if conn.execute(_MATCHED, (claim.write.match.id, seat, seek_id)).rowcount != 1:
            raise Gone(seek_id)  # the job's savepoint rolls back the match and the seeks
    return written


_CH_INSERT = f"INSERT INTO challenges ({ch.COLUMNS}) VALUES ({', '.join('?' * 16)})"
_CH_SELECT = f"SELECT {ch.COLUMNS} FROM challenges"
_CH_UPDATE = (
    "UPDATE challenges SET status = ?, answers = ?, reason = ?, match_id = ?, version = ? "
    "WHERE id = ? AND version = ?"
)
_CH_MINE = (
    f"{_CH_SELECT} WHERE from_id = ? OR EXISTS (SELECT 1 FROM json_each(challenges.to_ids) WHERE value = ?) "
    "ORDER BY created_at DESC, id DESC LIMIT ?"
)


def _notices(
    conn: sqlite3.Connection, notices: Sequence[NewNotice], at: datetime
) -> tuple[StoredNotice, ...]:
    when = sqlite_time(at)
    return tuple(write_notice(conn, n, when, at) for n in notices)


def _add_challenge(
    conn: sqlite3.Connection, c: ChallengeRecord, notices: Sequence[NewNotice]
) -> tuple[StoredNotice, ...]:
    conn.execute(_CH_INSERT, ch.values(c, sqlite_time))
    return _notices(conn, notices, c.created_at)


def _update_challenge(
    conn: sqlite3.Connection,
    c: ChallengeRecord,
    write: MatchWrite | None,
    notices: Sequence[NewNotice],
    at: datetime,
) -> tuple[StoredNotice, ...]:
    written: tuple[StoredNotice, ...] = () if write is None else write_match(conn, write)
    row = ch.values(c, sqlite_time)
    if conn.execute(_CH_UPDATE, (*row[11:], c.id, c.version - 1)).rowcount != 1:
        raise Gone(c.id)
    return written + _notices(conn, notices, at)


def _challenges(conn: sqlite3.Connection, query: str, args: tuple[object, ...]) -> list[ChallengeRecord]:
    return [ch.record(r, parse_sqlite_time) for r in conn.execute(query, args).fetchall()]


_WH_SELECT = f"SELECT {wh.COLUMNS} FROM webhooks"
_WH_ATTEMPTS = f"SELECT {wh.ATTEMPT_COLUMNS} FROM webhook_attempts WHERE webhook_id = ?"
_WH_DUE = (
    "SELECT w.id FROM webhooks w JOIN players p ON p.id = w.player_id WHERE w.cursor < p.cursor "
    "AND (w.next_at IS NULL OR w.next_at <= ?) AND (w.lease_until IS NULL OR w.lease_until <= ?) "
    "ORDER BY w.next_at, w.id LIMIT ?"
)
_WH_LEASE = "UPDATE webhooks SET lease_until = ? WHERE id = ? AND (lease_until IS NULL OR lease_until <= ?)"
_WH_PROGRESS = "UPDATE webhooks SET cursor = ?, attempts = ?, failing_since = ?, next_at = ? WHERE id = ?"
_WH_ATTEMPT = (
    f"INSERT INTO webhook_attempts (seq, {wh.ATTEMPT_COLUMNS}) VALUES "
    "((SELECT coalesce(max(seq), 0) + 1 FROM webhook_attempts WHERE webhook_id = ?), "
    "?, ?, ?, ?, ?, ?, ?, ?, ?)"
)
_WH_PRUNE = (
    "DELETE FROM webhook_attempts WHERE webhook_id = ? AND seq <= "
    "(SELECT max(seq) FROM webhook_attempts WHERE webhook_id = ?) - ?"
)


def _opt_time(t: datetime | None) -> str | None:
    return None if t is None else sqlite_time(t)


def _webhooks(conn: sqlite3.Connection, query: str, args: tuple[object, ...]) -> list[sp.WebhookRecord]:
    return [wh.record(r, parse_sqlite_time) for r in conn.execute(query, args).fetchall()]


def _lease(conn: sqlite3.Connection, webhook_id: str, now: str, until: str) -> sp.WebhookRecord | None:
    if conn.execute(_WH_LEASE, (until, webhook_id, now)).rowcount != 1:
        return None
    found = _webhooks(conn, f"{_WH_SELECT} WHERE id = ?", (webhook_id,))
    return found[0] if found else None


def _progress(
    conn: sqlite3.Connection, webhook_id: str, p: sp.WebhookProgress, a: sp.AttemptRecord | None
) -> None:
    row = (p.cursor, p.attempts, _opt_time(p.failing_since), _opt_time(p.next_at), webhook_id)
    conn.execute(_WH_PROGRESS, row)
    if a is not None:
        attempt_row = (a.webhook_id, a.delivery_id, a.cursor, a.type, a.attempt, sqlite_time(a.at), a.outcome)
        conn.execute(_WH_ATTEMPT, (a.webhook_id, *attempt_row, a.status_code, a.error))
        conn.execute(_WH_PRUNE, (webhook_id, webhook_id, wh.KEEP_ATTEMPTS))


def _rows(conn: sqlite3.Connection, query: str, args: tuple[object, ...]) -> list[sp.SeekRecord]:
    return [sk.record(r, parse_sqlite_time) for r in conn.execute(query, args).fetchall()]


class SqliteSeekStore:
    def __init__(self, store: SqliteEventStore) -> None:
        self.writer = store.writer
        self.readers = store.readers

    async def add_seek(self, seek: sp.SeekRecord, max_open: int, now: datetime) -> bool:
        row = sk.values(seek, sqlite_time)
        work = functools.partial(_add, row=row, max_open=max_open, now=sqlite_time(now))
        return await self.writer.run(work)

    async def get_seek(self, seek_id: str) -> sp.SeekRecord | None:
        found = await self.readers.run(
            functools.partial(_rows, query=f"{_SELECT} WHERE id = ?", args=(seek_id,))
        )
        return found[0] if found else None

    async def open_seeks(self, now: datetime, limit: int, game: str | None = None) -> list[sp.SeekRecord]:
        query = f"{_SELECT} WHERE status = 'open' AND expires_at > ?"
        args: tuple[object, ...] = (sqlite_time(now),)
        if game is not None:
            query, args = query + " AND game = ?", (*args, game)
        query += " ORDER BY created_at, id LIMIT ?"
        return await self.readers.run(functools.partial(_rows, query=query, args=(*args, limit)))

    async def player_seeks(self, player_id: str, limit: int) -> list[sp.SeekRecord]:
        query = f"{_SELECT} WHERE player_id = ? ORDER BY created_at DESC, id DESC LIMIT ?"
        return await self.readers.run(functools.partial(_rows, query=query, args=(player_id, limit)))

    async def cancel_seek(self, seek_id: str) -> bool:
        query = "UPDATE seeks SET status = 'cancelled' WHERE id = ? AND status = 'open'"
        return await self.writer.run(lambda conn: conn.execute(query, (seek_id,)).rowcount == 1)

    async def expire_seeks(self, now: datetime) -> int:
        query = "UPDATE seeks SET status = 'expired' WHERE status = 'open' AND expires_at <= ?"
        at = sqlite_time(now)
        return await self.writer.run(lambda conn: int(conn.execute(query, (at,)).rowcount))

    async def claim(self, claim: sp.SeekClaim) -> tuple[StoredNotice, ...] | None:
        try:
            return await self.writer.run(functools.partial(_claim, claim=claim))
        except Gone:
            return None

    async def add_challenge(
        self, challenge: ChallengeRecord, notices: Sequence[NewNotice]
    ) -> tuple[StoredNotice, ...]:
        try:
            return await self.writer.run(functools.partial(_add_challenge, c=challenge, notices=notices))
        except sqlite3.IntegrityError as e:
            raise KeyError(f"challenge {challenge.id}: {e}") from e

    async def get_challenge(self, challenge_id: str) -> ChallengeRecord | None:
        work = functools.partial(_challenges, query=f"{_CH_SELECT} WHERE id = ?", args=(challenge_id,))
        found = await self.readers.run(work)
        return found[0] if found else None

    async def player_challenges(self, player_id: str, limit: int) -> list[ChallengeRecord]:
        work = functools.partial(_challenges, query=_CH_MINE, args=(player_id, player_id, limit))
        return await self.readers.run(work)

    async def update_challenge(
        self, challenge: ChallengeRecord, write: MatchWrite | None, notices: Sequence[NewNotice], at: datetime
    ) -> tuple[StoredNotice, ...] | None:
        work = functools.partial(_update_challenge, c=challenge, write=write, notices=notices, at=at)
        try:
            return await self.writer.run(work)
        except Gone:
            return None

    async def expire_challenges(self, now: datetime) -> int:
        query = (
            "UPDATE challenges SET status = 'expired', version = version + 1 "
            "WHERE status = 'open' AND expires_at <= ?"
        )
        at = sqlite_time(now)
        return await self.writer.run(lambda conn: int(conn.execute(query, (at,)).rowcount))

    async def player_bot(self, player_id: str) -> bool | None:
        query = "SELECT bot FROM players WHERE id = ?"
        rows = await self.readers.run(lambda conn: conn.execute(query, (player_id,)).fetchall())
        return bool(rows[0][0]) if rows else None

    async def set_player_bot(self, player_id: str, bot: bool) -> bool:
        query = "UPDATE players SET bot = ? WHERE id = ?"
        return await self.writer.run(lambda conn: conn.execute(query, (int(bot), player_id)).rowcount == 1)

    async def add_webhook(self, webhook: sp.WebhookRecord) -> None:
        row = wh.values(webhook, sqlite_time)
        query = f"INSERT INTO webhooks ({wh.COLUMNS}) VALUES ({', '.join('?' * len(row))})"
        await self.writer.run(lambda conn: conn.execute(query, row))

    async def get_webhook(self, webhook_id: str) -> sp.WebhookRecord | None:
        work = functools.partial(_webhooks, query=f"{_WH_SELECT} WHERE id = ?", args=(webhook_id,))
        found = await self.readers.run(work)
        return found[0] if found else None

    async def player_webhooks(self, player_id: str) -> list[sp.WebhookRecord]:
        query = f"{_WH_SELECT} WHERE player_id = ? ORDER BY created_at, id"
        return await self.readers.run(functools.partial(_webhooks, query=query, args=(player_id,)))

    async def delete_webhook(self, webhook_id: str) -> bool:
        query = "DELETE FROM webhooks WHERE id = ?"
        return await self.writer.run(lambda conn: conn.execute(query, (webhook_id,)).rowcount == 1)

    async def due_webhooks(self, now: datetime, limit: int) -> list[str]:
        at = sqlite_time(now)
        rows = await self.readers.run(lambda conn: conn.execute(_WH_DUE, (at, at, limit)).fetchall())
        return [r[0] for r in rows]

    async def lease_webhook(self, webhook_id: str, now: datetime, until: datetime) -> sp.WebhookRecord | None:
        work = functools.partial(
            _lease, webhook_id=webhook_id, now=sqlite_time(now), until=sqlite_time(until)
        )
        return await self.writer.run(work)

    async def webhook_progress(
        self, webhook_id: str, progress: sp.WebhookProgress, attempt: sp.AttemptRecord | None
    ) -> None:
        await self.writer.run(functools.partial(_progress, webhook_id=webhook_id, p=progress, a=attempt))

    async def release_webhook(self, webhook_id: str) -> None:
        query = "UPDATE webhooks SET lease_until = NULL WHERE id = ?"
        await self.writer.run(lambda conn: conn.execute(query, (webhook_id,)))

    async def webhook_attempts(self, webhook_id: str, limit: int) -> list[sp.AttemptRecord]:
        query = f"{_WH_ATTEMPTS} ORDER BY seq DESC LIMIT ?"
        rows = await self.readers.run(lambda conn: conn.execute(query, (webhook_id, limit)).fetchall())
        return [wh.attempt(r, parse_sqlite_time) for r in rows]
