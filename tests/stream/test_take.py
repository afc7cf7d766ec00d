"""`MatchSession._take`, the hub's direct push: one frame per whole commit, whatever way the events
of commits are cut into pushes, and a commit it cannot frame now is left to the session's task."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from app.api.match_stream import MatchSession
from app.service.ports import StoredEvent
from app.service.streams import StreamCounters

AT = datetime(2026, 1, 1, tzinfo=UTC)


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

    def commit_frame(self, events: Sequence[StoredEvent], viewer: Any, view: Any = None) -> str:
        return ",".join(str(e.seq) for e in events) + ("" if view is None else f" {view}")

    def reissued(self, events: Sequence[StoredEvent]) -> frozenset[Any]:
        return frozenset()


def _session(views: bool = False, unknown: set[int] | None = None) -> tuple[MatchSession, list[str]]:
    sent: list[str] = []

    async def server_send(message: dict[str, Any]) -> None:
        sent.append(message["text"])

    session = MatchSession.__new__(MatchSession)
    session._outcome = asyncio.get_running_loop().create_future()
    session._counters = StreamCounters()
    session._server_send, session._wire = server_send, None
    session._frames = _Frames(unknown or set())  # type: ignore[assignment]
    session._pending, session._sending = [], None
    session.views, session.seat, session._by_token, session.cursor = views, 0, False, 0
    return session, sent


async def test_each_whole_commit_is_one_frame_however_the_pushes_cut_them() -> None:
    events = _events(2, 1, 3, 2)  # commits ending at 2, 3, 6, 8
    for cuts in ([8], [1, 8], [4, 5, 8], [2, 3, 6, 8], [3, 7, 8]):
        session, sent = _session()
        start = 0
        for end in cuts:
            assert session._take(events[start:end]) == end - start
            start = end
        assert sent == ["1,2", "3", "4,5,6", "7,8"], cuts
        assert session.cursor == 8 and session._counters.frames_sent == 4


async def test_a_commit_whose_view_needs_a_load_is_left_to_the_task() -> None:
    session, sent = _session(views=True, unknown={6})
    events = _events(2, 1, 3, 2)
    assert session._take(events) == 3  # the commits to 2 and 3 went; 4..8 go to the task's queue
    assert sent == ["1,2 view@2", "3 view@3"] and session._pending == [] and session.cursor == 3
    session, sent = _session(views=True, unknown={6})
    assert session._take(events[:4]) == 4  # 4 starts the commit to 6: kept
    assert session._take(events[4:]) == 0  # its end needs a load: the kept part stays pending
    assert sent == ["1,2 view@2", "3 view@3"] and [e.seq for e in session._pending] == [4]
