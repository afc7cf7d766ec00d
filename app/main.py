"""Wiring: settings → store, broadcaster, service context → the FastAPI app with its routers,
middleware and background workers. Every adapter is chosen and connected here, and only here.

The lifespan opens the store (migrating it first when `run_migrations_on_start`; otherwise the
readiness gate answers 503 until the schema is at head), starts the live hub over the broadcaster
named by `broadcast_url`, builds the `Context` the routes use (`app.state.ctx`), and starts this
process's bot runner and sweeper. At shutdown it closes every stream with 1001 before the hub
stops (also on SIGTERM/SIGINT, see `app.api.streaming`), then stops the workers and the store.
"""

from __future__ import annotations

import functools
import os
import signal
import threading
import time
from collections.abc import AsyncIterator
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from contextlib import asynccontextmanager

from fastapi import FastAPI
from starlette.middleware.cors import CORSMiddleware

from app.api import docs, errors, web
from app.api.asgi import Api
from app.api.forwarded import ForwardedFor, TrustedProxies, parse_networks
from app.api.hot import HotRoutes
from app.api.logs import configure_logging
from app.api.metrics import Metrics
from app.api.middleware import BodyLimit, InputGuard, Readiness, RequestContext, SchemaGate
from app.api.ratelimit import Limiter, RateLimit, rules_from
from app.api.routes import ROUTERS
from app.api.streaming import Streaming
from app.broadcast import create_broadcaster
from app.service.bots import BotRunner, level_chooser
from app.service.context import Config, Context
from app.service.leases import BotClaims, LocalClaims
from app.service.live import LiveHub
from app.service.matcher import Matcher
from app.service.ports import EventStore, utcnow
from app.service.seeks import Matchmaking
from app.service.sweeping import Sweeper
from app.service.webhooks import Deliverer, httpx_sender
from app.settings import Settings
from app.store.claims import PostgresClaims
from app.store.factory import MEMORY_URL, create_store, parse_url
from app.store.migrate import at_head_async, upgrade_async
from app.store.seeks_factory import seek_store_for


async def open_store(settings: Settings) -> EventStore:
    """The event store named by `database_url`, migrated first if the settings say so."""
    if settings.database_url != MEMORY_URL and settings.run_migrations_on_start:
        await upgrade_async(settings.database_url)
    return create_store(settings.database_url, pool_size=settings.db_pool_size)


def service_config(settings: Settings) -> Config:
    return Config(
        dev_features=settings.dev_features,
        default_bot_level=settings.bot_default_level,
        takeover_bot_level=settings.bot_takeover_level,
        waiting_expiry_s=settings.waiting_expiry_seconds or None,
        idempotency_ttl_s=settings.idempotency_ttl_seconds,
        samples_per_seat=settings.samples_per_seat,
        require_player_key=settings.require_player_key,
        ratings_on_commit=settings.ratings_on_commit,
        chat_rate_messages=settings.chat_rate_messages,
        chat_rate_s=settings.chat_rate_seconds,
        chat_keep_last=settings.chat_keep_last,
        chat_retention_s=settings.chat_retention_seconds,
    )


def bot_executor(settings: Settings) -> Executor:
    """Bots search in worker processes (the event loop never waits on them); 0 workers: one thread."""
    if settings.bot_workers > 0:
        workers = settings.bot_workers
        return ProcessPoolExecutor(workers, initializer=_bot_worker_init, initargs=(os.getpid(),))
    return ThreadPoolExecutor(1, thread_name_prefix="bots")


def _bot_worker_init(server_pid: int) -> None:
    """In each bot worker: die with the server. A forked worker inherits the server's signal
    handlers (uvicorn's, which would only flag a copy of the server to stop) and both ends of its
    task pipe (so it never sees EOF): after a SIGKILL of the server it would wait forever. So
    SIGTERM and SIGINT get their default action back, and a watchdog exits when the parent is gone."""
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.SIG_DFL)

    def watch() -> None:
        while os.getppid() == server_pid:
            time.sleep(0.5)
        os._exit(0)

    threading.Thread(target=watch, name="bot-worker-watchdog", daemon=True).start()


def bot_claims(settings: Settings) -> BotClaims:
    """Claims on bot decisions shared by every process on PostgreSQL; within the process otherwise."""
    if settings.database_url != MEMORY_URL:
        db = parse_url(settings.database_url)
        if db.backend == "postgresql":
            return PostgresClaims(db.target)
    return LocalClaims()


@asynccontextmanager
async def lifespan(app: FastAPI) -> AsyncIterator[None]:
    settings: Settings = app.state.settings
    store = await open_store(settings)
    broadcaster = create_broadcaster(settings.broadcast_url, prefix=settings.broadcast_prefix)
    hub = LiveHub(
        store, broadcaster, queue_limit=settings.stream_queue_limit, quiet_s=settings.stream_quiet_seconds
    )
    streaming: Streaming | None = None
    executor = bot_executor(settings) if settings.bots_enabled else None
    ctx = Context(store, clock=app.state.clock, config=service_config(settings), metrics=app.state.metrics)
    chooser = functools.partial(
        level_chooser, millis=settings.bot_budget_ms or None, iterations=settings.bot_iterations or None
    )
    runner = BotRunner(ctx, chooser, executor, claims=bot_claims(settings))
    sweeper = Sweeper(ctx, interval_s=settings.sweep_interval_seconds)
    matchmaking = Matchmaking(
        ctx,
        seek_store_for(store),
        max_open=settings.max_open_seeks,
        group_wait_s=settings.seek_group_wait_seconds,
    )
    matcher = Matcher(
        matchmaking, interval_s=settings.matcher_interval_seconds, idle_s=settings.matcher_idle_seconds
    )
    send, close_sender = httpx_sender()
    deliverer = Deliverer(
        matchmaking,
        send,
        allow_private=settings.webhook_allow_private,
        interval_s=settings.webhook_interval_seconds,
        timeout_s=settings.webhook_timeout_seconds,
        lease_s=settings.webhook_lease_seconds,
    )
    try:
        await hub.start()
        ctx.notifier = hub
        ctx.chat = hub.chat
        app.state.store = store
        app.state.hub = hub
        app.state.ctx = ctx
        app.state.runner = runner
        app.state.sweeper = sweeper
        app.state.matchmaking = matchmaking
        app.state.matcher = matcher
        app.state.deliverer = deliverer
        if settings.database_url != MEMORY_URL and not settings.run_migrations_on_start:
            # Not migrated here: `/readyz` and every `/v1/` request answer 503 until it is at head.
            readiness: Readiness = app.state.readiness
            readiness.probe = lambda: at_head_async(settings.database_url)
            readiness.ready = False
            await readiness.check()
        if executor is not None:
            ctx.bots = runner
            await runner.start()
        if settings.sweep_interval_seconds > 0:
            await sweeper.start()
        if settings.matcher_interval_seconds > 0:
            await matcher.start()
        if settings.webhook_interval_seconds > 0:
            await deliverer.start()
        streaming = app.state.streaming = Streaming(ctx, hub, settings, app.state.metrics, app.state.limiter)
        await streaming.start()
        yield
    finally:
        if streaming is not None:
            await streaming.close()  # every stream gets 1001 while the hub still runs
        await deliverer.stop()
        await close_sender()
        await matcher.stop()
        await sweeper.stop()
        await runner.stop()
        await runner.claims.close()
        if executor is not None:
            executor.shutdown(wait=False, cancel_futures=True)
        await hub.stop()  # ends live subscriptions with "going away" first
        await store.close()
        if app.state.limiter is not None:
            await app.state.limiter.close()


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or Settings()
    configure_logging(settings.log_level)
    app = Api(
        title="Drago game server",
        version="2.0.0",
        summary="Authoritative server for Mount Drago and Yutakâ: matches, seats, actions, per-player views.",
        lifespan=lifespan,
        openapi_url=None,  # served by `docs.install`, with self-hosted /docs and /redoc
        docs_url=None,
        redoc_url=None,
    )
    app.state.settings = settings
    app.state.metrics = Metrics()
    app.state.clock = utcnow  # tests may put a fake clock here before the lifespan starts
    app.state.limiter = None
    app.state.readiness = Readiness()  # the schema is at head (set at startup when not migrating)
    if settings.rate_limit_enabled:
        prefix = f"{settings.broadcast_prefix}:ratelimit"
        # counted in memory on the app's clock (the tests' when they set one); in Redis on Redis's
        app.state.limiter = Limiter(
            rules_from(settings),
            settings.rate_limit_storage_url,
            prefix,
            clock=lambda: app.state.clock().timestamp(),
        )
    errors.install(app)
    for router in ROUTERS:
        app.include_router(router)
    docs.install(app)
    web.install(app)
    # Added innermost first: the request context wraps everything, then CORS (so refusals carry its
    # headers), the input guard and the rate limits (before routing), the body limit, and innermost
    # the hot routes (actions, views, creating matches and joining seats without FastAPI's routing, see
    # `app.api.hot`).
    app.add_middleware(HotRoutes, fastapi=app)
    app.add_middleware(BodyLimit, max_bytes=settings.max_body_bytes)
    if app.state.limiter is not None:
        app.add_middleware(RateLimit, limiter=app.state.limiter)
    app.add_middleware(SchemaGate, readiness=app.state.readiness)
    app.add_middleware(InputGuard)
    if settings.cors_origins:
        app.add_middleware(
            CORSMiddleware,
            allow_origins=settings.cors_origins,
            allow_methods=["GET", "POST", "PATCH", "DELETE", "OPTIONS"],
            allow_headers=["Authorization", "Content-Type", "Idempotency-Key", "X-Request-ID"],
            expose_headers=[
                "X-Request-ID",
                "Location",
                "Retry-After",
                "RateLimit-Limit",
                "RateLimit-Remaining",
                "RateLimit-Reset",
            ],
        )
    app.add_middleware(RequestContext, metrics=app.state.metrics)
    # Outermost: every layer inside (logs, rate limits) sees the client a trusted proxy named.
    proxies = TrustedProxies(parse_networks(settings.trusted_proxies))
    if proxies.networks:
        app.add_middleware(ForwardedFor, proxies=proxies)
    return app
