"""The state of a Yutakâ match and its fold: `initial_state(game_started)` and `evolve(state, event)`.

The state is frozen data holding everything, secrets included (hands, deck orders, the tile under
each face-down slot); `views` filters it per viewer. `evolve` never rolls dice: draws take the top
of the dealt deck named in `game_started`. Between two events of one decision the state may be in
the transient `draw` phase (nobody to act): the draw that closes a turn is its own event.

`Draft` is the state's mutable twin: `evolve` and the decider (`rules`) change a draft through the
mutators here (`reveal_tile`, `play_card`, …: one per fact), so both say in one place what a fact
does to a state, and a decision that causes several facts copies the state once.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Final, TypeVar

from app.games import frozen
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


# The phases and the card kinds the rules test, as module constants: reading a member off an
# enum class costs several times more, and these are read on every decision.
OPENING: Final = Phase.OPENING
PLAY: Final = Phase.PLAY
CONFIRM: Final = Phase.CONFIRM
REVEAL: Final = Phase.REVEAL
DRAW: Final = Phase.DRAW
OVER: Final = Phase.OVER
EQUIPMENT: Final = CardKind.EQUIPMENT
DYNAMITE: Final = CardKind.DYNAMITE


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


class Draft:
    """A mutable twin of `State` (the same slots): what one decision or one event changes in place
    before `freeze` turns it into the next state (`app.games.frozen`). The mutators below are the
    only place that says how each fact changes a state, for `rules.decide` and `evolve` alike."""

    __slots__ = State.__slots__
    options: Options
    first_player: int
    hands: tuple[tuple[Card, ...], ...]
    decks: tuple[tuple[Card, ...], ...]
    columns: tuple[tuple[tuple[Card, ...], ...], ...]
    islands: tuple[tuple[Tile, ...], ...]
    revealed: tuple[tuple[bool, ...], ...]
    set_aside: tuple[Tile, ...]
    phase: Phase
    turn: int
    revealer: int
    opening_reveals: int
    cards_played: int
    set_aside_public: bool
    reveal_after_confirm: bool


StateLike = State | Draft  # what the read-only helpers accept


def thaw(state: State) -> Draft:
    return frozen.thaw(state, Draft)


def freeze(draft: Draft) -> State:
    return frozen.freeze(draft, State)


def other(seat: int) -> int:
    return 1 - seat


def _put(items: tuple[T, ...], index: int, value: T) -> tuple[T, ...]:
    return (*items[:index], value, *items[index + 1 :])


def _without(hand: tuple[Card, ...], card: Card) -> tuple[Card, ...]:
    i = hand.index(card)
    return hand[:i] + hand[i + 1 :]


def face_down(state: StateLike) -> tuple[tuple[int, int], ...]:
    """Every face-down island tile as (island, slot)."""
    return _face_down(state.revealed)


def _face_down(revealed: tuple[tuple[bool, ...], ...]) -> tuple[tuple[int, int], ...]:
    return tuple([(i, s) for i, row in enumerate(revealed) for s, shown in enumerate(row) if not shown])


def revealable(state: StateLike) -> tuple[tuple[int, int], ...]:
    """The face-down tiles that may be revealed: all of them, or with stacked archipelagos only the
    uppermost face-down tile of each island (slot 0 is the top; a revealed tile covers nothing)."""
    return revealable_tiles(state.revealed, state.options.stacked)


def revealable_tiles(revealed: tuple[tuple[bool, ...], ...], stacked: bool) -> tuple[tuple[int, int], ...]:
    """`revealable` of the tiles `revealed` (per island and slot, whether face up)."""
    if not stacked:
        return _face_down(revealed)
    out = []
    for i, row in enumerate(revealed):
        for s, shown in enumerate(row):
            if not shown:
                out.append((i, s))
                break
    return tuple(out)


def to_act(state: StateLike) -> tuple[int, ...]:
    if state.phase is PLAY or state.phase is CONFIRM:
        return (state.turn,)
    if state.phase in (OPENING, REVEAL):
        return (state.revealer,)
    return ()


_DECK_IDS: Final = frozenset(map(id, CANONICAL))  # a dealt deck holds these (hashing a card is slow)


def initial_state(started: GameStarted) -> State:
    islands = started.islands
    # the shared DECK objects, whose JSON the codec remembers (a decoded event holds copies)
    decks = tuple(
        tuple([card if id(card) in _DECK_IDS else CANONICAL.get(card, card) for card in deck])
        for deck in started.decks
    )
    return State(
        options=started.options,
        first_player=started.first_player,
        hands=tuple(deck[:HAND_SIZE] for deck in decks),
        decks=tuple(deck[HAND_SIZE:] for deck in decks),
        columns=tuple(tuple(() for _ in islands) for _ in range(PLAYERS)),
        islands=islands,
        revealed=tuple(tuple(False for _ in row) for row in islands),
        set_aside=started.set_aside,
        phase=OPENING,
        turn=started.first_player,
        revealer=started.first_player,
        opening_reveals=0,
        cards_played=0,
    )


def _close_turn(d: Draft) -> None:
    """After the play and any reveal: wait for the draw, or pass the turn when the deck is empty."""
    if d.decks[d.turn]:
        d.phase = DRAW
    else:
        d.phase = PLAY
        d.turn = d.revealer = other(d.turn)


# The mutators: one per fact.


def reveal_tile(d: Draft, island: int, slot: int) -> None:
    d.revealed = _put(d.revealed, island, _put(d.revealed[island], slot, True))
    if d.phase is OPENING:
        done = d.opening_reveals = d.opening_reveals + 1
        first = d.first_player
        if done == OPENING_REVEALS:
            d.phase = PLAY
            d.turn = d.revealer = first
        else:
            d.revealer = first if done % 2 == 0 else other(first)
    elif all(map(all, d.revealed)):
        d.phase = OVER  # the game ends the moment the last tile shows
    else:
        _close_turn(d)


def play_card(d: Draft, seat: int, card: Card, island: int, side: int) -> None:
    d.hands = _put(d.hands, seat, _without(d.hands[seat], card))
    d.columns = _put(d.columns, side, _put(d.columns[side], island, (*d.columns[side][island], card)))
    d.cards_played += 1
    if card.kind is EQUIPMENT:
        d.phase = REVEAL
        d.revealer = seat
    elif d.options.explicit_end_turn:
        d.phase = CONFIRM
        d.reveal_after_confirm = card.kind is DYNAMITE
    elif card.kind is DYNAMITE:
        d.phase = REVEAL
        d.revealer = other(seat)
    else:
        _close_turn(d)


def draw_card(d: Draft, seat: int) -> None:
    """`seat` drew the top card of its deck, which closes its turn."""
    deck = d.decks[seat]
    d.hands = _put(d.hands, seat, (*d.hands[seat], deck[0]))
    d.decks = _put(d.decks, seat, deck[1:])
    d.phase = PLAY
    d.turn = d.revealer = other(seat)


def confirm_turn(d: Draft, seat: int) -> None:
    if d.reveal_after_confirm:
        d.phase = REVEAL
        d.revealer = other(seat)
        d.reveal_after_confirm = False
    else:
        _close_turn(d)


def end_game(d: Draft) -> None:
    d.set_aside_public = True


def evolve(state: State, event: Event) -> State:
    d = thaw(state)
    if isinstance(event, CardPlayed):
        play_card(d, event.seat, event.card, event.island, event.side)
    elif isinstance(event, TileRevealed):
        reveal_tile(d, event.island, event.slot)
    elif isinstance(event, CardDrawn):
        deck = d.decks[event.seat]
        if not deck or deck[0] != event.card:
            raise ValueError(f"card_drawn does not match the top of seat {event.seat}'s deck")
        draw_card(d, event.seat)
    elif isinstance(event, TurnConfirmed):
        if d.phase is not CONFIRM or event.seat != d.turn:
            raise ValueError("turn_confirmed does not fit the state")
        confirm_turn(d, event.seat)
    elif isinstance(event, GameEnded):
        end_game(d)
    else:
        raise ValueError("game_started begins a stream; fold it with initial_state")
    return freeze(d)
