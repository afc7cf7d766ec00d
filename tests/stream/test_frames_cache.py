"""`MatchFrames` works a commit out once for all its connections: which seats it reissued."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, cast

from app.service.ports import StoredEvent
from app.service.streams import MatchFrames, StreamCounters

AT = datetime(2026, 1, 1, tzinfo=UTC)


def _commit(first: int, *events: tuple[str, dict[str, Any]]) -> list[StoredEvent]:
    last = first + len(events) - 1
    return [StoredEvent("m", first + i, t, d, AT, last) for i, (t, d) in enumerate(events)]


def test_a_commit_names_the_seats_whose_token_it_reissued() -> None:
    frames = MatchFrames("m", cast(Any, None), cast(Any, None), StreamCounters())
    plain = _commit(1, ("card_played", {"seat": 0}), ("turn_ended", {"seat": 0}))
    reissue = _commit(3, ("seat_token_reissued", {"seat": 1}), ("seat_token_reissued", {"seat": 3}))
    assert frames.reissued(plain) == frozenset()  # a `seat` in another event is no reissue
    assert frames.reissued(reissue) == {1, 3}
    assert frames.reissued(plain) == frozenset()  # an older commit, still known
    assert frames.reissued(reissue) is frames.reissued(reissue)  # worked out once


async def test_closing_lets_go_of_the_commits_and_the_state() -> None:
    """After the last connection, nothing of the match stays reachable from its frames (a closed
    connection's objects may wait in reference cycles for the collector; the frames must not)."""
    frames = MatchFrames("m", cast(Any, None), cast(Any, None), StreamCounters())
    frames.reissued(_commit(1, ("seat_token_reissued", {"seat": 1})))
    frames.state = cast(Any, object())
    await frames.close()
    assert frames.state is None
    assert frames.reissued(_commit(1, ("card_played", {"seat": 0}))) == frozenset()  # worked out anew
