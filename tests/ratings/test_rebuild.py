"""The projection is rebuildable: after random rated matches (every store), every match is applied
once and `rebuild_ratings` — and `python -m app ratings rebuild` on SQLite — gives the same tables,
value for value, and appends no event; the command refuses a database that is not at the newest schema."""

from __future__ import annotations

import functools
import os
import random
import sqlite3
import subprocess
import sys
from pathlib import Path

from app.service.bots import level_chooser
from app.service.context import Context
from app.service.rating_projection import project_ratings, rating_store, rebuild_ratings
from app.store.factory import create_store, parse_url
from tests.api.conftest import started
from tests.players.support import new_player
from tests.ratings.support import random_rated_match

ROOT = Path(__file__).resolve().parents[2]
MATCHES = 12
FAST_ISMCTS = 8  # iterations per decision: every level plays, none takes long


def _cli(url: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("DRAGO_") and k != "DATABASE_URL"}
    return subprocess.run(
        [sys.executable, "-m", "app", "ratings", "rebuild"],
        env={**env, "DATABASE_URL": url}, cwd=ROOT, capture_output=True, text=True, check=False,
    )  # fmt: skip


async def test_every_rated_match_is_applied_once_and_the_rebuild_gives_the_same_tables(
    own_database_url: str,
) -> None:
    database_url = own_database_url
    rng = random.Random(41)
    async with started(database_url) as (app, client):
        app.state.runner.choose = functools.partial(level_chooser, millis=None, iterations=FAST_ISMCTS)
        keys = [(await new_player(client, f"P{i}"))[1] for i in range(5)]
        ids = [(await random_rated_match(client, keys, rng)).match_id for _ in range(MATCHES)]
        ctx = app.state.ctx
        await project_ratings(ctx)  # what a bot's last commit may be applying still (a sweep's work)
        store = rating_store(ctx)
        assert sorted(await store.rated_order()) == sorted(ids)
        live = await store.rating_tables()
        ratings, points = live
        per_match = {m: sum(1 for p in points if p.match_id == m) for m in ids}
        for m in ids:
            summary = (await client.get(f"/v1/matches/{m}")).json()
            assert per_match[m] == summary["players"]  # one history row per seat, applied once
        games: dict[tuple[str, str], set[str]] = {}
        for p in points:
            games.setdefault((p.game, p.player_id), set()).add(p.match_id)
        assert {(r.game, r.player_id): r.games for r in ratings} == {k: len(v) for k, v in games.items()}
        await app.state.sweeper.stop()  # a rebuild runs with no projector beside it (servers stopped)
        logs = {m: await ctx.store.read(m) for m in ids}
        assert all(log[-1].type == "ratings_changed" for log in logs.values())
        assert await rebuild_ratings(ctx) == MATCHES
        assert await store.rating_tables() == live
        assert {m: await ctx.store.read(m) for m in ids} == logs  # the rebuild appends no event
    if database_url.startswith("sqlite"):
        done = _cli(database_url)
        assert done.returncode == 0, done.stderr
        assert f"from {MATCHES} rated matches" in done.stdout
        again = create_store(database_url)
        try:
            assert await rating_store(Context(again)).rating_tables() == live
        finally:
            await again.close()


def test_the_rebuild_refuses_a_database_not_at_the_newest_schema(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    sqlite3.connect(path).close()
    done = _cli(f"sqlite:///{path}")
    assert done.returncode == 1 and "newest schema" in done.stderr
    assert parse_url(f"sqlite:///{path}").target == str(path)
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT name FROM sqlite_master").fetchall() == []  # nothing was created
