"""A lobby of many matches seeded in SQL, the way it looks after a while (mostly finished, a tenth
active, a few waiting, two in a hundred with a free seat, one in twenty unlisted, two games), and
the reading of EXPLAIN plans: shared by the tests of query plans."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from typing import Any

import asyncpg

from app.store.factory import parse_url
from app.store.migrate import upgrade

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
