"""The lobby over 100,000 matches reads pages through indexes (checked with EXPLAIN, never timed):
no page query scans the matches table, and none whose filter matches much of it sorts it; every
total over public matches, the broad filters' (most of the table) included, is counted from an
index, never from the rows. Only the operators' `include_unlisted` total (every row) is left to the
planner. `bench/store_append.py` prints what each filter costs.

The matches are seeded the way a lobby looks after a while: mostly finished, a tenth active, a few
waiting (two in a hundred with a free seat), one in twenty unlisted, two games.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import sqlite3
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from typing import Any

import asyncpg
import pytest

from app.service.ports import MatchFilter
from app.store import postgres, sqlite_reads
from app.store.factory import create_store, parse_url
from app.store.migrate import upgrade
from app.store.rows import sqlite_time

MATCHES = 100_000
T = datetime(2025, 6, 1, tzinfo=UTC)
_COLUMNS = (
    "INSERT INTO matches (id, game, players, options, status, seq, created_at, updated_at, secret, "
    "commitment, to_act, visibility, open_seats) "
)
_VALUES = """
SELECT 'lobby-' || i, CASE WHEN i % 2 = 0 THEN 'mount_drago' ELSE 'yutaka' END, 2, '{{}}',
       CASE WHEN i % 100 < 3 THEN 'waiting' WHEN i % 100 < 13 THEN 'active'
            WHEN i % 100 < 15 THEN 'aborted' ELSE 'finished' END,
       0, {created}, {created}, 's', 'c', '[]',
       CASE WHEN i % 20 = 7 THEN 'unlisted' ELSE 'public' END, CASE WHEN i % 100 < 2 THEN 1 ELSE 0 END
"""
SEED_POSTGRES = (
    _COLUMNS
    + _VALUES.format(created="$1::timestamptz - i * interval '1 minute'")
    + "FROM generate_series(1, $2::int) AS i"
)
SEED_SQLITE = (
    "WITH RECURSIVE n (i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?1) "
    + _COLUMNS
    + _VALUES.format(created="strftime('%Y-%m-%d %H:%M:%f', ?2, '-' || i || ' minutes') || '000'")
    + "FROM n"
)

SELECTIVE = {  # filter: its total
    "open": (MatchFilter(open=True), 2000),
    "waiting": (MatchFilter(status="waiting"), 3000),
    "active": (MatchFilter(status="active"), 9000),  # i % 100 = 7 is unlisted
    "open, one game": (MatchFilter(game="yutaka", open=True), 1000),
    "active, one game": (MatchFilter(game="mount_drago", status="active"), 5000),
}
BROAD = {
    "all public": MatchFilter(),
    "all, unlisted too": MatchFilter(include_unlisted=True),
    "finished": MatchFilter(status="finished", offset=1000),
    "one game": MatchFilter(game="yutaka", limit=200),
    "finished, one game": MatchFilter(game="mount_drago", status="finished", offset=5000),
    "not open": MatchFilter(open=False, offset=100),
}


def _nodes(plan: dict[str, Any]) -> list[dict[str, Any]]:
    return [plan, *(n for child in plan.get("Plans", []) for n in _nodes(child))]


def plan_scans(explained: str) -> set[tuple[str, str]]:
    """(node type, relation) of each node of an `EXPLAIN (FORMAT JSON)` result."""
    return {(n["Node Type"], n.get("Relation Name", "")) for n in _nodes(json.loads(explained)[0]["Plan"])}


@contextlib.asynccontextmanager
async def seeded_postgres(url: str, matches: int) -> AsyncIterator[asyncpg.Connection]:
    """A connection to the database at `url`, migrated and seeded with `matches` matches, with
    the planner's statistics taken."""
    await asyncio.to_thread(upgrade, url)
    conn = await asyncpg.connect(parse_url(url).target)
    try:
        await conn.execute(SEED_POSTGRES, T, matches)
        await conn.execute("VACUUM ANALYZE matches")
        yield conn
    finally:
        await conn.close()


@pytest.mark.slow
@pytest.mark.postgres
async def test_postgres_lobby_pages_use_indexes(fresh_postgres_url: str) -> None:
    async with seeded_postgres(fresh_postgres_url, MATCHES) as conn:

        async def scans(query: str, args: list[Any]) -> set[tuple[str, str]]:
            return plan_scans(await conn.fetchval(f"EXPLAIN (FORMAT JSON) {query}", *args))

        filters = {**{k: f for k, (f, _) in SELECTIVE.items()}, **BROAD}
        for name, flt in filters.items():
            page, count, args = postgres.lobby_query(flt)
            n = len(args)
            nodes = await scans(f"{page} LIMIT ${n + 1} OFFSET ${n + 2}", [*args, flt.limit, flt.offset])
            assert ("Seq Scan", "matches") not in nodes, name
            if name in BROAD:  # read in index order: a sort would sort most of the table
                assert not any(kind in ("Sort", "Incremental Sort") for kind, _ in nodes), name
            if not flt.include_unlisted:
                assert ("Seq Scan", "matches") not in await scans(count, args), name

    store = create_store(fresh_postgres_url)
    try:
        for name, (flt, total) in SELECTIVE.items():
            page_, found = await store.list_matches(flt)
            assert found == total and len(page_) == min(total, flt.limit), name
    finally:
        await store.close()


@pytest.mark.slow
def test_sqlite_lobby_pages_use_indexes(sqlite_url: str) -> None:
    upgrade(sqlite_url)
    with sqlite3.connect(parse_url(sqlite_url).target) as db:
        db.execute(SEED_SQLITE, (MATCHES, sqlite_time(T)))
        db.execute("ANALYZE")
        filters = {**{k: f for k, (f, _) in SELECTIVE.items()}, **BROAD}
        for name, flt in filters.items():
            page, count, args = sqlite_reads.lobby_query(flt)
            steps = [r[3] for r in db.execute(f"EXPLAIN QUERY PLAN {page}", (*args, flt.limit, flt.offset))]
            assert "SCAN matches" not in steps, (name, steps)
            if name in BROAD:
                assert not any("TEMP B-TREE" in s for s in steps), (name, steps)
            if not flt.include_unlisted:
                steps = [r[3] for r in db.execute(f"EXPLAIN QUERY PLAN {count}", args)]
                assert not any(s == "SCAN matches" for s in steps), (name, steps)
            if name in SELECTIVE:
                assert db.execute(count, args).fetchone()[0] == SELECTIVE[name][1], name
