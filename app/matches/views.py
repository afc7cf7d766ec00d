"""Per-viewer output: the only shapes in which match data leaves the service.

`view_of(match, seat)` is the viewer's view: the game's typed view of the state that viewer sees
(its own open draft applied) inside the match envelope, which alone owns `match_id`, `game`, `seq`,
`status`, `seat`, `to_act`, `legal_actions`, `outcome`, `clock` and `draft` (a game's view never
has these members). `record_of` redacts one stored event for a viewer (`records_of` several): game
events through the game's `redact`, match-level ones through `app.matches.events.redact` (a draft
reaches its own seat only); `commit_records` does it for the commit that made the state. All are
pure: the service keeps them once per state and viewer (`app.service.cache.Renderings`), so the
actor's reply and its stream frame share them. `full_record` is unredacted and
is for the reveal after the end.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import cached_property, lru_cache
from typing import Any, Final, cast

import orjson

from app.games.codec import JSON, to_json
from app.games.core import AnyGame, Seat, decode_event
from app.games.frozen import constructor
from app.matches import events as match_events
from app.matches.decide import FINISH_TURN, UNDO
from app.matches.fold import EventEnvelope, Match, Status, decode
from app.matches.settings import Bank

ENVELOPE_FIELDS: Final = (
    "match_id", "game", "seq", "status", "seat", "to_act", "legal_actions", "outcome", "clock", "draft"
)  # fmt: skip
ENVELOPE_MEMBERS: Final = frozenset(ENVELOPE_FIELDS)
"""Members of a view that the envelope owns; a game's view must not have any of them."""

_UNDO: Final = {"type": UNDO}
_FINISH: Final = {"type": FINISH_TURN}


@lru_cache(maxsize=4096)  # the events of a commit share their time, rendered for every viewer
def timestamp(at: datetime) -> str:
    """ISO 8601 in UTC with `Z`, as the HTTP API renders times (a naive time is taken as UTC)."""
    if at.tzinfo is None:
        at = at.replace(tzinfo=UTC)
    return at.astimezone(UTC).isoformat().replace("+00:00", "Z")


@dataclass(frozen=True, slots=True)
class SeatClock:
    """A seat to act and when its time runs out (`bank_s`: its bank when the clock is a bank)."""

    seat: int
    deadline: str
    bank_s: float | None = None


@dataclass(frozen=True, slots=True)
class DraftInfo:
    """The viewer's own open turn draft (`undo` / `finish_turn` are in its legal actions)."""

    steps: int
    can_finish: bool


@dataclass(frozen=True, slots=True)
class MatchOutcome:
    """How the match ended; `scores` and `details` come from the game when it was played out."""

    reason: str
    winners: tuple[int, ...]
    scores: tuple[int, ...] | None
    details: Mapping[str, JSON]


@dataclass(frozen=True, slots=True)
class EventRecord:
    """One event as a viewer receives it; `commit` is the seq of the last event of its commit."""

    seq: int
    type: str
    data: Mapping[str, JSON]
    recorded_at: datetime
    commit: int

    def to_json(self) -> dict[str, JSON]:
        return {
            "seq": self.seq,
            "type": self.type,
            "data": self.data,
            "recorded_at": timestamp(self.recorded_at),
            "commit": self.commit,
        }


_event_record = constructor(EventRecord)  # `EventRecord(…)` with every field in order: per event and viewer


def legal_actions(match: Match, seat: Seat | None) -> list[JSON]:
    """The viewer's legal actions as JSON (empty unless it is that seat's decision); with drafts
    the game's end of turn is offered as `finish_turn`, and `undo` while the draft has steps."""
    if seat is None or seat not in match.to_act:
        return []
    game = match.game
    state = match.state_for(seat)
    actions = game.legal_actions(state, seat)
    draft = match.draft if match.draft is not None and match.draft.seat == seat else None
    if not match.settings.drafts or draft is None or match.bot_plays(seat):
        return [to_json(a) for a in actions]
    finish = game.finish_action(state, draft.seat)
    out = [to_json(a) for a in actions if a != finish]
    out.append(dict(_UNDO))
    if finish is not None:
        out.append(dict(_FINISH))
    return out


def outcome_of(match: Match) -> MatchOutcome | None:
    end = match.end
    if end is None:
        return None
    played = match.game.outcome(match.state) if match.state is not None else None
    details = dict(played.details) if played is not None else {}
    return MatchOutcome(end.reason, end.winners, end.scores, details)


def clocks(match: Match) -> list[SeatClock]:
    bank = isinstance(match.settings.clock, Bank)
    return [
        SeatClock(seat, timestamp(at), round(match.banks[seat], 3) if bank else None)
        for seat, at in sorted(match.deadlines().items())
    ]


@dataclass(frozen=True)
class View:
    """The viewer's view: the match envelope around `state`, the game's typed view of the state the
    viewer sees (its own draft applied). `to_json()` puts them side by side in one object."""

    match_id: str
    game: str
    seq: int
    status: Status
    seat: int | None
    to_act: tuple[int, ...]
    legal_actions: tuple[Mapping[str, JSON], ...]
    outcome: MatchOutcome | None
    clock: tuple[SeatClock, ...]
    draft: DraftInfo | None
    state: Any

    def to_json(self) -> dict[str, JSON]:
        """The view as one JSON object (built afresh at each call: the server sends `json_bytes`):
        the game's view, then the envelope's members in `ENVELOPE_FIELDS` order. Each member is
        written as its type encodes: `legal_actions` are JSON already (`legal_actions`), so they
        are not walked again (two views per action: that walk and the generic envelope were a third
        of a view's encoding)."""
        game_view = {} if self.state is None else to_json(self.state)  # not dealt yet: the envelope
        out = (
            dict(game_view)  # a copy: an encoder may share what it returns
            if ENVELOPE_MEMBERS.isdisjoint(game_view)
            else {k: v for k, v in game_view.items() if k not in ENVELOPE_MEMBERS}
        )
        out["match_id"] = self.match_id
        out["game"] = self.game
        out["seq"] = self.seq
        out["status"] = self.status
        out["seat"] = self.seat
        out["to_act"] = list(self.to_act)
        out["legal_actions"] = list(self.legal_actions)
        out["outcome"] = None if self.outcome is None else to_json(self.outcome)
        out["clock"] = [to_json(c) for c in self.clock]
        out["draft"] = None if self.draft is None else to_json(self.draft)
        return out

    def json_bytes(self) -> bytes:
        """`to_json()` as compact JSON text (orjson), encoded once per view: the actor's reply and
        its stream frame embed the same bytes (`orjson.Fragment`) instead of encoding it twice.
        Only the bytes are kept: the object goes as soon as it is encoded."""
        return self._bytes

    @cached_property
    def _bytes(self) -> bytes:
        return orjson.dumps(self.to_json())


def view_of(match: Match, seat: Seat | None) -> View:
    """The viewer's view of `match` (the service keeps one per state and viewer: `Renderings`)."""
    if seat is not None and not 0 <= seat < match.players:
        raise ValueError(f"no seat {seat} in a match of {match.players}")  # never index a hand by -1
    draft = match.draft if match.draft is not None and match.draft.seat == seat else None
    info = None
    if draft is not None:
        info = DraftInfo(len(draft.steps), match.game.finish_action(draft.state, draft.seat) is not None)
    return View(
        match_id=match.match_id,
        game=match.game.info.name,
        seq=match.seq,
        status=match.status,
        seat=seat,
        to_act=match.to_act,
        legal_actions=tuple(legal_actions(match, seat)),
        outcome=outcome_of(match),
        clock=tuple(clocks(match)),
        draft=info,
        state=None if match.state is None else match.game.view(match.state_for(seat), seat),
    )


def redact(
    match_game: AnyGame, event: object, seat: Seat | None, step_events: Sequence[object] | None = None
) -> object:
    """What `seat` may see of a decoded event (game or match-level); `step_events`: the game events
    of a `draft_step`, if decoded already."""
    if type(event) in _MATCH_TYPES:  # an exact type test: cheaper than `isinstance` of the union
        seen = match_events.redact(cast(match_events.MatchEvent, event), seat)
        if isinstance(seen, match_events.DraftStep):  # the seat's own draft: its game events, redacted
            if step_events is None or len(step_events) != len(seen.events):
                step_events = [_decode_game(match_game, e) for e in seen.events]
            inner = tuple(to_json(match_game.redact(e, seat)) for e in step_events)
            return match_events.DraftStep(seen.seat, seen.action, inner)
        return seen
    return match_game.redact(event, seat)


def record_of(
    match_game: AnyGame,
    stored: EventEnvelope,
    seat: Seat | None,
    decoded: object = None,
    step_events: Sequence[object] | None = None,
) -> EventRecord:
    """One stored event redacted for the viewer (`decoded`: the event, if decoded already;
    `step_events`: a `draft_step`'s game events, if decoded already)."""
    event = decode(match_game, stored) if decoded is None else decoded
    seen = redact(match_game, event, seat, step_events)
    # An event this process committed carries the object its JSON was made from (`decoded` of
    # `app.service.ports.StoredEvent`): shown as it is, that JSON is what `to_json` would make again.
    data = stored.data if seen is event and getattr(stored, "decoded", None) is event else to_json(seen)
    return _event_record(stored.seq, data.get("type", stored.type), data, stored.recorded_at, stored.commit)


def records_of(
    match_game: AnyGame,
    events: Sequence[EventEnvelope],
    seat: Seat | None,
    decoded: Sequence[object] | None = None,
    last_step: Sequence[object] | None = None,
) -> tuple[EventRecord, ...]:
    """`record_of` for each of `events` (`decoded`: the events, if decoded already; `last_step`:
    the game events of the last one, a `draft_step`, if decoded already)."""
    found = (None,) * len(events) if decoded is None else decoded
    end = len(events) - 1
    return tuple(
        record_of(match_game, e, seat, d, last_step if i == end else None)
        for i, (e, d) in enumerate(zip(events, found, strict=True))
    )


def commit_records(
    match: Match, events: Sequence[EventEnvelope], seat: Seat | None, decoded: Sequence[object] | None = None
) -> tuple[EventRecord, ...]:
    """Events that end at `match.seq` (the commit that made `match`) redacted for `seat` (`decoded`:
    the events, if decoded already); the service keeps them once per state and viewer (`Renderings`).

    A commit that ends with a `draft_step` made `match.draft`, whose last step holds that step's
    game events as the fold decoded them: its seat's record redacts those, decoding none again."""
    if not events or events[-1].seq != match.seq:
        raise ValueError(f"the events do not end at seq {match.seq}")
    draft, last_step = match.draft, None
    if draft is not None and draft.seat == seat and draft.steps and events[-1].type == _DRAFT_STEP:
        last_step = draft.steps[-1][1]
    return records_of(match.game, events, seat, decoded, last_step)


def full_record(stored: EventEnvelope) -> EventRecord:
    """Unredacted: for the reveal of a finished match only."""
    return EventRecord(stored.seq, stored.type, dict(stored.data), stored.recorded_at, stored.commit)


def _decode_game(game: AnyGame, data: Mapping[str, JSON]) -> object:
    return decode_event(game, dict(data))


_MATCH_TYPES: Final = frozenset(match_events.MATCH_EVENT_TYPES.values())
_DRAFT_STEP: Final = match_events.DraftStep.TYPE
