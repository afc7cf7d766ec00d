"""PostgreSQL LISTEN/NOTIFY broadcaster, for several processes sharing one database.

Each process holds one dedicated listening connection on one channel, `"{prefix}:matches"`, and
publishes with `SELECT pg_notify(channel, 'match_id:seq')` through a small pool of other
connections. Every process receives every match's notifications and drops those for matches it
has not subscribed; subscriptions are ref-counted and local. A supervisor task watches the
listening connection (termination callback plus a periodic `SELECT 1`); when it is lost it
reconnects with backoff and then calls the handler with `RESYNC` for every subscribed match,
because notifications sent meanwhile are gone.
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from collections.abc import Sequence

import asyncpg

from app.broadcast.base import Backoff, Listener
from app.service.live import RESYNC
from app.service.ports import MessageHandler
from app.service.tasks import cancel_and_wait


async def _no_reset(conn: asyncpg.Connection) -> None:
    """The publish pool's reset on release: nothing to reset (see `app.store.postgres`)."""


log = logging.getLogger(__name__)

_MAX_IDENTIFIER_BYTES = 63  # PostgreSQL's NAMEDATALEN - 1: longer channel names are refused


def asyncpg_dsn(url: str) -> str:
    """`postgresql+asyncpg://…` (SQLAlchemy's spelling) or `postgres(ql)://…` as an asyncpg DSN."""
    scheme, sep, rest = url.partition("://")
    if not sep or scheme not in ("postgresql", "postgres", "postgresql+asyncpg", "postgres+asyncpg"):
        raise ValueError(f"not a PostgreSQL URL: {url.split('://')[0]}://…")
    return f"postgresql://{rest}"


class PostgresBroadcaster(Listener):
    def __init__(
        self, url: str, *, prefix: str = "drago", health_interval: float = 15, backoff: Backoff | None = None
    ) -> None:
        super().__init__(health_interval, backoff)
        self._dsn = asyncpg_dsn(url)
        self.channel = f"{prefix}:matches"
        if len(self.channel.encode()) > _MAX_IDENTIFIER_BYTES:
            raise ValueError(f"channel name {self.channel!r} is longer than {_MAX_IDENTIFIER_BYTES} bytes")
        # Unique per instance, so an operator (or a test) can find this very connection.
        self.application_name = f"{prefix}:listen:{uuid.uuid4().hex[:8]}"[-_MAX_IDENTIFIER_BYTES:]
        self._pool: asyncpg.Pool | None = None
        self._listener: asyncpg.Connection | None = None  # the current listening connection

    async def start(self, handler: MessageHandler) -> None:
        self._begin(handler)
        try:
            # `pg_notify` leaves no session state: no reset round trip after each publish
            self._pool = await asyncpg.create_pool(self._dsn, min_size=1, max_size=4, reset=_no_reset)
            listener, lost = await self._listen()
        except BaseException:
            await self.stop()
            raise
        self._task = asyncio.create_task(self._supervise(listener, lost), name=f"{self.channel} listener")

    async def stop(self) -> None:
        task, self._task = self._task, None
        await cancel_and_wait(task)
        listener, self._listener = self._listener, None
        if listener is not None:
            try:
                await listener.close(timeout=5)
            except Exception:
                listener.terminate()
        pool, self._pool = self._pool, None
        if pool is not None:
            await pool.close()
        self._handler = None

    def _publish_pool(self) -> asyncpg.Pool:
        if self._pool is None:
            raise RuntimeError("broadcaster not started")
        return self._pool

    async def publish(self, match_id: str, seq: int) -> None:
        await self._publish_pool().execute("SELECT pg_notify($1, $2)", self.channel, f"{match_id}:{seq}")

    async def publish_many(self, items: Sequence[tuple[str, int]]) -> None:
        """One statement for all of `items`, in their order (one alone: `publish`)."""
        if len(items) == 1:
            await self.publish(*items[0])
            return
        payloads = [f"{match_id}:{seq}" for match_id, seq in items]
        # unnest yields the array's elements in order, and each row's pg_notify runs as it comes
        query = "SELECT pg_notify($1, p) FROM unnest($2::text[]) AS p"
        await self._publish_pool().execute(query, self.channel, payloads)

    async def subscribe(self, match_id: str) -> None:
        # The one channel is listened to from `start` on, so a subscription is in force at once.
        self._subs.add(match_id)

    async def unsubscribe(self, match_id: str) -> None:
        self._subs.remove(match_id)

    async def _listen(self) -> tuple[asyncpg.Connection, asyncio.Event]:
        """Open the listening connection; the event is set when that connection is lost."""
        conn = await asyncpg.connect(self._dsn, server_settings={"application_name": self.application_name})
        lost = asyncio.Event()
        try:
            conn.add_termination_listener(lambda _conn: lost.set())
            await conn.add_listener(self.channel, self._on_notify)
        except BaseException:
            conn.terminate()
            raise
        self._listener = conn
        return conn, lost

    async def _supervise(self, conn: asyncpg.Connection, lost: asyncio.Event) -> None:
        while True:
            await self._watch(conn, lost)
            self._listener = None
            conn.terminate()
            log.warning("lost the LISTEN connection on %s; reconnecting", self.channel)
            while True:
                await asyncio.sleep(self._backoff.next())
                try:
                    conn, lost = await self._listen()
                    break
                except Exception as exc:
                    log.warning("reconnecting LISTEN on %s failed: %s", self.channel, exc)
            self._backoff.reset()
            log.info("LISTEN on %s restored; resyncing %d matches", self.channel, len(self._subs))
            # LISTEN is in force again; whatever was notified in between must be re-read.
            for match_id in self._subs:
                if self._handler is not None:
                    self._handler(match_id, RESYNC)

    async def _watch(self, conn: asyncpg.Connection, lost: asyncio.Event) -> None:
        """Return when `conn` is closed or stops answering."""
        while not lost.is_set() and not conn.is_closed():
            # `asyncio.timeout`, not `wait_for`: on Python 3.11 `wait_for` can swallow a cancel that
            # lands as its inner call finishes, and then `stop()` would wait on this loop forever.
            try:
                async with asyncio.timeout(self._health_interval):
                    await lost.wait()
                return
            except TimeoutError:
                pass
            try:
                async with asyncio.timeout(self._health_interval):
                    await conn.fetchval("SELECT 1")
            except Exception as exc:
                log.warning("LISTEN connection on %s failed its health check: %s", self.channel, exc)
                return

    def _on_notify(self, _conn: object, _pid: int, _channel: str, payload: str) -> None:
        match_id, sep, seq_text = payload.rpartition(":")
        try:
            seq = int(seq_text)
        except ValueError:
            seq = None
        if not sep or seq is None:
            log.warning("ignoring malformed notification on %s: %.80r", self.channel, payload)
            return
        if self._handler is not None and match_id in self._subs:
            self._handler(match_id, seq)
