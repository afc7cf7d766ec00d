"""What a seat may do and what it causes: `legal_actions(state, seat)` and `decide(state, seat,
action) -> events` (docs/rules.md §2.3–2.4). `decide` checks the order, refusing it with `IllegalAction`
in words the acting player understands, and returns the facts: the play, reveal or end of turn,
then the draw that closes the turn, or the end of the game when the last face-down island tile
shows. `is_barrier` and `finish_action` tell the match layer where a turn may no longer be undone
and how it is ended (the option explicit_end_turn makes every turn end with `end_turn`).
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Final

from app.games.codec import to_json
from app.games.core import GAME_OVER, ILLEGAL, NOT_YOUR_TURN, IllegalAction, Outcome
from app.games.yutaka.actions import Action, EndTurn, Play, Reveal
from app.games.yutaka.components import DECK, ISLANDS, MAX_CARDS_PER_SIDE, SLOTS_PER_ISLAND, Card, CardKind
from app.games.yutaka.events import CardDrawn, CardPlayed, Event, GameEnded, TileRevealed, TurnConfirmed
from app.games.yutaka.scoring import score_game
from app.games.yutaka.state import Phase, State, evolve, other, revealable, to_act

# Legal actions are shared objects (their JSON is encoded once): every play of every card of the
# deck onto every island, every reveal, and end_turn.
_PLAYS: Final[Mapping[Card, tuple[Play, ...]]] = MappingProxyType(
    {card: tuple(Play(card, i) for i in range(ISLANDS)) for card in DECK}
)
_REVEALS: Final = tuple(tuple(Reveal(i, s) for s in range(SLOTS_PER_ISLAND)) for i in range(ISLANDS))
_END_TURN: Final = EndTurn()


def target_side(seat: int, kind: CardKind) -> int:
    """Typed cards go on the player's own side, dynamite on the opponent's."""
    return other(seat) if kind is CardKind.DYNAMITE else seat


def legal_actions(state: State, seat: int) -> tuple[Action, ...]:
    if seat not in to_act(state):
        return ()
    if state.phase is Phase.CONFIRM:
        return (_END_TURN,)
    if state.phase is not Phase.PLAY:
        return tuple(_REVEALS[i][s] for i, s in revealable(state))
    out: list[Action] = []
    for card in dict.fromkeys(state.hands[seat]):  # identical dynamite cards: one action each island
        side = state.columns[target_side(seat, card.kind)]
        plays = _PLAYS[card]
        out.extend(plays[i] for i in range(ISLANDS) if len(side[i]) < MAX_CARDS_PER_SIDE)
    return tuple(out)


def finish_action(state: State, seat: int) -> Action | None:
    """`end_turn` when `seat` must confirm its play (option explicit_end_turn), else None."""
    return _END_TURN if state.phase is Phase.CONFIRM and seat == state.turn else None


def is_barrier(state: State, event: Event) -> bool:
    """Whether `event`, applied to `state`, may never be undone. Every event declares it except
    `card_played`: equipment never is (the player's own reveal follows); with explicit_end_turn no
    play is (`end_turn` hands over); otherwise dynamite is (the opponent reveals next) and so is a
    treasure card when the player's deck is empty (the turn passes with no draw to mark it)."""
    declared = type(event).BARRIER
    if declared is not None:
        return declared
    assert isinstance(event, CardPlayed)
    kind = event.card.kind
    if kind is CardKind.EQUIPMENT or state.options.explicit_end_turn:
        return False
    return kind is CardKind.DYNAMITE or not state.decks[event.seat]


def _illegal(message: str, reason: str) -> IllegalAction:
    return IllegalAction(ILLEGAL, message, reason)


def _check_turn(state: State, seat: int) -> None:
    if state.phase is Phase.OVER:
        raise IllegalAction(GAME_OVER, "The game is over.", "game_over")
    acting = to_act(state)
    if seat not in acting:
        who = f"seat {acting[0]}" if acting else "the end of the turn"
        raise IllegalAction(NOT_YOUR_TURN, f"It is not your decision: waiting for {who}.", "not_your_turn")


def _check_phase(state: State, wanted: Phase) -> None:
    if state.phase is wanted:
        return
    if state.phase is Phase.PLAY:
        raise _illegal("You must play a card now.", "play_expected")
    if state.phase is Phase.CONFIRM:
        raise _illegal("You have played your card: end your turn with end_turn.", "end_turn_expected")
    raise _illegal("You must reveal a face-down tile now.", "reveal_expected")


def _check_reveal(state: State, action: Reveal) -> None:
    if state.phase is Phase.PLAY or state.phase is Phase.CONFIRM:
        _check_phase(state, Phase.REVEAL)
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
    _check_phase(state, Phase.PLAY)
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
        final = score_game(state.columns, state.islands, state.options.tie_break)
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
    elif isinstance(action, EndTurn):
        if not state.options.explicit_end_turn:
            raise _illegal("Turns end by themselves in this match; play a card.", "no_explicit_end_turn")
        _check_phase(state, Phase.CONFIRM)
        first = TurnConfirmed(seat)
    else:
        raise _illegal("Unknown action.", "unknown_action")
    return _finish(evolve(state, first), [first])


def outcome(state: State) -> Outcome | None:
    """Scores and winners once the last face-down island tile is revealed; `details` holds the
    per-island awards (`scoring.Award` as JSON), the tie-break figures and `decided_by`."""
    if state.phase is not Phase.OVER:
        return None
    final = score_game(state.columns, state.islands, state.options.tie_break)
    details = {
        "islands": to_json(final.islands),
        "totals": list(final.totals),
        "equipment_tiles": list(final.equipment_tiles),
        "equipment_value": list(final.equipment_value),
        "decided_by": final.decided_by,
    }  # the set-aside tiles are shown by the game_ended event that follows, not here
    return Outcome(final.totals, final.winners, details)
