"""Exactly once across processes and a SIGKILL (PostgreSQL): 200 random rated matches (2–5 seats,
people holding player keys, bots of every level) through server processes. Process A commits
ends without applying them (`ratings_on_commit` off, no sweeps): exactly the state a process
leaves when it dies between a match's commit and its rating (B, applying every pending match when
it ends one, would apply A's too: the first hundred ends with ten on A alone). A is SIGKILLed with
its ends pending;
a new process C applies them on its first sweep while B and C play the second hundred. In the end
every rated match is applied once (ords 1…200, one history row per seat, games counted once) and
has one `ratings_changed`, and `python -m app ratings rebuild` gives the same tables, value for
value, appending no event."""

from __future__ import annotations

import asyncio
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx
import pytest

from app.service.context import Context
from app.service.rating_projection import rating_store
from app.store.factory import create_store
from tests.api.helpers import eventually
from tests.players.support import new_player
from tests.ratings.support import random_rated_match
from tests.stream.servers import ROOT, serving

pytestmark = [pytest.mark.slow, pytest.mark.postgres]

MATCHES = 200
AT_ONCE = 6  # matches played concurrently
LAST_ON_A = 10  # the first hundred ends with these on A alone
NO_SWEEPS = {"DRAGO_SWEEP_INTERVAL_SECONDS": "3600"}  # a sweep at the start, then none for an hour


async def tables(url: str) -> Any:
    store = create_store(url)
    try:
        return await rating_store(Context(store)).rating_tables()
    finally:
        await store.close()


async def applied(url: str) -> list[str]:
    store = create_store(url)
    try:
        return await rating_store(Context(store)).rated_order()
    finally:
        await store.close()


async def announced(url: str, ids: list[str]) -> dict[str, int]:
    """How many `ratings_changed` each match has, and that they come last."""
    store = create_store(url)
    try:
        out = {}
        for m in ids:
            log = await store.read(m)
            out[m] = sum(1 for e in log if e.type == "ratings_changed")
            assert not out[m] or log[-1].type == "ratings_changed"
        return out
    finally:
        await store.close()


async def play(clients: list[httpx.AsyncClient], keys: list[str], seeds: range) -> list[str]:
    """Matches `seeds`, each on client `seed % len(clients)`, `AT_ONCE` at a time; their ids."""
    gate = asyncio.Semaphore(AT_ONCE)

    async def one(seed: int) -> str:
        async with gate:
            client = clients[seed % len(clients)]
            return (await random_rated_match(client, keys, random.Random(seed))).match_id

    return list(await asyncio.gather(*(one(s) for s in seeds)))


async def test_200_rated_matches_through_processes_and_a_sigkill_are_each_applied_once(
    tmp_path: Path, fresh_postgres_url: str, channel_prefix: str
) -> None:
    postgres_url = fresh_postgres_url
    env = {
        "DATABASE_URL": postgres_url,
        "DRAGO_BROADCAST_URL": postgres_url,
        "DRAGO_BROADCAST_PREFIX": channel_prefix,
        "DRAGO_BOT_BUDGET_MS": "0",
        "DRAGO_BOT_ITERATIONS": "8",  # ismcts plays, quickly
    }
    half = MATCHES // 2
    async with (
        serving(tmp_path, "b", {**env, **NO_SWEEPS}) as b,
        httpx.AsyncClient(base_url=b.url, timeout=60) as on_b,
    ):
        keys = [(await new_player(on_b, f"P{i}"))[1] for i in range(8)]
        async with (
            serving(tmp_path, "a", {**env, **NO_SWEEPS, "DRAGO_RATINGS_ON_COMMIT": "0"}) as a,
            httpx.AsyncClient(base_url=a.url, timeout=60) as on_a,
        ):
            first = await play([on_a, on_b], keys, range(half - LAST_ON_A))
            # The last ones on A alone: B's next rated end would apply A's pending ones with its own.
            first += await play([on_a], keys, range(half - LAST_ON_A, half))
            left = set(first) - set(await applied(postgres_url))
            assert left  # A's last ends (committed by A itself) wait for a rating
            a.proc.kill()  # SIGKILL, with those ends committed and not applied
            await a.wait()
        async with serving(tmp_path, "c", env) as c, httpx.AsyncClient(base_url=c.url, timeout=60) as on_c:
            second = await play([on_b, on_c], keys, range(half, MATCHES))

            async def all_applied() -> bool:
                return len(await applied(postgres_url)) >= MATCHES

            await eventually(all_applied, "every rated match applied", guard=300.0)

            async def all_announced() -> bool:
                return set((await announced(postgres_url, first + second)).values()) == {1}

            await eventually(all_announced, "every rated match's ratings_changed", guard=60.0)
    order = await applied(postgres_url)
    assert sorted(order) == sorted(first + second)  # each once: `ord` 1…200 is unique and gap-free
    live = await tables(postgres_url)
    ratings, points = live
    assert sorted({p.ord for p in points}) == list(range(1, MATCHES + 1))
    games: dict[tuple[str, str], set[str]] = {}
    for p in points:
        games.setdefault((p.game, p.player_id), set()).add(p.match_id)
    assert {(r.game, r.player_id): r.games for r in ratings} == {k: len(v) for k, v in games.items()}
    assert any(r.player_id.startswith("bot-ismcts") for r in ratings)
    clean = {k: v for k, v in os.environ.items() if not k.startswith("DRAGO_") and k != "DATABASE_URL"}
    done = await asyncio.to_thread(
        subprocess.run,
        [sys.executable, "-m", "app", "ratings", "rebuild"],
        env={**clean, "DATABASE_URL": postgres_url},
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert await tables(postgres_url) == live
    assert set((await announced(postgres_url, first + second)).values()) == {1}  # none appended
