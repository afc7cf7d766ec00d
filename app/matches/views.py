"""Per-viewer envelopes: the only shapes in which match data leaves the service.

`view_for` encodes the game's typed `view` for one seat (or a spectator, `None`) and adds the
envelope fields (`match_id`, `game`, `seq`, `status`, `seat`, `to_act`, `legal_actions`,
`outcome`), which no game view contains. `redacted_events` passes each event through the game's
`redact` for the viewer and encodes it. `full_events` is unredacted and is for the reveal after the end.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from typing import Any

from app.games.codec import JSON, to_json
from app.games.core import Game, Seat
from app.matches.lifecycle import EventEnvelope, LoadedMatch, decode


def timestamp(at: datetime) -> str:
    """ISO 8601 in UTC with `Z`, as the HTTP API renders times (a naive time is taken as UTC)."""
    if at.tzinfo is None:
        at = at.replace(tzinfo=UTC)
    return at.astimezone(UTC).isoformat().replace("+00:00", "Z")


def legal_actions_json(match: LoadedMatch, seat: Seat | None) -> list[JSON]:
    """The seat's legal actions as JSON, empty unless it is that seat's decision."""
    if seat is None or seat not in match.to_act:
        return []
    return [to_json(a) for a in match.game.legal_actions(match.state, seat)]


def view_for(match: LoadedMatch, seat: Seat | None) -> dict[str, JSON]:
    """The viewer's view of `match` with the envelope; built once per (state, viewer)."""
    if seat is not None and not 0 <= seat < match.players:
        raise ValueError(f"no seat {seat} in a match of {match.players}")  # never index a hand by -1
    cached = match.views.get(seat)
    if cached is None:
        cached = match.views[seat] = _build_view(match, seat)
    return dict(cached)  # a shallow copy: callers may add to it without touching the memo


def _build_view(match: LoadedMatch, seat: Seat | None) -> dict[str, JSON]:
    view = to_json(match.game.view(match.state, seat))
    out: dict[str, JSON] = dict(view) if isinstance(view, dict) else {"view": view}
    outcome = match.outcome
    out.update(
        match_id=match.match_id,
        game=match.game.info.name,
        seq=match.seq,
        status=match.status,
        seat=seat,
        to_act=list(match.to_act),
        legal_actions=legal_actions_json(match, seat),
        outcome=None if outcome is None else outcome.to_json(),
    )
    return out


def redact_one(game: Game[Any, Any, Any], seq: int, event: Any, at: datetime, seat: Seat | None) -> JSON:
    data = to_json(game.redact(event, seat))
    return {"seq": seq, "type": event.TYPE, "data": data, "recorded_at": timestamp(at)}


def redacted_events(
    game: Game[Any, Any, Any], events: Iterable[EventEnvelope], seat: Seat | None
) -> list[JSON]:
    return [redact_one(game, e.seq, decode(game, e), e.recorded_at, seat) for e in events]


def full_events(events: Sequence[EventEnvelope]) -> list[JSON]:
    """Unredacted events, for the reveal of a finished match only."""
    return [
        {"seq": e.seq, "type": e.type, "data": dict(e.data), "recorded_at": timestamp(e.recorded_at)}
        for e in events
    ]
