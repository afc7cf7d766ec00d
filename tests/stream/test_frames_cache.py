"""`MatchFrames` works a commit out once for all its connections: one frame per viewer (and with or
without the view), shared by all that viewer's connections, knowing whether it reissued the
viewer's seat token."""

from __future__ import annotations

from datetime import UTC, datetime
from types import SimpleNamespace
from typing import Any, cast

from app.api.frame_text import commit_frame
from app.games.registry import get_game
from app.service.ports import StoredEvent
from app.service.streams import MatchFrames, StreamCounters

AT = datetime(2026, 1, 1, tzinfo=UTC)


def _commit(first: int, *events: tuple[str, dict[str, Any]]) -> list[StoredEvent]:
    last = first + len(events) - 1
    return [StoredEvent("m", first + i, t, d, AT, last) for i, (t, d) in enumerate(events)]


def _frames() -> MatchFrames:
    loader = SimpleNamespace(cached=lambda match_id: None)  # no state in this process
    game = get_game("mount_drago")
    assert game is not None
    return MatchFrames("m", game, cast(Any, loader), StreamCounters(), commit_frame)


def test_a_viewers_frame_is_built_once_and_knows_whether_it_reissued_the_viewers_token() -> None:
    frames = _frames()
    resigned = _commit(1, ("seat_resigned", {"seat": 1}))  # a `seat` in another event is no reissue
    reissue = _commit(2, ("seat_token_reissued", {"seat": 1}), ("seat_token_reissued", {"seat": 3}))
    for viewer in (None, 0, 1, 2, 3):
        assert not frames.commit_frame(resigned, viewer).reissues
        frame = frames.commit_frame(reissue, viewer)
        assert frame.reissues == (viewer in (1, 3)) and frame.seq == 3
        assert frames.commit_frame(reissue, viewer) is frame  # the same object for each connection
        assert frame.text.startswith('{"type":"commit","seq":3,"events":[{"seq":2,')
    assert frames.commit_frame(resigned, 1).seq == 1  # an older commit, still known
    assert frames._counters.frames_built == 10 and frames._counters.frame_hits == 6


async def test_closing_lets_go_of_the_commits_and_the_state() -> None:
    """After the last connection, nothing of the match stays reachable from its frames (a closed
    connection's objects may wait in reference cycles for the collector; the frames must not)."""
    frames = _frames()
    first = frames.commit_frame(_commit(1, ("seat_token_reissued", {"seat": 1})), 1)
    frames.state = cast(Any, object())
    await frames.close()
    assert frames.state is None
    again = frames.commit_frame(_commit(1, ("seat_resigned", {"seat": 0})), 1)
    assert again is not first and not again.reissues  # worked out anew
