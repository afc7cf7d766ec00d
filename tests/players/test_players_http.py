"""Players over HTTP, on every store: one key holds seats in 20 matches; "my matches" with
`to_act=me` lists exactly those where it must act; the personal stream announces each turn once,
across a reconnect; and bad keys and seats are refused with nothing changed."""

from __future__ import annotations

import json
import logging
import random
from collections.abc import Awaitable, Callable
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from app.api.closes import Close
from app.api.logs import JsonFormatter
from tests.api.conftest import started
from tests.api.helpers import Table, create, error_of, join, unchanged
from tests.players.support import bearer, expected_turns, my_matches, new_player
from tests.stream.asgi import AsgiSocket
from tests.stream.helpers import open_player_stream

MATCHES = 20


async def seat_player_in_matches(client: httpx.AsyncClient, key: str) -> list[Table]:
    """Seat 0 of 20 Mount Drago matches held by the key: 16 started (seat 0 or 1 first), 4 waiting."""
    tables = []
    for i in range(MATCHES):
        created = (await create(client, "mount_drago", 2, options={"first_player": i % 2})).json()
        table = Table(client, created["id"], 2, {0: key}, host=created["host_token"])
        r = await join(client, table.match_id, 0, "Ada", key=key)
        assert r.status_code == 201, r.text
        if i < 16:
            table.tokens[1] = (await join(client, table.match_id, 1, "Bo")).json()["token"]
        tables.append(table)
    return tables


async def play_a_turn(table: Table, seat: int, rng: random.Random) -> None:
    """`seat` plays its whole turn (random legal actions until the decision passes)."""
    view = await table.view(seat)
    while seat in view["to_act"]:
        r = await table.act(seat, rng.choice(view["legal_actions"]))
        assert r.status_code == 200, r.text
        view = r.json()["view"]


async def head(app: FastAPI, key: str) -> int:
    """The player's notice cursor now (from a new stream's `hello`)."""
    async with open_player_stream(app, key=key) as probe:
        cursor: int = (await probe.recv())["cursor"]
    return cursor


async def notices_until(ws: AsgiSocket, cursor: int) -> list[Any]:
    frames: list[Any] = []
    while not frames or frames[-1]["cursor"] < cursor:
        frame = await ws.recv()
        if frame["type"] == "notice":
            frames.append(frame)
    return frames


NOTICE_MEMBERS = {"type", "match_id", "seat", "seq", "deadline", "reason", "winners", "recorded_at"}


async def check_notices(client: httpx.AsyncClient, key: str, tables: list[Table], frames: list[Any]) -> None:
    """Cursors 1…N without gaps; one `your_turn` per turn the oracle finds, and no other."""
    assert [f["cursor"] for f in frames] == list(range(1, len(frames) + 1))
    notices = [f["notice"] for f in frames]
    turns = sorted((n["match_id"], n["seq"]) for n in notices if n["type"] == "your_turn")
    expected = []
    for table in tables:
        expected += [(table.match_id, seq) for seq in await expected_turns(client, table.match_id, key)]
    assert turns == sorted(expected)
    for notice in notices:  # public facts only
        assert set(notice) <= NOTICE_MEMBERS and notice["seat"] == 0


async def test_one_key_twenty_matches_my_turns_and_the_personal_stream(database_url: str) -> None:
    rng = random.Random(11)
    async with started(database_url) as (app, client):
        player_id, key = await new_player(client, "Ada")
        me = (await client.get("/v1/players/me", headers=bearer(key))).json()
        assert me["player_id"] == player_id and me["name"].partition("#")[0] == "Ada"
        async with open_player_stream(app, key=key) as ws:
            hello = await ws.recv()
            assert hello == {
                **hello,
                "type": "hello",
                "protocol": 2,
                "player_id": player_id,
                "cursor": 0,
                "after": 0,
            }
            tables = await seat_player_in_matches(client, key)
            for table in tables[:16]:  # the opponent plays where it is on turn; Ada plays in some
                if 1 in (await table.summary())["to_act"]:
                    await play_a_turn(table, 1, rng)
            for table in tables[:4]:
                await play_a_turn(table, 0, rng)  # Ada's key acts like the seat's token
            first = await notices_until(ws, await head(app, key))
        # Reconnect with `after` = the last cursor seen; more turns come meanwhile.
        assert (await tables[5].resign(1)).status_code == 200  # Ada wins: match_ended
        for table in tables[6:12]:
            summary = await table.summary()
            if summary["status"] == "active":
                await play_a_turn(table, summary["to_act"][0] if 0 not in summary["to_act"] else 0, rng)
        async with open_player_stream(app, key=key, after=first[-1]["cursor"]) as ws:
            hello = await ws.recv()
            assert hello["after"] == first[-1]["cursor"]
            rest = await notices_until(ws, hello["cursor"])
        await check_notices(client, key, tables, first + rest)
        kinds = [f["notice"]["type"] for f in first + rest]
        assert kinds.count("match_started") == 16 and kinds.count("match_ended") == 1

        # "My matches": all 20, and with to_act=me exactly those where seat 0 must act now.
        listed = await my_matches(client, key)
        assert sorted(i["match"]["id"] for i in listed) == sorted(t.match_id for t in tables)
        assert all(i["seat"] == 0 for i in listed)
        must_act = set()
        for table in tables:
            view = await table.view(0)
            if view["status"] == "active" and 0 in view["to_act"]:
                must_act.add(table.match_id)
        assert 0 < len(must_act) < MATCHES
        mine = await my_matches(client, key, to_act="me")
        assert {i["match"]["id"] for i in mine} == must_act and len(mine) == len(must_act)
        assert all(i["my_turn"] and i["deadline"] is None for i in mine)
        waiting = await my_matches(client, key, status="waiting")
        assert {i["match"]["id"] for i in waiting} == {t.match_id for t in tables[16:]}
        finished = await my_matches(client, key, status="finished")
        assert [i["match"]["id"] for i in finished] == [tables[5].match_id]
        updated = [i["match"]["updated_at"] for i in listed]
        assert updated == sorted(updated, reverse=True)  # newest activity first


def joining(client: httpx.AsyncClient, table: Table, key: str) -> Callable[[], Awaitable[httpx.Response]]:
    return lambda: join(client, table.match_id, 1, "Eve", key=key)


async def test_a_clock_gives_my_matches_a_deadline(database_url: str) -> None:
    async with started(database_url) as (_, client):
        _, key = await new_player(client, "Ada")
        created = (await create(client, "yutaka", 2, clock={"per_decision_s": 3600})).json()
        await join(client, created["id"], 0, key=key)
        await join(client, created["id"], 1)
        (item,) = await my_matches(client, key, to_act="me")
        assert item["deadline"] == item["match"]["clock"][0]["deadline"] and item["deadline"].endswith("Z")


async def test_bad_keys_and_seats_are_refused_with_nothing_changed(database_url: str) -> None:
    async with started(database_url, stream_heartbeat_seconds=0.05) as (app, client):
        _, ada = await new_player(client, "Ada")
        _, bo = await new_player(client, "Bo")
        created = (await create(client, "mount_drago", 2, options={"first_player": 0})).json()
        table = Table(client, created["id"], 2, {0: ada})
        assert (await join(client, table.match_id, 0, "Ada", key=ada)).status_code == 201
        # A second seat of the same match: 409, nothing changed.
        await unchanged(table, lambda: join(client, table.match_id, 1, "Ada", key=ada), 409, "already_seated")
        # Unknown keys: 401 everywhere, nothing changed.
        for unknown in ("pk_unknown", "pk_" + ada[3:-1] + "x"):
            error_of(await client.get("/v1/players/me", headers=bearer(unknown)), 401, "unauthorized")
            error_of(await client.get("/v1/players/me/matches", headers=bearer(unknown)), 401, "unauthorized")
            await unchanged(table, joining(client, table, unknown), 401, "unauthorized")
        table.tokens[1] = (await join(client, table.match_id, 1, "Bo", key=bo)).json()["token"]
        action = (await table.view(0))["legal_actions"][0]
        # Another player's seat: Bo's key is his seat's, never Ada's; a key with no seat here is 403.
        _, eve = await new_player(client, "Eve")
        url = table.url
        for request in (
            lambda: client.get(f"{url}/view", headers=bearer(eve)),
            lambda: client.post(f"{url}/actions", json={"action": action}, headers=bearer(eve)),
            lambda: client.post(f"{url}/resign", headers=bearer(eve)),
            lambda: client.get(f"{url}/events", headers=bearer(eve)),
        ):
            await unchanged(table, request, 403, "forbidden")
        await unchanged(
            table,
            lambda: client.post(f"{url}/actions", json={"action": action}, headers=bearer(bo)),
            409,
            "not_your_turn",
        )
        assert (await table.view(1))["seat"] == 1  # Bo's key sees Bo's seat
        # A rotated key: the old one is refused at once (HTTP, a new stream, an open stream).
        async with open_player_stream(app, key=ada) as open_stream:
            assert (await open_stream.recv())["type"] == "hello"
            r = await client.post("/v1/players/me/keys", headers=bearer(ada))
            assert r.status_code == 201, r.text
            table.tokens[0] = new = r.json()["key"]
            closed = await open_stream.closed()
            assert closed.code == Close.UNAUTHORIZED
        for request in (
            lambda: client.get("/v1/players/me", headers=bearer(ada)),
            lambda: client.get(f"{url}/view", headers=bearer(ada)),
            lambda: client.post(f"{url}/actions", json={"action": action}, headers=bearer(ada)),
        ):
            await unchanged(table, request, 401, "unauthorized")
        async with open_player_stream(app, key=ada) as refused:
            assert (await refused.recv())["error"]["code"] == "unauthorized"
            assert (await refused.closed()).code == Close.UNAUTHORIZED
        async with open_player_stream(app) as no_key:  # the personal stream needs a key
            await no_key.send({"type": "auth", "token": None})
            assert (await no_key.recv())["error"]["code"] == "unauthorized"
        assert new != ada and (await table.act(0, action)).status_code == 200


async def test_the_server_never_logs_a_player_key(caplog: pytest.LogCaptureFixture) -> None:
    """At DEBUG, before any filter: the app's own log records never hold a key (the root filter
    that scrubs every library's lines is tested on a real server in tests/edge/test_logs.py)."""
    caplog.set_level(logging.DEBUG)
    async with started("memory://", log_level="DEBUG") as (app, client):
        _, key = await new_player(client, "Ada")
        created = (await create(client, "yutaka", 2)).json()
        await join(client, created["id"], 0, key=key)
        await join(client, created["id"], 1)
        table = Table(client, created["id"], 2, {0: key})
        await table.view(0)
        await client.get(f"{table.url}/view", params={"token": key})
        async with open_player_stream(app, key=key) as ws:
            assert (await ws.recv())["type"] == "hello"
        old, key = key, (await client.post("/v1/players/me/keys", headers=bearer(key))).json()["key"]
        error_of(await client.get("/v1/players/me", headers=bearer(old)), 401, "unauthorized")
        await my_matches(client, key, to_act="me")
    formatter = JsonFormatter()
    lines = [formatter.format(r) for r in caplog.records if r.name.startswith("app")]
    assert any(json.loads(line)["level"] in ("DEBUG", "INFO") for line in lines)
    text = "\n".join(lines)
    for secret in (key, old, key[3:], old[3:], created["host_token"]):
        assert secret not in text
