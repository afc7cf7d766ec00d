"""Resuming with `after`, slow consumers (4008), going away (1001) and the shared frame cache."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest

from app.api.closes import Close
from app.matches import views
from app.service import acting
from app.service import streams as streams_module
from app.service.streams import Streams
from tests.api.conftest import started
from tests.api.helpers import new_table
from tests.stream.asgi import Closed
from tests.stream.conftest import Live
from tests.stream.helpers import Reader, open_stream
from tests.stream.test_protocol import recv_until, step


async def test_a_reconnect_with_after_gets_exactly_the_missed_events(live: Live) -> None:
    app, client = live
    table = await new_table(client, "mount_drago", 3, seed="resume")
    rng = random.Random(4)
    received: list[int] = []
    events = []
    last = 0
    for away in range(4):  # act while away, come back with after = last seq seen, stream, drop
        for _ in range(3 * away):
            await step(table, rng)
        async with open_stream(app, table.match_id, token=table.tokens[1], after=last) as ws:
            hello = await ws.recv()
            assert hello["after"] == last
            target = hello["seq"]
            for _ in range(2):
                target = await step(table, rng)
            while last < target:
                frame = await ws.recv()
                if frame["type"] == "commit":
                    received.extend(e["seq"] for e in frame["events"])
                    events.extend(frame["events"])
                    last = frame["seq"]
    assert received == list(range(1, last + 1))
    assert events == await table.events(1, limit=1000)


async def test_a_slow_consumer_is_cut_off_with_4008_and_resumes_without_loss() -> None:
    async with started("memory://", stream_queue_limit=2) as live:
        app, client = live
        table = await new_table(client, "yutaka", 2, seed="slow")
        rng = random.Random(5)
        async with open_stream(app, table.match_id, spectate=True) as ws:
            hello = await ws.recv()
            ws.gate.clear()  # the client stops reading: the server's next send blocks
            while (await table.summary())["seq"] < hello["seq"] + 6:  # > queue limit + 1 behind
                await step(table, rng)
                await asyncio.sleep(0)  # the hub pushes a commit once its committer yields
            ws.gate.set()  # the blocked frame goes out, then the stream ends
            frames = []
            closed: Closed | None = None
            try:
                while True:
                    frames.append(await ws.recv())
            except Closed as e:
                closed = e
        assert closed is not None and closed.code == Close.SLOW_CONSUMER, closed
        assert "after=" in closed.reason
        seen = [e["seq"] for f in frames if f["type"] == "commit" for e in f["events"]]
        assert seen == list(range(hello["seq"] + 1, hello["seq"] + 1 + len(seen)))
        last = seen[-1] if seen else hello["seq"]
        head = (await table.summary())["seq"]
        async with open_stream(app, table.match_id, spectate=True, after=last) as ws:
            assert (await ws.recv())["type"] == "hello"
            rest: list[int] = []
            while not rest or rest[-1] < head:
                rest.extend(e["seq"] for e in (await ws.recv())["events"])
        assert rest == list(range(last + 1, head + 1))
        text = (await client.get("/metrics")).text
        assert "drago_live_slow_consumers_total 1.0" in text
        assert 'drago_stream_closes_total{code="4008"} 1.0' in text


async def test_the_end_of_the_app_closes_streams_with_going_away() -> None:
    async with started("memory://") as live:
        app, client = live
        table = await new_table(client, "mount_drago", 2, seed="bye")
        waiting = open_stream(app, table.match_id)  # still in the handshake (no auth frame yet)
        streaming = open_stream(app, table.match_id, token=table.tokens[0])
        await waiting.__aenter__()
        await streaming.__aenter__()
        assert (await streaming.recv())["type"] == "hello"
    try:
        assert (await waiting.closed()).code == Close.GOING_AWAY
        assert (await streaming.closed()).code == Close.GOING_AWAY
    finally:
        await waiting.close()
        await streaming.close()


async def test_each_frame_is_built_once_per_viewer_however_many_connections(live: Live) -> None:
    app, client = live
    table = await new_table(client, "mount_drago", 2, seed="cache")
    rng = random.Random(6)
    for _ in range(5):
        await step(table, rng)
    streams: Streams = app.state.streaming.streams
    counters = streams.counters
    built = counters.frames_built
    sockets = [open_stream(app, table.match_id, token=table.tokens[0], after=0) for _ in range(4)]
    sockets += [open_stream(app, table.match_id, spectate=True, after=0) for _ in range(6)]
    for ws in sockets:
        await ws.__aenter__()
    readers = [Reader(ws) for ws in sockets]
    try:
        final = await step(table, rng)
        final = await step(table, rng)
        for reader in readers:
            await reader.wait_for_seq(final)
        # Two viewers (seat 0, spectator): each commit's frame serialized once per viewer, whatever
        # the number of connections (four and six); the others are served from the cache.
        commits = len({e["commit"] for e in await table.events(None)})
        assert counters.frames_built - built == 2 * commits
        assert counters.frame_hits >= 8 * commits
    finally:
        for reader in readers:
            await reader.stop()


@pytest.mark.parametrize("with_views", [False, True])
async def test_the_actors_reply_and_its_frame_share_the_redacted_events(
    live: Live, monkeypatch: pytest.MonkeyPatch, with_views: bool
) -> None:
    """Each event of a commit is redacted once per viewer: the actor's reply and the actor's own
    stream frame carry the same records, built once."""
    app, client = live
    table = await new_table(client, "mount_drago", 2, seed="share")
    rng = random.Random(8)
    await step(table, rng)
    redacted: list[tuple[int, Any]] = []
    original = views.record_of

    def counting(game: Any, stored: Any, seat: Any, *decoded: Any) -> views.EventRecord:
        redacted.append((stored.seq, seat))
        return original(game, stored, seat, *decoded)

    for module in (views, acting, streams_module):  # and any module that imports it by name
        monkeypatch.setattr(module, "record_of", counting, raising=module is views)
    seat = (await table.summary())["to_act"][0]
    action = rng.choice((await table.view(seat))["legal_actions"])
    sockets = [open_stream(app, table.match_id, token=table.tokens[s], views=with_views) for s in (0, 1)]
    for ws in sockets:
        await ws.__aenter__()
    try:
        for ws in sockets:
            assert (await ws.recv())["type"] == "hello"
        reply = await table.act(seat, action)
        assert reply.status_code == 200, reply.text
        seq = reply.json()["seq"]
        frames = [(await recv_until(ws, seq))[-1] for ws in sockets]
    finally:
        for ws in sockets:
            await ws.__aexit__(None, None, None)
    events = reply.json()["events"]
    assert frames[seat]["events"] == events
    assert sorted(redacted) == sorted((e["seq"], s) for e in events for s in (0, 1))
