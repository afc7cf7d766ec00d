"""What a seat may do and what it causes: `legal_actions(state, seat)` and `decide(state, seat,
action) -> events` (RULES §2.3–2.4). `decide` checks the order, refusing it with `IllegalAction`
in words the acting player understands, and returns the facts: the play or reveal, then the draw
that closes the turn, or the end of the game when the last face-down island tile shows.
"""

from __future__ import annotations

from app.games.codec import to_json
from app.games.core import GAME_OVER, ILLEGAL, NOT_YOUR_TURN, IllegalAction, Outcome
from app.games.yutaka.actions import Action, Play, Reveal
from app.games.yutaka.components import ISLANDS, MAX_CARDS_PER_SIDE, SLOTS_PER_ISLAND, CardKind
from app.games.yutaka.events import CardDrawn, CardPlayed, Event, GameEnded, TileRevealed
from app.games.yutaka.scoring import score_game
from app.games.yutaka.state import Phase, State, evolve, other, revealable, to_act


def target_side(seat: int, kind: CardKind) -> int:
    """Typed cards go on the player's own side, dynamite on the opponent's."""
    return other(seat) if kind is CardKind.DYNAMITE else seat


def legal_actions(state: State, seat: int) -> tuple[Action, ...]:
    if seat not in to_act(state):
        return ()
    if state.phase is not Phase.PLAY:
        return tuple(Reveal(i, s) for i, s in revealable(state))
    out: list[Action] = []
    for card in dict.fromkeys(state.hands[seat]):  # identical dynamite cards: one action each island
        side = state.columns[target_side(seat, card.kind)]
        out.extend(Play(card, i) for i in range(ISLANDS) if len(side[i]) < MAX_CARDS_PER_SIDE)
    return tuple(out)


def _illegal(message: str, reason: str) -> IllegalAction:
    return IllegalAction(ILLEGAL, message, reason)


def _check_turn(state: State, seat: int) -> None:
    if state.phase is Phase.OVER:
        raise IllegalAction(GAME_OVER, "The game is over.", "game_over")
    acting = to_act(state)
    if seat not in acting:
        who = f"seat {acting[0]}" if acting else "the end of the turn"
        raise IllegalAction(NOT_YOUR_TURN, f"It is not your decision: waiting for {who}.", "not_your_turn")


def _check_reveal(state: State, action: Reveal) -> None:
    if state.phase is Phase.PLAY:
        raise _illegal("You must play a card now, not reveal a tile.", "play_expected")
    if not (0 <= action.island < ISLANDS and 0 <= action.slot < SLOTS_PER_ISLAND):
        raise _illegal(
            f"There is no tile at island {action.island}, slot {action.slot} "
            f"(islands 0–{ISLANDS - 1}, slots 0–{SLOTS_PER_ISLAND - 1}).",
            "no_such_tile",
        )
    if state.revealed[action.island][action.slot]:
        raise _illegal("That tile is already face up; choose a face-down tile.", "tile_already_revealed")
    if (action.island, action.slot) not in revealable(state):
        raise _illegal(
            "That tile is covered; reveal the uppermost face-down tile of an island.", "tile_covered"
        )


def _check_play(state: State, seat: int, action: Play) -> None:
    if state.phase is not Phase.PLAY:
        raise _illegal("You must reveal a face-down tile now, not play a card.", "reveal_expected")
    if action.card not in state.hands[seat]:
        raise _illegal(f"You have no {action.card} in your hand.", "card_not_in_hand")
    if not 0 <= action.island < ISLANDS:
        raise _illegal(f"There is no island {action.island} (islands 0–{ISLANDS - 1}).", "no_such_island")
    side = target_side(seat, action.card.kind)
    if len(state.columns[side][action.island]) >= MAX_CARDS_PER_SIDE:
        whose = "your opponent's" if side != seat else "your"
        raise _illegal(
            f"{whose.capitalize()} side of island {action.island} already holds {MAX_CARDS_PER_SIDE} cards.",
            "column_full",
        )


def _finish(state: State, events: list[Event]) -> tuple[Event, ...]:
    """Append what closes the turn after `events` were folded into `state`."""
    if state.phase is Phase.DRAW:
        events.append(CardDrawn(state.turn, state.decks[state.turn][0]))
    elif state.phase is Phase.OVER:
        final = score_game(state.columns, state.islands)
        events.append(
            GameEnded(
                islands=final.islands,
                totals=final.totals,
                equipment_tiles=final.equipment_tiles,
                equipment_value=final.equipment_value,
                winners=final.winners,
                decided_by=final.decided_by,
                set_aside=state.set_aside,
            )
        )
    return tuple(events)


def decide(state: State, seat: int, action: Action) -> tuple[Event, ...]:
    _check_turn(state, seat)
    first: Event
    if isinstance(action, Reveal):
        _check_reveal(state, action)
        first = TileRevealed(seat, action.island, action.slot, state.islands[action.island][action.slot])
    elif isinstance(action, Play):
        _check_play(state, seat, action)
        first = CardPlayed(seat, action.card, action.island, target_side(seat, action.card.kind))
    else:
        raise _illegal("Unknown action.", "unknown_action")
    return _finish(evolve(state, first), [first])


def outcome(state: State) -> Outcome | None:
    """Scores and winners once the last face-down island tile is revealed; `details` holds the
    per-island awards (`scoring.Award` as JSON), the tie-break figures and `decided_by`."""
    if state.phase is not Phase.OVER:
        return None
    final = score_game(state.columns, state.islands)
    details = {
        "islands": to_json(final.islands),
        "totals": list(final.totals),
        "equipment_tiles": list(final.equipment_tiles),
        "equipment_value": list(final.equipment_value),
        "decided_by": final.decided_by,
    }  # the set-aside tiles are shown by the game_ended event that follows, not here
    return Outcome(final.totals, final.winners, details)
