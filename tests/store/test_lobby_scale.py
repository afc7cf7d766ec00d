"""The lobby over 100,000 matches reads pages through indexes (checked with EXPLAIN, never timed):
no page query scans the matches table, and none whose filter matches much of it sorts it; every
total over public matches, the broad filters' (most of the table) included, is counted from an
index, never from the rows. Only the operators' `include_unlisted` total (every row) is left to the
planner. `bench/store_append.py` prints what each filter costs.

The matches are seeded the way a lobby looks after a while (`tests/store/seeding.py`).
"""

from __future__ import annotations

import sqlite3
from typing import Any

import pytest

from app.service.ports import MatchFilter
from app.store import postgres, sqlite_reads
from app.store.factory import create_store, parse_url
from app.store.migrate import upgrade
from app.store.rows import sqlite_time

from .seeding import SEED_SQLITE, T, plan_scans, seeded_postgres

MATCHES = 100_000

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
