"""Webhooks: a player's notices POSTed to a URL it registered, signed, at least once.

The outbox is the notices table: every notice is written in the same commit as the event that
caused it (an append, a claim, a challenge's answer), with a gap-free cursor per player. A webhook
keeps the cursor of the last notice it handled; `Deliverer` — in every process, no leader — takes a
due webhook's lease (an expiry, from the injected clock), POSTs the notices after its cursor in order,
and moves the cursor after each one the target accepted (2xx). A process killed mid-delivery loses
nothing: once the lease runs out, any process delivers from the stored cursor again, so a receiver
may see a notice twice, always with the same `id`.

A failed delivery (an error, a timeout, a non-2xx answer, a target address not allowed) is retried
with exponential backoff, `backoff(n)` = min(10 s × 2^(n−1), 1 h) after the n-th failure, for
`GIVE_UP_S` (24 h) from its first failure; then it is marked `failed` and the next notice goes.
Deliveries run off the request path, each with a timeout, one at a time per webhook and at most
`PER_HOST` at a time per target host.

Signing (docs/matchmaking.md has a test vector): the body is the JSON notice
`{"id", "type", "timestamp", "player_id", "cursor", "data"}`; the headers carry `Drago-Webhook-Id`,
`Drago-Webhook-Timestamp` (Unix seconds of the attempt) and `Drago-Webhook-Signature: v1=<hex>`,
HMAC-SHA256 with the webhook's secret over `"{id}.{timestamp}.{body}"`.

Targets on loopback, private, link-local, multicast, reserved or unspecified addresses are refused
(at registration and again at each delivery, after resolving the name) unless the operator allows
them (`allow_private`).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import ipaddress
import logging
import secrets
import socket
import uuid
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Final
from urllib.parse import urlsplit

import orjson

from app.service.auth import Caller
from app.service.errors import ValidationFailed
from app.service.periodic import Periodic
from app.service.players import player_of
from app.service.ports import NOTICE_TYPES, StoredNotice
from app.service.seek_ports import AttemptRecord, WebhookProgress, WebhookRecord
from app.service.seeks import Matchmaking, owned

log = logging.getLogger("app.webhooks")

MAX_URL: Final = 2000
MAX_WEBHOOKS: Final = 5  # per player
GIVE_UP_S: Final = 86_400.0
FIRST_RETRY_S: Final = 10.0
MAX_RETRY_S: Final = 3600.0
TIMEOUT_S: Final = 5.0
LEASE_S: Final = 60.0
PER_HOST: Final = 2
BATCH: Final = 50
BANNED_PAUSE_S: Final = 60.0  # a banned player's webhooks wait this long before being looked at again
SECRET_PREFIX: Final = "whsec_"  # noqa: S105 (a prefix, not a secret)

Sender = Callable[[str, bytes, dict[str, str], float], Awaitable[int]]
"""POST `body` to a URL with headers and a timeout; the HTTP status (raises on a network error)."""
Resolver = Callable[[str], Awaitable[list[str]]]


def backoff(failures: int) -> float:
    """Seconds to wait after the `failures`-th failure in a row (1-based)."""
    return float(min(FIRST_RETRY_S * 2.0 ** (failures - 1), MAX_RETRY_S))


def delivery_id(player_id: str, cursor: int) -> str:
    """The id a notice carries in every delivery (the same on every retry, from every process)."""
    return hashlib.sha256(f"{player_id}:{cursor}".encode()).hexdigest()[:32]


def signature(secret: str, delivery: str, timestamp: int, body: bytes) -> str:
    """`v1=` and the hex HMAC-SHA256 of `"{id}.{timestamp}.{body}"` keyed by the secret."""
    mac = hmac.new(secret.encode(), f"{delivery}.{timestamp}.".encode() + body, hashlib.sha256)
    return f"v1={mac.hexdigest()}"


def payload(notice: StoredNotice) -> tuple[str, bytes]:
    """The delivery id and the JSON body of a notice (public facts only, as on the personal stream)."""
    delivery = delivery_id(notice.player_id, notice.cursor)
    at = notice.recorded_at.isoformat().replace("+00:00", "Z")
    body = {
        "id": delivery,
        "type": notice.type,
        "timestamp": at,
        "player_id": notice.player_id,
        "cursor": notice.cursor,
        "data": dict(notice.data),
    }
    return delivery, orjson.dumps(body)


def headers(secret: str, delivery: str, timestamp: int, body: bytes) -> dict[str, str]:
    return {
        "Content-Type": "application/json",
        "User-Agent": "drago-webhooks/1",
        "Drago-Webhook-Id": delivery,
        "Drago-Webhook-Timestamp": str(timestamp),
        "Drago-Webhook-Signature": signature(secret, delivery, timestamp, body),
    }


async def resolve(host: str) -> list[str]:
    infos = await asyncio.get_running_loop().getaddrinfo(host, None, type=socket.SOCK_STREAM)
    return [str(info[4][0]) for info in infos]


def _forbidden_address(address: str) -> bool:
    ip = ipaddress.ip_address(address.split("%")[0])
    return any(
        (ip.is_loopback, ip.is_private, ip.is_link_local, ip.is_multicast, ip.is_reserved, ip.is_unspecified)
    )


async def check_target(url: str, allow_private: bool, resolver: Resolver = resolve) -> str | None:
    """Why `url` may not be a target (None: it may). Resolves its host name."""
    host = urlsplit(url).hostname
    if host is None:
        return "the URL has no host"
    if allow_private:
        return None
    try:
        addresses = [host] if _is_ip(host) else await resolver(host)
    except OSError:
        return "the URL's host cannot be resolved"
    if not addresses or any(_forbidden_address(a) for a in addresses):
        return "the URL's host is a loopback, private, link-local or reserved address"
    return None


def _is_ip(host: str) -> bool:
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True


@dataclass(frozen=True, slots=True)
class Registered:
    webhook: WebhookRecord
    secret: str  # shown this once


async def create_webhook(
    mm: Matchmaking, caller: Caller, url: str, events: Sequence[str] | None, *, allow_private: bool
) -> Registered:
    me = await player_of(mm.ctx, caller)
    parts = urlsplit(url)
    if len(url) > MAX_URL or parts.scheme not in ("http", "https") or not parts.hostname:
        raise ValidationFailed(f"url is an http(s) URL of at most {MAX_URL} characters", {"field": "url"})
    chosen = tuple(NOTICE_TYPES if events is None else dict.fromkeys(events))
    unknown = [e for e in chosen if e not in NOTICE_TYPES]
    if unknown or not chosen:
        raise ValidationFailed("events are notice types", {"field": "events", "known": list(NOTICE_TYPES)})
    why = await check_target(url, allow_private)
    if why is not None:
        raise ValidationFailed(why, {"field": "url"})
    if len(await mm.store.player_webhooks(me.id)) >= MAX_WEBHOOKS:
        raise ValidationFailed(
            f"a player has at most {MAX_WEBHOOKS} webhooks", {"field": "url", "max": MAX_WEBHOOKS}
        )
    secret = SECRET_PREFIX + secrets.token_urlsafe(32)
    fresh = await mm.ctx.store.get_player(me.id)
    cursor = me.cursor if fresh is None else fresh.cursor  # notices from now on
    webhook = WebhookRecord(uuid.uuid4().hex, me.id, url, chosen, secret, mm.ctx.clock(), cursor)
    await mm.store.add_webhook(webhook)
    return Registered(webhook, secret)


async def _mine(mm: Matchmaking, caller: Caller, webhook_id: str) -> WebhookRecord:
    me = await player_of(mm.ctx, caller)
    return owned(await mm.store.get_webhook(webhook_id), me.id, "webhook", webhook_id)


async def my_webhooks(mm: Matchmaking, caller: Caller) -> list[WebhookRecord]:
    me = await player_of(mm.ctx, caller)
    return await mm.store.player_webhooks(me.id)


async def delete_webhook(mm: Matchmaking, caller: Caller, webhook_id: str) -> None:
    await _mine(mm, caller, webhook_id)
    await mm.store.delete_webhook(webhook_id)


async def deliveries(mm: Matchmaking, caller: Caller, webhook_id: str, limit: int) -> list[AttemptRecord]:
    await _mine(mm, caller, webhook_id)
    return await mm.store.webhook_attempts(webhook_id, limit)


class Deliverer:
    """This process's webhook deliverer: a pass every `interval_s` over the due webhooks."""

    def __init__(
        self,
        mm: Matchmaking,
        send: Sender,
        *,
        allow_private: bool,
        interval_s: float = 0.5,
        timeout_s: float = TIMEOUT_S,
        lease_s: float = LEASE_S,
        resolver: Resolver = resolve,
    ) -> None:
        self.mm = mm
        self.send = send
        self.allow_private = allow_private
        self.interval_s = interval_s
        self.timeout_s = timeout_s
        self.lease_s = lease_s
        self.resolver = resolver
        self._hosts: dict[str, asyncio.Semaphore] = {}
        self._periodic = Periodic(
            "webhooks", self.deliver_once, interval_s, log=log, failure="webhook pass failed"
        )
        self.delivered = 0

    async def start(self) -> None:
        await self._periodic.start()

    async def stop(self) -> None:
        await self._periodic.stop()

    async def deliver_once(self) -> int:
        """One pass: every due webhook whose lease this process gets; returns notices delivered."""
        store, clock = self.mm.store, self.mm.ctx.clock
        due = await store.due_webhooks(clock(), BATCH)
        leased = []
        for webhook_id in due:
            now = clock()
            webhook = await store.lease_webhook(webhook_id, now, now + timedelta(seconds=self.lease_s))
            if webhook is not None:
                leased.append(webhook)
        if leased:  # a banned player gets nothing: its webhooks pause, from where they are
            banned = await self.mm.ctx.store.banned_among({w.player_id for w in leased})
            for w in leased:
                if w.player_id in banned:
                    await self._pause(w, clock() + timedelta(seconds=BANNED_PAUSE_S))
            leased = [w for w in leased if w.player_id not in banned]
        counts = await asyncio.gather(*(self._deliver(w) for w in leased))
        return sum(counts)

    async def _pause(self, w: WebhookRecord, until: datetime) -> None:
        """Deliver nothing to `w` before `until`; its cursor and its retry count stay as they are."""
        store = self.mm.store
        try:
            await store.webhook_progress(
                w.id, WebhookProgress(w.cursor, w.attempts, w.failing_since, until), None
            )
        finally:
            with contextlib.suppress(Exception):  # the lease runs out by itself otherwise
                await store.release_webhook(w.id)

    async def _deliver(self, w: WebhookRecord) -> int:
        store, ctx = self.mm.store, self.mm.ctx
        delivered = 0
        try:
            notices = await ctx.store.read_notices(w.player_id, w.cursor, BATCH)
            cursor, attempts, failing_since = w.cursor, w.attempts, w.failing_since
            for notice in notices:
                if notice.type not in w.events:
                    cursor = notice.cursor
                    continue
                status, error = await self._post(w, notice)
                now = ctx.clock()
                delivery = delivery_id(notice.player_id, notice.cursor)
                if status is not None and 200 <= status < 300:
                    attempt = AttemptRecord(
                        w.id, delivery, notice.cursor, notice.type, attempts + 1, now, "delivered", status
                    )
                    cursor, attempts, failing_since = notice.cursor, 0, None
                    await store.webhook_progress(w.id, WebhookProgress(cursor, 0, None, None), attempt)
                    delivered += 1
                    continue
                attempts += 1
                failing_since = failing_since or now
                if (now - failing_since).total_seconds() >= GIVE_UP_S:
                    attempt = AttemptRecord(
                        w.id, delivery, notice.cursor, notice.type, attempts, now, "failed", status, error
                    )
                    cursor, attempts, failing_since = notice.cursor, 0, None
                    await store.webhook_progress(w.id, WebhookProgress(cursor, 0, None, None), attempt)
                    continue
                attempt = AttemptRecord(
                    w.id, delivery, notice.cursor, notice.type, attempts, now, "retry", status, error
                )
                next_at = now + timedelta(seconds=backoff(attempts))
                await store.webhook_progress(
                    w.id, WebhookProgress(cursor, attempts, failing_since, next_at), attempt
                )
                return delivered
            if cursor != w.cursor or attempts != w.attempts:
                await store.webhook_progress(
                    w.id, WebhookProgress(cursor, attempts, failing_since, None), None
                )
            return delivered
        finally:
            self.delivered += delivered
            with contextlib.suppress(Exception):  # the lease runs out by itself otherwise
                await store.release_webhook(w.id)

    async def _post(self, w: WebhookRecord, notice: StoredNotice) -> tuple[int | None, str | None]:
        why = await check_target(w.url, self.allow_private, self.resolver)
        if why is not None:
            return None, why
        delivery, body = payload(notice)
        timestamp = int(self.mm.ctx.clock().timestamp())
        host = urlsplit(w.url).hostname or ""
        gate = self._hosts.setdefault(host, asyncio.Semaphore(PER_HOST))
        async with gate:
            try:
                status = await asyncio.wait_for(
                    self.send(w.url, body, headers(w.secret, delivery, timestamp, body), self.timeout_s),
                    self.timeout_s + 1,
                )
            except Exception as e:  # a network error or a timeout: retried
                return None, f"{type(e).__name__}: {e}"[:200]
        return status, None


def httpx_sender() -> tuple[Sender, Callable[[], Awaitable[None]]]:
    """A sender over one `httpx.AsyncClient` (no redirects followed), and how to close it."""
    import httpx

    client = httpx.AsyncClient(follow_redirects=False, trust_env=False)

    async def send(url: str, body: bytes, hdrs: dict[str, str], seconds: float) -> int:
        response = await client.post(url, content=body, headers=hdrs, timeout=seconds)
        return response.status_code

    return send, client.aclose
