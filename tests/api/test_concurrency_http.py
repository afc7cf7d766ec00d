"""Idempotent retries and concurrent writers over HTTP: nothing lost, nothing doubled.

Two app instances on one database stand for two server processes (own caches, own locks); only
the store's `(match_id, seq)` key keeps them apart.
"""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from app.games.registry import GAMES
from app.matches.fold import fold, new_match
from app.matches.settings import stored_settings
from app.matches.views import view_of
from tests.api.conftest import started
from tests.api.helpers import Table, new_table

Process = tuple[FastAPI, httpx.AsyncClient]


@pytest.fixture
async def processes(database_url: str) -> AsyncIterator[list[Process]]:
    """Two 'processes' on one database (one for the memory store, which is per process)."""
    async with AsyncExitStack() as stack:
        count = 1 if database_url == "memory://" else 2
        yield [await stack.enter_async_context(started(database_url)) for _ in range(count)]


@pytest.fixture
def clients(processes: list[Process]) -> list[httpx.AsyncClient]:
    return [client for _, client in processes]


def on(table: Table, client: httpx.AsyncClient) -> Table:
    return table.on(client)


async def test_a_retry_returns_the_first_reply(clients: list[httpx.AsyncClient]) -> None:
    table = await new_table(clients[0], "yutaka", 2)
    view = await table.view(0)
    action = view["legal_actions"][0]
    first = await table.act(0, action, idempotency_key="key-1")
    assert first.status_code == 200
    seq = first.json()["seq"]
    for client in clients:
        again = await on(table, client).act(0, action, idempotency_key="key-1")
        assert again.status_code == 200 and again.json() == first.json()
    assert (await table.summary())["seq"] == seq
    reused = await table.act(0, action, expected_seq=1, idempotency_key="key-1")  # another body
    assert reused.status_code == 422 and reused.json()["error"]["code"] == "idempotency_key_reused"
    assert (await table.summary())["seq"] == seq


async def test_concurrent_duplicates_apply_once(clients: list[httpx.AsyncClient]) -> None:
    table = await new_table(clients[0], "mount_drago", 2, options={"first_player": 0})
    action = (await table.view(0))["legal_actions"][0]
    replies = await asyncio.gather(
        *(on(table, clients[i % len(clients)]).act(0, action, idempotency_key="dup") for i in range(8))
    )
    assert {r.status_code for r in replies} == {200}
    assert all(r.json() == replies[0].json() for r in replies)
    events = await table.events(None)
    assert [e["seq"] for e in events] == list(range(1, replies[0].json()["seq"] + 1))


async def _round(tables: list[Table], rng: random.Random) -> list[httpx.Response]:
    """Every seat fires a few random actions at once: its own legal ones, or the acting seat's."""
    views = {s: await tables[0].view(s) for s in tables[0].tokens}
    acting = [v for v in views.values() if v["legal_actions"]]
    posts = []
    for seat in views:
        for _ in range(3):
            pool = views[seat]["legal_actions"] or rng.choice(acting)["legal_actions"]
            table = rng.choice(tables)
            posts.append(table.act(seat, rng.choice(pool)))
    return list(await asyncio.gather(*posts))


async def _check_against_replay(processes: list[Process], table: Table, game: str, ok: list[Any]) -> None:
    log = await table.events(0, limit=1000)
    summary = await table.summary()
    assert [e["seq"] for e in log] == list(range(1, summary["seq"] + 1))  # gap-free
    started = next(e["seq"] for e in log if e["type"] == "match_started")
    applied = sorted(e["seq"] for reply in ok for e in reply["events"])
    assert applied == list(range(started + 1, summary["seq"] + 1))  # every event from exactly one reply
    assert len({reply["seq"] for reply in ok}) == len(ok)
    # The state every process serves is the fold of the stored log (the truth, read directly).
    store = processes[0][0].state.store
    record = await store.get_match(table.match_id)
    assert record is not None
    stored = await store.read(table.match_id)
    rules = GAMES[game]
    truth = fold(new_match(table.match_id, rules, table.players, stored_settings(record.settings)), stored)
    for _, client in processes:
        for seat in range(table.players):
            assert await on(table, client).view(seat) == normal(view_of(truth, seat).to_json())
    if summary["status"] == "finished":
        outcome = rules.outcome(truth.state)
        assert outcome is not None and list(outcome.scores) == summary["scores"]


def normal(value: Any) -> Any:
    return json.loads(json.dumps(value))


@pytest.mark.parametrize(("game", "players", "rounds"), [("yutaka", 2, 200), ("mount_drago", 4, 25)])
async def test_concurrent_writers_lose_nothing(
    processes: list[Process], clients: list[httpx.AsyncClient], game: str, players: int, rounds: int
) -> None:
    rng = random.Random(f"{game}-concurrency")
    table = await new_table(clients[0], game, players)
    tables = [on(table, c) for c in clients]
    ok: list[Any] = []
    for _ in range(rounds):
        replies = await _round(tables, rng)
        for r in replies:
            assert r.status_code in (200, 409), r.text
            if r.status_code == 200:
                ok.append(r.json())
            else:
                assert r.json()["error"]["code"] in {"not_your_turn", "illegal_action", "match_over"}
        assert any(r.status_code == 200 for r in replies) or (await table.summary())["status"] == "finished"
        if (await table.summary())["status"] == "finished":
            break
    await _check_against_replay(processes, table, game, ok)
    if len(clients) > 1:  # the two processes did race for the same seqs
        assert await _conflicts(clients) > 0
    if game == "yutaka":
        assert (await table.summary())["status"] == "finished"


async def _conflicts(clients: list[httpx.AsyncClient]) -> float:
    total = 0.0
    for client in clients:
        for line in (await client.get("/metrics")).text.splitlines():
            if line.startswith("drago_version_conflicts_total{"):
                total += float(line.rsplit(" ", 1)[1])
    return total
