"""Wiring: settings → store, notifier, service → the FastAPI app with its routers and middleware.

`create_app(settings)` builds the app; its lifespan opens the store (running the migrations first
when `run_migrations_on_start`) and closes it at shutdown. Seams for the other adapters:

- `app.state.hub` is the process's `LiveHub` (set at startup) over the broadcaster named by
  `broadcast_url`; live streams subscribe to it.
- `app.state.notifier` is told "match M is at seq N" after every commit: the hub, unless something
  else was put there before startup (later: `app.state.service.notifier`).
- `app.state.service` is the `MatchService` the routes use (set at startup).
- `app.state.streaming` serves the WebSocket streams (set at startup). At shutdown it closes
  them with 1001 before the hub stops; it also does so on SIGTERM/SIGINT, because uvicorn closes
  WebSockets with 1012 before the lifespan ends.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI
from starlette.middleware.cors import CORSMiddleware

from app.api import docs, errors
from app.api.logs import configure_logging
from app.api.metrics import Metrics
from app.api.middleware import BodyLimit, InputGuard, Readiness, RequestContext, SchemaGate
from app.api.ratelimit import Limiter, RateLimit, rules_from
from app.api.routes import ROUTERS
from app.api.streaming import Streaming
from app.broadcast import create_broadcaster
from app.service.live import LiveHub
from app.service.matches import MatchService
from app.service.ports import EventStore
from app.service.streams import NotificationTap
from app.settings import Settings
from app.store.memory import MemoryEventStore
from app.store.migrate import at_head_async, upgrade_async
from app.store.sql import create_store

MEMORY_URL = "memory://"


async def open_store(settings: Settings) -> EventStore:
    """The event store named by `database_url`, migrated first if the settings say so."""
    if settings.database_url == MEMORY_URL:
        return MemoryEventStore()
    if settings.run_migrations_on_start:
        await upgrade_async(settings.database_url)
    return create_store(settings.database_url)


@asynccontextmanager
async def lifespan(app: FastAPI) -> AsyncIterator[None]:
    settings: Settings = app.state.settings
    store = await open_store(settings)
    # The tap shows the streams every notification, also those the hub drops (a match starting).
    tap = NotificationTap(create_broadcaster(settings.broadcast_url, prefix=settings.broadcast_prefix))
    hub = LiveHub(store, tap, queue_limit=settings.stream_queue_limit)
    streaming: Streaming | None = None
    try:
        await hub.start()
        app.state.store = store
        app.state.hub = hub
        if settings.database_url != MEMORY_URL and not settings.run_migrations_on_start:
            # Not migrated here: `/readyz` and every `/v1/` request answer 503 until it is at head.
            readiness: Readiness = app.state.readiness
            readiness.probe = lambda: at_head_async(settings.database_url)
            readiness.ready = False
            await readiness.check()
        if app.state.notifier is None:
            app.state.notifier = hub
        app.state.service = MatchService(
            store, app.state.notifier, dev_features=settings.dev_features, metrics=app.state.metrics
        )
        streaming = app.state.streaming = Streaming(
            app.state.service, hub, tap, settings, app.state.metrics, app.state.limiter
        )
        yield
    finally:
        if streaming is not None:
            await streaming.close()  # every stream gets 1001 while the hub still runs
        await hub.stop()  # ends live subscriptions with "going away" first
        await store.close()
        if app.state.limiter is not None:
            await app.state.limiter.close()


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or Settings()
    configure_logging(settings.log_level)
    app = FastAPI(
        title="Drago game server",
        version="1.0.0",
        summary="Authoritative server for Mount Drago and Yutakâ: matches, seats, actions, per-player views.",
        lifespan=lifespan,
        openapi_url=None,  # served by `docs.install`, with self-hosted /docs and /redoc
        docs_url=None,
        redoc_url=None,
    )
    app.state.settings = settings
    app.state.metrics = Metrics()
    app.state.notifier = None  # None: the live hub, set at startup
    app.state.limiter = None
    app.state.readiness = Readiness()  # the schema is at head (set at startup when not migrating)
    if settings.rate_limit_enabled:
        prefix = f"{settings.broadcast_prefix}:ratelimit"
        app.state.limiter = Limiter(rules_from(settings), settings.rate_limit_storage_url, prefix)
    errors.install(app)
    for router in ROUTERS:
        app.include_router(router)
    docs.install(app)
    # Added innermost first: the request context wraps everything, then CORS (so refusals carry its
    # headers), the input guard and the rate limits (before routing), the body limit.
    app.add_middleware(BodyLimit, max_bytes=settings.max_body_bytes)
    if app.state.limiter is not None:
        app.add_middleware(RateLimit, limiter=app.state.limiter)
    app.add_middleware(SchemaGate, readiness=app.state.readiness)
    app.add_middleware(InputGuard)
    if settings.cors_origins:
        app.add_middleware(
            CORSMiddleware,
            allow_origins=settings.cors_origins,
            allow_methods=["GET", "POST", "OPTIONS"],
            allow_headers=["Authorization", "Content-Type", "Idempotency-Key", "X-Request-ID"],
            expose_headers=["X-Request-ID", "Location"],
        )
    app.add_middleware(RequestContext, metrics=app.state.metrics)
    return app
