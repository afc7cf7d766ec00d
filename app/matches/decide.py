"""The match's decider: which events a request causes, over a folded `Match` (pure, no I/O).

Every way a match changes is a function here returning the events to append as one commit, or
raising `Refused` with a machine code the service maps onto its error tree: joining a seat (and the
start), an action (with turn drafts), resigning, a clock running out, the host's controls, expiry.
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
from datetime import datetime
from typing import Any, Final

from app.games.codec import DecodeError, to_json
from app.games.core import IllegalAction, Seat, decode_action
from app.matches.events import (
    DraftPublished,
    DraftStep,
    DraftUndone,
    MatchAborted,
    MatchEnded,
    MatchStarted,
    SeatJoined,
    SeatResigned,
    SeatTakenOver,
    SeatTokenReissued,
    TurnTimedOut,
)
from app.matches.fold import EVOLVED, Match

UNDO: Final = "undo"
FINISH_TURN: Final = "finish_turn"
DRAFT_ACTIONS: Final = frozenset((UNDO, FINISH_TURN))


class Refused(Exception):
    """A request the match refuses; `code` is one of the service's error codes."""

    def __init__(self, code: str, message: str, details: Any = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.details = details


# Seating


def seat_bots(m: Match, bots: Mapping[Seat, str], seeds: Mapping[Seat, str] | None = None) -> list[Any]:
    """At creation: the server bots take their seats (`bots`: seat → level, `seeds`: seat → seed
    with drago-fair-2); the start if full."""
    events: list[Any] = [
        SeatJoined(s, f"bot {i + 1}", True, bots[s], None, None if seeds is None else seeds[s])
        for i, s in enumerate(sorted(bots))
    ]
    if len(bots) == m.players:
        events.append(MatchStarted())
    return events


def join(m: Match, seat: Seat, name: str, player_id: str | None = None, seed: str | None = None) -> list[Any]:
    if m.end is not None:
        raise Refused("match_over", "this match is over")
    if m.seats[seat].taken or m.started:
        raise Refused("seat_taken", "this seat is already taken", {"seat": seat})
    if player_id is not None and any(s.player_id == player_id for s in m.seats):
        held = next(i for i, s in enumerate(m.seats) if s.player_id == player_id)
        raise Refused("already_seated", "you already hold a seat in this match", {"seat": held})
    events: list[Any] = [SeatJoined(seat, name, False, None, player_id, seed)]
    if all(s.taken for i, s in enumerate(m.seats) if i != seat):
        events.append(MatchStarted())
    return events


# Acting


def act(m: Match, seat: Seat, action: Any, rng: random.Random, *, drafting: bool = True) -> list[Any]:
    """The events of `seat`'s action (JSON as sent), with drafts and the match's end.

    Server bots act with `drafting=False`: their actions are public at once."""
    _require_running(m)
    if seat not in m.to_act:
        raise Refused("not_your_turn", "it is not your turn", {"to_act": list(m.to_act)})
    kind = action.get("type") if isinstance(action, Mapping) else None
    if not isinstance(kind, str):
        kind = None  # not an action at all: the codec below says why (`{"type": {…}}` is unhashable)
    draft = m.draft if m.draft is not None and m.draft.seat == seat else None
    drafts = m.settings.drafts and drafting
    if drafts and kind in DRAFT_ACTIONS:
        if set(action) != {"type"}:
            raise Refused("validation_error", f"{kind} has no members besides type", {"field": "action"})
        if draft is None:
            what = "undo" if kind == UNDO else "finish"
            raise Refused(
                "illegal_action",
                f"Your turn draft is empty: there is nothing to {what}.",
                _why("draft_empty"),
            )
        if kind == UNDO:
            return [DraftUndone(seat)]
        decoded = m.game.finish_action(draft.state, seat)
        if decoded is None:
            raise Refused(
                "illegal_action",
                "Your turn cannot end yet: finish its decisions first.",
                _why("cannot_finish"),
            )
    else:
        try:
            decoded = decode_action(m.game, action)
        except DecodeError as e:
            raise Refused("validation_error", str(e), {"field": "action"}) from None
    base = m.state_for(seat)
    try:
        events = list(m.game.decide(base, seat, decoded, rng))
    except IllegalAction as e:
        raise Refused(e.code, e.message, _why(e.reason)) from None
    if drafts and not _crosses_barrier(m, base, seat, events):
        return [DraftStep(seat, to_json(decoded), tuple(to_json(e) for e in events))]
    out: list[Any] = []
    if draft is not None:
        out.append(DraftPublished(seat, len(draft.steps)))
        for _, step_events in draft.steps:
            out.extend(step_events)
    out.extend(events)
    return out + finished(m, out)


def _crosses_barrier(m: Match, base: Any, seat: Seat, events: Sequence[Any]) -> bool:
    game = m.game
    state = base
    for e in events:
        if game.is_barrier(state, e):
            return True
        state = game.evolve(state, e)
    return tuple(game.to_act(state)) != (seat,)  # the decision passes to another seat (or to nobody)


def finished(m: Match, events: Sequence[Any]) -> list[Any]:
    """`match_ended` if the game events `events`, applied to the committed state, end the game."""
    game = m.game
    state = m.state
    steps = []
    for e in events:
        if not isinstance(e, DraftPublished):
            after = game.evolve(state, e)
            steps.append((state, e, after))
            state = after
    m.memo[EVOLVED] = steps  # `fold.advance` takes these states instead of evolving them again
    outcome = game.outcome(state)
    if outcome is None:
        return []
    scores = tuple(outcome.scores)
    return [MatchEnded("finished", ranked_winners(m, tuple(outcome.winners), scores), scores)]


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


def resign(m: Match, seat: Seat, level: str) -> list[Any]:
    """Two players: the other wins. More: a bot of `level` plays on and the seat ranks last."""
    if not m.started:
        raise Refused("match_not_started", "the match has not started; the host can abort it")
    if m.end is not None:
        raise Refused("match_over", "the match is over")
    if m.seats[seat].resigned:
        raise Refused("already_resigned", "you have resigned already", {"seat": seat})
    if m.players == 2:
        return [SeatResigned(seat), MatchEnded("resigned", (1 - seat,), None)]
    return [SeatResigned(seat), SeatTakenOver(seat, "resigned", level)]


def timeouts(m: Match, now: datetime, level: str) -> list[Any]:
    """The events for every seat whose clock has run out at `now` (none: an empty list)."""
    if m.status != "active":
        return []
    events: list[Any] = []
    for seat, deadline in sorted(m.deadlines().items()):
        if deadline > now:
            continue
        if m.settings.on_timeout == "forfeit":
            events.append(TurnTimedOut(seat, "forfeit"))
            if m.players == 2:
                return [*events, MatchEnded("timeout", (1 - seat,), None)]
            events.append(SeatTakenOver(seat, "forfeit", level))
            continue
        events.append(TurnTimedOut(seat, "bot"))
        if m.seats[seat].timeouts + 1 >= m.settings.takeover_after:
            events.append(SeatTakenOver(seat, "timeout", level))
    return events


def expire(m: Match) -> list[Any]:
    """A waiting match nobody completed in time."""
    if m.status != "waiting":
        return []
    return [MatchAborted("expired"), MatchEnded("aborted", (), None)]


def abort(m: Match) -> list[Any]:
    if m.end is not None:
        raise Refused("match_over", "the match is over")
    if m.started:
        raise Refused("match_started", "the match has started: it can no longer be aborted")
    return [MatchAborted("host"), MatchEnded("aborted", (), None)]


def reissue(m: Match, seat: Seat) -> list[Any]:
    _require_person(m, seat)
    return [SeatTokenReissued(seat)]


def hand_to_bot(m: Match, seat: Seat, level: str) -> list[Any]:
    if not m.started:
        raise Refused("match_not_started", "the match has not started")
    _require_person(m, seat)
    return [SeatTakenOver(seat, "host", level)]


def _require_person(m: Match, seat: Seat) -> None:
    if m.end is not None:
        raise Refused("match_over", "the match is over")
    s = m.seats[seat]
    if not s.taken or s.bot:
        raise Refused("seat_not_held", "no person holds this seat", {"seat": seat})


def _require_running(m: Match) -> None:
    if m.end is not None:
        raise Refused("match_over", "the match is over")
    if not m.started:
        raise Refused("match_not_started", "the match has not started: not every seat is filled yet")


def _why(reason: str) -> dict[str, str]:
    return {"reason": reason}
