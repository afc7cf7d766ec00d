"""The state of a Yutakâ match and its fold: `initial_state(game_started)` and `evolve(state, event)`.

The state is frozen data holding everything, secrets included (hands, deck orders, the tile under
each face-down slot); `views` filters it per viewer. `evolve` never rolls dice: draws take the top
of the dealt deck named in `game_started`. Between two events of one decision the state may be in
the transient `draw` phase (nobody to act): the draw that closes a turn is its own event.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any, TypeVar

from app.games.frozen import replace
from app.games.yutaka.components import (
    CANONICAL,
    HAND_SIZE,
    OPENING_REVEALS,
    PLAYERS,
    Card,
    CardKind,
    Tile,
)
from app.games.yutaka.events import (
    CardDrawn,
    CardPlayed,
    Event,
    GameEnded,
    GameStarted,
    TileRevealed,
    TurnConfirmed,
)
from app.games.yutaka.options import Options

T = TypeVar("T")


class Phase(enum.StrEnum):
    """`opening`: the four opening reveals (player 1, 2, 1, 2); `play`: the player on turn plays a
    card; `confirm` (option explicit_end_turn): the player ends the turn with `end_turn`; `reveal`:
    a tile is revealed (after equipment by the player, after dynamite by the opponent); `over`: the
    game has ended. (`draw` exists only inside one decision: no view ever shows it.)"""

    OPENING = "opening"  # the four opening reveals, P1 P2 P1 P2
    PLAY = "play"  # the player on turn plays a card
    CONFIRM = "confirm"  # explicit_end_turn: the player on turn sends end_turn
    REVEAL = "reveal"  # `revealer` reveals a tile (after equipment: the player; after dynamite: the opponent)
    DRAW = "draw"  # transient within one decision: the draw closing the turn follows
    OVER = "over"


@dataclass(frozen=True, slots=True)
class State:
    options: Options
    first_player: int
    hands: tuple[tuple[Card, ...], ...]
    decks: tuple[tuple[Card, ...], ...]  # top first
    columns: tuple[tuple[tuple[Card, ...], ...], ...]  # columns[side][island], in play order
    islands: tuple[tuple[Tile, ...], ...]  # islands[island][slot]
    revealed: tuple[tuple[bool, ...], ...]
    set_aside: tuple[Tile, ...]
    phase: Phase
    turn: int  # the player on turn (during the opening: the first player)
    revealer: int  # the seat that reveals in the opening and reveal phases
    opening_reveals: int  # opening reveals done
    cards_played: int
    set_aside_public: bool = False
    reveal_after_confirm: bool = False  # phase confirm after dynamite: end_turn hands the reveal on


def other(seat: int) -> int:
    return 1 - seat


def _put(items: tuple[T, ...], index: int, value: T) -> tuple[T, ...]:
    return (*items[:index], value, *items[index + 1 :])


def _without(hand: tuple[Card, ...], card: Card) -> tuple[Card, ...]:
    i = hand.index(card)
    return hand[:i] + hand[i + 1 :]


def face_down(state: State) -> tuple[tuple[int, int], ...]:
    """Every face-down island tile as (island, slot)."""
    return tuple((i, s) for i, row in enumerate(state.revealed) for s, shown in enumerate(row) if not shown)


def revealable(state: State) -> tuple[tuple[int, int], ...]:
    """The face-down tiles that may be revealed: all of them, or with stacked archipelagos only the
    uppermost face-down tile of each island (slot 0 is the top; a revealed tile covers nothing)."""
    if not state.options.stacked:
        return face_down(state)
    out = []
    for i, row in enumerate(state.revealed):
        for s, shown in enumerate(row):
            if not shown:
                out.append((i, s))
                break
    return tuple(out)


def to_act(state: State) -> tuple[int, ...]:
    if state.phase is Phase.PLAY or state.phase is Phase.CONFIRM:
        return (state.turn,)
    if state.phase in (Phase.OPENING, Phase.REVEAL):
        return (state.revealer,)
    return ()


def initial_state(started: GameStarted) -> State:
    islands = started.islands
    # the shared DECK objects, whose JSON the codec remembers (a decoded event holds copies)
    decks = tuple(tuple(CANONICAL.get(card, card) for card in deck) for deck in started.decks)
    return State(
        options=started.options,
        first_player=started.first_player,
        hands=tuple(deck[:HAND_SIZE] for deck in decks),
        decks=tuple(deck[HAND_SIZE:] for deck in decks),
        columns=tuple(tuple(() for _ in islands) for _ in range(PLAYERS)),
        islands=islands,
        revealed=tuple(tuple(False for _ in row) for row in islands),
        set_aside=started.set_aside,
        phase=Phase.OPENING,
        turn=started.first_player,
        revealer=started.first_player,
        opening_reveals=0,
        cards_played=0,
    )


def _close_turn(state: State) -> dict[str, Any]:
    """After the play and any reveal: wait for the draw, or pass the turn when the deck is empty."""
    if state.decks[state.turn]:
        return {"phase": Phase.DRAW}
    nxt = other(state.turn)
    return {"phase": Phase.PLAY, "turn": nxt, "revealer": nxt}


# Each fold step builds its changes first and copies the state once (copies dominate the cost).
def _revealed(state: State, e: TileRevealed) -> State:
    revealed = _put(state.revealed, e.island, _put(state.revealed[e.island], e.slot, True))
    changes: dict[str, Any]
    if state.phase is Phase.OPENING:
        done = state.opening_reveals + 1
        first = state.first_player
        if done == OPENING_REVEALS:
            changes = {"phase": Phase.PLAY, "turn": first, "revealer": first}
        else:
            changes = {"revealer": first if done % 2 == 0 else other(first)}
        changes["opening_reveals"] = done
    elif all(all(row) for row in revealed):
        changes = {"phase": Phase.OVER}  # the game ends the moment the last tile shows
    else:
        changes = _close_turn(state)
    return replace(state, revealed=revealed, **changes)


def _played(state: State, e: CardPlayed) -> State:
    column = (*state.columns[e.side][e.island], e.card)
    changes: dict[str, Any]
    if e.card.kind is CardKind.EQUIPMENT:
        changes = {"phase": Phase.REVEAL, "revealer": e.seat}
    elif state.options.explicit_end_turn:
        changes = {"phase": Phase.CONFIRM, "reveal_after_confirm": e.card.kind is CardKind.DYNAMITE}
    elif e.card.kind is CardKind.DYNAMITE:
        changes = {"phase": Phase.REVEAL, "revealer": other(e.seat)}
    else:
        changes = _close_turn(state)
    return replace(
        state,
        hands=_put(state.hands, e.seat, _without(state.hands[e.seat], e.card)),
        columns=_put(state.columns, e.side, _put(state.columns[e.side], e.island, column)),
        cards_played=state.cards_played + 1,
        **changes,
    )


def _drawn(state: State, e: CardDrawn) -> State:
    deck = state.decks[e.seat]
    if not deck or deck[0] != e.card:
        raise ValueError(f"card_drawn does not match the top of seat {e.seat}'s deck")
    nxt = other(e.seat)
    return replace(
        state,
        hands=_put(state.hands, e.seat, (*state.hands[e.seat], e.card)),
        decks=_put(state.decks, e.seat, deck[1:]),
        phase=Phase.PLAY,
        turn=nxt,
        revealer=nxt,
    )


def _confirmed(state: State, e: TurnConfirmed) -> State:
    if state.phase is not Phase.CONFIRM or e.seat != state.turn:
        raise ValueError("turn_confirmed does not fit the state")
    if state.reveal_after_confirm:
        return replace(state, phase=Phase.REVEAL, revealer=other(e.seat), reveal_after_confirm=False)
    return replace(state, **_close_turn(state))


def evolve(state: State, event: Event) -> State:
    if isinstance(event, CardPlayed):
        return _played(state, event)
    if isinstance(event, TileRevealed):
        return _revealed(state, event)
    if isinstance(event, CardDrawn):
        return _drawn(state, event)
    if isinstance(event, TurnConfirmed):
        return _confirmed(state, event)
    if isinstance(event, GameEnded):
        return replace(state, set_aside_public=True)
    raise ValueError("game_started begins a stream; fold it with initial_state")
