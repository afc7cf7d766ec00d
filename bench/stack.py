"""Where an action's time goes inside the server process: the edge's layers against the use case.

    python -m bench.stack [--matches 8] [--cpu 0]

Plays random 2-player Mount Drago matches in-process on the memory store (no network, no disk)
and prints microseconds per `POST …/actions`:

- through the whole ASGI app (middleware, then the hot routes of `app.api.hot`);
- through FastAPI's routing, dependencies and validation (the app without its own middleware, the
  hot routes included: what every action paid before them);
- the use case alone (`acting.submit_action` plus rendering the reply).

The differences are what the edge costs per action, the part no store or network change can touch.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import time
from collections.abc import Awaitable, Callable
from typing import Any

import orjson

from app.main import create_app
from app.service import acting, creating, reading, seating
from app.service.auth import identify
from app.service.creating import CreateRequest
from app.settings import Settings

Asgi = Callable[[Any, Any, Any], Awaitable[None]]


async def call(target: Asgi, method: str, path: str, body: bytes, token: str) -> tuple[int, bytes]:
    sent: list[dict[str, Any]] = []
    messages = [{"type": "http.request", "body": body, "more_body": False}]

    async def receive() -> dict[str, Any]:
        return messages.pop(0) if messages else {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    headers = [(b"authorization", f"Bearer {token}".encode())]
    if body:
        headers += [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    scope = {
        "type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": method,
        "scheme": "http", "path": path, "raw_path": path.encode(), "query_string": b"", "root_path": "",
        "headers": headers, "client": ("127.0.0.1", 1), "server": ("bench", 80),
    }  # fmt: skip
    await target(scope, receive, send)
    return sent[0]["status"], b"".join(m.get("body", b"") for m in sent[1:])


async def through(app: Any, target: Asgi, matches: int, rng: random.Random) -> list[float]:
    ctx = app.state.ctx
    times: list[float] = []
    for _ in range(matches):
        created = await creating.create_match(ctx, CreateRequest("mount_drago", 2))
        match_id = created.match.id
        tokens = [(await seating.join_seat(ctx, match_id, s, f"p{s}")).token for s in (0, 1)]
        path = f"/v1/matches/{match_id}"
        views = {
            s: orjson.loads((await call(target, "GET", f"{path}/view", b"", tokens[s]))[1]) for s in (0, 1)
        }
        seat = views[0]["to_act"][0]
        while True:
            body = orjson.dumps({"action": rng.choice(views[seat]["legal_actions"])})
            t0 = time.perf_counter()
            status, out = await call(target, "POST", f"{path}/actions", body, tokens[seat])
            times.append(time.perf_counter() - t0)
            assert status == 200, out
            view = orjson.loads(out)["view"]
            views[seat] = view
            if view["status"] != "active":
                break
            if view["to_act"][0] != seat:
                seat = view["to_act"][0]
                views[seat] = orjson.loads((await call(target, "GET", f"{path}/view", b"", tokens[seat]))[1])
    return times


async def use_case(app: Any, matches: int, rng: random.Random) -> list[float]:
    ctx = app.state.ctx
    times: list[float] = []
    for _ in range(matches):
        created = await creating.create_match(ctx, CreateRequest("mount_drago", 2))
        match_id = created.match.id
        callers = [
            await identify(ctx, (await seating.join_seat(ctx, match_id, s, f"p{s}")).token) for s in (0, 1)
        ]
        while (public := await reading.get_view(ctx, match_id, None)).status == "active":
            seat = public.to_act[0]
            mine = await reading.get_view(ctx, match_id, callers[seat])
            action = dict(rng.choice(mine.legal_actions))
            t0 = time.perf_counter()
            r = await acting.submit_action(ctx, match_id, callers[seat], action)
            orjson.dumps({"seq": r.seq, "events": [e.to_json() for e in r.events], "view": r.view.to_json()})
            times.append(time.perf_counter() - t0)
    return times


async def run(matches: int) -> None:
    settings = Settings(
        database_url="memory://", log_level="WARNING", bots_enabled=False, rate_limit_enabled=False,
        sweep_interval_seconds=0,
    )  # fmt: skip
    rows: list[tuple[str, list[float]]] = []
    for name, own_middleware in (("whole app", True), ("FastAPI routes, no middleware", False)):
        app = create_app(settings)
        if not own_middleware:
            app.user_middleware = []  # the stack is built at the first call
        async with app.router.lifespan_context(app):
            await through(app, app, 1, random.Random(0))  # warm-up
            rows.append((name, await through(app, app, matches, random.Random(1))))
            if own_middleware:
                rows.append(("use case + rendering", await use_case(app, matches, random.Random(1))))
    for name, times in rows:
        median, mean = statistics.median(times) * 1e6, statistics.mean(times) * 1e6
        print(f"{name:<30} {median:7.0f} µs median, {mean:7.0f} µs mean  ({len(times)} actions)")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--matches", type=int, default=8)
    parser.add_argument("--cpu", type=int, default=None)
    args = parser.parse_args()
    if args.cpu is not None:
        os.sched_setaffinity(0, {args.cpu})
    asyncio.run(run(args.matches))


if __name__ == "__main__":
    main()
