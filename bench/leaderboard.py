"""Benchmark of the ratings reads on PostgreSQL, run by hand; prints figures, asserts nothing.

A scratch database is created, migrated and seeded with `--players` rated players of one game
(and as many of another), most of them past the provisional games; then the median and p99 time
of a leaderboard page (`PostgresEventStore.leaderboard`, the route's query) at several offsets,
and of a player's ratings and history, over `--repeat` calls each.

    python -m bench.leaderboard --pg postgresql://postgres@127.0.0.1:5432/test [--players 100000]
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import statistics
import time
import uuid
from collections.abc import Awaitable, Callable

import asyncpg
from sqlalchemy.engine import make_url

from app.service.ratings import PROVISIONAL_GAMES
from app.store.factory import create_store, parse_url
from app.store.migrate import upgrade_async
from app.store.postgres import PostgresEventStore

# Players p1…pN, each rated in mount_drago (and yutaka): μ and σ spread so that many ordinals tie
# (ties are ordered by player id); games from 0 to 39, so a quarter are provisional.
SEED = """
INSERT INTO players (id, name, key_hash, created_at)
SELECT 'p' || i, 'player ' || i, 'hash' || i, now() FROM generate_series(1, $1::int) AS i;
INSERT INTO ratings (player_id, game, mu, sigma, ordinal, games, wins, last_played)
SELECT 'p' || i, g, 20 + (i % 1000) / 50.0, 1 + (i % 9) / 4.0,
       20 + (i % 1000) / 50.0 - 3 * (1 + (i % 9) / 4.0), i % 40, i % 13, now()
FROM generate_series(1, $1::int) AS i, (VALUES ('mount_drago'), ('yutaka')) AS games (g);
VACUUM ANALYZE players;
VACUUM ANALYZE ratings;
"""


async def seed(url: str, players: int) -> None:
    conn = await asyncpg.connect(parse_url(url).target)
    try:
        for statement in SEED.strip().split(";\n"):
            if statement.strip():
                await (conn.execute(statement, players) if "$1" in statement else conn.execute(statement))
    finally:
        await conn.close()


async def timed(what: str, call: Callable[[], Awaitable[object]], repeat: int) -> None:
    await call()  # warm: plans cached, pages in memory
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        await call()
        times.append((time.perf_counter() - t) * 1000)
    times.sort()
    p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
    print(f"{what:<44} median {statistics.median(times):6.2f} ms   p99 {p99:6.2f} ms")


async def run(url: str, args: argparse.Namespace) -> None:
    await upgrade_async(url)
    await seed(url, args.players)
    store = create_store(url)
    assert isinstance(store, PostgresEventStore)
    try:
        print(f"{args.players:,} rated players per game, PostgreSQL, {args.repeat} calls each")
        for offset in (0, 1_000, 50_000):
            await timed(
                f"leaderboard, 50 from offset {offset:,}",
                functools.partial(store.leaderboard, "mount_drago", PROVISIONAL_GAMES, 50, offset),
                args.repeat,
            )
        await timed(
            "leaderboard, 100 from offset 0",
            lambda: store.leaderboard("mount_drago", 10, 100, 0),
            args.repeat,
        )
        await timed("a player's ratings (profile)", lambda: store.player_ratings("p4242"), args.repeat)
        await timed(
            "a player's history in a game", lambda: store.rating_history("p4242", "yutaka"), args.repeat
        )
    finally:
        await store.close()


async def scratch_postgres(server: str, args: argparse.Namespace) -> None:
    conn = await asyncpg.connect(parse_url(server).target)
    name = f"drago_bench_{uuid.uuid4().hex[:8]}"
    await conn.execute(f'CREATE DATABASE "{name}"')
    try:
        await run(make_url(server).set(database=name).render_as_string(hide_password=False), args)
    finally:
        await conn.execute(f'DROP DATABASE "{name}" WITH (FORCE)')
        await conn.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--pg", required=True, help="PostgreSQL server URL (a scratch database is created on it)"
    )
    parser.add_argument("--players", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=200)
    args = parser.parse_args()
    asyncio.run(scratch_postgres(args.pg, args))


if __name__ == "__main__":
    main()
