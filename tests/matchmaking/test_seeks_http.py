"""`/v1/seeks` over HTTP (the real app, memory store): quick play end to end, the error envelopes."""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Awaitable, Callable
from typing import Any

import httpx

from app.service.matcher import match_once
from tests.api.conftest import started
from tests.matchmaking.conftest import FakeClock


async def _player(client: httpx.AsyncClient, name: str) -> dict[str, str]:
    r = await client.post("/v1/players", json={"name": name})
    assert r.status_code == 201
    return {"Authorization": f"Bearer {r.json()['key']}"}


def _error(r: httpx.Response, status: int, code: str) -> dict[str, Any]:
    assert r.status_code == status, r.text
    body: dict[str, Any] = r.json()["error"]
    assert body["code"] == code
    return body


async def test_quick_play_over_http() -> None:
    clock = FakeClock()
    async with started("memory://", clock=clock, matcher_interval_seconds=0) as (app, client):
        ann, bob = await _player(client, "ann"), await _player(client, "bob")
        r = await client.post("/v1/seeks", json={"game": "yutaka", "players": 2}, headers=ann)
        assert r.status_code == 201, r.text
        seek = r.json()
        assert seek["status"] == "open" and seek["players"] == [2] and seek["opponents"] == "humans"
        assert seek["bots_welcome"] is False and seek["name"] == "ann"
        listed = (await client.get("/v1/seeks")).json()["items"]
        assert [s["seek_id"] for s in listed] == [seek["seek_id"]]
        clock.advance(1)
        r = await client.post("/v1/seeks", json={"game": "yutaka", "players": 2}, headers=bob)
        assert r.status_code == 201
        assert await match_once(app.state.matchmaking) == 1
        mine = (await client.get("/v1/players/me/seeks", headers=ann)).json()["items"]
        assert mine[0]["status"] == "matched" and mine[0]["match_id"]
        match_id, seat = mine[0]["match_id"], mine[0]["seat"]
        view = (await client.get(f"/v1/matches/{match_id}/view", headers=ann)).json()
        assert view["seat"] == seat
        assert (await client.get("/v1/seeks")).json()["items"] == []
        _error(await client.delete(f"/v1/seeks/{seek['seek_id']}", headers=ann), 409, "seek_closed")


async def test_bad_seeks_are_refused_and_change_nothing() -> None:
    async with started("memory://", matcher_interval_seconds=0) as (_, client):
        ann, bob = await _player(client, "ann"), await _player(client, "bob")
        _error(await client.post("/v1/seeks", json={"game": "yutaka", "players": 2}), 401, "unauthorized")
        for body in (
            {"game": "chess", "players": 2},
            {"game": "yutaka", "players": 3},
            {"game": "mount_drago", "players": [2, 9]},
            {"game": "mount_drago", "players": 2, "options": {"unknown": True}},
            {"game": "yutaka", "players": 2, "expires_s": 0},
            {"game": "yutaka", "players": 2, "bots_after_s": -5},
            {"game": "yutaka", "players": 2, "opponents": "robots"},
            {"game": "yutaka", "players": 2, "rating_range": [1500, 1000]},
            {"game": "yutaka", "players": 2, "rating_range": {"min": 20, "max": 10}},  # inverted
            {"game": "yutaka", "players": 2, "rating_range": {"min": 0, "max": 1e9}},  # absurd
            {"game": "yutaka", "players": 2, "rating_range": {"min": -1000, "max": 0}},
            {"game": "yutaka", "players": 2, "rating_range": {"min": 0}},
            {"game": "yutaka", "players": 2, "rating_range": {"min": "0", "max": 5}},
            {"game": "yutaka", "players": 2, "rated": "yes"},
        ):
            _error(await client.post("/v1/seeks", json=body, headers=ann), 422, "validation_error")
        assert (await client.get("/v1/players/me/seeks", headers=ann)).json()["items"] == []
        ids = []
        for _ in range(5):
            r = await client.post("/v1/seeks", json={"game": "yutaka", "players": 2}, headers=ann)
            ids.append(r.json()["seek_id"])
        err = _error(
            await client.post("/v1/seeks", json={"game": "yutaka", "players": 2}, headers=ann),
            409,
            "too_many_seeks",
        )
        assert err["details"]["max_open"] == 5
        _error(await client.delete(f"/v1/seeks/{ids[0]}", headers=bob), 403, "forbidden")
        _error(await client.delete("/v1/seeks/nope", headers=bob), 404, "not_found")
        r = await client.delete(f"/v1/seeks/{ids[0]}", headers=ann)
        assert r.status_code == 200 and r.json()["status"] == "cancelled"


async def test_a_rated_seek_with_a_range_over_http() -> None:
    clock = FakeClock()
    async with started("memory://", clock=clock, matcher_interval_seconds=0) as (app, client):
        ann, bob = await _player(client, "ann"), await _player(client, "bob")
        body = {"game": "yutaka", "players": 2, "rated": True, "rating_range": {"min": -5, "max": 10.5}}
        r = await client.post("/v1/seeks", json=body, headers=ann)
        assert r.status_code == 201, r.text
        seek = r.json()
        assert seek["rating_range"] == {"min": -5.0, "max": 10.5} and seek["settings"]["rated"] is True
        clock.advance(1)
        r = await client.post("/v1/seeks", json={"game": "yutaka", "players": 2, "rated": True}, headers=bob)
        assert r.status_code == 201 and r.json()["rating_range"] is None
        assert await match_once(app.state.matchmaking) == 1  # bob, a newcomer (0), is in ann's range
        [mine] = (await client.get("/v1/players/me/seeks", headers=ann)).json()["items"]
        summary = (await client.get(f"/v1/matches/{mine['match_id']}")).json()
        assert summary["settings"]["rated"] is True


async def test_a_posted_seek_starts_a_pass_of_this_process_matcher_at_once() -> None:
    """The matcher runs with an hour between passes, busy or idle: each seek posted here starts a
    pass at once all the same (no time passes in this test), and the two seeks are matched."""
    hourly: dict[str, Any] = {"matcher_interval_seconds": 3600.0, "matcher_idle_seconds": 3600.0}
    async with started("memory://", **hourly) as (app, client):
        mm = app.state.matchmaking
        passes = 0
        real_open_seeks = mm.store.open_seeks

        async def open_seeks(*args: Any, **kwargs: Any) -> Any:
            nonlocal passes
            passes += 1
            return await real_open_seeks(*args, **kwargs)

        mm.store.open_seeks = open_seeks

        async def until(done: Callable[[], Awaitable[bool]], what: str) -> None:
            for _ in range(10_000):  # a hang guard: no pass comes by time here
                if await done():
                    return
                await asyncio.sleep(0)
            raise AssertionError(f"never: {what}")

        async def passed(count: int) -> bool:
            return passes >= count

        ann, bob = await _player(client, "ann"), await _player(client, "bob")
        await until(functools.partial(passed, 1), "the first pass")  # the one at start; then an hour's pause
        r = await client.post("/v1/seeks", json={"game": "yutaka", "players": 2}, headers=ann)
        assert r.status_code == 201, r.text
        await until(functools.partial(passed, 2), "a pass after ann's seek")
        r = await client.post("/v1/seeks", json={"game": "yutaka", "players": 2}, headers=bob)
        assert r.status_code == 201, r.text

        async def matched() -> bool:
            mine = (await client.get("/v1/players/me/seeks", headers=ann)).json()["items"]
            return bool(mine[0]["status"] == "matched")

        await until(matched, "ann's seek matched")
        assert mm.metrics["matched"] == 1
