"""The chat over HTTP (docs/chat.md): who reads and writes which room before and after the end,
on every store; bad input refused with the envelope and nothing stored; the rate limit with
`Retry-After` under the injected clock; blocks; reports; a switched-off spectators' room; the
sweeper's prune."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from app import admin
from app.service import bans, moderation
from app.settings import Settings
from tests.api.conftest import started
from tests.api.helpers import FakeClock, error_of
from tests.chat.support import ChatTable, chat_table, may_read, may_write
from tests.stream.helpers import Reader, open_stream

ROOMS = ("players", "spectators")


async def _check_matrix(table: ChatTable, over: bool) -> None:
    """Every person writes in every room (allowed or refused as the oracle says), then reads."""
    written: dict[str, list[str]] = {room: [] for room in ROOMS}
    refused: set[str] = set()
    for who in table.everyone:
        for room in ROOMS:
            text = f"{who.label} in {room} ({'after' if over else 'before'} the end)"
            r = await table.post(who, room, text)
            if may_write(who, room, over):
                assert r.status_code == 201, (who.label, room, r.text)
                body = r.json()
                assert body["room"] == room and body["text"] == text
                assert body["author"]["seat"] == who.seat and body["author"]["player_id"] == who.player_id
                written[room].append(text)
            elif who.credential is None:
                error_of(r, 401, "unauthorized")
                refused.add(text)
            else:
                error_of(r, 403, "forbidden")
                refused.add(text)
    for who in table.everyone:
        seen = await table.read_all(who)
        assert not refused & {m["text"] for m in seen}, "a refused message was stored"
        rooms = {m["room"] for m in seen}
        assert all(may_read(who, room, over) for room in rooms), (who.label, rooms)
        for room in ROOMS:
            r = await table.page(who, room=room)
            if may_read(who, room, over):
                assert r.status_code == 200, r.text
                texts = [m["text"] for m in await table.read_all(who, room)]
                assert written[room] == [t for t in texts if t in written[room]]
            else:
                error_of(r, 403, "forbidden")
        seqs = [m["chat_seq"] for m in seen]
        assert seqs == sorted(set(seqs))


async def test_rooms_before_and_after_the_end(database_url: str) -> None:
    async with started(database_url) as (_, client):
        table = await chat_table(client, watchers=2)
        await _check_matrix(table, over=False)
        await table.resign(0)
        assert await table.status() == "finished"
        await _check_matrix(table, over=True)


async def test_a_seat_token_is_a_seat_and_a_waiting_match_has_its_rooms() -> None:
    async with started("memory://") as (_, client):
        table = await chat_table(client, seat_token=True, start=False)
        assert await table.status() == "waiting"
        await _check_matrix(table, over=False)
        other = await chat_table(client)
        r = await other.post(table.seats[0], "players", "hello")  # a token of another match
        error_of(r, 403, "forbidden")


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("", "empty"),
        ("   \n ", "blank"),
        ("x" * 501, "long"),
        ("a\x00b", "NUL"),
        ("a\x07b", "bell"),
        ("a\u0085b", "C1"),
    ],
)
async def test_bad_text_is_refused_and_nothing_is_stored(text: str, why: str) -> None:
    async with started("memory://") as (_, client):
        table = await chat_table(client)
        error = error_of(await table.post(table.seats[0], "players", text), 422, "validation_error")
        assert error["details"]["field"] == "text", why
        assert await table.read_all(table.seats[0]) == []


async def test_text_is_trimmed_and_500_characters_fit() -> None:
    async with started("memory://") as (_, client):
        table = await chat_table(client)
        r = await table.post(table.seats[0], "players", "  " + "é" * 500 + "\n")
        assert r.status_code == 201 and r.json()["text"] == "é" * 500
        r = await table.post(table.seats[1], "players", "<b>&amp;</b>")  # plain text, as it is
        assert r.json()["text"] == "<b>&amp;</b>"


async def test_bad_requests_have_the_envelope() -> None:
    async with started("memory://") as (_, client):
        table = await chat_table(client)
        error_of(await table.post(table.seats[0], "lobby", "hi"), 422, "validation_error")
        r = await client.post(
            "/v1/matches/nope/chat", json={"room": "players", "text": "hi"}, headers=table.seats[0].headers()
        )
        error_of(r, 404, "not_found")
        error_of(await table.page(table.anonymous, after=-1), 422, "validation_error")
        error_of(await table.page(table.anonymous, limit=201), 422, "validation_error")
        assert await table.read_all(table.seats[0]) == []


async def test_rate_limit_per_author_with_retry_after() -> None:
    clock = FakeClock()
    async with started("memory://", clock=clock, chat_rate_messages=3, chat_rate_seconds=10) as (_, client):
        table = await chat_table(client)
        ada = table.seats[0]
        for i in range(3):
            assert (await table.post(ada, "players", f"m{i}")).status_code == 201
            clock.advance(2)
        r = await table.post(ada, "players", "one too many")
        error = error_of(r, 429, "rate_limited")
        assert (
            r.headers["Retry-After"] == "4" and error["details"]["retry_after"] == 4
        )  # m0 at 0 s leaves at 10 s
        assert (await table.post(table.seats[1], "players", "another author")).status_code == 201
        clock.advance(4)
        assert (await table.post(ada, "players", "again")).status_code == 201
        texts = [m["text"] for m in await table.read_all(ada)]
        assert texts == ["m0", "m1", "m2", "another author", "again"]


async def test_blocks(database_url: str) -> None:
    async with started(database_url) as (_, client):
        table = await chat_table(client, watchers=2)
        ada, bob = table.seats
        eve, fay = table.watchers
        assert eve.player_id is not None and ada.player_id is not None and bob.player_id is not None
        url = f"/v1/players/me/blocks/{bob.player_id}"
        r = await client.post(url, headers=ada.headers())
        assert r.status_code == 201 and r.json()["player_id"] == bob.player_id
        again = await client.post(url, headers=ada.headers())
        assert again.status_code == 200 and again.json() == r.json()
        await client.post(f"/v1/players/me/blocks/{eve.player_id}", headers=fay.headers())
        await table.post(bob, "players", "from bob")
        await table.post(ada, "players", "from ada")
        await table.post(eve, "spectators", "from eve")
        assert [m["text"] for m in await table.read_all(ada)] == ["from ada"]
        assert [m["text"] for m in await table.read_all(bob)] == ["from bob", "from ada"]
        assert [m["text"] for m in await table.read_all(fay)] == []
        assert [m["text"] for m in await table.read_all(table.anonymous)] == ["from eve"]
        listed = (await client.get("/v1/players/me/blocks", headers=ada.headers())).json()
        assert [b["player_id"] for b in listed["items"]] == [bob.player_id]
        assert (await client.delete(url, headers=ada.headers())).status_code == 204
        error_of(await client.delete(url, headers=ada.headers()), 404, "not_found")
        assert [m["text"] for m in await table.read_all(ada)] == ["from bob", "from ada"]
        r = await client.post(f"/v1/players/me/blocks/{ada.player_id}", headers=ada.headers())
        error_of(r, 422, "validation_error")
        error_of(await client.post("/v1/players/me/blocks/nobody", headers=ada.headers()), 404, "not_found")
        r = await client.post(url, headers=table.anonymous.headers())
        error_of(r, 401, "unauthorized")
        assert (await client.get("/v1/players/me/blocks", headers=ada.headers())).json()["items"] == []


async def test_reports(database_url: str) -> None:
    async with started(database_url) as (app, client):
        table = await chat_table(client)
        other = await chat_table(client)
        ada, bob = table.seats
        eve = table.watchers[0]
        m = (await table.post(bob, "players", "rude words")).json()
        s = (await table.post(eve, "spectators", "spoiler")).json()
        url = f"{table.url}/chat/{m['id']}/report"
        r = await client.post(url, json={"reason": "  rude  "}, headers=ada.headers())
        assert r.status_code == 201 and r.json()["reason"] == "rude" and r.json()["message_id"] == m["id"]
        for reason in ("", "x" * 501):
            error_of(
                await client.post(url, json={"reason": reason}, headers=ada.headers()),
                422,
                "validation_error",
            )
        wrong = f"{other.url}/chat/{m['id']}/report"  # a message of another match
        error_of(
            await client.post(wrong, json={"reason": "x"}, headers=other.seats[0].headers()), 404, "not_found"
        )
        unseen = f"{table.url}/chat/{s['id']}/report"  # a room the seat may not read yet
        error_of(await client.post(unseen, json={"reason": "x"}, headers=ada.headers()), 404, "not_found")
        error_of(await client.post(url, json={"reason": "x"}), 401, "unauthorized")
        reports = [r for r in await moderation.open_reports(app.state.ctx) if r.match_id == table.match_id]
        assert [(r.message_id, r.reporter_id, r.reason) for r in reports] == [
            (m["id"], ada.player_id, "rude")
        ]


async def test_spectator_chat_off() -> None:
    async with started("memory://") as (_, client):
        table = await chat_table(client, spectator_chat=False)
        eve = table.watchers[0]
        summary = (await client.get(table.url)).json()
        assert summary["settings"]["spectator_chat"] is False
        error_of(await table.post(eve, "spectators", "hi"), 403, "chat_closed")
        r = await table.page(eve, room="spectators")
        assert r.status_code == 200 and r.json() == {"messages": [], "next": None}
        await table.resign(0)
        error_of(await table.post(table.seats[1], "spectators", "gg"), 403, "chat_closed")
        assert (await table.post(table.seats[1], "players", "gg")).status_code == 201
        assert [m["text"] for m in await table.read_all(eve)] == ["gg"]


async def test_the_sweeper_prunes_old_messages_beyond_the_newest_of_each_room(sql_or_memory: str) -> None:
    clock = FakeClock()
    settings: dict[str, Any] = {
        "chat_keep_last": 2,
        "chat_retention_seconds": 100,
        "chat_rate_messages": 1000,
    }
    async with started(sql_or_memory, clock=clock, **settings) as (app, client):
        table = await chat_table(client)
        ada, eve = table.seats[0], table.watchers[0]
        for i in range(4):
            await table.post(ada, "players", f"p{i}")
            await table.post(eve, "spectators", f"s{i}")
        clock.advance(50)
        await table.post(ada, "players", "p4")
        clock.advance(60)  # p0…p3 and s0…s3 are 110 s old, p4 50 s
        await app.state.sweeper.sweep_once()
        await table.resign(0)
        texts = [m["text"] for m in await table.read_all(eve)]
        assert texts == ["s2", "p3", "s3", "p4"]  # each room's newest two, and p4, which is young


@pytest.fixture(params=["memory", "sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def sql_or_memory(request: pytest.FixtureRequest) -> str:
    if request.param == "memory":
        return "memory://"
    return str(request.getfixturevalue(f"{request.param}_url"))


def test_admin_reports_lists_the_open_reports(sqlite_url: str, capsys: pytest.CaptureFixture[str]) -> None:
    async def setup() -> tuple[str, str, str | None]:
        async with started(sqlite_url) as (_, client):
            table = await chat_table(client)
            ada, bob = table.seats
            m = (await table.post(bob, "players", "rude words")).json()
            r = await client.post(
                f"{table.url}/chat/{m['id']}/report", json={"reason": "rude"}, headers=ada.headers()
            )
            assert r.status_code == 201
            return r.json()["id"], m["id"], bob.player_id

    report_id, message_id, author = asyncio.run(setup())
    assert admin.main(["reports"], Settings(database_url=sqlite_url)) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [(x["id"], x["message_id"], x["text"], x["author_player_id"], x["reason"]) for x in lines] == [
        (report_id, message_id, "rude words", author, "rude")
    ]
    assert admin.main(["nothing"], Settings(database_url=sqlite_url)) == 2
    assert admin.main(["reports"], Settings(database_url="memory://")) == 1


async def test_a_banned_authors_messages_are_hidden_until_the_unban(database_url: str) -> None:
    async with started(database_url) as (app, client):
        table = await chat_table(client, watchers=2)
        ada, bob = table.seats
        eve, fay = table.watchers
        assert bob.player_id is not None and eve.player_id is not None
        await table.post(bob, "players", "from bob")
        await table.post(ada, "players", "from ada")
        await table.post(eve, "spectators", "from eve")
        await table.post(fay, "spectators", "from fay")
        await bans.ban_player(app.state.ctx, bob.player_id)
        await bans.ban_player(app.state.ctx, eve.player_id)
        error_of(await table.post(bob, "players", "still here?"), 403, "banned")
        assert [m["text"] for m in await table.read_all(ada)] == ["from ada"]
        assert [m["text"] for m in await table.read_all(table.anonymous)] == ["from fay"]
        async with open_stream(app, table.match_id, token=ada.credential, chat_after=0) as ws:
            reader = Reader(ws)
            await table.post(ada, "players", "after the ban")
            await reader.wait_for(
                lambda f: any(x.get("chat_seq") == 5 for x in f if x["type"] == "chat"), "5"
            )
            await reader.stop()
        assert [f["message"]["text"] for f in reader.of("chat")] == ["from ada", "after the ban"]
        await bans.unban_player(app.state.ctx, bob.player_id)
        assert [m["text"] for m in await table.read_all(ada)] == ["from bob", "from ada", "after the ban"]
