"""`follow` and `follow_player` against a scripted WebSocket server: the resume rule exactly.

Each connection runs the next script of the test; the scripts check the `after` the client asks
for and misbehave on purpose (a repeated commit, a gap, closes of every kind) to show that the
client yields every seq once, in order, and reconnects or raises as the close code says.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from drago_client import AsyncClient, RateLimited, Retry, StreamClosed, Unauthorized, models
from drago_client.games import common
from websockets.asyncio.server import ServerConnection, serve

Script = Callable[[ServerConnection, dict[str, str]], Awaitable[None]]
FAST = Retry(attempts=3, backoff=0)  # reconnects in a row before giving up; no real waiting
VIEW = {
    "match_id": "m", "game": "toy", "seq": 0, "status": "active", "seat": None, "to_act": [0],
    "legal_actions": [], "outcome": None, "clock": [], "draft": None,
}  # fmt: skip


def hello(seq: int, after: int, status: str = "active") -> str:
    view = {**VIEW, "seq": seq, "status": status}
    frame = {"type": "hello", "protocol": 2, "match_id": "m", "seat": None, "seq": seq, "after": after,
             "views": True, "heartbeat": 20.0, "view": view, "chat_seq": 0}  # fmt: skip
    return json.dumps(frame)


def commit(*seqs: int, end: bool = False) -> str:
    at = "2026-01-01T00:00:00Z"
    data: dict[str, Any] = {"type": "match_started"}
    events: list[dict[str, Any]] = [
        {"seq": s, "type": "match_started", "data": data, "recorded_at": at, "commit": seqs[-1]} for s in seqs
    ]
    if end:
        data = {"type": "match_ended", "reason": "finished", "winners": [0], "scores": [1, 0]}
        events[-1] = {**events[-1], "type": "match_ended", "data": data}
    return json.dumps({"type": "commit", "seq": seqs[-1], "events": events})


def notice(cursor: int) -> str:
    body = {
        "type": "your_turn",
        "match_id": "m",
        "seat": 0,
        "seq": cursor,
        "recorded_at": "2026-01-01T00:00:00Z",
    }
    return json.dumps({"type": "notice", "cursor": cursor, "notice": body})


@asynccontextmanager
async def scripted(scripts: list[Script], queries: list[dict[str, str]]) -> AsyncIterator[AsyncClient]:
    """A client of a server that runs `scripts[i]` on its i-th connection (recording each query)."""
    pending = iter(scripts)

    async def handler(ws: ServerConnection) -> None:
        assert ws.request is not None
        query = {k: v[0] for k, v in parse_qs(urlsplit(ws.request.path).query).items()}
        queries.append(query)
        await next(pending)(ws, query)

    async with serve(handler, "127.0.0.1", 0) as server:
        port = next(iter(server.sockets)).getsockname()[1]
        async with AsyncClient(f"http://127.0.0.1:{port}") as api:
            api.sleep = _no_wait(api)
            yield api


def _no_wait(api: AsyncClient) -> Callable[[float], Awaitable[None]]:
    api.waits = []  # type: ignore[attr-defined]

    async def sleep(seconds: float) -> None:
        api.waits.append(seconds)  # type: ignore[attr-defined]

    return sleep


async def test_follow_resumes_after_the_last_seq_never_twice_never_skipping() -> None:
    async def first(ws: ServerConnection, q: dict[str, str]) -> None:
        assert "after" not in q and q["spectate"] == "1" and q["views"] == "1"
        assert q["protocol"] == "2"  # the version the client speaks, on every connection
        for frame in (hello(2, 2), commit(3), commit(4)):
            await ws.send(frame)
        await ws.close(1001, "going away")

    async def second(ws: ServerConnection, q: dict[str, str]) -> None:
        assert q["after"] == "4"
        for frame in (hello(6, 4), commit(4), commit(5), commit(7)):  # a repeat, then a gap
            await ws.send(frame)
        await ws.wait_closed()

    async def third(ws: ServerConnection, q: dict[str, str]) -> None:
        assert q["after"] == "5"
        for frame in (hello(8, 5), '{"type":"ping"}', commit(6), commit(7, 8, end=True)):
            await ws.send(frame)
        assert json.loads(await ws.recv()) == {"type": "pong"}
        await ws.wait_closed()

    queries: list[dict[str, str]] = []
    async with scripted([first, second, third], queries) as api:
        frames = [f async for f in api.follow("m", hellos=True, retry=FAST)]
    assert all(q["protocol"] == "2" for q in queries)
    commits = [f for f in frames if isinstance(f, models.CommitFrame)]
    assert [e.seq for c in commits for e in c.events] == [3, 4, 5, 6, 7, 8]
    assert [type(f).__name__ for f in frames].count("HelloFrame") == 3
    assert isinstance(commits[-1].events[-1].data, common.MatchEnded)  # and it stopped there


async def test_follow_reconnects_after_every_retryable_close() -> None:
    def closing(code: int) -> Script:
        async def script(ws: ServerConnection, q: dict[str, str]) -> None:
            await ws.send(hello(1, int(q.get("after", 1))))
            await ws.close(code, "again")

        return script

    async def last(ws: ServerConnection, q: dict[str, str]) -> None:
        await ws.send(hello(2, 1))
        await ws.send(commit(2, end=True))
        await ws.wait_closed()

    codes = [1001, 1011, 1012, 1013, 4008]
    queries: list[dict[str, str]] = []
    async with scripted([*map(closing, codes), last], queries) as api:
        # Two attempts only: the count is of failures in a row, and each hello starts it again.
        seqs = [c.seq async for c in api.follow("m", token="t", retry=Retry(attempts=2, backoff=0))]
    assert seqs == [2] and len(queries) == len(codes) + 1 and all("spectate" not in q for q in queries)


async def test_a_final_close_raises_the_error_of_its_frame() -> None:
    async def refused(ws: ServerConnection, q: dict[str, str]) -> None:
        error = {"code": "unauthorized", "message": "this token is not valid", "details": None}
        await ws.send(json.dumps({"type": "error", "id": None, "error": error}))
        await ws.close(4401, "unauthorized")

    async def gone(ws: ServerConnection, q: dict[str, str]) -> None:
        await ws.close(4404, "no such match")

    async def bad(ws: ServerConnection, q: dict[str, str]) -> None:
        await ws.close(4400, "bad request")

    for script, expected, code in (
        (refused, Unauthorized, None),
        (gone, StreamClosed, 4404),
        (bad, StreamClosed, 4400),
    ):
        async with scripted([script], []) as api:
            with pytest.raises(expected) as caught:
                [c async for c in api.follow("m", token="t", retry=FAST)]
        assert getattr(caught.value, "code", None) == (code or "unauthorized")
        assert code or caught.value.status == 401  # type: ignore[attr-defined]


async def test_rate_limited_waits_then_comes_back() -> None:
    async def limited(ws: ServerConnection, q: dict[str, str]) -> None:
        error = {"code": "rate_limited", "message": "slow down", "details": {"retry_after": 2}}
        await ws.send(json.dumps({"type": "error", "id": None, "error": error}))
        await ws.close(4429, "rate limited")

    async def fine(ws: ServerConnection, q: dict[str, str]) -> None:
        await ws.send(hello(1, 0))
        await ws.send(commit(1, end=True))
        await ws.wait_closed()

    async with scripted([limited, fine], []) as api:
        assert [c.seq async for c in api.follow("m", after=0, retry=FAST)] == [1]
        assert api.waits == [2.0]  # type: ignore[attr-defined]
    async with scripted([limited, limited, limited], []) as api:
        with pytest.raises(RateLimited):
            [c async for c in api.follow("m", after=0, retry=FAST)]


async def test_a_server_that_stays_away_ends_the_stream() -> None:
    async with scripted([], []) as api:
        api.base_url = "http://127.0.0.1:9"  # nothing listens there
        with pytest.raises(StreamClosed) as caught:
            [c async for c in api.follow("m", retry=FAST)]
    assert caught.value.code == 1006 and len(api.waits) == 2  # type: ignore[attr-defined]


async def test_follow_player_resumes_after_the_last_cursor() -> None:
    def player_hello(cursor: int, after: int) -> str:
        frame = {
            "type": "hello",
            "protocol": 2,
            "player_id": "p",
            "cursor": cursor,
            "after": after,
            "heartbeat": 20.0,
        }
        return json.dumps(frame)

    async def first(ws: ServerConnection, q: dict[str, str]) -> None:
        assert "after" not in q and ws.request is not None
        assert q["protocol"] == "2"
        assert ws.request.headers["Authorization"] == "Bearer pk_x"
        for frame in (player_hello(3, 3), notice(4), notice(5)):
            await ws.send(frame)
        await ws.close(1011, "internal error")

    async def second(ws: ServerConnection, q: dict[str, str]) -> None:
        assert q["after"] == "5"
        for frame in (player_hello(8, 5), notice(5), notice(7)):  # a repeat, then a gap
            await ws.send(frame)
        await ws.wait_closed()

    async def third(ws: ServerConnection, q: dict[str, str]) -> None:
        assert q["after"] == "5"
        for frame in (player_hello(8, 5), notice(6), notice(7), notice(8)):
            await ws.send(frame)
        await ws.close(1001)

    async def refused(ws: ServerConnection, q: dict[str, str]) -> None:
        await ws.close(4401, "rotated")

    async with scripted([first, second, third, refused], []) as api:
        seen: list[Any] = []
        with pytest.raises(StreamClosed):
            async for frame in api.follow_player("pk_x", retry=FAST):
                seen.append(frame.cursor)
    assert seen == [4, 5, 6, 7, 8]
