"""Every stream frame is redacted for its viewer, over random games of both games.

Each match has a dev seed; several streams watch it (every human seat with `views=1` from the
deal, a second connection of one seat, two spectators), while the game is played to the end by
random legal actions sent over HTTP or over the acting seat's own socket. After the end, the
revealed log is the hidden truth: every `hello`, `event` and `view` frame must be exactly the
engine's view/redaction for that viewer at that seq (and the HTTP API's), must not hold another
seat's hand or a face-down value, must validate against the committed frame schema, and each
stream's events must be seq 1 (or its `after`) + 1 … the end, without gaps or duplicates.
"""

from __future__ import annotations

import random
from contextlib import AsyncExitStack
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from app.games.registry import GAMES
from tests.api.conftest import started
from tests.api.helpers import Table, new_table
from tests.api.test_no_leaks import Truth, check_secrets, normal
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


async def play(table: Table, readers: list[Reader], rng: random.Random) -> int:
    """Random legal actions to the end, over HTTP or the seat's socket; returns the final seq."""
    hellos = [(r.frames[0], r) for r in readers]
    sockets = {h["seat"]: r for h, r in hellos if h["views"] and h["seat"] is not None}
    sent = 0
    for _ in range(3000):
        summary = await table.summary()
        if summary["status"] == "finished":
            seq: int = summary["seq"]
            return seq
        seat = rng.choice([s for s in summary["to_act"] if s in table.tokens])
        view = await table.view(seat)
        action = rng.choice(view["legal_actions"])
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
    events = [f for f in rest if f["type"] == "event"]
    assert [f["seq"] for f in events] == list(range(hello["after"] + 1, final + 1)), reader.name
    assert [f["event"] for f in events] == http_events[hello["after"] :], reader.name
    for frame in reader.frames:
        check_server_frame(frame)
        kind = frame["type"]
        if kind in ("hello", "view"):
            view = frame["view"]
            assert normal(view) == truth.view(frame["seq"], viewer), (reader.name, frame["seq"])
            check_secrets(truth, viewer, frame["seq"], view, view["status"] == "finished")
        elif kind == "event":
            event = frame["event"]
            assert event["data"] == truth.event(frame["seq"], viewer), (reader.name, event)
            check_secrets(truth, viewer, frame["seq"], event, event["type"] == "game_ended")
        else:
            assert kind in ("ack", "ping"), frame
    if hello["views"]:
        views = [f for f in rest if f["type"] == "view"]
        assert views and views[-1]["seq"] == final and views[-1]["view"]["status"] == "finished"


async def play_and_verify(
    app: FastAPI, client: httpx.AsyncClient, game: str, players: int, seed: str, **body: Any
) -> None:
    table = await new_table(client, game, players, seed=seed, **body)
    async with AsyncExitStack() as stack:
        readers = await watch(app, stack, table)
        final = await play(table, readers, random.Random(seed))
        for reader in readers:
            await reader.wait_for_seq(final)
            if reader.frames[0]["views"]:
                last_view = lambda fs: fs[-1]["type"] == "view" and fs[-1]["seq"] == final  # noqa: E731
                await reader.wait_for(last_view, "the last view")
        revealed = (await client.get(f"{table.url}/reveal")).json()
        truth = Truth(GAMES[game], table.match_id, players, revealed["events"])
        assert len(truth.events) == final
        history = {seat: await table.events(seat, limit=1000) for seat in [None, *table.tokens]}
        for reader in readers:
            verify(truth, reader, final, history[reader.frames[0]["seat"]])
            await reader.stop()


CASES = [
    ("mount_drago", 3, {"bots": [2]}),
    ("mount_drago", 5, {}),
    ("yutaka", 2, {"options": {"mode": "mysteria"}}),
    ("yutaka", 2, {"options": {"mode": "tactika"}}),
    ("yutaka", 2, {"options": {"mode": "mixed", "known_types": ["idol", "crystal"]}}),
]


@pytest.mark.parametrize(("game", "players", "body"), CASES)
async def test_every_frame_is_redacted_for_its_viewer(game: str, players: int, body: dict[str, Any]) -> None:
    async with started("memory://") as (app, client):
        await play_and_verify(app, client, game, players, f"stream-{game}-{players}", **body)


@pytest.mark.parametrize("game", ["mount_drago", "yutaka"])
async def test_redaction_on_a_database(sql_database_url: str, game: str) -> None:
    async with started(sql_database_url) as (app, client):
        await play_and_verify(app, client, game, 2, f"stream-db-{game}")
