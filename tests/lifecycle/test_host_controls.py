"""Resigning, the host's controls, expiry and private matches over HTTP, on every store; each one
appears as events in the history and reaches stream followers as a commit.

Expiry uses a fake clock and a hand-driven sweep (no sleeping).
"""

from __future__ import annotations

from typing import Any

import httpx

from app.api.closes import Close
from tests.api.conftest import running, started
from tests.api.helpers import FakeClock, Table, create, error_of, join, new_table
from tests.lifecycle.support import commits, drago, following, frames_through, kinds, moved_past
from tests.stream.helpers import open_stream


async def test_resigning_with_two_players_the_other_wins(database_url: str) -> None:
    async with started(database_url) as (app, client):
        table = await drago(client)
        async with following(app, table) as spectator:
            r = await table.resign(1, **{"Idempotency-Key": "bye"})
            assert r.status_code == 200, r.text
            reply = r.json()
            assert [e["data"] for e in reply["events"]] == [
                {"type": "seat_resigned", "seat": 1},
                {"type": "match_ended", "reason": "resigned", "winners": [0], "scores": None},
            ]
            assert reply["view"]["status"] == "finished" and reply["view"]["outcome"]["reason"] == "resigned"
            again = await table.resign(1, **{"Idempotency-Key": "bye"})  # a retry: the first reply
            assert again.status_code == 200 and again.json() == reply
            summary = await table.summary()
            assert summary["status"] == "finished" and summary["winners"] == [0]
            assert (await table.types())[-2:] == ["seat_resigned", "match_ended"]
            assert (await frames_through(spectator, reply["seq"]))[-1] == ["seat_resigned", "match_ended"]


async def test_resigning_with_more_players_a_bot_plays_on_and_the_seat_ranks_last(database_url: str) -> None:
    async with started(database_url) as (app, client):
        table = await drago(client, 3)
        async with following(app, table) as spectator:
            r = await table.resign(0)
            assert r.status_code == 200, r.text
            assert [e["data"] for e in r.json()["events"]] == [
                {"type": "seat_resigned", "seat": 0},
                {"type": "seat_taken_over", "seat": 0, "reason": "resigned", "level": "random"},
            ]
            seq = r.json()["seq"]
            await moved_past(table, seq)  # the bot made seat 0's decision
            summary = await table.settled()
            seat = summary["seats"][0]
            assert seat["resigned"] and seat["bot"] and summary["status"] == "active"
            assert kinds((await table.events(None, after=seq - 2))[:2]) == [
                "seat_resigned",
                "seat_taken_over",
            ]
            assert (await frames_through(spectator, seq))[0] == ["seat_resigned", "seat_taken_over"]
        # The resigned seat still reads its view (it is ranked last, whatever its score).
        assert (await table.view(0))["seat"] == 0


async def test_the_host_aborts_a_match_before_it_starts(database_url: str) -> None:
    async with started(database_url) as (app, client):
        created = (await create(client, "yutaka", 2)).json()
        table = Table(client, created["id"], 2, {}, host=created["host_token"])
        assert created["host_token"].startswith("ht_") and created["invite"] is None
        token = (await join(client, table.match_id, 0)).json()["token"]
        table.tokens[0] = token
        async with following(app, table, token=token) as seat0:
            r = await client.post(f"{table.url}/abort", headers=table.as_host())
            assert r.status_code == 200, r.text
            assert r.json()["status"] == "aborted"
            assert (await table.types())[-2:] == ["match_aborted", "match_ended"]
            events = await table.events(None, after=r.json()["seq"] - 2)
            assert [e["data"] for e in events] == [
                {"type": "match_aborted", "reason": "host"},
                {"type": "match_ended", "reason": "aborted", "winners": [], "scores": None},
            ]
            assert (await frames_through(seat0, r.json()["seq"])) == [["match_aborted", "match_ended"]]
        error_of(await join(client, table.match_id, 1), 409, "match_over")
        listed = (await client.get("/v1/matches", params={"status": "aborted"})).json()
        assert table.match_id in [m["id"] for m in listed["items"]]


async def test_waiting_matches_expire(database_url: str) -> None:
    clock = FakeClock()
    async with started(database_url, clock=clock, waiting_expiry_seconds=3600) as (app, client):
        waiting = (await create(client, "mount_drago", 3)).json()
        full = await drago(client)  # an active match never expires
        table = Table(client, waiting["id"], 3, {})
        async with following(app, table) as spectator:
            clock.advance(3599)
            assert await app.state.sweeper.sweep_once() == 0
            clock.advance(1)
            assert await app.state.sweeper.sweep_once() == 1
            summary = await table.summary()
            assert summary["status"] == "aborted"
            assert [e["data"] for e in (await table.events(None))[-2:]] == [
                {"type": "match_aborted", "reason": "expired"},
                {"type": "match_ended", "reason": "aborted", "winners": [], "scores": None},
            ]
            assert await frames_through(spectator, summary["seq"]) == [["match_aborted", "match_ended"]]
        assert (await full.summary())["status"] == "active"
        error_of(await join(client, table.match_id, 0), 409, "match_over")


async def test_a_reissued_token_works_and_the_old_one_stops_at_once(database_url: str) -> None:
    async with started(database_url) as (app, client):
        table = await drago(client)
        old = table.tokens[0]
        async with (
            following(app, table) as spectator,
            open_stream(app, table.match_id, token=old) as by_old_token,
        ):
            hello = await by_old_token.recv()
            assert hello["seat"] == 0
            r = await client.post(f"{table.url}/seats/0/token", headers=table.as_host())
            assert r.status_code == 201, r.text
            new = r.json()["token"]
            assert r.json()["seat"] == 0 and new != old
            frame = await by_old_token.recv()  # the commit that reissued it, then the close
            assert kinds(frame["events"]) == ["seat_token_reissued"]
            closed = await by_old_token.closed()
            assert closed.code == Close.UNAUTHORIZED
            (event,) = await table.events(None, after=frame["seq"] - 1)
            assert event["data"] == {"type": "seat_token_reissued", "seat": 0}  # no token in it
            assert old not in str(await table.history(None)) and new not in str(await table.history(None))
            assert await frames_through(spectator, frame["seq"]) == [["seat_token_reissued"]]
        for request in (
            client.get(f"{table.url}/view", headers={"Authorization": f"Bearer {old}"}),
            client.post(
                f"{table.url}/actions",
                json={"action": {"type": "end_turn"}},
                headers={"Authorization": f"Bearer {old}"},
            ),
        ):
            error_of(await request, 401, "unauthorized")
        async with open_stream(app, table.match_id, token=old) as again:
            assert (await again.recv())["error"]["code"] == "unauthorized"
            assert (await again.closed()).code == Close.UNAUTHORIZED
        table.tokens[0] = new
        view = await table.view(0)
        assert view["seat"] == 0
        assert (await table.act(0, view["legal_actions"][0])).status_code == 200


async def test_the_host_hands_a_silent_seat_to_a_bot(database_url: str) -> None:
    async with started(database_url) as (app, client):
        table = await drago(client)
        async with following(app, table) as spectator:
            r = await client.post(f"{table.url}/seats/0/bot", headers=table.as_host())
            assert r.status_code == 200, r.text
            assert r.json()["seats"][0]["bot"]
            seq = r.json()["seq"]
            (event,) = await table.events(None, after=seq - 1)
            assert event["data"] == {
                "type": "seat_taken_over",
                "seat": 0,
                "reason": "host",
                "level": "random",
            }
            await moved_past(table, seq)  # the bot plays the seat
            assert (await frames_through(spectator, seq))[0] == ["seat_taken_over"]


async def test_an_unlisted_match_is_joined_only_with_its_invite(database_url: str) -> None:
    async with running(database_url) as client:
        r = await create(client, "yutaka", 2, visibility="unlisted")
        created = r.json()
        assert created["visibility"] == "unlisted" and created["invite"].startswith("iv_")
        match_id = created["id"]
        for params in ({}, {"open": "true"}, {"status": "waiting"}):
            listed = (await client.get("/v1/matches", params=params)).json()
            assert match_id not in [m["id"] for m in listed["items"]]
        table = Table(client, match_id, 2, {})
        assert (await join(client, match_id, 0, invite=created["invite"])).status_code == 201
        assert (await client.get(f"/v1/matches/{match_id}")).json()["visibility"] == "unlisted"
        assert "invite" not in (await client.get(f"/v1/matches/{match_id}")).json()
        assert kinds(await table.events(None))[-1] == "seat_joined"


async def test_the_open_lobby_lists_public_waiting_matches_with_a_free_seat(database_url: str) -> None:
    async with running(database_url) as client:
        before = {m["id"] for m in await _lobby(client, open="true")}
        waiting = (await create(client, "mount_drago", 3)).json()["id"]
        await join(client, waiting, 1)
        await create(client, "yutaka", 2, visibility="unlisted")
        full = await new_table(client, "yutaka", 2)
        bots_only = (await create(client, "yutaka", 2, bots=[0, 1])).json()["id"]
        listed = [m for m in await _lobby(client, open="true") if m["id"] not in before]
        assert [m["id"] for m in listed] == [waiting]
        assert [(s["seat"], s["taken"], s["name"]) for s in listed[0]["seats"]] == [
            (0, False, None),
            (1, True, "player 1"),
            (2, False, None),
        ]
        everything = {m["id"] for m in await _lobby(client)}
        assert {waiting, full.match_id, bots_only} <= everything


async def _lobby(client: httpx.AsyncClient, **params: Any) -> list[Any]:
    items: list[Any] = []
    while True:
        page = (await client.get("/v1/matches", params={**params, "offset": len(items), "limit": 200})).json()
        items.extend(page["items"])
        if len(items) >= page["total"] or not page["items"]:
            return items


def test_commits_groups_by_commit() -> None:
    events = [{"commit": 2}, {"commit": 2}, {"commit": 3}]
    assert commits(events) == [[{"commit": 2}, {"commit": 2}], [{"commit": 3}]]
