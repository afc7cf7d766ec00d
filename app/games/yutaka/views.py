"""What one viewer may see: `view(state, seat | None)` and `redact(event, seat | None)` as JSON.

A seat sees its own hand, never the opponent's (only its size) and no deck order (only sizes);
everyone sees every placed card and every face-up tile. A face-down island tile shows its type only
when the mode makes that type public, never its value; the set-aside tiles stay hidden, type too,
until the game ends. A spectator (`None`) sees what both seats see in common.
"""

from __future__ import annotations

from app.games.codec import JSON, to_json
from app.games.yutaka.components import HAND_SIZE, ISLAND_NAMES, OPENING_REVEALS, PLAYERS, Tile, TileType
from app.games.yutaka.events import CardDrawn, Event, GameStarted
from app.games.yutaka.options import Options
from app.games.yutaka.rules import legal_actions, outcome
from app.games.yutaka.state import Phase, State, to_act


def _viewer(seat: int | None) -> int | None:
    return seat if seat is not None and 0 <= seat < PLAYERS else None


def _hidden_tile(tile: Tile, slot: int, public: frozenset[TileType]) -> JSON:
    return {
        "slot": slot,
        "face_up": False,
        "type": tile.type.value if tile.type in public else None,
        "value": None,
    }


def _shown_tile(tile: Tile, slot: int) -> JSON:
    return {"slot": slot, "face_up": True, "type": tile.type.value, "value": tile.value}


def _public_types(options: Options) -> frozenset[TileType]:
    return frozenset(options.known_types)


def view(state: State, seat: int | None) -> JSON:
    viewer = _viewer(seat)
    public = _public_types(state.options)
    islands = []
    for i, row in enumerate(state.islands):
        shown = state.revealed[i]
        islands.append(
            {
                "island": i,
                "name": ISLAND_NAMES[i],
                "tiles": [
                    _shown_tile(t, s) if shown[s] else _hidden_tile(t, s, public) for s, t in enumerate(row)
                ],
                "cards": [to_json(state.columns[side][i]) for side in range(PLAYERS)],
            }
        )
    result = outcome(state)
    on_turn = state.phase in (Phase.PLAY, Phase.REVEAL, Phase.DRAW)
    return {
        "game": "yutaka",
        "seat": viewer,
        "options": to_json(state.options),
        "first_player": state.first_player,
        "phase": state.phase.value,
        "turn": state.turn if on_turn else None,
        "to_act": list(to_act(state)),
        "opening_reveals_left": OPENING_REVEALS - state.opening_reveals,
        "cards_played": state.cards_played,
        "hand": None if viewer is None else to_json(state.hands[viewer]),
        "hand_sizes": [len(h) for h in state.hands],
        "deck_sizes": [len(d) for d in state.decks],
        "islands": islands,
        "face_down": sum(not s for row in state.revealed for s in row),
        "set_aside": to_json(state.set_aside) if state.set_aside_public else None,
        "set_aside_count": len(state.set_aside),
        "legal_actions": [] if viewer is None else to_json(legal_actions(state, viewer)),
        "outcome": None if result is None else result.to_json(),
    }


def _redact_start(e: GameStarted, viewer: int | None) -> JSON:
    public = _public_types(e.options)
    return {
        "type": e.TYPE,
        "options": to_json(e.options),
        "first_player": e.first_player,
        "hand": None if viewer is None else to_json(e.decks[viewer][:HAND_SIZE]),
        "hand_sizes": [min(HAND_SIZE, len(d)) for d in e.decks],
        "deck_sizes": [max(0, len(d) - HAND_SIZE) for d in e.decks],
        "islands": [[_hidden_tile(t, s, public) for s, t in enumerate(row)] for row in e.islands],
        "set_aside_count": len(e.set_aside),
    }


def redact(event: Event, seat: int | None) -> JSON:
    viewer = _viewer(seat)
    if isinstance(event, GameStarted):
        return _redact_start(event, viewer)
    if isinstance(event, CardDrawn) and event.seat != viewer:
        return {"type": event.TYPE, "seat": event.seat}
    return to_json(event)  # plays, reveals and the end are public facts
