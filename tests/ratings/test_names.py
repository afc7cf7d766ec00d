"""Player names: unique regardless of case (409 `name_taken`, nothing created), 1 to 32 printable
characters with no space at either end (422), the built-in bots' names reserved; and the migration
that renames existing duplicates deterministically (`name`, `name-2`, …), on SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
import sqlite3
from datetime import UTC, datetime

import asyncpg
import pytest
from alembic import command

from app.store.factory import parse_url
from app.store.migrate import alembic_config, check, upgrade
from tests.api.conftest import running
from tests.api.helpers import error_of

T = datetime(2026, 1, 1, tzinfo=UTC)


async def test_names_are_unique_regardless_of_case_and_checked() -> None:
    async with running("memory://") as client:
        r = await client.post("/v1/players", json={"name": "Straße"})
        assert r.status_code == 201 and r.json()["name"] == "Straße"
        for taken in ("straße", "STRASSE", "strasse", "Greedy", "ISMCTS", "random"):
            error_of(await client.post("/v1/players", json={"name": taken}), 409, "name_taken")
        for bad in ("", " Ada", "Ada ", "x" * 33, "tab\there", "new\nline"):
            error_of(await client.post("/v1/players", json={"name": bad}), 422, "validation_error")
        r = await client.post("/v1/players", json={"name": "y" * 32})
        assert r.status_code == 201
        r = await client.post("/v1/players", json={"name": "Ada Lovelace"})
        assert r.status_code == 201


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def empty_url(request: pytest.FixtureRequest) -> str:
    return str(request.getfixturevalue("sqlite_url" if request.param == "sqlite" else "fresh_postgres_url"))


PLAYERS = [  # id, name, created second: the order of creation is (created_at, id)
    ("p1", "Ada", 1),
    ("p2", "ada", 2),
    ("p0", "ADA", 2),  # created with p2: the id decides, p0 before p2
    ("p3", "greedy", 3),
    ("p4", "Ada-2", 0),  # the first of all: keeps `Ada-2`, so the later `Ada`s skip it
    ("p5", "Bo", 4),
    ("p6", "z" * 40, 5),
    ("p7", "Z" * 40, 6),
]
RENAMED = {
    "p4": "Ada-2",
    "p1": "Ada",
    "p0": "ADA-3",
    "p2": "ada-4",
    "p3": "greedy-2",
    "p5": "Bo",
    "p6": "z" * 40,
    "p7": "Z" * 30 + "-2",
}


async def test_the_migration_renames_duplicates_deterministically(empty_url: str) -> None:
    await asyncio.to_thread(command.upgrade, alembic_config(empty_url), "0003")
    rows = [(i, n, f"h{i}", T.replace(second=s)) for i, n, s in PLAYERS]
    target = parse_url(empty_url)
    query = "SELECT id, name, name_key FROM players"
    if target.backend == "sqlite":
        with sqlite3.connect(target.target) as db:
            db.executemany(
                "INSERT INTO players (id, name, key_hash, created_at) VALUES (?, ?, ?, ?)",
                [(i, n, h, t.strftime("%Y-%m-%d %H:%M:%S.%f")) for i, n, h, t in rows],
            )
        await asyncio.to_thread(upgrade, empty_url)
        with sqlite3.connect(target.target) as db:
            found = db.execute(query).fetchall()
    else:
        conn = await asyncpg.connect(target.target)
        try:
            await conn.executemany(
                "INSERT INTO players (id, name, key_hash, created_at) VALUES ($1, $2, $3, $4)", rows
            )
            await asyncio.to_thread(upgrade, empty_url)
            found = [tuple(r) for r in await conn.fetch(query)]
        finally:
            await conn.close()
    await asyncio.to_thread(check, empty_url)
    assert {i: n for i, n, _ in found} == RENAMED
    assert all(k == n.casefold() for _, n, k in found)
