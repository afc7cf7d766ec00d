"""Rated matches over HTTP, on every store: joining needs a player key, bots are rated as their
level's built-in player, a finished match is applied once and shows in the profiles, histories and
the match's rating changes; aborted and casual matches are never rated; bad input is refused with
the error envelope and nothing changed."""

from __future__ import annotations

import random
from typing import Any

import httpx

from tests.api.conftest import running
from tests.api.helpers import Table, create, error_of, eventually, join, play_to_end, unchanged
from tests.players.support import bearer, new_player


async def applied(client: httpx.AsyncClient, match_id: str) -> Any:
    """The match's rating changes once applied (the last commit may be a bot's, still applying)."""

    async def check() -> Any:
        body = (await client.get(f"/v1/matches/{match_id}/ratings")).json()
        return body if body["applied"] else None

    return await eventually(check, f"the ratings of {match_id}")


async def rated_table(client: httpx.AsyncClient, keys: list[str], bots: list[Any], players: int) -> Table:
    r = await create(client, "mount_drago", players, bots=bots, rated=True)
    assert r.status_code == 201, r.text
    created = r.json()
    assert created["settings"]["rated"] is True
    table = Table(client, created["id"], players, {}, host=created["host_token"])
    bot_seats = {b if isinstance(b, int) else b["seat"] for b in bots}
    people = iter(keys)
    for seat in range(players):
        if seat not in bot_seats:
            key = next(people)
            r = await join(client, table.match_id, seat, f"p{seat}", key=key)
            assert r.status_code == 201, r.text
            table.tokens[seat] = key
    return table


async def _listed(client: httpx.AsyncClient, match_id: str) -> dict[str, Any]:
    """The match's lobby item (the PostgreSQL tests share one database: page until it is found)."""
    for offset in range(0, 10_000, 100):
        params: dict[str, str | int] = {"status": "active", "limit": 100, "offset": offset}
        items = (await client.get("/v1/matches", params=params)).json()["items"]
        found = [m for m in items if m["id"] == match_id]
        if found or not items:
            assert found, f"{match_id} is not in the lobby"
            item: dict[str, Any] = found[0]
            return item
    raise AssertionError(f"{match_id} is not in the first 10,000 active matches")


async def test_a_rated_match_is_applied_once_and_shows_everywhere(database_url: str) -> None:
    async with running(database_url) as client:
        (ada, ada_key), (bo, bo_key) = await new_player(client, "Ada"), await new_player(client, "Bo")
        table = await rated_table(client, [ada_key, bo_key], [{"seat": 2, "level": "greedy"}], 3)
        assert (await _listed(client, table.match_id))["settings"]["rated"] is True
        empty = (await client.get(f"{table.url}/ratings")).json()
        assert empty == {"match_id": table.match_id, "rated": True, "applied": False, "changes": []}
        summary = await play_to_end(table, random.Random(7))
        assert summary["status"] == "finished"
        changes = await applied(client, table.match_id)
        assert [c["seat"] for c in changes["changes"]] == [0, 1, 2]
        assert [c["player_id"] for c in changes["changes"]] == [ada, bo, "bot-greedy"]
        winners = set(summary["winners"])
        for c in changes["changes"]:
            assert c["rating_before"] == 0 and (c["rank"] == 1) == (c["seat"] in winners)
            assert abs(c["rating_after"] - c["rating_before"] - c["delta"]) < 1e-9
        profile = (await client.get(f"/v1/players/{ada}")).json()
        assert profile["name"].partition("#")[0] == "Ada" and profile["bot"] is False
        [mine] = profile["ratings"]
        assert mine["game"] == "mount_drago" and mine["games"] == 1 and mine["provisional"] is True
        assert mine["wins"] == int(0 in winners)
        assert "key" not in str(profile).lower()
        bot = (await client.get("/v1/players/bot-greedy")).json()
        assert bot["bot"] is True and bot["name"] == "greedy" and bot["ratings"][0]["games"] == 1
        history = (await client.get(f"/v1/players/{bo}/ratings/mount_drago")).json()
        [point] = history["points"]
        assert (
            point["match_id"] == table.match_id
            and point["rating_after"] == changes["changes"][1]["rating_after"]
        )
        # a sweep (any process's) finds nothing left to apply: exactly once
        board = (await client.get("/v1/games/mount_drago/leaderboard")).json()
        assert board["entries"] == []  # everybody is provisional after one game
        assert (await client.get(f"/v1/players/{ada}/ratings/yutaka")).json()["points"] == []


async def test_joining_a_rated_match_needs_a_player_key(database_url: str) -> None:
    async with running(database_url) as client:
        _, key = await new_player(client, "Ada")
        r = await create(client, "mount_drago", 3, bots=[2], rated=True)
        created = r.json()
        table = Table(client, created["id"], 3, {}, host=created["host_token"])
        await unchanged(table, lambda: join(client, table.match_id, 0, "anon"), 403, "player_key_required")
        r = await join(client, table.match_id, 0, "Ada", key=key)
        assert r.status_code == 201
        token = r.json()["token"]
        await unchanged(
            table, lambda: join(client, table.match_id, 1, "tok", key=token), 403, "player_key_required"
        )


async def test_casual_and_aborted_matches_are_never_rated(database_url: str) -> None:
    async with running(database_url) as client:
        (ada, key) = await new_player(client, "Ada")
        r = await create(client, "mount_drago", 2, bots=[1])
        casual = Table(client, r.json()["id"], 2, {})
        r = await join(client, casual.match_id, 0, "Ada", key=key)
        casual.tokens[0] = key
        await play_to_end(casual, random.Random(3))
        r = await create(client, "mount_drago", 2, rated=True)
        aborted = r.json()
        r = await client.post(f"/v1/matches/{aborted['id']}/abort", headers=bearer(aborted["host_token"]))
        assert r.status_code == 200, r.text
        assert (await client.get(f"{casual.url}/ratings")).json()["rated"] is False
        assert (await client.get(f"/v1/players/{ada}")).json()["ratings"] == []
        assert (await client.get(f"/v1/matches/{aborted['id']}/ratings")).json()["changes"] == []


async def test_bad_input_is_refused_with_the_envelope(database_url: str) -> None:
    async with running(database_url) as client:
        error_of(await client.get("/v1/games/chess/leaderboard"), 404, "not_found")
        error_of(await client.get("/v1/players/nobody"), 404, "not_found")
        error_of(await client.get("/v1/players/bot-chess"), 404, "not_found")
        error_of(await client.get("/v1/players/bot-greedy/ratings/chess"), 404, "not_found")
        error_of(
            await client.get("/v1/games/mount_drago/leaderboard", params={"limit": 0}),
            422,
            "validation_error",
        )
        r = await client.get("/v1/games/mount_drago/leaderboard", params={"limit": 5000, "offset": 900})
        assert r.status_code == 200 and r.json()["limit"] == 100 and r.json()["entries"] == []
        error_of(await create(client, "mount_drago", 2, rated="yes"), 422, "validation_error")
