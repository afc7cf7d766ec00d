"""Redis pub/sub broadcaster, for several processes sharing one Redis.

One channel per match, `"{prefix}:match:{id}"`, carrying the seq as text. Each process holds one
listening connection, subscribed to the channels of the matches it serves (ref-counted), and a
reader task that dispatches messages to the handler; publishing uses a separate client.
`subscribe` returns once Redis has confirmed the SUBSCRIBE, so a store read after it cannot miss a
commit.

The reader owns the listening connection: a bare redis-py `Connection` rather than its `PubSub`,
because `PubSub` reconnects by itself from whichever task touches it, behind the reader's back.
Only the reader reads; other tasks only send whole SUBSCRIBE/UNSUBSCRIBE commands, one at a time,
while it is connected. Any failure ends the connection; the reader opens a new one with backoff,
subscribes every match again and, as each SUBSCRIBE is confirmed, calls the handler with `RESYNC`
for that match. A PING after `health_interval` of silence, unanswered for another interval, counts
as a failure too.

While Redis is unreachable the streams must not go silent: between reconnect attempts the reader
calls the handler with `RESYNC` for every subscribed match once per `poll_interval` (1 s, the first
time one interval after the loss), so the
hub reads each followed match from the store — a poll fallback that delivers commits of other
processes within about a second. When Redis is back the listener resubscribes and fan-out resumes;
the polling stops (`tests/fleet/test_outages.py`).
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from collections.abc import Sequence

import redis.asyncio as aioredis
from redis.asyncio.connection import AbstractConnection, ConnectionPool
from redis.exceptions import RedisError

from app.broadcast.base import Backoff, Listener
from app.service.live import RESYNC
from app.service.ports import MessageHandler
from app.service.tasks import cancel_and_wait

log = logging.getLogger(__name__)


class RedisBroadcaster(Listener):
    def __init__(
        self,
        url: str,
        *,
        prefix: str = "drago",
        health_interval: float = 15.0,
        backoff: Backoff | None = None,
        poll_interval: float = 1.0,
    ) -> None:
        super().__init__(health_interval, backoff)
        self._url = url
        self._channel_prefix = f"{prefix}:match:"
        self.client_name = f"{prefix}:listen:{uuid.uuid4().hex[:8]}"  # this connection in CLIENT LIST
        self._poll_interval = poll_interval
        self._polled = 0.0  # when the last poll fallback ran, or the connection was lost (loop time)
        self._down = False  # the listening connection is lost and not back yet
        self.polls = 0  # poll-fallback rounds run (each resyncs every subscribed match)
        self._publisher: aioredis.Redis | None = None
        self._settings: ConnectionPool | None = None  # builds listening connections; never pools them
        self._conn: AbstractConnection | None = None  # the listening connection; None while reconnecting
        self._active: set[str] = set()  # matches SUBSCRIBEd on that connection
        self._resync: set[str] = set()  # matches to resync once their SUBSCRIBE is confirmed
        self._confirm: dict[str, list[asyncio.Future[None]]] = {}
        self._lock = asyncio.Lock()  # one SUBSCRIBE/UNSUBSCRIBE at a time, in call order

    def channel(self, match_id: str) -> str:
        return f"{self._channel_prefix}{match_id}"

    async def start(self, handler: MessageHandler) -> None:
        self._begin(handler)
        self._publisher = aioredis.Redis.from_url(self._url, decode_responses=True)
        # RESP2: replies in subscribed mode are plain arrays (RESP3 pushes work too, see _read).
        self._settings = ConnectionPool.from_url(
            self._url, decode_responses=True, client_name=self.client_name, protocol=2
        )
        try:
            await self._publisher.ping()
            conn = await self._connect()
        except BaseException:
            await self.stop()
            raise
        self._task = asyncio.create_task(self._run(conn), name=f"{self.client_name} reader")

    async def stop(self) -> None:
        task, self._task = self._task, None
        await cancel_and_wait(task)
        if self._conn is not None:
            await self._drop(self._conn)
        if self._publisher is not None:
            await self._publisher.aclose()
        self._publisher = self._settings = None
        self._handler = None

    def _client(self) -> aioredis.Redis:
        if self._publisher is None:
            raise RuntimeError("broadcaster not started")
        return self._publisher

    async def publish(self, match_id: str, seq: int) -> None:
        await self._client().publish(self.channel(match_id), str(seq))

    async def publish_many(self, items: Sequence[tuple[str, int]]) -> None:
        """One pipeline (no transaction): one round trip for all of `items` (one alone: `publish`)."""
        if len(items) == 1:
            await self.publish(*items[0])
            return
        async with self._client().pipeline(transaction=False) as pipe:
            for match_id, seq in items:
                pipe.publish(self.channel(match_id), str(seq))
            await pipe.execute()

    async def subscribe(self, match_id: str) -> None:
        self._subs.add(match_id)
        await self._sync(match_id)

    async def unsubscribe(self, match_id: str) -> None:
        self._subs.remove(match_id)
        await self._sync(match_id)

    async def _sync(self, match_id: str) -> None:
        """Make the connection's subscription to `match_id` match the ref-count."""
        async with self._lock:
            conn = self._conn
            wanted = match_id in self._subs
            if conn is None or not conn.is_connected or wanted == (match_id in self._active):
                return  # in step, or reconnecting (which subscribes everything wanted)
            try:
                if wanted:
                    confirmed = asyncio.get_running_loop().create_future()
                    self._confirm.setdefault(match_id, []).append(confirmed)
                    self._active.add(match_id)
                    await conn.send_command("SUBSCRIBE", self.channel(match_id), check_health=False)
                    await confirmed  # resolved by the reader, or by _drop if the connection is lost
                else:
                    self._active.discard(match_id)
                    await conn.send_command("UNSUBSCRIBE", self.channel(match_id), check_health=False)
            except (RedisError, OSError) as exc:
                # The reader meets the same broken connection, then reconnects and resyncs.
                log.warning("redis (un)subscribe of match %s failed: %s", match_id, exc)

    async def _connect(self) -> AbstractConnection:
        assert self._settings is not None
        conn: AbstractConnection = self._settings.make_connection()  # type: ignore[no-untyped-call]
        try:
            await conn.connect()  # type: ignore[no-untyped-call]
            async with self._lock:
                wanted = list(self._subs)
                if wanted:
                    await conn.send_command("SUBSCRIBE", *map(self.channel, wanted), check_health=False)
                self._conn = conn
                self._active = set(wanted)
                self._resync = set(wanted)
        except BaseException:
            await self._drop(conn)
            raise
        return conn

    async def _drop(self, conn: AbstractConnection) -> None:
        if self._conn is conn:
            self._conn = None
            self._active.clear()
            self._resync.clear()
            for futures in self._confirm.values():
                for future in futures:
                    if not future.done():
                        future.set_result(None)  # the resync after reconnecting covers them
            self._confirm.clear()
        await conn.disconnect(nowait=True)

    async def _run(self, conn: AbstractConnection | None) -> None:
        try:
            while True:
                try:
                    if conn is None:
                        conn = await self._connect()
                        self._backoff.reset()
                        self._down = False
                        log.info("redis listener restored; resyncing %d matches", len(self._active))
                    await self._read(conn)
                except Exception as exc:
                    log.warning("redis listener failed: %r; reconnecting", exc)
                if conn is not None:
                    await self._drop(conn)
                    conn = None
                if not self._down:  # the first poll comes one interval after the loss: a blip that
                    self._down = True  # a reconnect mends sooner needs none (its resync reads the store)
                    self._polled = asyncio.get_running_loop().time()
                await self._wait_polling(self._backoff.next())
        finally:
            if conn is not None:
                await self._drop(conn)

    async def _wait_polling(self, delay: float) -> None:
        """Wait `delay` before the next reconnect attempt, polling the store meanwhile: every
        `poll_interval` each subscribed match gets `RESYNC` (the hub then reads it after its cursor)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + delay
        while True:
            now = loop.time()
            if now - self._polled >= self._poll_interval and self._handler is not None:
                self._polled = now
                self.polls += 1
                for match_id in list(self._subs):
                    self._handler(match_id, RESYNC)
            remaining = deadline - loop.time()
            if remaining <= 0:
                return
            await asyncio.sleep(min(remaining, self._poll_interval))

    async def _read(self, conn: AbstractConnection) -> None:
        """Dispatch replies until the connection fails (then raise)."""
        pinged = False
        while True:
            reply = await conn.read_response(
                timeout=self._health_interval, disconnect_on_error=False, push_request=True
            )
            if reply is None:  # silence for health_interval
                if pinged:
                    raise ConnectionError("no reply to PING")
                pinged = True
                await conn.send_command("PING", check_health=False)
                continue
            pinged = False
            self._dispatch(reply)

    def _dispatch(self, reply: object) -> None:
        if not isinstance(reply, list) or len(reply) != 3:
            return  # PONG
        kind, channel, data = reply
        if not isinstance(channel, str) or not channel.startswith(self._channel_prefix):
            return
        match_id = channel[len(self._channel_prefix) :]
        if kind == "subscribe":
            for future in self._confirm.pop(match_id, ()):
                if not future.done():
                    future.set_result(None)
            if match_id in self._resync:
                self._resync.discard(match_id)
                if self._handler is not None and match_id in self._subs:
                    self._handler(match_id, RESYNC)
        elif kind == "message" and self._handler is not None and match_id in self._subs:
            try:
                seq = int(data)
            except (TypeError, ValueError):
                log.warning("ignoring malformed message on %s: %.80r", channel, data)
                return
            self._handler(match_id, seq)
