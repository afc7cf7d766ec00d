"""Every stream frame is redacted for its viewer, over random games of both games, drafts included.

Each match has a dev seed; several streams watch it (every human seat with `views=1` from the
deal, a second connection of one seat, two spectators), while the game is played to the end by
random legal actions sent over HTTP or over the acting seat's own socket (with turn drafts on,
seats draft, undo and finish their turns). After the end, the revealed log is the hidden truth
(`tests.api.truth`): every `hello` view and every `commit` frame's events and view must be exactly
what the server's fold shows that viewer at that seq (and the HTTP API's history), must not hold
another seat's hand (committed or drafted), a face-down value or anything of another seat's open
draft, must validate against the committed frame schema, and each stream's events must be its
`after` + 1 … the end, one frame per commit, without gaps or duplicates.
"""

from __future__ import annotations

import random
from contextlib import AsyncExitStack
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from tests.api.conftest import started
from tests.api.helpers import Choice, Table, few_undos, new_table, uniform
from tests.api.truth import Truth, check_event, check_view
from tests.stream.helpers import Reader, check_server_frame, open_stream


async def watch(app: FastAPI, stack: AsyncExitStack, table: Table) -> list[Reader]:
    humans = sorted(table.tokens)
    readers = []
    for seat in humans:
        ws = await stack.enter_async_context(
            open_stream(app, table.match_id, token=table.tokens[seat], views=True, after=0)
        )
        readers.append(Reader(ws, f"seat {seat}"))
    twin = await stack.enter_async_context(open_stream(app, table.match_id, token=table.tokens[humans[0]]))
    readers.append(Reader(twin, f"seat {humans[0]} again"))
    by_frame = await stack.enter_async_context(open_stream(app, table.match_id, views=True, after=0))
    await by_frame.send({"type": "auth", "token": None})
    readers.append(Reader(by_frame, "spectator (auth frame)"))
    spectator = await stack.enter_async_context(open_stream(app, table.match_id, spectate=True))
    readers.append(Reader(spectator, "spectator"))
    for reader in readers:
        await reader.wait_for(lambda fs: bool(fs), "hello")
    return readers


async def play(table: Table, readers: list[Reader], rng: random.Random, choose: Choice) -> int:
    """Random legal actions to the end, over HTTP or the seat's socket; returns the final seq."""
    hellos = [(r.frames[0], r) for r in readers]
    sockets = {h["seat"]: r for h, r in hellos if h["views"] and h["seat"] is not None}
    sent = 0
    for _ in range(5000):
        summary = await table.settled()
        if summary["status"] == "finished":
            seq: int = summary["seq"]
            return seq
        seat = rng.choice([s for s in summary["to_act"] if s in table.tokens])
        view = await table.view(seat)
        action = choose(rng, view["legal_actions"])
        if rng.random() < 0.5:
            r = await table.act(seat, action)
            assert r.status_code == 200, r.text
        else:
            sent += 1
            reader = sockets[seat]
            frame = {"type": "action", "id": sent, "action": action, "expected_seq": view["seq"]}
            await reader.ws.send(frame)
            await reader.wait_for(lambda fs, n=sent: any(f.get("id") == n for f in fs), "ack")  # type: ignore[misc]
            (reply,) = [f for f in reader.frames if f.get("id") == sent]
            assert reply["type"] == "ack", reply
    raise AssertionError("the match did not end")


def verify(truth: Truth, reader: Reader, final: int, http_events: list[Any]) -> None:
    hello, *rest = reader.frames
    viewer = hello["seat"]
    assert hello["type"] == "hello"
    commits = [f for f in rest if f["type"] == "commit"]
    events = [e for f in commits for e in f["events"]]
    assert [e["seq"] for e in events] == list(range(hello["after"] + 1, final + 1)), reader.name
    assert events == http_events[hello["after"] :], reader.name
    for frame in reader.frames:
        check_server_frame(frame)
        kind = frame["type"]
        if kind == "hello":
            check_view(truth, viewer, frame["view"])
        elif kind == "commit":
            assert {e["commit"] for e in frame["events"]} == {frame["seq"]}, (reader.name, frame["seq"])
            assert frame["events"][-1]["seq"] == frame["seq"]
            for event in frame["events"]:
                check_event(truth, viewer, event)
            if "view" in frame:
                assert frame["view"]["seq"] == frame["seq"]
                check_view(truth, viewer, frame["view"])
        else:
            assert kind in ("ack", "ping"), frame
    if hello["views"]:
        assert commits[-1]["seq"] == final and commits[-1]["view"]["status"] == "finished"


async def play_and_verify(
    app: FastAPI, client: httpx.AsyncClient, game: str, players: int, seed: str, **body: Any
) -> Truth:
    table = await new_table(client, game, players, seed=seed, **body)
    choose = few_undos if body.get("drafts") else uniform
    async with AsyncExitStack() as stack:
        readers = await watch(app, stack, table)
        final = await play(table, readers, random.Random(seed), choose)
        for reader in readers:
            await reader.wait_for_seq(final)
        truth = Truth(await table.summary(), (await client.get(f"{table.url}/reveal")).json())
        assert truth.seq == final
        history = {seat: await table.history(seat) for seat in [None, *table.tokens]}
        for reader in readers:
            verify(truth, reader, final, history[reader.frames[0]["seat"]])
            await reader.stop()
    return truth


CASES = [
    ("mount_drago", 3, {"bots": [2]}),
    ("mount_drago", 5, {}),
    ("yutaka", 2, {"options": {"mode": "mysteria"}}),
    ("yutaka", 2, {"options": {"mode": "tactika"}}),
    ("yutaka", 2, {"options": {"mode": "mixed", "known_types": ["idol", "crystal"]}}),
]


DRAFT_CASES = [
    ("mount_drago", 3, {"bots": [2]}),
    ("yutaka", 2, {"options": {"mode": "tactika"}}),
]


@pytest.mark.parametrize(("game", "players", "body"), CASES)
async def test_every_frame_is_redacted_for_its_viewer(game: str, players: int, body: dict[str, Any]) -> None:
    async with started("memory://") as (app, client):
        await play_and_verify(app, client, game, players, f"stream-{game}-{players}", **body)


@pytest.mark.parametrize(("game", "players", "body"), DRAFT_CASES)
async def test_no_frame_shows_another_seats_draft(game: str, players: int, body: dict[str, Any]) -> None:
    async with started("memory://") as (app, client):
        seed = f"stream-drafts-{game}-{players}"
        truth = await play_and_verify(app, client, game, players, seed, drafts=True, **body)
    assert {"draft_step", "draft_undone", "draft_published"} <= {e.type for e in truth.envelopes}


@pytest.mark.parametrize(("game", "body"), [("mount_drago", {"drafts": True}), ("yutaka", {})])
async def test_redaction_on_a_database(sql_database_url: str, game: str, body: dict[str, Any]) -> None:
    async with started(sql_database_url) as (app, client):
        await play_and_verify(app, client, game, 2, f"stream-db-{game}", **body)
