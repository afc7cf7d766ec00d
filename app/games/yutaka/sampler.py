"""Determinization for Yutakâ: complete hidden states sampled from one seat's information.

A seat's information is the match's game events redacted for it, as JSON, in order
(`to_json(redact(event, seat))`). `prepare(seat, history)` folds that history once, with the
engine's own `evolve`, into a *template* whose public parts (columns, face-up tiles, phase, turn,
counts) and the seat's own hand are exact and whose hidden parts are placeholders;
`Determinizer.sample(rng)` fills the hidden parts. `sample(seat, history, rng)` does both at once.

The model is the standard determinization (opponents' choices are treated as uninformative), under
which what the seat has not seen is exchangeable, so a sample is uniform over the assignments of
the physical pieces consistent with the seat's information:

- the opponent's hand and deck order: its 24 cards minus those it played, shuffled, the hand of
  its public size first;
- the seat's own deck order: its 24 cards minus its hand and its played cards, shuffled;
- the tiles: the match's 25 tiles minus the face-up ones go to the face-down island slots and the
  set-aside tiles. A face-down tile whose type is public (tactika, or a listed type in mixed
  mode) gets a tile of that type; one that shows nothing gets a tile of a type the mode hides; the
  set-aside tiles never show their type and take what is left. With stacked archipelagos the
  tiles are hidden in the same way (only which one may be revealed differs).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import Final, TypeVar

from app.games.codec import JSON, decode_tagged, from_json, to_json
from app.games.frozen import replace
from app.games.yutaka import events as ev
from app.games.yutaka.components import DECK, DYNAMITE, Card, Tile, TileType
from app.games.yutaka.options import Options
from app.games.yutaka.state import State, evolve, face_down, initial_state, other

FILLER: Final = DYNAMITE  # stands for a card the seat cannot see, in the template
FILLER_TILE: Final = Tile(TileType.IDOL, 0)  # stands for a tile nobody has seen
T = TypeVar("T")


class Determinizer:
    """One seat's information, folded once; `sample` draws a complete state consistent with it."""

    __slots__ = (
        "_by_type",
        "_hidden_slots",
        "_hidden_types",
        "_opp",
        "_own",
        "_typed_slots",
        "seat",
        "template",
    )

    def __init__(self, seat: int, history: Sequence[JSON]) -> None:
        self.seat = seat
        self.template, hints, played = _fold(seat, history)
        t = self.template
        opponent = other(seat)
        own = Counter(DECK)
        own.subtract(t.hands[seat])
        own.subtract(played[seat])
        opp = Counter(DECK)
        opp.subtract(played[opponent])
        if min(own.values()) < 0 or min(opp.values()) < 0:
            raise ValueError("the history plays a card more often than a deck holds it")
        if own.total() != len(t.decks[seat]) or opp.total() != len(t.hands[opponent]) + len(
            t.decks[opponent]
        ):
            raise ValueError("the history does not account for every card")
        self._own = tuple(own.elements())
        self._opp = tuple(opp.elements())
        # Tiles: the unseen ones per type, and the face-down slots by what they show.
        unseen = Counter(t.options.tiles())
        unseen.subtract(t.islands[i][s] for i, row in enumerate(t.revealed) for s, up in enumerate(row) if up)
        if t.set_aside_public:
            unseen.subtract(t.set_aside)
        if min(unseen.values()) < 0:
            raise ValueError("the history shows a tile the match does not have")
        known = t.options.known_types or ()  # the types a face-down tile shows (parsed: always set)
        down = face_down(t)
        if any(hints[i][s] not in (*known, None) for i, s in down):
            raise ValueError("a face-down tile shows a type the mode hides")
        self._by_type = {tt: tuple(x for x in unseen.elements() if x.type is tt) for tt in known}
        self._typed_slots = {tt: tuple(p for p in down if hints[p[0]][p[1]] is tt) for tt in known}
        self._hidden_slots = tuple(p for p in down if hints[p[0]][p[1]] is None)
        self._hidden_types = tuple(x for x in unseen.elements() if x.type not in known)
        aside = 0 if t.set_aside_public else len(t.set_aside)
        if unseen.total() != len(face_down(t)) + aside:
            raise ValueError("the history does not account for every tile")

    def sample(self, rng: random.Random) -> State:
        t = self.template
        seat, opponent = self.seat, other(self.seat)
        opp = list(self._opp)
        rng.shuffle(opp)
        n = len(t.hands[opponent])
        own = list(self._own)
        rng.shuffle(own)
        hands = [t.hands[seat], t.hands[seat]]
        hands[opponent] = tuple(opp[:n])
        decks = [tuple(own), tuple(own)]
        decks[opponent] = tuple(opp[n:])
        islands = [list(row) for row in t.islands]
        aside: list[Tile] = []
        for tt, slots in self._typed_slots.items():
            aside.extend(_place(self._by_type[tt], slots, islands, rng))
        aside.extend(_place(self._hidden_types, self._hidden_slots, islands, rng))
        set_aside = t.set_aside
        if not t.set_aside_public:
            rng.shuffle(aside)
            set_aside = tuple(aside)
        return replace(
            t,
            hands=tuple(hands),
            decks=tuple(decks),
            islands=tuple(tuple(row) for row in islands),
            set_aside=set_aside,
        )


def _place(
    tiles: tuple[Tile, ...], slots: tuple[tuple[int, int], ...], islands: list[list[Tile]], rng: random.Random
) -> list[Tile]:
    """Put a uniformly random choice of `tiles` on `slots`; return the others (they are set aside)."""
    pool = list(tiles)
    rng.shuffle(pool)
    for (i, s), tile in zip(slots, pool, strict=False):
        islands[i][s] = tile
    return pool[len(slots) :]


def _started(seat: int, data: JSON) -> tuple[ev.GameStarted, list[list[TileType | None]]]:
    if data.get("type") != "game_started":
        raise ValueError("a history starts with game_started")
    opponent = other(seat)
    hand = tuple(from_json(Card, c) for c in data["hand"])
    decks: list[tuple[Card, ...]] = [(), ()]
    decks[seat] = hand + (FILLER,) * data["deck_sizes"][seat]
    decks[opponent] = (FILLER,) * (data["hand_sizes"][opponent] + data["deck_sizes"][opponent])
    hints = [
        [None if tile["type"] is None else TileType(tile["type"]) for tile in row] for row in data["islands"]
    ]
    started = ev.GameStarted(
        options=from_json(Options, data["options"]),
        first_player=data["first_player"],
        decks=tuple(decks),
        islands=tuple((FILLER_TILE,) * len(row) for row in hints),
        set_aside=(FILLER_TILE,) * data["set_aside_count"],
    )
    return started, hints


def _fold(seat: int, history: Sequence[JSON]) -> tuple[State, list[list[TileType | None]], list[list[Card]]]:
    """The template, what each face-down slot showed at the start, and the cards each seat played."""
    if not history or seat not in (0, 1):
        raise ValueError("a history starts with game_started; seats are 0 and 1")
    started, hints = _started(seat, history[0])
    state = initial_state(started)
    played: list[list[Card]] = [[], []]
    for data in history[1:]:
        event: ev.Event
        if data.get("type") == "card_drawn" and "card" not in data:  # the opponent drew
            event = ev.CardDrawn(data["seat"], state.decks[data["seat"]][0])
        else:
            event = decode_tagged(ev.EVENT_TYPES, data, "event")
        if isinstance(event, ev.CardDrawn) and event.seat == seat:  # put the seat's draw on top
            deck = state.decks[seat]
            state = replace(state, decks=_put(state.decks, seat, (event.card, *deck[1:])))
        elif isinstance(event, ev.CardPlayed):
            played[event.seat].append(event.card)
            if event.seat != seat:  # a placeholder of the opponent's hand becomes the card played
                hand = list(state.hands[event.seat])
                hand[hand.index(FILLER)] = event.card
                state = replace(state, hands=_put(state.hands, event.seat, tuple(hand)))
        elif isinstance(event, ev.TileRevealed):
            row = list(state.islands[event.island])
            row[event.slot] = event.tile
            state = replace(state, islands=_put(state.islands, event.island, tuple(row)))
        elif isinstance(event, ev.GameEnded):
            state = replace(state, set_aside=event.set_aside)
        state = evolve(state, event)
    return state, hints, played


def _put(items: tuple[T, ...], i: int, value: T) -> tuple[T, ...]:
    return (*items[:i], value, *items[i + 1 :])


def prepare(seat: int, history: Sequence[JSON]) -> Determinizer:
    """Fold `seat`'s redacted history once, for many samples."""
    return Determinizer(seat, history)


def sample(seat: int, history: Sequence[JSON], rng: random.Random) -> State:
    """One complete state consistent with what `seat` knows (see the module docstring)."""
    return Determinizer(seat, history).sample(rng)


def hidden_json(state: State) -> JSON:
    """The hidden parts of `state`: both hands, both decks (top first), the face-down island tiles
    and the set-aside tiles."""
    return {
        "hands": [to_json(h) for h in state.hands],
        "decks": [to_json(d) for d in state.decks],
        "face_down": [
            {"island": i, "slot": s, "tile": to_json(state.islands[i][s])} for i, s in face_down(state)
        ],
        "set_aside": to_json(state.set_aside),
    }
