"""`MatchSession.take`, the hub's direct push: one frame per whole commit, whatever way the events
of commits are cut into pushes, and a commit it cannot frame now is left to the session's task."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from datetime import UTC, datetime
from types import SimpleNamespace
from typing import Any

import pytest
from websockets.protocol import State

from app.api.fast_lane import FastLane, _DirectWire, text_frame
from app.api.match_stream import MatchSession
from app.service.ports import StoredEvent
from app.service.streams import StreamCounters, ViewerFrame

AT = datetime(2026, 1, 1, tzinfo=UTC)


@pytest.fixture(autouse=True)
def fast_lane() -> bool:
    """The fast lane's own unit tests: once (the stream suite's other tests run both ways)."""
    return True


def _events(*sizes: int) -> list[StoredEvent]:
    """Consecutive commits of these sizes, from seq 1."""
    out: list[StoredEvent] = []
    for size in sizes:
        last = len(out) + size
        out += [StoredEvent("m", seq, "step", {}, AT, last) for seq in range(len(out) + 1, last + 1)]
    return out


class _Frames:
    """The part of `MatchFrames` the push uses; the view at a seq is known unless listed."""

    def __init__(self, unknown: set[int]) -> None:
        self.unknown = unknown

    def at_once(self, seq: int) -> tuple[bool, Any]:
        return (False, None) if seq in self.unknown else (True, f"view@{seq}")

    def commit_frame(self, events: Sequence[StoredEvent], viewer: Any, view: Any = None) -> ViewerFrame:
        text = ",".join(str(e.seq) for e in events) + ("" if view is None else f" {view}")
        return ViewerFrame(events[-1].seq, text, reissues=False)


def _session(views: bool = False, unknown: set[int] | None = None) -> tuple[MatchSession, list[str]]:
    sent: list[str] = []

    async def server_send(message: dict[str, Any]) -> None:
        sent.append(message["text"])

    session = MatchSession.__new__(MatchSession)
    session._outcome = asyncio.get_running_loop().create_future()
    session._counters = StreamCounters()
    session._server_send = server_send
    session._lane = FastLane(server_send)  # no direct wire: not uvicorn
    session._frames = _Frames(unknown or set())  # type: ignore[assignment]
    session._pending, session._sending, session._chat = [], None, None
    session.views, session.seat, session._by_token, session.cursor = views, 0, False, 0
    return session, sent


async def test_each_whole_commit_is_one_frame_however_the_pushes_cut_them() -> None:
    events = _events(2, 1, 3, 2)  # commits ending at 2, 3, 6, 8
    for cuts in ([8], [1, 8], [4, 5, 8], [2, 3, 6, 8], [3, 7, 8]):
        session, sent = _session()
        start = 0
        for end in cuts:
            assert session.take(events[start:end]) == end - start
            start = end
        assert sent == ["1,2", "3", "4,5,6", "7,8"], cuts
        assert session.cursor == 8 and session._counters.frames_sent == 4


async def test_a_commit_whose_view_needs_a_load_is_left_to_the_task() -> None:
    session, sent = _session(views=True, unknown={6})
    events = _events(2, 1, 3, 2)
    assert session.take(events) == 3  # the commits to 2 and 3 went; 4..8 go to the task's queue
    assert sent == ["1,2 view@2", "3 view@3"] and session._pending == [] and session.cursor == 3
    session, sent = _session(views=True, unknown={6})
    assert session.take(events[:4]) == 4  # 4 starts the commit to 6: kept
    assert session.take(events[4:]) == 0  # its end needs a load: the kept part stays pending
    assert sent == ["1,2 view@2", "3 view@3"] and [e.seq for e in session._pending] == [4]


class _Protocol:
    """What `_DirectWire` reads of uvicorn's protocol: an open connection, its writes recorded."""

    def __init__(self) -> None:
        self.writable = asyncio.Event()
        self.writable.set()
        self.disconnected = self.close_sent = False
        self.initial_response = None
        self.conn = SimpleNamespace(state=State.OPEN, expect_continuation_frame=False)
        self.written: list[bytes] = []
        self.transport = SimpleNamespace(write=self.written.append)


class _SharedFrames(_Frames):
    """Frames built once per commit and shared, as `MatchFrames` does; the commit to 4 reissues."""

    def __init__(self) -> None:
        super().__init__(set())
        self.built: dict[int, ViewerFrame] = {}

    def commit_frame(self, events: Sequence[StoredEvent], viewer: Any, view: Any = None) -> ViewerFrame:
        seq = events[-1].seq
        if seq not in self.built:
            self.built[seq] = ViewerFrame(
                seq, super().commit_frame(events, viewer, view).text, reissues=seq == 4
            )
        return self.built[seq]


async def test_a_frame_is_written_directly_as_the_same_bytes_to_every_connection() -> None:
    frames, protocols, sessions, sends = _SharedFrames(), [], [], []
    for by_token in (True, False):
        session, sent = _session()
        sends.append(sent)
        protocol = _Protocol()
        assert session._lane is not None
        session._lane.wire = _DirectWire(protocol)
        session._frames, session._by_token = frames, by_token  # type: ignore[assignment]
        protocols.append(protocol)
        sessions.append(session)
    events = _events(2, 2)  # commits ending at 2 and at 4 (which reissues the seat's token)
    for session in sessions:
        assert session.take(events[:2]) == 2
    a, b = (p.written for p in protocols)
    assert a == b == [text_frame("1,2")] and a[0] is b[0] and frames.built[2].encoded is a[0]
    for session in sessions:
        assert session.take(events[2:]) == 2
    assert len(a) == len(b) == 2 and a[1] is b[1] and sends == [[], []]  # none went through `send`
    assert sessions[0].ended() and not sessions[1].ended()  # the token session closes, not the other
    assert sessions[0].cursor == sessions[1].cursor == 4
