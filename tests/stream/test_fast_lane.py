"""The stream fast lane (`app.api.fast_lane`): commit frames written as bytes serialized once per
text, the same bytes uvicorn would write, straight to the transport only when uvicorn's `send`
would write at once, and in order with the frames that go through `send` while the transport is
paused; and a loud failure when the uvicorn internals it reads change."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import connect
from websockets.protocol import State
from websockets.server import ServerProtocol

from app.api.fast_lane import UVICORN_INTERNALS, _DirectWire, text_frame, uvicorn_internals_problem
from app.api.match_stream import MatchSession
from app.api.streaming import Streaming
from app.main import create_app
from app.settings import Settings
from tests.api.conftest import TEST_SETTINGS, started
from tests.api.helpers import Table, new_table
from tests.stream.helpers import open_stream
from tests.stream.servers import in_this_loop
from tests.stream.test_protocol import recv_until, step

GUARD = 10.0


@contextlib.asynccontextmanager
async def _served() -> AsyncIterator[tuple[int, httpx.AsyncClient, Streaming]]:
    """The app under a real uvicorn (its sans-I/O WebSockets, no compression): its port, an HTTP
    client and its streaming edge (set when the lifespan starts)."""
    app = create_app(Settings(database_url="memory://", **TEST_SETTINGS))
    async with (
        in_this_loop(app, ws="websockets-sansio", ws_per_message_deflate=False) as port,
        httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}") as http,
    ):
        yield port, http, app.state.streaming


@pytest.fixture(autouse=True)
def fast_lane(monkeypatch: pytest.MonkeyPatch) -> bool:
    """The fast lane's own tests: with it on (the stream suite's other tests run both ways)."""
    monkeypatch.setenv("DRAGO_STREAM_FAST_LANE", "1")
    return True


@pytest.mark.parametrize("char", ["x", "é"])  # also non-ASCII: the length is the UTF-8 length
@pytest.mark.parametrize("size", [0, 1, 62, 63, 125, 126, 32_767, 32_768, 65_535, 65_536, 70_000])
def test_a_text_frame_is_what_the_websockets_protocol_writes(char: str, size: int) -> None:
    text = char * size  # ASCII sizes cross each length encoding's bounds (125/126, 65,535/65,536)
    server = ServerProtocol(state=State.OPEN)
    server.send_text(text.encode())
    assert text_frame(text) == b"".join(server.data_to_send())


def test_other_servers_send_as_usual() -> None:
    async def send(message: Any) -> None: ...

    assert _DirectWire.of(send) is None
    assert _DirectWire.of(object()) is None


async def _act(table: Table) -> int:
    """One legal action by the seat to act; the seq it committed."""
    seat = (await table.view(None))["to_act"][0]
    reply = await table.act(seat, (await table.view(seat))["legal_actions"][0])
    assert reply.status_code == 200, reply.text
    seq: int = reply.json()["seq"]
    return seq


async def _commits(ws: Any, until: int) -> list[dict[str, Any]]:
    frames: list[dict[str, Any]] = []
    while not frames or frames[-1]["seq"] < until:
        frame = json.loads(await asyncio.wait_for(ws.recv(), GUARD))
        if frame["type"] == "commit":
            frames.append(frame)
    return frames


async def test_spectators_get_the_same_frames_written_directly_and_in_order_under_back_pressure() -> None:
    async with _served() as (port, http, edge):
        table = await new_table(http, "mount_drago", 2)
        url = f"ws://127.0.0.1:{port}/v1/matches/{table.match_id}/stream?spectate=1"
        async with connect(url, compression=None) as a, connect(url, compression=None) as b:
            for ws in (a, b):
                assert json.loads(await ws.recv())["type"] == "hello"
            seq = await _act(table)
            first_a, first_b = await _commits(a, seq), await _commits(b, seq)
            assert first_a == first_b and first_a[-1]["seq"] == seq
            sessions = [s for s in edge.sessions if isinstance(s, MatchSession)]
            assert len(sessions) == 2 and all(
                s._lane is not None and s._lane.wire is not None for s in sessions
            )
            frames = sessions[0]._frames
            assert frames is not None and frames is sessions[1]._frames
            frame = frames._commits[seq].plain[None]  # the spectators' frame of that commit
            assert frame.encoded == text_frame(frame.text)  # went directly, serialized once for both

            # Back-pressure on one connection: its frames wait in `send`, and still come in order.
            lane = sessions[0]._lane
            assert lane is not None and lane.wire is not None
            paused = lane.wire._protocol
            paused.writable.clear()
            seqs = [await _act(table) for _ in range(3)]
            await asyncio.sleep(0.05)
            assert sessions[0]._sending is not None  # waiting for the transport
            paused.writable.set()
            got_a, got_b = await _commits(a, seqs[-1]), await _commits(b, seqs[-1])
            assert [f["seq"] for f in got_a] == [f["seq"] for f in got_b] == seqs
            assert got_a == got_b


async def test_the_uvicorn_internals_the_fast_lane_reads_are_still_there() -> None:
    """Fails when a uvicorn upgrade renames or drops what the direct write reads, with what to check."""
    async with _served() as (port, http, edge):
        table = await new_table(http, "yutaka", 2)
        url = f"ws://127.0.0.1:{port}/v1/matches/{table.match_id}/stream?spectate=1"
        async with connect(url, compression=None) as ws:
            assert json.loads(await ws.recv())["type"] == "hello"
            (session,) = [s for s in edge.sessions if isinstance(s, MatchSession)]
            protocol = getattr(session._server_send, "__self__", None)
            assert protocol is not None, (
                "uvicorn's WebSocket send is no longer a bound method of its protocol: the stream fast "
                "lane (app/api/fast_lane.py, _DirectWire.of) cannot find the connection; check "
                "uvicorn's websockets_sansio_impl and update it, or run with DRAGO_STREAM_FAST_LANE=0"
            )
            problem = uvicorn_internals_problem(protocol)
            assert problem is None, problem
            lane = session._lane
            assert lane is not None and lane.wire is not None, "the direct wire is not in use under uvicorn"


def test_changed_internals_are_named_and_the_lane_falls_back_to_send() -> None:
    class Changed:  # a uvicorn protocol object that lost an attribute the direct write reads
        def __init__(self) -> None:
            for name in UVICORN_INTERNALS:
                if name != "close_sent":
                    setattr(self, name, None)

    problem = uvicorn_internals_problem(Changed())
    assert problem is not None
    assert (
        "close_sent" in problem
        and "app/api/fast_lane.py" in problem
        and "DRAGO_STREAM_FAST_LANE=0" in problem
    )


async def test_switched_off_every_frame_goes_through_the_sessions_own_task() -> None:
    """`DRAGO_STREAM_FAST_LANE=0`: no lane, no direct push from the hub; the same commit frames."""
    frames: dict[bool, list[Any]] = {}
    for on in (True, False):
        async with started("memory://", stream_fast_lane=on) as (app, client):
            edge: Streaming = app.state.streaming
            table = await new_table(client, "mount_drago", 2, seed="lane")
            async with open_stream(app, table.match_id, spectate=True) as ws:
                assert (await ws.recv())["type"] == "hello"
                (session,) = [s for s in edge.sessions if isinstance(s, MatchSession)]
                assert (session._lane is not None) is on
                rng = random.Random(2)
                for _ in range(4):
                    seq = await step(table, rng)
                got = await recv_until(ws, seq)
            frames[on] = [[(e["seq"], e["type"], e["data"]) for e in f["events"]] for f in got]
    assert frames[True] == frames[False]


async def test_an_action_over_the_stream_leaves_with_its_commit_frame_in_one_write() -> None:
    """The acting seat's commit frame and its `ack` reach the transport together (commit first)."""
    async with _served() as (port, http, edge):
        table = await new_table(http, "mount_drago", 2)
        seat = (await table.view(None))["to_act"][0]
        legal = (await table.view(seat))["legal_actions"]
        url = f"ws://127.0.0.1:{port}/v1/matches/{table.match_id}/stream"
        auth = {"Authorization": f"Bearer {table.tokens[seat]}"}
        async with connect(url, compression=None, additional_headers=auth) as ws:
            assert json.loads(await ws.recv())["type"] == "hello"
            (session,) = [s for s in edge.sessions if isinstance(s, MatchSession)]
            lane = session._lane
            assert lane is not None and lane.wire is not None
            written: list[bytes] = []
            write = lane.wire._write

            def recorded(data: bytes) -> None:
                written.append(data)
                write(data)

            lane.wire._write = recorded
            await ws.send(json.dumps({"type": "action", "id": "a1", "action": legal[0]}))
            frames: list[dict[str, Any]] = []
            while len(frames) < 2:
                frames.append(json.loads(await asyncio.wait_for(ws.recv(), GUARD)))
            assert [f["type"] for f in frames] == ["commit", "ack"], frames
            assert frames[1] == {"type": "ack", "id": "a1", "seq": frames[0]["seq"]}
            assert len(written) == 1, written  # one write: the commit's frame, then the ack
            assert written[0].endswith(text_frame(json.dumps(frames[1], separators=(",", ":"))))
            assert not lane.holding


class _Wire:
    """A direct wire that records what is written, ready or not as the test says."""

    def __init__(self) -> None:
        self.ready_now = True
        self.written: list[bytes] = []

    def ready(self) -> bool:
        return self.ready_now

    def write(self, data: bytes) -> bool:
        if self.ready_now:
            self.written.append(data)
        return self.ready_now

    def write_held(self, data: bytes) -> None:
        self.written.append(data)


def _holding(lane: Any) -> bool:
    return bool(lane.holding)  # read afresh each time (not narrowed as an attribute)


def _acked(lane: Any) -> bool:
    return bool(lane.acked)


def _frame(seq: int) -> Any:
    from app.service.streams import ViewerFrame

    return ViewerFrame(seq, json.dumps({"type": "commit", "seq": seq}), False)


async def test_held_frames_go_out_first_and_together() -> None:
    from app.api.fast_lane import FastLane

    lane = FastLane(object())
    wire = _Wire()
    lane.wire = wire  # type: ignore[assignment]
    sent: list[str] = []

    async def send_text(text: str) -> None:
        sent.append(text)

    lane.hold()
    assert lane.send_soon(_frame(1), send_text) is None and lane.send_soon(_frame(2), send_text) is None
    assert wire.written == [] and _holding(lane)
    assert lane.flush("ack")
    assert wire.written == [text_frame(_frame(1).text) + text_frame(_frame(2).text) + text_frame("ack")]
    assert not _holding(lane)

    # Not writable any more while holding: what is held goes first, the new frame the usual way.
    wire.written.clear()
    lane.hold()
    lane.send_soon(_frame(3), send_text)
    wire.ready_now = False
    assert lane.send_soon(_frame(4), send_text) is None  # the send coroutine finished at once
    assert wire.written == [text_frame(_frame(3).text)] and sent == [_frame(4).text]
    assert lane.flush("ack") is False and not _holding(lane)  # the caller sends the ack itself


async def test_an_ack_goes_out_the_moment_its_commits_frame_is_held() -> None:
    """`ack_with`: the acting seat's ack leaves with its commit's frame when that frame comes, not
    after the other viewers' frames; frames of earlier commits wait with it."""
    from app.api.fast_lane import FastLane

    lane = FastLane(object())
    wire = _Wire()
    lane.wire = wire  # type: ignore[assignment]

    async def send_text(text: str) -> None:
        raise AssertionError("everything here goes through the wire")

    lane.hold()
    lane.ack_with(3, "ack")
    assert not _acked(lane)
    assert lane.send_soon(_frame(2), send_text) is None  # an earlier commit's: held
    assert wire.written == [] and _holding(lane)
    assert lane.send_soon(_frame(3), send_text) is None  # the acted commit's: out, with the ack
    assert wire.written == [text_frame(_frame(2).text) + text_frame(_frame(3).text) + text_frame("ack")]
    assert _acked(lane) and not _holding(lane)
    assert lane.flush() is False and len(wire.written) == 1  # nothing left to write
    assert lane.send_soon(_frame(4), send_text) is None and wire.written[-1] == text_frame(_frame(4).text)

    # The next action starts afresh; its commit's frame never comes through the lane: the caller
    # flushes with the ack, as before.
    wire.written.clear()
    lane.hold()
    assert not _acked(lane)
    lane.ack_with(5, "ack 5")
    assert lane.flush("ack 5") and wire.written == [text_frame("ack 5")] and not _acked(lane)

    # Not holding (no direct wire, or no action under way): `ack_with` keeps nothing.
    lane.ack_with(6, "ack 6")
    assert lane.send_soon(_frame(6), send_text) is None
    assert wire.written[-1] == text_frame(_frame(6).text) and not _acked(lane)
