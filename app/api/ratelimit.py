"""Rate limits: per client address and per credential, one budget per kind of work, by `limits`.

Budgets: `create` (new matches and players), `actions` (every other write: actions, joins…),
`reads` (every GET under `/v1/`), `streams` (WebSocket connections), and `frames` (client frames
on one stream connection). Each budget has a limit per client IP and one per credential — the
bearer token or player key, kept only as a SHA-256 digest, never raw — in `limits` notation
(`"60/minute"`, `"20/second;600/minute"`; empty: none), from `DRAGO_RATE_LIMIT_*` settings.
Counters use `limits`' sliding-window counters, in this process's memory (`memory://`, one
process) or in Redis (`redis://…`, shared by every process of a deployment, under the broadcast
prefix). Frame budgets are always in memory: a connection lives on one process.

Over HTTP a refusal is 429 `rate_limited` with `Retry-After` and `RateLimit-Limit`,
`RateLimit-Remaining`, `RateLimit-Reset` (seconds). A stream over its connection or frame budget
gets an `error` frame `rate_limited` and close 4429; an action frame over the `actions` budget
gets only the error frame. Should the Redis storage fail, requests pass (and a warning is logged
at most once a minute): limits protect the service, they must not take it down.

The check sits before routing and costs two counter updates per request (address, credential).
"""

from __future__ import annotations

import hashlib
import logging
import math
import time
from dataclasses import dataclass
from urllib.parse import parse_qsl

from limits import RateLimitItem, parse_many
from limits.aio.storage import RedisStorage
from limits.aio.strategies import SlidingWindowCounterRateLimiter as AsyncSliding
from limits.storage import MemoryStorage
from limits.strategies import SlidingWindowCounterRateLimiter as Sliding
from starlette.types import ASGIApp, Receive, Scope, Send
from starlette.websockets import WebSocket

from app.api.closes import close_code
from app.api.credentials import Malformed, bearer_of
from app.api.errors import render
from app.api.frame_text import error_frame
from app.service.errors import RateLimited
from app.settings import Settings

log = logging.getLogger("app.ratelimit")

BUDGETS = ("create", "actions", "reads", "streams")
CREATE_PATHS = frozenset({"/v1/matches", "/v1/players"})
WARN_EVERY = 60.0


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
    """The process's counters: `check(budget, ip, credential)` → None, or why not."""

    def __init__(self, rules: Rules, storage_url: str = "memory://", prefix: str = "drago") -> None:
        self.rules = rules
        self._memory = Sliding(MemoryStorage())
        self._frames = self._memory if storage_url.startswith("memory") else Sliding(MemoryStorage())
        self._shared: AsyncSliding | None = None
        self._redis: RedisStorage | None = None
        if not storage_url.startswith("memory"):
            self._redis = RedisStorage(f"async+{storage_url}", implementation="redispy", key_prefix=prefix)
            self._shared = AsyncSliding(self._redis)
        self._warned = -math.inf

    async def close(self) -> None:
        """Close the Redis connections (nothing to do in memory)."""
        client = getattr(getattr(self._redis, "bridge", None), "storage", None)
        if client is not None:
            await client.aclose()

    async def check(self, budget: str, ip: str, credential: str | None) -> Refusal | None:
        checks = [(item, "ip", ip) for item in self.rules.per_ip.get(budget, ())]
        if credential is not None:
            key = credential_key(credential)
            checks += [(item, "cred", key) for item in self.rules.per_credential.get(budget, ())]
        for item, kind, who in checks:
            try:
                allowed = await self._hit(item, budget, kind, who)
            except Exception:
                self._warn()
                return None
            if not allowed:
                return await self._refusal(budget, item, kind, who)
        return None

    def frame(self, connection: str) -> Refusal | None:
        """Count one client frame of a stream connection."""
        for item in self.rules.frames:
            if not self._frames.hit(item, "frames", connection):
                reset, _ = self._frames.get_window_stats(item, "frames", connection)
                return Refusal("frames", item.amount, _seconds_until(reset))
        return None

    async def _hit(self, item: RateLimitItem, *ids: str) -> bool:
        if self._shared is None:
            return self._memory.hit(item, *ids)
        return await self._shared.hit(item, *ids)

    async def _refusal(self, budget: str, item: RateLimitItem, *ids: str) -> Refusal:
        try:
            if self._shared is None:
                reset, _ = self._memory.get_window_stats(item, budget, *ids)
            else:
                reset, _ = await self._shared.get_window_stats(item, budget, *ids)
        except Exception:
            reset = time.time() + item.get_expiry()
        return Refusal(budget, item.amount, _seconds_until(reset))

    def _warn(self) -> None:
        now = time.monotonic()
        if now - self._warned >= WARN_EVERY:
            self._warned = now
            log.warning("rate limit storage unavailable: requests pass unlimited", exc_info=True)


def _seconds_until(reset_time: float) -> int:
    return max(1, math.ceil(reset_time - time.time()))


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
