"""`BotClaims` on PostgreSQL: a session-level advisory lock per match on one dedicated connection.

The lock key is the first 8 bytes of SHA-256 of `drago:bot:<match id>` (a signed 64-bit integer,
what `pg_try_advisory_lock(bigint)` takes). The connection is this module's own, never the event
store's pool (whose connections are reused without resetting session state). PostgreSQL releases
every lock of a session when its connection closes, so a process that dies — SIGKILL included —
frees its claims at once; a claim is never left behind for a lease to expire. A connection that
fails is dropped and reopened on the next claim; while the database is unreachable a claim raises
`Unavailable` and the bot waits for the sweeper's next wake.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import asyncpg

from app.store.postgres import COMMAND_TIMEOUT_S, CONNECT_TIMEOUT_S, OUTAGE_ERRORS, outage

_TRY = "SELECT pg_try_advisory_lock($1)"
_UNLOCK = "SELECT pg_advisory_unlock($1)"


def lock_key(match_id: str) -> int:
    return int.from_bytes(hashlib.sha256(f"drago:bot:{match_id}".encode()).digest()[:8], "big", signed=True)


class PostgresClaims:
    def __init__(self, dsn: str) -> None:
        self.dsn = dsn
        self._conn: Any = None
        self._held: set[str] = set()  # claimed by this process now
        self._lock = asyncio.Lock()  # the one connection runs one statement at a time

    async def _connection(self) -> Any:
        if self._conn is None or self._conn.is_closed():
            self._conn = await asyncpg.connect(self.dsn, timeout=CONNECT_TIMEOUT_S)
        return self._conn

    async def _drop(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None:
            with contextlib.suppress(Exception):
                await conn.close(timeout=1.0)

    @asynccontextmanager
    async def claim(self, match_id: str) -> AsyncIterator[bool]:
        if match_id in self._held:  # advisory locks are re-entrant within a session: not a claim
            yield False
            return
        key = lock_key(match_id)
        async with self._lock:  # one statement at a time on the connection, never held by a block
            try:
                conn = await self._connection()
                got = bool(await conn.fetchval(_TRY, key, timeout=COMMAND_TIMEOUT_S))
            except OUTAGE_ERRORS as e:
                await self._drop()
                raise outage(e) from e
        if got:
            self._held.add(match_id)
        try:
            yield got
        finally:
            if got:
                self._held.discard(match_id)
                async with self._lock:
                    if conn is self._conn:  # else the session ended, and its locks with it
                        try:
                            await conn.execute(_UNLOCK, key, timeout=COMMAND_TIMEOUT_S)
                        except Exception:  # closing the session releases the lock too
                            await self._drop()

    async def close(self) -> None:
        async with self._lock:
            await self._drop()
