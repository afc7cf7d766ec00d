"""`python -m app [serve | migrate | healthcheck | ratings rebuild | admin …]`.

- `serve` (the default): the API with uvicorn (one worker) on the configured host and port,
  migrating the database first unless `DRAGO_RUN_MIGRATIONS_ON_START=false`.
- `migrate`: run the database migrations to the newest schema and exit (a separate deployment
  job; then servers can start with `DRAGO_RUN_MIGRATIONS_ON_START=false`).
- `ratings rebuild`: recompute every rating from the event log (`app.service.rating_projection`);
  refuses a database whose schema is not the newest. Run it with the servers stopped.
- `admin ban <player_id> [--reason TEXT]`, `admin unban <player_id>`: operators' commands
  (`app.admin`), with the servers running; `admin reports` lists the open chat reports.
- `healthcheck`: exit 0 if this machine's server answers `/readyz` with 200 on the port the server
  really uses (`DRAGO_PORT`, else `PORT`), else 1: the container's HEALTHCHECK.
"""

from __future__ import annotations

import gc
import sys
import urllib.request

from pydantic import ValidationError

from app.settings import Settings

# The server allocates many short-lived objects per request (views, JSON). Collecting the youngest
# generation less often, and keeping the modules and app built at start-up out of every later
# collection (gc.freeze), cuts the collector's share of CPU and its pauses in the latency tail.
# Measured with gc.callbacks under load, a young collection walked 20,000–40,000 objects (the
# count it waits for is allocations less deallocations, old objects' included) in ~14 ms. 100,000
# rather than 20,000: `python -m bench.ab` (16 matches, pairs, 2026-12-06) CPU per action 0.948×
# on memory (20 pairs), 0.973× on PostgreSQL (20), 0.972× on SQLite (16); on PostgreSQL p99
# 18.6 ms against 26.0 (fewer pauses in a run), p50 at one match unchanged within the noise.
GC_THRESHOLDS = (100_000, 50, 100)
# `DRAGO_THREAD_SWITCH_MS` (20 by default; Python's own is 5) is how long a thread holding the
# interpreter runs before another thread that waits for it can make it let go. On SQLite the event
# loop shares the interpreter with the store's writer thread, whose commits end in a few Python
# calls. `python -m bench.ab --store sqlite --together` (16 matches, 8 pairs, 2026-12-06): 20 ms
# 0.963x the server CPU per action, p50 0.965x, p99 0.953x; 50 ms 0.968x in each of three runs
# (p99 0.952x); 0.5 ms 1.085x; measured again with the socket's `ack_with` in, 20 ms against 5:
# 0.977x, p50 0.978x, p99 0.981x. PostgreSQL, which runs no thread beside the loop: 0.996x, p99
# 0.988x. The likely cause: with 5 ms the writer forced the busy loop to hand over more often (on
# a loaded core each hand-over is two context switches), and with 20 ms it mostly takes the
# interpreter when the loop waits for I/O. The cost: a thread that computes (a bot's search when
# `DRAGO_BOT_WORKERS=0`) holds the loop up to this long at a time.
HEALTHCHECK_TIMEOUT = 2.0
USAGE = "usage: python -m app [serve | migrate | healthcheck | ratings rebuild | admin …]"


def serve(settings: Settings) -> None:
    import uvicorn

    from app.api import ws_protocol
    from app.api.http_protocol import protocol_class
    from app.main import create_app

    app = create_app(settings)
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)
    sys.setswitchinterval(settings.thread_switch_ms / 1000)
    uvicorn.run(
        app,
        host=settings.host,
        port=settings.port,
        workers=1,
        http=protocol_class(settings.http_one_write),
        ws=ws_protocol.protocol_class(settings.stream_fast_lane),
        ws_per_message_deflate=False,
        timeout_keep_alive=settings.http_keep_alive_seconds,
        access_log=False,  # the app logs each request itself, without query strings (tokens)
        log_config=None,  # keep the JSON logging `create_app` configured
        proxy_headers=False,  # `app.api.forwarded` reads them, from `DRAGO_TRUSTED_PROXIES` only
    )


def migrate(settings: Settings) -> int:
    if settings.database_url == "memory://":
        print("memory:// keeps nothing: no migrations to run")
        return 0
    from app.store.migrate import upgrade

    upgrade(settings.database_url)
    print("the database is at the newest schema")
    return 0


def rebuild_ratings(settings: Settings) -> int:
    if settings.database_url == "memory://":
        print("memory:// keeps nothing: no ratings to rebuild", file=sys.stderr)
        return 1
    import asyncio

    from app.store.migrate import at_head

    if not at_head(settings.database_url):
        print(
            "refusing: the database is not at the newest schema (run `python -m app migrate`)",
            file=sys.stderr,
        )
        return 1
    from app.service.context import Context
    from app.service.rating_projection import rebuild_ratings as rebuild
    from app.store.factory import create_store

    async def run() -> int:
        store = create_store(settings.database_url)
        try:
            return await rebuild(Context(store))
        finally:
            await store.close()

    print(f"rebuilt the ratings from {asyncio.run(run())} rated matches")
    return 0


def healthcheck(settings: Settings) -> int:
    host = "127.0.0.1" if settings.host in ("0.0.0.0", "::", "") else settings.host  # noqa: S104
    url = f"http://{host}:{settings.port}/readyz"
    try:
        with urllib.request.urlopen(url, timeout=HEALTHCHECK_TIMEOUT) as reply:  # our own http URL
            return 0 if reply.status == 200 else 1
    except OSError as e:
        print(f"not ready: {e}", file=sys.stderr)
        return 1


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    command = args[0] if args else "serve"
    if args == ["ratings", "rebuild"]:
        return rebuild_ratings(Settings())
    if command == "admin":
        from app import admin

        return admin.main(args[1:])
    if len(args) > 1 or command not in ("serve", "migrate", "healthcheck"):
        print(USAGE, file=sys.stderr)
        return 2
    try:
        settings = Settings()
    except ValidationError as e:  # a setting the server cannot run with: say which and why, then stop
        for problem in e.errors():
            name = ".".join(str(part) for part in problem["loc"]) or "settings"
            print(f"invalid setting DRAGO_{name.upper()}: {problem['msg']}", file=sys.stderr)
        return 2
    if command == "migrate":
        return migrate(settings)
    if command == "healthcheck":
        return healthcheck(settings)
    serve(settings)
    return 0


if __name__ == "__main__":
    sys.exit(main())
