"""Test helpers for Yutakâ: card and tile shorthands, explicit setups and a scripted match driver."""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import Any

from app.games.codec import JSON, to_json
from app.games.core import IllegalAction
from app.games.yutaka import GAME
from app.games.yutaka.actions import Action, Play, Reveal
from app.games.yutaka.components import DECK, DYNAMITE, Card, CardKind, Tile, TileType
from app.games.yutaka.events import Event
from app.games.yutaka.options import parse_options
from app.games.yutaka.state import State

DYN = DYNAMITE


def c(kind: str, value: int = 0) -> Card:
    """A card: `c("dagger", 3)`, `c("dynamite")`."""
    return Card(CardKind(kind), value)


def t(kind: str, value: int) -> Tile:
    return Tile(TileType(kind), value)


def deck(*first: Card) -> tuple[Card, ...]:
    """A full deck whose top cards are `first` (in order), the rest in canonical order."""
    rest = list(DECK)
    for card in first:
        rest.remove(card)  # ValueError: more copies than the deck holds
    return (*first, *rest)


def canonical_layout(**options: Any) -> tuple[list[list[Tile]], list[Tile]]:
    """The match's tiles in canonical order: 4 per island row by row, the last 5 set aside."""
    tiles = list(parse_options(2, options).tiles())
    return [tiles[i * 4 : i * 4 + 4] for i in range(5)], tiles[20:]


def setup_json(
    decks: Sequence[Sequence[Card]] | None = None,
    islands: Sequence[Sequence[Tile]] | None = None,
    set_aside: Sequence[Tile] | None = None,
    first_player: int | None = None,
    **options: Any,
) -> JSON:
    """An explicit setup as JSON; unspecified parts are canonical (never random)."""
    default_islands, default_aside = canonical_layout(**options)
    out: dict[str, Any] = {
        "decks": to_json(decks if decks is not None else (DECK, DECK)),
        "islands": to_json(islands if islands is not None else default_islands),
        "set_aside": to_json(set_aside if set_aside is not None else default_aside),
    }
    if first_player is not None:
        out["first_player"] = first_player
    return out


class Match:
    """A match driven through the public protocol, remembering every event."""

    def __init__(self, setup: JSON | None = None, seed: int = 0, **options: Any) -> None:
        self.options = GAME.parse_options(2, options)
        self.rng = random.Random(seed)
        first = GAME.start(2, self.options, self.rng, setup)
        self.events: list[Event] = [first]
        self.state: State = GAME.initial_state(first)

    def act(self, seat: int, action: Action) -> tuple[Event, ...]:
        events = GAME.decide(self.state, seat, action, self.rng)
        for event in events:
            self.state = GAME.evolve(self.state, event)
        self.events.extend(events)
        return events

    def play(self, seat: int, card: Card, island: int) -> tuple[Event, ...]:
        return self.act(seat, Play(card, island))

    def reveal(self, seat: int, island: int | None = None, slot: int | None = None) -> tuple[Event, ...]:
        """Reveal the given tile, or the first one `seat` may reveal."""
        if island is None or slot is None:
            first = GAME.legal_actions(self.state, seat)[0]
            assert isinstance(first, Reveal)
            island, slot = first.island, first.slot
        return self.act(seat, Reveal(island, slot))

    def opening(self) -> None:
        """The four opening reveals, each by the seat whose decision it is."""
        for _ in range(4):
            self.reveal(self.to_act())

    def to_act(self) -> int:
        (seat,) = GAME.to_act(self.state)
        return seat

    def turn(self, card: Card, island: int, reveal: tuple[int, int] | None = None) -> tuple[Event, ...]:
        """A whole turn of the seat to act: the play, and the reveal it calls for (by whoever owns it)."""
        seat = self.to_act()
        events = self.play(seat, card, island)
        if self.state.phase.value == "reveal":
            revealer = self.to_act()
            events += self.reveal(revealer, *(reveal or (None, None)))
        return events

    def view(self, seat: int | None) -> JSON:
        """The viewer's view as the JSON a client receives (without the match envelope)."""
        return to_json(GAME.view(self.state, seat))

    def refused(self, seat: int, action: Action) -> IllegalAction:
        before = self.state
        try:
            GAME.decide(self.state, seat, action, self.rng)
        except IllegalAction as e:
            assert self.state is before
            return e
        raise AssertionError(f"{action} was accepted")


def seen(event: Event, seat: int | None) -> JSON:
    """`event` redacted for `seat`, as the JSON a client receives."""
    return to_json(GAME.redact(event, seat))


def types(events: Iterable[Event]) -> list[str]:
    return [e.TYPE for e in events]


# The 16 cards that call for no reveal, and the 8 that do (equipment, then dynamite).
NON_REVEAL = [c(kind, v) for kind in ("idol", "dagger", "amphora", "crystal") for v in (1, 2, 3, 4)]
REVEAL_FIRST = [c("equipment", v) for v in (1, 2, 3, 4)] + [DYN] * 4


def rush() -> Match:
    """Both players play their eight reveal cards first: the game ends after 16 plays."""
    match = Match(setup_json([deck(*REVEAL_FIRST), deck(*REVEAL_FIRST)]))
    match.opening()
    for i, card in enumerate(REVEAL_FIRST):
        for _seat in (0, 1):
            match.turn(card, i % 4)
    return match
