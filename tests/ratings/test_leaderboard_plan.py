"""The leaderboard over 100,000 rated players reads its page from the partial index (checked with
EXPLAIN, never timed: `bench/leaderboard.py` prints the times): no sequential scan of the ratings,
no sort of them, on PostgreSQL and SQLite; and pages are stable under ties."""

from __future__ import annotations

import asyncio
import sqlite3
from typing import Any

import asyncpg
import pytest

from app.service.ratings import PROVISIONAL_GAMES
from app.store import ratings_sql
from app.store.factory import create_store, parse_url
from app.store.migrate import upgrade
from bench.leaderboard import seed
from tests.store.seeding import plan_scans

PLAYERS = 100_000

SQLITE_SEED = """
WITH RECURSIVE n (i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
INSERT INTO ratings (player_id, game, mu, sigma, ordinal, games, wins, last_played)
SELECT 'p' || i, 'mount_drago', 20 + (i % 1000) / 50.0, 1 + (i % 9) / 4.0,
       20 + (i % 1000) / 50.0 - 3 * (1 + (i % 9) / 4.0), i % 40, i % 13, '2026-12-01 00:00:00.000000'
FROM n
"""


@pytest.mark.slow
@pytest.mark.postgres
async def test_postgres_leaderboard_pages_use_the_index(fresh_postgres_url: str) -> None:
    await asyncio.to_thread(upgrade, fresh_postgres_url)
    await seed(fresh_postgres_url, PLAYERS)
    conn = await asyncpg.connect(parse_url(fresh_postgres_url).target)
    try:
        for offset in (0, 5_000, 70_000):
            args: list[Any] = ["mount_drago", PROVISIONAL_GAMES, 50, offset, "mount_drago"]
            query = ratings_sql.numbered(ratings_sql.LEADERBOARD)
            nodes = plan_scans(await conn.fetchval(f"EXPLAIN (FORMAT JSON) {query}", *args))
            assert ("Seq Scan", "ratings") not in nodes and ("Seq Scan", "players") not in nodes, nodes
            assert ("Index Only Scan", "ratings") in nodes, nodes
    finally:
        await conn.close()
    store = create_store(fresh_postgres_url)
    try:
        whole = await store.leaderboard("mount_drago", PROVISIONAL_GAMES, 3000, 0)
        pages = [r for o in range(0, 3000, 100) for r in await store.leaderboard("mount_drago", 10, 100, o)]
        assert [r.player_id for r in pages] == [r.player_id for r in whole]  # stable under ties
        keys = [(r.mu - 3 * r.sigma, r.player_id) for r in whole]
        assert keys == sorted(keys, reverse=True) and all(r.games >= PROVISIONAL_GAMES for r in whole)
        assert whole[0].name.startswith("player ") and not whole[0].bot
        assert await store.leaderboard("mount_drago", 10, 50, 10**6) == []
    finally:
        await store.close()


@pytest.mark.slow
def test_sqlite_leaderboard_pages_use_the_index(sqlite_url: str) -> None:
    upgrade(sqlite_url)
    with sqlite3.connect(parse_url(sqlite_url).target) as db:
        db.execute(SQLITE_SEED, (PLAYERS,))
        db.execute("ANALYZE")
        args = ("mount_drago", PROVISIONAL_GAMES, 50, 5000, "mount_drago")
        steps = [r[3] for r in db.execute(f"EXPLAIN QUERY PLAN {ratings_sql.LEADERBOARD}", args)]
        assert not any(s.startswith("SCAN ratings") for s in steps), steps
        assert any("ix_ratings_leaderboard" in s for s in steps), steps
