"""What every WebSocket session of this process shares: the service, its settings, and the sessions.

A session (`app.api.session`) holds its `StreamEdge`: the service context, the live hub, the
per-process frame cache (`app.service.streams.Streams`), the stream settings, the metrics and the
rate limiter, and the set of open sessions that going away closes. `app.api.streaming.Streaming`
is the edge the app builds: this, plus serving the two routes and the graceful shutdown.
"""

from __future__ import annotations

import asyncio
import itertools
from typing import Protocol

from app.api.frame_text import commit_frame
from app.api.metrics import Metrics
from app.api.ratelimit import Limiter
from app.service.context import Context
from app.service.errors import ServiceError
from app.service.live import LiveHub
from app.service.streams import Streams
from app.settings import Settings


class OpenSession(Protocol):
    """What the edge needs of an open session: to end it, and to know when its close is out."""

    finished: asyncio.Event
    owner: str | None  # the player behind its credential, if any

    def end(self, code: int | None, reason: str = "") -> None: ...

    def refuse(self, error: ServiceError) -> None: ...


class StreamEdge:
    """The process's stream state: settings, the frame cache, open sessions."""

    def __init__(
        self, ctx: Context, hub: LiveHub, settings: Settings, metrics: Metrics, limiter: Limiter | None = None
    ) -> None:
        self.ctx = ctx
        self.limiter = limiter
        self.connection_ids = itertools.count(1)
        self.hub = hub
        self.streams = Streams(ctx.loader, commit_frame)
        self.heartbeat = settings.stream_heartbeat_seconds
        self.auth_timeout = settings.stream_auth_timeout_seconds
        self.max_frame_bytes = settings.max_body_bytes
        self.fast_lane = settings.stream_fast_lane  # `app.api.fast_lane`: off, the plain send loop
        self.metrics = metrics
        self.sessions: set[OpenSession] = set()
        self.closing = False
        metrics.watch("drago_live", hub.stats, gauges=("matches", "subscribers"))
        metrics.watch("drago_stream", self.streams.stats, gauges=("matches", "connections"))
