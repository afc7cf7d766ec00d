"""`ratings_changed` (every store): appended once after a rated match's `match_ended`, public (every
reader gets the same data, the reveal too), equal to the projection's history rows; also when the
process that applied a match dies before appending it (the next process's projection appends it),
and when two processes append at once (one wins); a live stream gets it as a `commit` frame. The
fold ignores it: the match stays finished."""

from __future__ import annotations

import asyncio
import functools
import random
from typing import Any

import pytest

from app.games.codec import to_json
from app.service import rating_projection
from app.service.bots import level_chooser
from app.service.context import Context
from app.service.loading import Loader
from app.service.rating_events import announce, ratings_changed
from app.service.rating_projection import project_ratings, rating_store
from app.service.ratings import PROVISIONAL_GAMES, ordinal
from app.store.factory import create_store
from tests.api.conftest import started
from tests.api.helpers import Table
from tests.players.support import bearer, new_player
from tests.ratings.support import finished, random_rated_match
from tests.stream.helpers import check_server_frame, open_stream

FAST_ISMCTS = 8


class Died(BaseException):
    """A process killed between a match's rating and its event (not an `Exception`: nothing
    catches it)."""


async def events_of(ctx: Context, match_id: str) -> list[Any]:
    return [e for e in await ctx.store.read(match_id) if e.type == "ratings_changed"]


async def check_announced(ctx: Context, ids: list[str]) -> None:
    """Each match: one `ratings_changed`, last, right after `match_ended`, equal to its history."""
    store = rating_store(ctx)
    for m in ids:
        stored = await ctx.store.read(m)
        assert [e.type for e in stored[-2:]] == ["match_ended", "ratings_changed"], m
        [event] = await events_of(ctx, m)
        assert event.recorded_at == stored[-2].recorded_at  # recorded at the end's time
        points = await store.match_points(m)
        changes = event.data["changes"]
        assert [c["seat"] for c in changes] == [p.seat for p in points] == list(range(len(points)))
        for c, p in zip(changes, points, strict=True):
            assert c["player_id"] == p.player_id
            assert (c["before"]["mu"], c["before"]["sigma"]) == (p.mu_before, p.sigma_before)
            assert (c["after"]["mu"], c["after"]["sigma"]) == (p.mu_after, p.sigma_after)
            assert c["after"]["rating"] == ordinal(p.mu_after, p.sigma_after)
            history = await store.rating_history(p.player_id, p.game)
            games = len({h.ord for h in history if h.ord <= p.ord})
            assert c["after"]["provisional"] == (games < PROVISIONAL_GAMES)
            assert c["before"]["provisional"] == (games - 1 < PROVISIONAL_GAMES)


async def test_ratings_changed_is_public_once_and_ignored_by_the_fold(own_database_url: str) -> None:
    async with started(own_database_url) as (app, client):
        app.state.runner.choose = functools.partial(level_chooser, millis=None, iterations=FAST_ISMCTS)
        keys = [(await new_player(client, f"P{i}"))[1] for i in range(3)]
        rng = random.Random(7)
        tables = [await random_rated_match(client, keys, rng) for _ in range(2)]
        ctx: Context = app.state.ctx
        await project_ratings(ctx)  # what a bot's last commit may be applying still
        ids = [t.match_id for t in tables]
        await check_announced(ctx, ids)
        for t in tables:
            summary = (await client.get(t.url)).json()
            assert summary["status"] == "finished"  # the fold ignores the event
            seq = summary["seq"]
            forms = []
            for token in [None, *t.tokens.values()]:
                r = await client.get(
                    f"{t.url}/events?after={seq - 1}", headers=bearer(token) if token else {}
                )
                assert r.status_code == 200, r.text
                [record] = r.json()["events"]
                assert record["type"] == "ratings_changed"
                forms.append(record["data"])
            reveal = (await client.get(f"{t.url}/reveal")).json()["events"][-1]
            assert reveal["type"] == "ratings_changed"
            assert all(f == reveal["data"] for f in forms)  # public: everybody sees the same
            view = (await client.get(f"{t.url}/view")).json()
            assert view["seq"] == seq and view["outcome"] is not None
        # Projecting again, announcing again: nothing more is appended.
        assert await project_ratings(ctx) == 0
        for m in ids:
            assert await announce(ctx, rating_store(ctx), m) is False
            assert len(await events_of(ctx, m)) == 1


async def test_a_process_that_dies_between_the_rating_and_the_event(
    own_database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with started(own_database_url, ratings_on_commit=False) as (app, client):
        app.state.runner.choose = functools.partial(level_chooser, millis=None, iterations=FAST_ISMCTS)
        await app.state.sweeper.stop()  # nothing applies ratings but this test
        keys = [(await new_player(client, f"Q{i}"))[1] for i in range(3)]
        rng = random.Random(8)
        ids = [(await random_rated_match(client, keys, rng)).match_id for _ in range(2)]
        ctx: Context = app.state.ctx
        store = rating_store(ctx)
        assert await store.rated_order() == []

        async def die(*_: object) -> bool:
            raise Died

        monkeypatch.setattr(rating_projection, "announce", die)
        with pytest.raises(Died):
            await project_ratings(ctx)  # applies the first match, then "dies" before its event
        monkeypatch.undo()
        [first] = await store.rated_order()
        assert await events_of(ctx, first) == []
        # Another process (its own loader; its own store on a SQL database) picks up from there.
        other_store = ctx.store if own_database_url == "memory://" else create_store(own_database_url)
        other = Context(other_store, clock=ctx.clock, config=ctx.config)
        try:
            assert await project_ratings(other) == 1
            assert sorted(await store.rated_order()) == sorted(ids)
            await check_announced(ctx, ids)
            # Computed again from the projection, the event is the one appended.
            last = ids[-1]
            loaded = await ctx.loader.load(last)
            event = await ratings_changed(store, last, loaded.record.game)
            assert event is not None and to_json(event) == dict((await events_of(ctx, last))[0].data)
        finally:
            if other_store is not ctx.store:
                await other_store.close()


async def test_two_announcers_at_once_append_one_event(own_database_url: str) -> None:
    async with started(own_database_url, ratings_on_commit=False) as (app, client):
        app.state.runner.choose = functools.partial(level_chooser, millis=None, iterations=FAST_ISMCTS)
        await app.state.sweeper.stop()
        keys = [(await new_player(client, f"R{i}"))[1] for i in range(2)]
        [match_id] = [(await random_rated_match(client, keys, random.Random(9))).match_id]
        ctx: Context = app.state.ctx
        store = rating_store(ctx)
        assert await rating_projection.apply_one(ctx, store, match_id)  # applied, not announced
        second = ctx.store if own_database_url == "memory://" else create_store(own_database_url)
        other = Context(second, clock=ctx.clock, config=ctx.config)
        assert isinstance(other.loader, Loader)
        try:
            done = await asyncio.gather(
                announce(ctx, store, match_id), announce(other, rating_store(other), match_id)
            )
            assert sorted(done) == [False, True]
            assert len(await events_of(ctx, match_id)) == 1
            await check_announced(ctx, [match_id])
        finally:
            if second is not ctx.store:
                await second.close()


async def test_the_event_reaches_a_live_stream_as_a_commit_frame() -> None:
    async with started("memory://", ratings_on_commit=False) as (app, client):
        app.state.runner.choose = functools.partial(level_chooser, millis=None, iterations=FAST_ISMCTS)
        await app.state.sweeper.stop()
        keys = [(await new_player(client, f"S{i}"))[1] for i in range(2)]
        table = await random_rated_match(client, keys, random.Random(10))
        end = (await client.get(table.url)).json()["seq"]
        async with open_stream(app, table.match_id, spectate=True) as ws:
            hello = await ws.recv()
            assert hello["seq"] == end
            assert await project_ratings(app.state.ctx) == 1
            frame = await ws.recv()
            while frame["type"] != "commit":
                frame = await ws.recv()
            check_server_frame(frame)  # the committed frame schema knows the event
            assert frame["seq"] == end + 1
            assert [e["type"] for e in frame["events"]] == ["ratings_changed"]


async def test_an_unlisted_rated_match_reads_like_its_summary() -> None:
    """An unlisted match is absent from the lobby and joined only with its invite; its reads —
    summary, events, and the ratings route alike — need its id only (docs/api.md, credentials)."""
    async with started("memory://") as (app, client):
        app.state.runner.choose = functools.partial(level_chooser, millis=None, iterations=FAST_ISMCTS)
        bots = [{"seat": 0, "level": "random"}, {"seat": 1, "level": "greedy"}]
        body = {"game": "yutaka", "players": 2, "bots": bots, "rated": True, "visibility": "unlisted"}
        r = await client.post("/v1/matches", json=body)
        assert r.status_code == 201, r.text
        url = f"/v1/matches/{r.json()['id']}"
        table = Table(client, r.json()["id"], 2, {}, host=r.json()["host_token"])
        await finished(table)
        await project_ratings(app.state.ctx)
        summary = (await client.get(url)).json()
        assert summary["visibility"] == "unlisted" and summary["status"] == "finished"
        ratings = await client.get(f"{url}/ratings")
        assert ratings.status_code == 200 and ratings.json()["applied"] is True
        last = (await client.get(f"{url}/events?after={summary['seq'] - 1}")).json()["events"]
        assert [c["rating_after"] for c in ratings.json()["changes"]] == [
            c["after"]["rating"] for c in last[0]["data"]["changes"]
        ]
        assert (await client.get("/v1/matches/nope/ratings")).status_code == 404
