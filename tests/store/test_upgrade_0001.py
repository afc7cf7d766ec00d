"""Upgrading a database that wave 1 filled (revision 0001, rows written as wave 1 wrote them) to
the newest schema: nothing lost, every new column filled as `0002` documents, and the stores read
and extend the old matches."""

from __future__ import annotations

import asyncio
import sqlite3
from datetime import UTC, datetime, timedelta
from typing import Any

import asyncpg
import orjson
import pytest
from alembic import command

from app.service.ports import IdempotencyRecord, MatchFilter, MatchUpdate, SeatRecord
from app.store.factory import create_store, parse_url
from app.store.memory import MemoryEventStore
from app.store.migrate import alembic_config, check, upgrade
from app.store.rows import sqlite_time

from .records import append, event, events

T = datetime(2025, 1, 2, 3, 4, 5, 678901, tzinfo=UTC)
OLD_REPLY = {"seq": 3, "events": [{"seq": 2}, {"seq": 3}], "view": {"hand": [1, 2]}}

# (table, columns, rows): matches A (waiting, seat 1 free) and B (finished, with idempotency keys).
SEED: list[tuple[str, str, list[tuple[Any, ...]]]] = [
    ("matches", "id, game, players, options, status, seq, created_at, updated_at, secret, commitment, "
     "to_act, scores, winners", [
        ("A", "yutaka", 2, {"mode": "mixed"}, "waiting", 1, T, T, "sA", "cA", [0], None, None),
        ("B", "mount_drago", 2, {}, "finished", 3, T, T + timedelta(seconds=3), "sB", "cB", [], [3, 5], [1]),
    ]),
    ("seats", "match_id, seat, name, token_hash, bot, joined_at", [
        ("A", 0, "Ana", "tA0", False, T), ("A", 1, None, None, False, None),
        ("B", 0, "Bea", "tB0", False, T), ("B", 1, "bot", None, True, None),
    ]),
    ("events", "match_id, seq, type, data, recorded_at", [
        ("A", 1, "game_started", {"deck": [3, 1, 2]}, T),
        *(("B", i, "card_played", event(i).data, T + timedelta(seconds=i)) for i in (1, 2, 3)),
    ]),
    ("idempotency_keys", "match_id, seat, key, request_hash, response, created_at", [
        ("B", 0, "good", "h1", OLD_REPLY, T),
        ("B", 1, "no-reply", "h2", {"error": "x"}, T),
        ("B", 0, "text-seq", "h3", {"seq": "3", "events": []}, T),
    ]),
]  # fmt: skip


def _value(v: Any, sqlite: bool) -> Any:
    """A value as wave 1 stored it: JSON as text, times as naive UTC text on SQLite."""
    if isinstance(v, dict | list):
        return orjson.dumps(v).decode()
    if isinstance(v, datetime) and sqlite:
        return sqlite_time(v)
    return v


async def _seed_0001(url: str) -> None:
    await asyncio.to_thread(command.upgrade, alembic_config(url), "0001")
    target = parse_url(url)
    if target.backend == "sqlite":
        with sqlite3.connect(target.target) as db:
            for table, columns, rows in SEED:
                marks = ", ".join("?" * len(rows[0]))
                db.executemany(f"INSERT INTO {table} ({columns}) VALUES ({marks})",
                               [tuple(_value(v, True) for v in r) for r in rows])  # fmt: skip
        return
    conn = await asyncpg.connect(target.target)
    try:
        for table, columns, rows in SEED:
            marks = ", ".join(f"${i}" for i in range(1, len(rows[0]) + 1))
            await conn.executemany(f"INSERT INTO {table} ({columns}) VALUES ({marks})",
                                   [tuple(_value(v, False) for v in r) for r in rows])  # fmt: skip
    finally:
        await conn.close()


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def empty_url(request: pytest.FixtureRequest) -> str:
    fixture = "sqlite_url" if request.param == "sqlite" else "fresh_postgres_url"
    url: str = request.getfixturevalue(fixture)
    return url


async def test_a_wave_1_database_upgrades_with_its_data(empty_url: str) -> None:
    await _seed_0001(empty_url)
    await asyncio.to_thread(upgrade, empty_url)
    await asyncio.to_thread(check, empty_url)

    store = create_store(empty_url)
    assert not isinstance(store, MemoryEventStore)
    try:
        a, b = await store.get_match("A"), await store.get_match("B")
        assert a is not None and b is not None
        assert (a.options, a.to_act, a.seq, a.created_at, a.status) == (
            {"mode": "mixed"},
            (0,),
            1,
            T,
            "waiting",
        )
        assert (a.settings, a.visibility, a.open_seats, a.bot_due, a.deadline_at) == (
            {},
            "public",
            1,
            False,
            None,
        )
        assert (a.host_token_hash, a.invite_hash) == (None, None)
        assert (b.scores, b.winners, b.open_seats, b.updated_at) == (
            (3, 5),
            (1,),
            0,
            T + timedelta(seconds=3),
        )
        assert await store.get_seats("A") == [SeatRecord("A", 0, "Ana", "tA0", False, T), SeatRecord("A", 1)]
        assert await store.seat_by_token("tB0") == SeatRecord("B", 0, "Bea", "tB0", False, T)

        stored = await store.read("B")  # old matches read as one commit per event
        assert [(e.seq, e.commit, e.data, e.recorded_at) for e in stored] == [
            (i, i, event(i).data, T + timedelta(seconds=i)) for i in (1, 2, 3)
        ]
        assert await store.get_idempotent("B", 0, "good") == IdempotencyRecord("B", 0, "good", "h1", 2, 3)
        assert await store.get_idempotent("B", 1, "no-reply") is None
        assert await store.get_idempotent("B", 0, "text-seq") is None
        assert [m.id for m in (await store.list_matches(MatchFilter(open=True)))[0]] == ["A"]

        # The old match plays on, with commits and 64-bit seqs.
        assert (await store.append(append("A", 1, events(2, 3), MatchUpdate("active", (1,))))).seq == 3
        assert [(e.seq, e.commit) for e in await store.read("A")] == [(1, 1), (2, 3), (3, 3)]
        assert (await store.append(append("B", 3, events(4, 4)))).seq == 4
    finally:
        await store.close()
