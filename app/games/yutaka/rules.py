"""What a seat may do and what it causes: `legal_actions(state, seat)` and `decide(state, seat,
action) -> events` (docs/rules.md §2.3–2.4). `decide` checks the order, refusing it with `IllegalAction`
in words the acting player understands, and returns the facts: the play, reveal or end of turn,
then the draw that closes the turn, or the end of the game when the last face-down island tile
shows. `is_barrier` and `finish_action` tell the match layer where a turn may no longer be undone
and how it is ended (the option explicit_end_turn makes every turn end with `end_turn`).
"""

from __future__ import annotations

import functools
import random
from collections.abc import Iterator, Mapping
from types import MappingProxyType
from typing import Final

from app.games.codec import to_json
from app.games.core import ErrorCode, IllegalAction, Outcome
from app.games.yutaka.actions import Action, EndTurn, Play, Reveal
from app.games.yutaka.components import (
    DECK,
    ISLANDS,
    MAX_CARDS_PER_SIDE,
    SLOTS_PER_ISLAND,
    Card,
    CardKind,
)
from app.games.yutaka.events import CardDrawn, CardPlayed, Event, GameEnded, TileRevealed, TurnConfirmed
from app.games.yutaka.scoring import FinalScore, score_game
from app.games.yutaka.state import (
    CONFIRM,
    DRAW,
    DYNAMITE,
    EQUIPMENT,
    OPENING,
    OVER,
    PLAY,
    REVEAL,
    Draft,
    Phase,
    State,
    StateLike,
    confirm_turn,
    draw_card,
    end_game,
    freeze,
    other,
    play_card,
    reveal_tile,
    revealable,
    revealable_tiles,
    thaw,
    to_act,
)

# Legal actions are shared objects (their JSON is encoded once): every play of every card of the
# deck onto every island, every reveal, and end_turn.
PLAYS: Final[Mapping[Card, tuple[Play, ...]]] = MappingProxyType(
    {card: tuple(Play(card, i) for i in range(ISLANDS)) for card in DECK}
)
REVEALS: Final = tuple(tuple(Reveal(i, s) for s in range(SLOTS_PER_ISLAND)) for i in range(ISLANDS))
END_TURN: Final = EndTurn()


def target_side(seat: int, kind: CardKind) -> int:
    """Typed cards go on the player's own side, dynamite on the opponent's."""
    return other(seat) if kind is DYNAMITE else seat


def legal_actions(state: State, seat: int) -> tuple[Action, ...]:
    phase = state.phase
    if phase is PLAY or phase is CONFIRM:
        if seat != state.turn:
            return ()
        if phase is CONFIRM:
            return (END_TURN,)
    elif (phase is OPENING or phase is REVEAL) and seat == state.revealer:
        return _reveals(state.revealed, state.options.stacked)
    else:
        return ()
    columns = state.columns
    own = _room(tuple(map(len, columns[seat])))
    theirs: tuple[int, ...] | None = None
    out: list[Action] = []
    for plays, dynamite in _distinct_plays(state.hands[seat]):
        islands = own
        if dynamite:  # played on the opponent's side
            if theirs is None:
                theirs = _room(tuple(map(len, columns[other(seat)])))
            islands = theirs
        out.extend(plays if len(islands) == ISLANDS else [plays[i] for i in islands])
    return tuple(out)


# Each card's plays and whether it is dynamite, by card and by the identity of the DECK's objects
# (engine states hold those, and hashing a card is slow); identical dynamite cards are one object.
_BY_CARD: Final = {card: (plays, card.kind is CardKind.DYNAMITE) for card, plays in PLAYS.items()}
_BY_ID: Final = {id(card): _BY_CARD[card] for card in DECK}


def _distinct_plays(hand: tuple[Card, ...]) -> list[tuple[tuple[Play, ...], bool]]:
    """The plays of each distinct card of `hand`, in hand order, and whether it is dynamite."""
    try:
        return [_BY_ID[i] for i in dict.fromkeys(map(id, hand))]
    except KeyError:  # a card object not from DECK (a decoded copy): by value
        return [_BY_CARD[card] for card in dict.fromkeys(hand)]


@functools.cache
def _room(lengths: tuple[int, ...]) -> tuple[int, ...]:
    """The islands of a side whose columns have these lengths that still take a card."""
    return tuple(i for i, n in enumerate(lengths) if n < MAX_CARDS_PER_SIDE)


@functools.lru_cache(maxsize=4096)
def _reveals(revealed: tuple[tuple[bool, ...], ...], stacked: bool) -> tuple[Reveal, ...]:
    return tuple(REVEALS[i][s] for i, s in revealable_tiles(revealed, stacked))


def finish_action(state: State, seat: int) -> Action | None:
    """`end_turn` when `seat` must confirm its play (option explicit_end_turn), else None."""
    return END_TURN if state.phase is CONFIRM and seat == state.turn else None


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
    if kind is EQUIPMENT or state.options.explicit_end_turn:
        return False
    return kind is DYNAMITE or not state.decks[event.seat]


def _illegal(message: str, reason: str) -> IllegalAction:
    return IllegalAction(ErrorCode.ILLEGAL_ACTION, message, reason)


def _check_turn(state: StateLike, seat: int) -> None:
    phase = state.phase
    if phase is PLAY or phase is CONFIRM:  # `seat in to_act(state)`, without building the tuple
        if seat == state.turn:
            return
    elif (phase is OPENING or phase is REVEAL) and seat == state.revealer:
        return
    if phase is OVER:
        raise IllegalAction(ErrorCode.MATCH_OVER, "The game is over.", "game_over")
    acting = to_act(state)
    if seat not in acting:
        who = f"seat {acting[0]}" if acting else "the end of the turn"
        raise IllegalAction(
            ErrorCode.NOT_YOUR_TURN, f"It is not your decision: waiting for {who}.", "not_your_turn"
        )


def _check_phase(state: StateLike, wanted: Phase) -> None:
    if state.phase is wanted:
        return
    if state.phase is PLAY:
        raise _illegal("You must play a card now.", "play_expected")
    if state.phase is CONFIRM:
        raise _illegal("You have played your card: end your turn with end_turn.", "end_turn_expected")
    raise _illegal("You must reveal a face-down tile now.", "reveal_expected")


def _check_reveal(state: StateLike, action: Reveal) -> None:
    if state.phase is PLAY or state.phase is CONFIRM:
        _check_phase(state, REVEAL)
    if not (0 <= action.island < ISLANDS and 0 <= action.slot < SLOTS_PER_ISLAND):
        raise _illegal(
            f"There is no tile at island {action.island}, slot {action.slot} "
            f"(islands 0–{ISLANDS - 1}, slots 0–{SLOTS_PER_ISLAND - 1}).",
            "no_such_tile",
        )
    if state.revealed[action.island][action.slot]:
        raise _illegal("That tile is already face up; choose a face-down tile.", "tile_already_revealed")
    if state.options.stacked and (action.island, action.slot) not in revealable(state):
        raise _illegal(
            "That tile is covered; reveal the uppermost face-down tile of an island.", "tile_covered"
        )


def _check_play(state: StateLike, seat: int, action: Play) -> int:
    """Refuse `action` unless it is legal; the side its card goes on."""
    if state.phase is not PLAY:
        _check_phase(state, PLAY)
    card = action.card
    if card not in state.hands[seat]:
        raise _illegal(f"You have no {card} in your hand.", "card_not_in_hand")
    if not 0 <= action.island < ISLANDS:
        raise _illegal(f"There is no island {action.island} (islands 0–{ISLANDS - 1}).", "no_such_island")
    side = other(seat) if card.kind is DYNAMITE else seat  # `target_side`
    if len(state.columns[side][action.island]) >= MAX_CARDS_PER_SIDE:
        whose = "your opponent's" if side != seat else "your"
        raise _illegal(
            f"{whose.capitalize()} side of island {action.island} already holds {MAX_CARDS_PER_SIDE} cards.",
            "column_full",
        )
    return side


def decide(state: State, seat: int, action: Action, rng: random.Random | None = None) -> tuple[Event, ...]:
    """The events of `seat`'s `action`. `rng` is not used: after the deal there is no chance (draws
    take the dealt order); it is there for the `Game` protocol."""
    log: list[Event] = []
    _act(thaw(state), seat, action, log)
    return tuple(log)


def advance(
    state: State, seat: int, action: Action, rng: random.Random | None = None, log: list[Event] | None = None
) -> State:
    """The state after `seat`'s `action`: `decide` and `evolve` in one go (the same checks and the
    same state as folding the events), appending the events to `log` when one is given; without a
    log none are built, which is what playouts and searches want. `rng` is not used (see `decide`)."""
    d = thaw(state)
    _act(d, seat, action, log)
    return freeze(d)


def _act(d: Draft, seat: int, action: Action, log: list[Event] | None) -> None:
    """Check `action`, apply it, then what closes the turn: the draw, or the end of the game."""
    _check_turn(d, seat)
    if isinstance(action, Reveal):
        _check_reveal(d, action)
        if log is not None:
            log.append(TileRevealed(seat, action.island, action.slot, d.islands[action.island][action.slot]))
        reveal_tile(d, action.island, action.slot)
    elif isinstance(action, Play):
        side = _check_play(d, seat, action)
        card = action.card
        if log is not None:
            log.append(CardPlayed(seat, card, action.island, side))
        play_card(d, seat, card, action.island, side)
    elif isinstance(action, EndTurn):
        if not d.options.explicit_end_turn:
            raise _illegal("Turns end by themselves in this match; play a card.", "no_explicit_end_turn")
        _check_phase(d, CONFIRM)
        if log is not None:
            log.append(TurnConfirmed(seat))
        confirm_turn(d, seat)
    else:
        raise _illegal("Unknown action.", "unknown_action")
    if d.phase is DRAW:
        if log is not None:
            log.append(CardDrawn(d.turn, d.decks[d.turn][0]))
        draw_card(d, d.turn)
    elif d.phase is OVER:
        if log is not None:
            final = score_game(d.columns, d.islands, d.options.tie_break)
            log.append(
                GameEnded(
                    islands=final.islands,
                    totals=final.totals,
                    equipment_tiles=final.equipment_tiles,
                    equipment_value=final.equipment_value,
                    winners=final.winners,
                    decided_by=final.decided_by,
                    set_aside=d.set_aside,
                )
            )
        end_game(d)


def outcome(state: State) -> Outcome | None:
    """Scores and winners once the last face-down island tile is revealed; `details` holds the
    per-island awards (`scoring.Award` as JSON), the tie-break figures and `decided_by`."""
    if state.phase is not OVER:
        return None
    final = score_game(state.columns, state.islands, state.options.tie_break)
    return Outcome(final.totals, final.winners, Details(final))


class Details(Mapping[str, object]):
    """An outcome's `details` (a read-only mapping), encoded when first read: random playouts and
    searches read only the scores and winners, and encoding every award was about a tenth of a
    random game (`python -m bench.engine`)."""

    __slots__ = ("_final", "_json")

    def __init__(self, final: FinalScore) -> None:
        self._final = final
        self._json: dict[str, object] | None = None

    def _data(self) -> dict[str, object]:
        if self._json is None:
            final = self._final
            self._json = {
                "islands": to_json(final.islands),
                "totals": list(final.totals),
                "equipment_tiles": list(final.equipment_tiles),
                "equipment_value": list(final.equipment_value),
                "decided_by": final.decided_by,
            }  # the set-aside tiles are shown by the game_ended event that follows, not here
        return self._json

    def __getitem__(self, key: str) -> object:
        return self._data()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._data())

    def __len__(self) -> int:
        return len(self._data())

    def __repr__(self) -> str:
        return repr(self._data())
