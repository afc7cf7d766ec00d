"""What one viewer may see of a Mount Drago match: per-seat views and redacted events.

Public: dragon positions, riders and rider piles (cards are played face up; the view gives each
pile's top and size), scores, hand sizes, the draw pile's size, the summit discard pile. Secret:
each hand (only its owner sees it) and the order of the draw pile (nobody sees it, not even
after a reshuffle). A spectator (`seat=None`) sees only public information.
"""

from __future__ import annotations

from typing import Final

from app.games.codec import JSON, to_json
from app.games.mount_drago.cards import CARDS, DRAGONS
from app.games.mount_drago.events import CardsDrawn, DrawPileReshuffled, Event, GameStarted
from app.games.mount_drago.rules import legal_actions, outcome, to_act
from app.games.mount_drago.state import NO_CARD, State
from app.games.mount_drago.track import spaces_to_json

_CARD_JSON: Final = tuple({"dragon": c.dragon.value, "value": c.value} for c in CARDS)


def _cards(codes: tuple[int, ...]) -> list[JSON]:
    return [dict(_CARD_JSON[c]) for c in codes]


def view(state: State, seat: int | None) -> JSON:
    result = outcome(state)
    track = state.track
    return {
        "players": state.players,
        "seat": seat,
        "phase": state.phase,
        "current_player": state.current,
        "to_act": list(to_act(state)),
        "hand": None if seat is None else _cards(state.hands[seat]),
        "hand_sizes": [len(h) for h in state.hands],
        "positions": {d.value: p for d, p in zip(DRAGONS, state.positions, strict=True)},
        "summit_dragons": [
            d.value for d, p in zip(DRAGONS, state.positions, strict=True) if p >= track.summit_start
        ],
        "riders": [DRAGONS[d].value for d in state.riders],
        "rider_piles": [{"top": dict(_CARD_JSON[p[-1]]), "size": len(p)} for p in state.piles],
        "scores": list(state.scores),
        "draw_pile_size": len(state.draw_pile),
        "discard_pile": _cards(state.discard_pile),
        "pending_card": None if state.pending == NO_CARD else dict(_CARD_JSON[state.pending]),
        "turn_scored": state.scored,
        "legal_actions": [] if seat is None else [to_json(a) for a in legal_actions(state, seat)],
        "options": to_json(state.options),
        "track": spaces_to_json(track.spaces),
        "outcome": None if result is None else result.to_json(),
    }


def redact(event: Event, seat: int | None) -> JSON:
    data: JSON
    if isinstance(event, GameStarted):
        data = to_json(event)
        data["hands"] = [hand if i == seat else None for i, hand in enumerate(data["hands"])]
        data["hand_sizes"] = [len(h) for h in event.hands]
        del data["draw_pile"]
        data["draw_pile_size"] = len(event.draw_pile)
        return data
    if isinstance(event, CardsDrawn) and event.seat != seat:
        return {"type": event.TYPE, "seat": event.seat, "count": len(event.cards)}
    if isinstance(event, DrawPileReshuffled):
        return {"type": event.TYPE, "size": len(event.draw_pile), "summit_discards": event.summit_discards}
    data = to_json(event)
    return data
