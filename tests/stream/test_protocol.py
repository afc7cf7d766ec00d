"""The stream protocol in-process: hello, the backlog then live commits (one frame per commit), auth
paths, close codes, frames; a match's start reaches followers as an event like any other."""

from __future__ import annotations

import random
from typing import Any

import pytest

from app.api.closes import Close
from tests.api.conftest import started
from tests.api.helpers import Table, new_table
from tests.players.support import new_player
from tests.stream.asgi import AsgiSocket, Closed
from tests.stream.conftest import Live
from tests.stream.helpers import Reader, check_server_frame, open_player_stream, open_stream


async def step(table: Table, rng: random.Random) -> int:
    """One random legal action over HTTP by the seat to act; returns the new seq."""
    summary = await table.summary()
    seat = rng.choice([s for s in summary["to_act"] if s in table.tokens])
    view = await table.view(seat)
    r = await table.act(seat, rng.choice(view["legal_actions"]))
    assert r.status_code == 200, r.text
    seq: int = r.json()["seq"]
    return seq


async def drago(live: Live, players: int = 2, **body: Any) -> Table:
    return await new_table(live[1], "mount_drago", players, seed="stream-protocol", **body)


async def recv_until(ws: AsgiSocket, seq: int) -> list[Any]:
    """Commit frames until the one that ends at `seq` (pings in between are skipped)."""
    frames: list[Any] = []
    while not frames or frames[-1]["seq"] < seq:
        frame = await ws.recv()
        if frame["type"] == "commit":
            frames.append(frame)
    assert frames[-1]["seq"] == seq
    return frames


def commits(events: list[Any]) -> list[list[Any]]:
    """Events grouped by their commit, in order."""
    groups: list[list[Any]] = []
    for event in events:
        if groups and groups[-1][-1]["commit"] == event["commit"]:
            groups[-1].append(event)
        else:
            groups.append([event])
    return groups


async def test_hello_then_the_backlog_then_live_commits(live: Live) -> None:
    app, _ = live
    table = await drago(live)
    rng = random.Random(1)
    for _ in range(3):
        await step(table, rng)
    head = (await table.summary())["seq"]
    async with open_stream(app, table.match_id, token=table.tokens[0], after=0) as ws:
        hello = await ws.recv()
        assert hello == {
            "type": "hello",
            "protocol": 2,
            "match_id": table.match_id,
            "seat": 0,
            "seq": head,
            "after": 0,
            "views": False,
            "heartbeat": 20.0,
            "view": await table.view(0),
            "chat_seq": 0,
        }
        backlog = await recv_until(ws, head)
        history = await table.events(0, limit=1000)
        assert [f["events"] for f in backlog] == commits(history)  # one frame per commit, as in history
        assert all(f["seq"] == f["events"][-1]["seq"] == f["events"][-1]["commit"] for f in backlog)
        assert all("view" not in f for f in backlog)
        new = await step(table, rng)
        live_frames = await recv_until(ws, new)
        assert [f["events"] for f in live_frames] == commits(await table.events(0, after=head))
        for frame in [hello, *backlog, *live_frames]:
            check_server_frame(frame)


async def test_without_after_the_stream_starts_at_the_hello(live: Live) -> None:
    app, _ = live
    table = await drago(live)
    rng = random.Random(2)
    await step(table, rng)
    async with open_stream(app, table.match_id, spectate=True) as ws:
        hello = await ws.recv()
        assert hello["seat"] is None and hello["after"] == hello["seq"] == (await table.summary())["seq"]
        assert hello["view"] == await table.view(None)
        new = await step(table, rng)
        (frame,) = await recv_until(ws, new)  # one action, one commit, one frame
        assert [e["seq"] for e in frame["events"]] == list(range(hello["seq"] + 1, new + 1))


@pytest.mark.parametrize("how", ["query", "header", "auth_frame", "spectate", "auth_null"])
async def test_every_way_to_say_who_you_are(live: Live, how: str) -> None:
    app, _ = live
    table = await drago(live)
    token = table.tokens[1]
    ways: dict[str, dict[str, Any]] = {
        "query": {"token": token},
        "header": {"headers": {"Authorization": f"Bearer {token}"}},
        "spectate": {"spectate": True},
    }
    kwargs = ways.get(how, {})
    async with open_stream(app, table.match_id, **kwargs) as ws:
        if how == "auth_frame":
            await ws.send({"type": "auth", "token": token})
        elif how == "auth_null":
            await ws.send({"type": "auth", "token": None})
        hello = await ws.recv()
    seat = None if how in ("spectate", "auth_null") else 1
    assert hello["type"] == "hello" and hello["seat"] == seat
    assert hello["view"] == await table.view(seat)


REFUSALS: list[tuple[str, dict[str, Any], Any, int, str | None]] = [
    # (case, open_stream kwargs, first frame to send, close code, error code in an error frame)
    ("bad token", {"token": "nope"}, None, Close.UNAUTHORIZED, "unauthorized"),
    ("bad token in auth frame", {}, {"type": "auth", "token": "nope"}, Close.UNAUTHORIZED, "unauthorized"),
    ("empty token in auth frame", {}, {"type": "auth", "token": ""}, Close.UNAUTHORIZED, "unauthorized"),
    ("not bearer", {"headers": {"Authorization": "Basic eDp5"}}, None, Close.UNAUTHORIZED, "unauthorized"),
    ("after not a number", {"spectate": True, "after": "x"}, None, Close.BAD_REQUEST, "validation_error"),
    ("after negative", {"spectate": True, "after": "-1"}, None, Close.BAD_REQUEST, "validation_error"),
    ("after ahead", {"spectate": True, "after": 99}, None, Close.BAD_REQUEST, "validation_error"),
    ("views not a flag", {"spectate": True, "views": "maybe"}, None, Close.BAD_REQUEST, "validation_error"),
    ("token and spectate", {"spectate": True, "token": "x"}, None, Close.BAD_REQUEST, "validation_error"),
    ("first frame not auth", {}, {"type": "ping"}, Close.BAD_REQUEST, None),
    ("first frame not JSON", {}, "{nope", Close.BAD_REQUEST, None),
    ("first frame not an object", {}, [1, 2], Close.BAD_REQUEST, None),
    ("first frame unknown", {}, {"type": "hello"}, Close.BAD_REQUEST, None),
    ("auth frame with extras", {}, {"type": "auth", "token": None, "x": 1}, Close.BAD_REQUEST, None),
    ("first frame binary", {}, b"\x00", Close.UNSUPPORTED_DATA, None),
    ("first frame too big", {}, {"type": "auth", "token": "x" * 70_000}, Close.TOO_BIG, None),
]


@pytest.mark.parametrize(("case", "kwargs", "first", "code", "error"), REFUSALS, ids=[r[0] for r in REFUSALS])
async def test_refusals_close_with_their_code(
    live: Live, case: str, kwargs: dict[str, Any], first: Any, code: int, error: str | None
) -> None:
    app, _ = live
    table = await drago(live)
    async with open_stream(app, table.match_id, **kwargs) as ws:
        if first is not None:
            await ws.send(first)
        frames = []
        with pytest.raises(Closed) as closed:
            while True:
                frames.append(await ws.recv())
    assert closed.value.code == code, closed.value
    assert closed.value.reason
    assert [f["error"]["code"] for f in frames] == ([error] if error else [])
    for frame in frames:
        assert frame["id"] is None
        check_server_frame(frame)
        # The close reason holds the error's code and message; the frame before it, the details.
        assert closed.value.reason == f"{frame['error']['code']}: {frame['error']['message']}"


async def test_unknown_match_and_a_token_of_another_match(live: Live) -> None:
    app, _ = live
    table = await drago(live)
    other = await drago(live)
    cases: list[tuple[str, dict[str, Any], int, str]] = [
        ("0" * 32, {"spectate": True}, Close.NOT_FOUND, "not_found"),
        ("0" * 32, {"token": table.tokens[0]}, Close.NOT_FOUND, "not_found"),
        ("x" * 65, {"spectate": True}, Close.NOT_FOUND, "not_found"),
        (other.match_id, {"token": table.tokens[0]}, Close.FORBIDDEN, "forbidden"),
    ]
    for match_id, kwargs, code, error in cases:
        async with open_stream(app, match_id, **kwargs) as ws:
            frame = await ws.recv()
            closed = await ws.closed()
        assert frame["error"]["code"] == error and closed.code == code, (match_id, frame, closed)
        assert closed.reason == f"{error}: {frame['error']['message']}"


async def test_no_auth_frame_in_time_is_unauthorized() -> None:
    async with started("memory://", stream_auth_timeout_seconds=0.01) as live:
        app, _ = live
        table = await drago(live)
        async with open_stream(app, table.match_id) as ws:
            frame = await ws.recv()
            closed = await ws.closed()
    assert frame["error"]["code"] == "unauthorized" and closed.code == Close.UNAUTHORIZED


async def test_pings_pongs_and_frames_after_the_hello(live: Live) -> None:
    app, _ = live
    table = await drago(live)
    async with open_stream(app, table.match_id, token=table.tokens[0]) as ws:
        await ws.recv()  # hello
        await ws.send({"type": "pong"})  # needs no answer
        await ws.send({"type": "ping"})
        assert await ws.recv() == {"type": "pong"}
        await ws.send({"type": "subscribe"})
        closed = await ws.closed()
    assert closed.code == Close.BAD_REQUEST


@pytest.mark.parametrize("credential", ["token", "spectate", "auth frame"])
async def test_a_second_auth_frame_is_an_error_then_the_close(live: Live, credential: str) -> None:
    """`auth` is only ever the first frame: another one is answered by an `error` frame, then the
    stream closes with 4400 (the reason: the error's code and message)."""
    app, _ = live
    table = await drago(live)
    kwargs: dict[str, Any] = {"token": table.tokens[0]} if credential == "token" else {}
    async with open_stream(app, table.match_id, spectate=credential == "spectate", **kwargs) as ws:
        if credential == "auth frame":
            await ws.send({"type": "auth", "token": table.tokens[0]})
        assert (await ws.recv())["type"] == "hello"
        await ws.send({"type": "auth", "token": table.tokens[0]})
        again = await ws.recv()
        closed = await ws.closed()
    check_server_frame(again)
    assert again["type"] == "error" and again["id"] is None
    assert again["error"]["code"] == "validation_error"
    assert closed.code == Close.BAD_REQUEST
    assert closed.reason == f"validation_error: {again['error']['message']}"


@pytest.mark.parametrize(
    ("frame", "code"),
    [("not json", Close.BAD_REQUEST), (b"\x01", Close.UNSUPPORTED_DATA), ({"type": "ping", "x": 1}, 4400)],
)
async def test_a_bad_frame_mid_stream_closes_it(live: Live, frame: Any, code: int) -> None:
    app, _ = live
    table = await drago(live)
    async with open_stream(app, table.match_id, spectate=True) as ws:
        await ws.recv()
        await ws.send(frame)
        assert (await ws.closed()).code == code


async def test_heartbeats() -> None:
    async with started("memory://", stream_heartbeat_seconds=0.01) as live:
        app, _ = live
        table = await drago(live)
        async with open_stream(app, table.match_id, spectate=True) as ws:
            hello = await ws.recv()
            assert hello["heartbeat"] == 0.01
            assert await ws.recv() == {"type": "ping"}
            await ws.send({"type": "pong"})
            assert await ws.recv() == {"type": "ping"}


async def test_the_start_of_a_match_reaches_streams_as_an_event(live: Live) -> None:
    """Filling the last seat commits `seat_joined` and `match_started`: followers get that commit
    like any other (with `views=1`, the view of the started match in the same frame)."""
    app, client = live
    r = await client.post("/v1/matches", json={"game": "yutaka", "players": 2, "seed": "start"})
    match_id = r.json()["id"]
    token = (await client.post(f"/v1/matches/{match_id}/seats/0", json={"name": "a"})).json()["token"]
    async with (
        open_stream(app, match_id, token=token) as plain,
        open_stream(app, match_id, token=token, views=True, after=0) as viewer,
        open_stream(app, match_id, spectate=True, views=True) as spectator,
    ):
        readers = [Reader(plain, "plain"), Reader(viewer, "views"), Reader(spectator, "spectator")]
        for reader in readers:
            await reader.wait_for(lambda f: bool(f) and f[0]["type"] == "hello")
            assert reader.frames[0]["view"]["status"] == "waiting"
        await client.post(f"/v1/matches/{match_id}/seats/1", json={"name": "b"})
        for reader in readers:
            await reader.wait_for_seq(4)
            start = reader.of("commit")[-1]
            assert [(e["seq"], e["type"]) for e in start["events"]] == [
                (3, "seat_joined"),
                (4, "match_started"),
            ]
            seat = reader.frames[0]["seat"]
            headers = {} if seat is None else {"Authorization": f"Bearer {token}"}
            if reader.frames[0]["views"]:
                assert start["view"]["status"] == "active" and start["view"]["seq"] == 4
                assert (
                    start["view"]
                    == (await client.get(f"/v1/matches/{match_id}/view", headers=headers)).json()
                )
            else:
                assert "view" not in start
            for frame in reader.frames:
                check_server_frame(frame)
        assert readers[1].seqs() == [1, 2, 3, 4]  # after=0: the deal and the first seat came before
        assert readers[0].seqs() == [3, 4]
        for reader in readers:
            await reader.stop()


async def test_hub_and_stream_counters_reach_metrics(live: Live) -> None:
    app, client = live
    table = await drago(live)
    async with open_stream(app, table.match_id, spectate=True) as ws:
        await ws.recv()
        text = (await client.get("/metrics")).text
    for line in (
        "drago_live_subscribers 1.0",
        "drago_stream_connections 1.0",
        "drago_stream_frames_sent_total",
    ):
        assert line in text, line
    text = (await client.get("/metrics")).text
    assert 'drago_stream_closes_total{code="client"} 1.0' in text


async def test_a_second_auth_frame_on_the_personal_stream_is_an_error_then_the_close(live: Live) -> None:
    app, client = live
    _, key = await new_player(client, "Ada")
    async with open_player_stream(app, key=key) as ws:
        assert (await ws.recv())["type"] == "hello"
        await ws.send({"type": "action", "id": 1, "action": {}})  # refused, the stream stays open
        assert (await ws.recv())["error"]["code"] == "validation_error"
        await ws.send({"type": "auth", "token": key})
        again = await ws.recv()
        closed = await ws.closed()
    assert again["type"] == "error" and again["error"]["code"] == "validation_error"
    assert closed.code == Close.BAD_REQUEST
    assert closed.reason == f"validation_error: {again['error']['message']}"


@pytest.mark.parametrize("stream", ["match", "player"])
async def test_a_client_may_ask_for_a_protocol_version(live: Live, stream: str) -> None:
    """`?protocol=` is optional; the `hello` names the version served; a version not served is a
    `validation_error` frame listing the served ones, then 4400 with them in the close reason."""
    app, client = live
    table = await drago(live)
    _, key = await new_player(client, "Ada")

    def connect(**query: Any) -> AsgiSocket:
        if stream == "match":
            return open_stream(app, table.match_id, spectate=True, **query)
        return AsgiSocket(app, "/v1/players/me/stream", {"token": key, **query})

    for query in ({}, {"protocol": "2"}):
        async with connect(**query) as ws:
            hello = await ws.recv()
        assert hello["type"] == "hello" and hello["protocol"] == 2, query
        if stream == "match":
            check_server_frame(hello)
    for asked in ("1", "3", "02", "two", ""):
        async with connect(protocol=asked) as ws:
            frame = await ws.recv()
            closed = await ws.closed()
        assert frame["type"] == "error" and frame["id"] is None, asked
        assert frame["error"]["code"] == "validation_error"
        assert frame["error"]["details"] == {"field": "protocol", "served": [2]}
        assert closed.code == Close.BAD_REQUEST
        assert closed.reason == f"validation_error: {frame['error']['message']}"
        assert closed.reason.endswith("serves: 2")
