"""Redis pub/sub broadcaster, for several processes sharing one Redis.

One channel per match, `"{prefix}:match:{id}"`, carrying the seq as text. Each process holds one
pub/sub connection, subscribed to the channels of the matches it serves (ref-counted), and a reader
task that dispatches messages to the handler; publishing uses a separate client. `subscribe`
returns once Redis has confirmed the SUBSCRIBE, so a store read after it cannot miss a commit.

The reader owns reconnection: the pub/sub client is built without redis-py's retries so that a
lost connection surfaces; the reader then opens a new one with backoff, subscribes every match
again and, as each SUBSCRIBE is confirmed, calls the handler with `RESYNC` for that match.
A PING after `health_interval` of silence, unanswered for another interval, counts as lost too.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import redis.asyncio as aioredis
from redis.asyncio.client import PubSub
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff
from redis.exceptions import RedisError

from app.broadcast.base import Backoff, RefCounts, cancel_and_wait
from app.service.live import RESYNC
from app.service.ports import MessageHandler

log = logging.getLogger(__name__)


class RedisBroadcaster:
    def __init__(
        self,
        url: str,
        *,
        prefix: str = "drago",
        health_interval: float = 15.0,
        backoff: Backoff | None = None,
    ) -> None:
        self._url = url
        self._channel_prefix = f"{prefix}:match:"
        self.client_name = f"{prefix}:listen"  # names the pub/sub connection in CLIENT LIST
        self._health_interval = health_interval
        self._backoff = backoff or Backoff()
        self._subs = RefCounts()
        self._handler: MessageHandler | None = None
        self._publisher: aioredis.Redis | None = None
        self._listener: aioredis.Redis | None = None
        self._pubsub: PubSub | None = None  # the connection in use, None while reconnecting
        self._active: set[str] = set()  # matches SUBSCRIBEd on that connection
        self._resync: set[str] = set()  # matches to resync once their SUBSCRIBE is confirmed
        self._confirm: dict[str, list[asyncio.Future[None]]] = {}
        self._lock = asyncio.Lock()  # one SUBSCRIBE/UNSUBSCRIBE at a time, in call order
        self._task: asyncio.Task[None] | None = None

    def channel(self, match_id: str) -> str:
        return f"{self._channel_prefix}{match_id}"

    async def start(self, handler: MessageHandler) -> None:
        if self._handler is not None:
            raise RuntimeError("broadcaster already started")
        self._handler = handler
        self._publisher = aioredis.Redis.from_url(self._url, decode_responses=True)
        self._listener = aioredis.Redis.from_url(
            self._url, decode_responses=True, client_name=self.client_name, retry=Retry(NoBackoff(), 0)
        )
        try:
            await self._publisher.ping()
            pubsub = await self._connect()
        except BaseException:
            await self.stop()
            raise
        self._task = asyncio.create_task(self._run(pubsub), name=f"{self.client_name} reader")

    async def stop(self) -> None:
        task, self._task = self._task, None
        await cancel_and_wait(task)
        if self._pubsub is not None:
            await self._drop(self._pubsub)
        for client in (self._publisher, self._listener):
            if client is not None:
                await client.aclose()
        self._publisher = self._listener = None
        self._handler = None

    async def publish(self, match_id: str, seq: int) -> None:
        if self._publisher is None:
            raise RuntimeError("broadcaster not started")
        await self._publisher.publish(self.channel(match_id), str(seq))

    async def subscribe(self, match_id: str) -> None:
        self._subs.add(match_id)
        await self._sync(match_id)

    async def unsubscribe(self, match_id: str) -> None:
        self._subs.remove(match_id)
        await self._sync(match_id)

    async def _sync(self, match_id: str) -> None:
        """Make the connection's subscription to `match_id` match the ref-count."""
        async with self._lock:
            pubsub = self._pubsub
            wanted = match_id in self._subs
            if pubsub is None or wanted == (match_id in self._active):
                return  # in step, or reconnecting (which subscribes everything wanted)
            try:
                if wanted:
                    confirmed = asyncio.get_running_loop().create_future()
                    self._confirm.setdefault(match_id, []).append(confirmed)
                    self._active.add(match_id)
                    await pubsub.subscribe(self.channel(match_id))
                    await confirmed  # resolved by the reader, or by _drop if the connection is lost
                else:
                    self._active.discard(match_id)
                    await pubsub.unsubscribe(self.channel(match_id))
            except (RedisError, OSError) as exc:
                # Break the connection, so the reader reconnects and resyncs every match.
                log.warning("redis (un)subscribe of match %s failed: %s", match_id, exc)
                connection: Any = pubsub.connection  # redis-py types it as always None
                if connection is not None:
                    await connection.disconnect(nowait=True)

    async def _connect(self) -> PubSub:
        assert self._listener is not None
        pubsub = self._listener.pubsub()
        try:
            await pubsub.connect()  # type: ignore[no-untyped-call]
            async with self._lock:
                self._pubsub = pubsub
                wanted = set(self._subs)
                self._active = set(wanted)
                self._resync = set(wanted)
                if wanted:
                    await pubsub.subscribe(*(self.channel(m) for m in wanted))
        except BaseException:
            await self._drop(pubsub)
            raise
        return pubsub

    async def _drop(self, pubsub: PubSub) -> None:
        if self._pubsub is pubsub:
            self._pubsub = None
            self._active.clear()
            self._resync.clear()
            for futures in self._confirm.values():
                for future in futures:
                    if not future.done():
                        future.set_result(None)  # the resync after reconnecting covers them
            self._confirm.clear()
        await pubsub.aclose()  # type: ignore[no-untyped-call]

    async def _run(self, pubsub: PubSub | None) -> None:
        try:
            while True:
                try:
                    if pubsub is None:
                        pubsub = await self._connect()
                        self._backoff.reset()
                        log.info("redis pub/sub restored; resyncing %d matches", len(self._active))
                    await self._read(pubsub)
                except Exception as exc:
                    log.warning("redis pub/sub connection lost: %r; reconnecting", exc)
                if pubsub is not None:
                    await self._drop(pubsub)
                    pubsub = None
                await asyncio.sleep(self._backoff.next())
        finally:
            if pubsub is not None:
                await self._drop(pubsub)

    async def _read(self, pubsub: PubSub) -> None:
        """Dispatch messages until the connection is lost (then raise)."""
        pinged = False
        while True:
            message = await pubsub.get_message(timeout=self._health_interval)
            if message is None:
                if pinged:
                    raise ConnectionError("no reply to PING")
                pinged = True
                await pubsub.ping()
                continue
            pinged = False
            self._dispatch(message)

    def _dispatch(self, message: dict[str, Any]) -> None:
        channel = message.get("channel")
        if not isinstance(channel, str) or not channel.startswith(self._channel_prefix):
            return  # PONG and other replies
        match_id = channel[len(self._channel_prefix) :]
        kind = message.get("type")
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
                seq = int(message["data"])
            except (TypeError, ValueError):
                log.warning("ignoring malformed message on %s: %.80r", channel, message["data"])
                return
            self._handler(match_id, seq)
