"""A match as the service sees it: the game, the folded state, the last `seq`, the status.

Stored events arrive as envelopes (`seq`, `type`, `data`, `recorded_at`); `fold` decodes them with
the game's codec and evolves the state. The status is derived, never stored as truth: a match is
`waiting` until its last seat is filled, `active` while the game has no outcome, then `finished`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal, Protocol

from app.games.codec import JSON
from app.games.core import Game, Outcome, Seat, decode_event

Status = Literal["waiting", "active", "finished"]


class EventEnvelope(Protocol):
    """What a stored event looks like to this layer (`app.service.ports.StoredEvent` fits)."""

    @property
    def seq(self) -> int: ...

    @property
    def type(self) -> str: ...

    @property
    def data(self) -> Mapping[str, JSON]: ...

    @property
    def recorded_at(self) -> datetime: ...


@dataclass(frozen=True, slots=True)
class LoadedMatch:
    """One match folded up to `seq`; `seated` is true once every seat has a player or a bot."""

    match_id: str
    game: Game[Any, Any, Any]
    state: Any
    seq: int
    players: int
    seated: bool
    # Views of this very state, per viewer, built once (`app.matches.views.view_for`): the reply to
    # an action and the live frames of the same seat share one. Not copied by `dataclasses.replace`.
    views: dict[Seat | None, dict[str, JSON]] = dataclasses.field(
        default_factory=dict, init=False, compare=False, repr=False
    )

    @property
    def outcome(self) -> Outcome | None:
        return self.game.outcome(self.state)

    @property
    def status(self) -> Status:
        return status_of(self.game, self.state, self.seated)

    @property
    def to_act(self) -> tuple[Seat, ...]:
        """Seats whose decision it is; none before the match starts or after it ends."""
        if self.status != "active":
            return ()
        return tuple(self.game.to_act(self.state))


@dataclass(frozen=True, slots=True)
class Projection:
    """What the listing table shows of a match (the service turns it into a `MatchUpdate`)."""

    status: Status
    to_act: tuple[Seat, ...]
    scores: tuple[int, ...] | None = None
    winners: tuple[Seat, ...] | None = None


def status_of(game: Game[Any, Any, Any], state: Any, seated: bool) -> Status:
    if game.outcome(state) is not None:
        return "finished"
    return "active" if seated else "waiting"


def decode(game: Game[Any, Any, Any], stored: EventEnvelope) -> Any:
    """Decode one stored event; the envelope's `type` is authoritative for the tag."""
    return decode_event(game, {**stored.data, "type": stored.type})


def fold(
    match_id: str,
    game: Game[Any, Any, Any],
    players: int,
    events: Sequence[EventEnvelope],
    seated: bool,
    base: LoadedMatch | None = None,
) -> LoadedMatch:
    """Fold `events` (seq-ordered, gap-free) onto `base`, or from the deal when `base` is None."""
    state = base.state if base is not None else None
    seq = base.seq if base is not None else 0
    for stored in events:
        if stored.seq != seq + 1:
            raise ValueError(f"match {match_id}: event seq {stored.seq} follows {seq}")
        event = decode(game, stored)
        state = game.initial_state(event) if seq == 0 else game.evolve(state, event)
        seq = stored.seq
    if seq == 0:
        raise ValueError(f"match {match_id} has no events")
    return LoadedMatch(match_id, game, state, seq, players, seated)


def advance(match: LoadedMatch, events: Sequence[Any]) -> LoadedMatch:
    """The match after appending decoded `events` (one seq each)."""
    state = match.state
    for event in events:
        state = match.game.evolve(state, event)
    return dataclasses.replace(match, state=state, seq=match.seq + len(events))


def project(match: LoadedMatch) -> Projection:
    outcome = match.outcome
    if outcome is None:
        return Projection(match.status, match.to_act)
    return Projection("finished", (), tuple(outcome.scores), tuple(outcome.winners))
