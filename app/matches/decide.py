"""The match's decider: which events a request causes, over a folded `Match` (pure, no I/O).

Every way a match changes is a function here returning the events to append as one commit (an
action returns a `Decision`: its events and the game states evolved on the way), or raising
`Refused` with a machine code the service maps onto its error tree: joining a seat (and the start),
an action (with turn drafts), resigning, a clock running out, the host's controls, expiry.
The game's own rules stay behind `Game.decide`; nothing here knows a game.

Turn drafts (`settings.drafts`): the seat to act builds its turn privately. An action whose events
hold no barrier (`Game.is_barrier`: revealed information, consumed randomness, a turn end) and leave
the decision with the same seat becomes a `draft_step`; `undo` takes the last step back;
`finish_turn` plays the game's `finish_action` (its end of turn). The first action that crosses a
barrier publishes the draft in the same commit: `draft_published`, the game events of every step,
then its own. The game is created with `explicit_end_turn` so that a turn never ends by itself.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Final

from app.games import frozen
from app.games.codec import JSON, DecodeError, JSONValue, to_json
from app.games.core import ErrorCode, IllegalAction, Seat, decode_action
from app.matches import events as ev
from app.matches.fold import Evolved, Match

UNDO: Final = "undo"
FINISH_TURN: Final = "finish_turn"
DRAFT_ACTIONS: Final = frozenset((UNDO, FINISH_TURN))


class Refused(Exception):
    """A request the match refuses, with the code the service maps onto its error tree."""

    def __init__(self, code: ErrorCode, message: str, details: JSONValue = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.details = details


# Seating


def seat_bots(
    m: Match, bots: Mapping[Seat, str], seeds: Mapping[Seat, str] | None = None
) -> list[ev.MatchEvent]:
    """At creation: the server bots take their seats (`bots`: seat → level, `seeds`: seat → seed
    with drago-fair-2); the start if full."""
    events: list[ev.MatchEvent] = [
        ev.SeatJoined(s, f"bot {i + 1}", True, bots[s], None, None if seeds is None else seeds[s])
        for i, s in enumerate(sorted(bots))
    ]
    if len(bots) == m.players:
        events.append(ev.MatchStarted())
    return events


def join(
    m: Match, seat: Seat, name: str, player_id: str | None = None, seed: str | None = None
) -> list[ev.MatchEvent]:
    if m.end is not None:
        raise Refused(ErrorCode.MATCH_OVER, "this match is over")
    if m.seats[seat].taken or m.started:
        raise Refused(ErrorCode.SEAT_TAKEN, "this seat is already taken", {"seat": seat})
    if player_id is not None and any(s.player_id == player_id for s in m.seats):
        held = next(i for i, s in enumerate(m.seats) if s.player_id == player_id)
        raise Refused(ErrorCode.ALREADY_SEATED, "you already hold a seat in this match", {"seat": held})
    events: list[ev.MatchEvent] = [ev.SeatJoined(seat, name, False, None, player_id, seed)]
    if all(s.taken for i, s in enumerate(m.seats) if i != seat):
        events.append(ev.MatchStarted())
    return events


# Acting


@dataclass(frozen=True, slots=True)
class Decision:
    """What an action decided: the events of its commit, and the game states the decider evolved
    on the way (`advance` takes them instead of evolving the same events again)."""

    events: tuple[object, ...]
    evolved: tuple[Evolved, ...] = ()


def act(m: Match, seat: Seat, action: JSON, rng: random.Random, *, drafting: bool = True) -> Decision:
    """The events of `seat`'s action (JSON as sent), with drafts and the match's end.

    Server bots act with `drafting=False`: their actions are public at once."""
    _require_running(m)
    if seat not in m.to_act:
        raise Refused(ErrorCode.NOT_YOUR_TURN, "it is not your turn", {"to_act": list(m.to_act)})
    kind = action.get("type") if isinstance(action, Mapping) else None
    if not isinstance(kind, str):
        kind = None  # not an action at all: the codec below says why (`{"type": {…}}` is unhashable)
    draft = m.draft if m.draft is not None and m.draft.seat == seat else None
    drafts = m.settings.drafts and drafting
    if drafts and kind in DRAFT_ACTIONS:
        if set(action) != {"type"}:
            raise Refused(
                ErrorCode.VALIDATION_ERROR, f"{kind} has no members besides type", {"field": "action"}
            )
        if draft is None:
            what = "undo" if kind == UNDO else "finish"
            raise Refused(
                ErrorCode.ILLEGAL_ACTION,
                f"Your turn draft is empty: there is nothing to {what}.",
                _why("draft_empty"),
            )
        if kind == UNDO:
            return Decision((ev.DraftUndone(seat),))
        decoded = m.game.finish_action(draft.state, seat)
        if decoded is None:
            raise Refused(
                ErrorCode.ILLEGAL_ACTION,
                "Your turn cannot end yet: finish its decisions first.",
                _why("cannot_finish"),
            )
    else:
        try:
            decoded = decode_action(m.game, action)
        except DecodeError as e:
            raise Refused(ErrorCode.VALIDATION_ERROR, str(e), {"field": "action"}) from None
    base = m.state_for(seat)
    try:
        events = list(m.game.decide(base, seat, decoded, rng))
    except IllegalAction as e:
        raise Refused(e.code, e.message, _why(e.reason)) from None
    if drafts and not _crosses_barrier(m, base, seat, events):
        return Decision((ev.DraftStep(seat, to_json(decoded), tuple(to_json(e) for e in events)),))
    out: list[object] = []
    if draft is not None:
        out.append(ev.DraftPublished(seat, len(draft.steps)))
        for _, step_events in draft.steps:
            out.extend(step_events)
    out.extend(events)
    evolved = evolve_all(m, out)
    return Decision((*out, *finished(m, evolved[-1].after if evolved else m.state)), evolved)


def _crosses_barrier(m: Match, base: object, seat: Seat, events: Sequence[object]) -> bool:
    game = m.game
    state = base
    for e in events:
        if game.is_barrier(state, e):
            return True
        state = game.evolve(state, e)
    return tuple(game.to_act(state)) != (seat,)  # the decision passes to another seat (or to nobody)


_EVOLVED: Final = frozen.constructor(Evolved)  # one to three per action


def evolve_all(m: Match, events: Sequence[object]) -> tuple[Evolved, ...]:
    """The committed state evolved by the game events among `events`, one step each."""
    game = m.game
    state = m.state
    steps = []
    for e in events:
        if not isinstance(e, ev.DraftPublished):
            after = game.evolve(state, e)
            steps.append(_EVOLVED(state, e, after))
            state = after
    return tuple(steps)


def finished(m: Match, state: object) -> list[ev.MatchEvent]:
    """`match_ended` if the game is over in `state` (the committed state after an action)."""
    outcome = m.game.outcome(state)
    if outcome is None:
        return []
    scores = tuple(outcome.scores)
    return [ev.MatchEnded("finished", ranked_winners(m, tuple(outcome.winners), scores), scores)]


def ranked_winners(m: Match, winners: tuple[Seat, ...], scores: tuple[int, ...]) -> tuple[Seat, ...]:
    """The game's winners without seats that resigned or forfeited (they rank last); if that leaves
    none, the best scores among the others share the win."""
    standing = [s for s in range(m.players) if not m.seats[s].resigned]
    kept = tuple(w for w in winners if w in standing)
    if kept or not standing:
        return kept
    best = max(scores[s] for s in standing)
    return tuple(s for s in standing if scores[s] == best)


# Leaving, clocks and the host


def resign(m: Match, seat: Seat, level: str) -> list[ev.MatchEvent]:
    """Two players: the other wins. More: a bot of `level` plays on and the seat ranks last."""
    if not m.started:
        raise Refused(ErrorCode.MATCH_NOT_STARTED, "the match has not started; the host can abort it")
    if m.end is not None:
        raise Refused(ErrorCode.MATCH_OVER, "the match is over")
    if m.seats[seat].resigned:
        raise Refused(ErrorCode.ALREADY_RESIGNED, "you have resigned already", {"seat": seat})
    if m.players == 2:
        return [ev.SeatResigned(seat), ev.MatchEnded("resigned", (1 - seat,), None)]
    return [ev.SeatResigned(seat), ev.SeatTakenOver(seat, "resigned", level)]


def timeouts(m: Match, now: datetime, level: str) -> list[ev.MatchEvent]:
    """The events for every seat whose clock has run out at `now` (none: an empty list)."""
    if m.status != "active":
        return []
    events: list[ev.MatchEvent] = []
    for seat, deadline in sorted(m.deadlines().items()):
        if deadline > now:
            continue
        if m.settings.on_timeout == "forfeit":
            events.append(ev.TurnTimedOut(seat, "forfeit"))
            if m.players == 2:
                return [*events, ev.MatchEnded("timeout", (1 - seat,), None)]
            events.append(ev.SeatTakenOver(seat, "forfeit", level))
            continue
        events.append(ev.TurnTimedOut(seat, "bot"))
        if m.seats[seat].timeouts + 1 >= m.settings.takeover_after:
            events.append(ev.SeatTakenOver(seat, "timeout", level))
    return events


def expire(m: Match) -> list[ev.MatchEvent]:
    """A waiting match nobody completed in time."""
    if m.status != "waiting":
        return []
    return [ev.MatchAborted("expired"), ev.MatchEnded("aborted", (), None)]


def abort(m: Match) -> list[ev.MatchEvent]:
    if m.end is not None:
        raise Refused(ErrorCode.MATCH_OVER, "the match is over")
    if m.started:
        raise Refused(ErrorCode.MATCH_STARTED, "the match has started: it can no longer be aborted")
    return [ev.MatchAborted("host"), ev.MatchEnded("aborted", (), None)]


def reissue(m: Match, seat: Seat) -> list[ev.MatchEvent]:
    _require_person(m, seat)
    return [ev.SeatTokenReissued(seat)]


def hand_to_bot(m: Match, seat: Seat, level: str) -> list[ev.MatchEvent]:
    if not m.started:
        raise Refused(ErrorCode.MATCH_NOT_STARTED, "the match has not started")
    _require_person(m, seat)
    return [ev.SeatTakenOver(seat, "host", level)]


def _require_person(m: Match, seat: Seat) -> None:
    if m.end is not None:
        raise Refused(ErrorCode.MATCH_OVER, "the match is over")
    s = m.seats[seat]
    if not s.taken or s.bot:
        raise Refused(ErrorCode.SEAT_NOT_HELD, "no person holds this seat", {"seat": seat})


def _require_running(m: Match) -> None:
    if m.end is not None:
        raise Refused(ErrorCode.MATCH_OVER, "the match is over")
    if not m.started:
        raise Refused(ErrorCode.MATCH_NOT_STARTED, "the match has not started: not every seat is filled yet")


def _why(reason: str) -> dict[str, str]:
    return {"reason": reason}
