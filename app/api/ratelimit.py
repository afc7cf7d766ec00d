"""Rate limits: per client address and per credential, one budget per kind of work.

Budgets: `create` (new matches and players), `actions` (every other write: actions, joins…),
`reads` (every GET under `/v1/`), `streams` (WebSocket connections), and `frames` (client frames
on one stream connection). Each budget has a limit per client IP and one per credential — the
bearer token or player key, kept only as a SHA-256 digest, never raw — in `limits` notation
(`"60/minute"`, `"20/second;600/minute"`; empty: none), from `DRAGO_RATE_LIMIT_*` settings.
Counters are sliding-window counters (`app.api.rate_counters`), in this process's memory
(`memory://`, one process) or in Redis (`redis://…`, shared by every process of a deployment, under
the broadcast prefix; one round trip per request). Frame budgets are always in memory: a
connection lives on one process. A request is counted in every counter of its budget or, when one
of them is spent, in none: a refused request does not spend the others.

Over HTTP a refusal is 429 `rate_limited` with `Retry-After` and `RateLimit-Limit`,
`RateLimit-Remaining`, `RateLimit-Reset` (seconds). A stream over its connection or frame budget
gets an `error` frame `rate_limited` and close 4429; an action frame over the `actions` budget
gets only the error frame. Should the Redis storage fail, requests pass (and a warning is logged
at most once a minute): limits protect the service, they must not take it down.

The check sits before routing and costs one call per request, whatever the number of items.
"""

from __future__ import annotations

import hashlib
import logging
import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import NamedTuple
from urllib.parse import parse_qsl

import redis.asyncio as aioredis
from limits import RateLimitItem, parse_many
from starlette.types import ASGIApp, Receive, Scope, Send
from starlette.websockets import WebSocket

from app.api.closes import close_code
from app.api.credentials import Malformed, bearer_of
from app.api.errors import render
from app.api.frame_text import error_frame
from app.api.rate_counters import Check, MemoryCounters, RedisCounters, Spent
from app.service.errors import RateLimited
from app.settings import Settings

log = logging.getLogger("app.ratelimit")

BUDGETS = ("create", "actions", "reads", "streams")
CREATE_PATHS = frozenset({"/v1/matches", "/v1/players"})
WARN_EVERY = 60.0
STORAGE_TIMEOUT_S = 1.0  # a Redis that does not answer holds a request this long, then it passes


def parse_limits(text: str) -> tuple[RateLimitItem, ...]:
    """`"20/second;600/minute"` as `limits` items; empty or "none": no limit."""
    text = text.strip()
    if not text or text.lower() == "none":
        return ()
    return tuple(parse_many(text))


def credential_key(credential: str) -> str:
    """The key a credential is counted under: a digest, so no counter store holds a token."""
    return hashlib.sha256(credential.encode("utf-8", "surrogateescape")).hexdigest()[:32]


@dataclass(frozen=True, slots=True)
class Refusal:
    budget: str
    limit: int
    reset_after: int  # seconds until the window lets the next request through

    def error(self) -> RateLimited:
        return RateLimited(
            f"too many requests ({self.budget}: {self.limit} per window); retry in {self.reset_after} s",
            {"budget": self.budget, "limit": self.limit, "retry_after": self.reset_after},
        )

    def headers(self) -> dict[str, str]:
        reset = str(self.reset_after)
        return {
            "Retry-After": reset,
            "RateLimit-Limit": str(self.limit),
            "RateLimit-Remaining": "0",
            "RateLimit-Reset": reset,
        }


@dataclass(frozen=True, slots=True)
class Rules:
    per_ip: dict[str, tuple[RateLimitItem, ...]]
    per_credential: dict[str, tuple[RateLimitItem, ...]]
    frames: tuple[RateLimitItem, ...]


class Limiter:
    """The process's counters: `check(budget, ip, credential)` → None, or why not. A request's
    items (address and credential) are counted in one call, in all of them or, when one is spent,
    in none (`app.api.rate_counters`). `clock` (seconds since the epoch) is the time of the counters
    kept in memory; counters in Redis go by Redis's clock, one for every process of a fleet."""

    def __init__(
        self,
        rules: Rules,
        storage_url: str = "memory://",
        prefix: str = "drago",
        clock: Callable[[], float] = time.time,
    ) -> None:
        # what each budget's counters are, less the client they count: derived once, not per request
        self._per_ip = {budget: _shapes(budget, "ip", items) for budget, items in rules.per_ip.items()}
        self._per_credential = {
            budget: _shapes(budget, "cred", items) for budget, items in rules.per_credential.items()
        }
        self._per_connection = _shapes("frames", "conn", rules.frames)
        # frames always count here (a connection lives on one process); budgets too, without Redis
        self._memory = MemoryCounters(clock)
        self._redis: aioredis.Redis | None = None
        self._shared: RedisCounters | None = None
        if not storage_url.startswith("memory"):
            self._redis = aioredis.Redis.from_url(
                storage_url, socket_timeout=STORAGE_TIMEOUT_S, socket_connect_timeout=STORAGE_TIMEOUT_S
            )
            self._shared = RedisCounters(self._redis, prefix)
        self._warned = -math.inf

    def memory_keys(self) -> list[str]:
        """The keys of the counters kept in this process (for the tests: no token among them)."""
        return self._memory.keys()

    async def close(self) -> None:
        """Close the Redis connections (nothing to do in memory)."""
        if self._redis is not None:
            await self._redis.aclose()

    async def check(self, budget: str, ip: str, credential: str | None) -> Refusal | None:
        checks = [shape.of(ip) for shape in self._per_ip.get(budget, ())]
        per_credential = self._per_credential.get(budget, ())
        if credential is not None and per_credential:
            key = credential_key(credential)
            checks += [shape.of(key) for shape in per_credential]
        if not checks:
            return None
        if self._shared is None:
            spent = self._memory.spend(checks)
        else:
            try:
                spent = await self._shared.spend(checks)
            except Exception:
                self._warn()
                return None
        return None if spent is None else _refusal(budget, checks, spent)

    def frame(self, connection: str) -> Refusal | None:
        """Count one client frame of a stream connection."""
        checks = [shape.of(connection) for shape in self._per_connection]
        spent = self._memory.spend(checks) if checks else None
        return None if spent is None else _refusal("frames", checks, spent)

    def _warn(self) -> None:
        now = time.monotonic()
        if now - self._warned >= WARN_EVERY:
            self._warned = now
            log.warning("rate limit storage unavailable: requests pass unlimited", exc_info=True)


class _Shape(NamedTuple):
    """One budget item's counter but for the client it counts (an address, a credential's digest,
    a connection): its key is `head + client + tail`."""

    head: str
    tail: str
    limit: int
    window: float

    def of(self, client: str) -> Check:
        return Check(self.head + client + self.tail, self.limit, self.window)


def _shapes(budget: str, kind: str, items: tuple[RateLimitItem, ...]) -> tuple[_Shape, ...]:
    windows = [item.get_expiry() for item in items]
    return tuple(
        _Shape(f"{budget}:{kind}:", f":{item.amount}/{window}", item.amount, float(window))
        for item, window in zip(items, windows, strict=True)
    )


def _refusal(budget: str, checks: list[Check], spent: Spent) -> Refusal:
    return Refusal(budget, checks[spent.at].limit, max(1, math.ceil(spent.wait)))


def budget_of(scope: Scope) -> str | None:
    """Which budget a request spends, or None (operations, docs, CORS preflights)."""
    if scope["type"] == "websocket":
        return "streams"
    path: str = scope["path"]
    if not path.startswith("/v1/"):
        return None
    method = scope["method"]
    if method in ("GET", "HEAD"):
        return "reads"
    if method == "POST":
        return "create" if path in CREATE_PATHS else "actions"
    return None


def client_ip(scope: Scope) -> str:
    client = scope.get("client")
    return str(client[0]) if client else "unknown"


def credential_of(scope: Scope) -> str | None:
    """The bearer credential of a request: the Authorization header (a malformed one counts as none),
    or for a stream the `token` or `key` query parameter (browsers cannot set headers)."""
    token = bearer_of(scope)
    if token is not None:
        return None if isinstance(token, Malformed) else token
    if scope["type"] == "websocket":
        query = scope.get("query_string", b"").decode("latin-1")
        for name, value in parse_qsl(query):
            if name in ("token", "key") and value:
                return str(value)
    return None


class RateLimit:
    """ASGI middleware: spends the request's budget before routing; 429 or close 4429 when spent."""

    def __init__(self, app: ASGIApp, limiter: Limiter) -> None:
        self.app = app
        self.limiter = limiter

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        budget = budget_of(scope) if scope["type"] in ("http", "websocket") else None
        if budget is not None:
            refusal = await self.limiter.check(budget, client_ip(scope), credential_of(scope))
            if refusal is not None:
                await _refuse(scope, receive, send, refusal)
                return
        await self.app(scope, receive, send)


async def _refuse(scope: Scope, receive: Receive, send: Send, refusal: Refusal) -> None:
    error = refusal.error()
    if scope["type"] == "http":
        await render(error, refusal.headers())(scope, receive, send)
        return
    ws = WebSocket(scope, receive, send)
    try:
        await ws.accept()
        await ws.send_text(error_frame(None, error))
        await ws.close(close_code(error), f"rate limited: retry in {refusal.reset_after} s")
    except Exception as e:  # the client went away first
        log.debug("refused stream left early: %s", type(e).__name__)


def rules_from(settings: Settings) -> Rules:
    """The `Rules` of `DRAGO_RATE_LIMIT_<BUDGET>_PER_IP`, `…_PER_CREDENTIAL`, `…_FRAMES…`."""

    def setting(name: str) -> tuple[RateLimitItem, ...]:
        return parse_limits(str(getattr(settings, f"rate_limit_{name}")))

    return Rules(
        per_ip={b: setting(f"{b}_per_ip") for b in BUDGETS},
        per_credential={b: setting(f"{b}_per_credential") for b in BUDGETS},
        frames=setting("frames_per_connection"),
    )
