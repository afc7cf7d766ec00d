"""The orders a Yutakâ player sends (JSON via `app.games.codec`; islands and slots count from 0).

- `{"type": "reveal", "island": 2, "slot": 1}`: turn a face-down island tile face up (in the
  opening, after your equipment card, or after the opponent's dynamite).
- `{"type": "play", "card": {"kind": "dagger", "value": 3}, "island": 0}`: play a card from your
  hand onto that island; typed cards go on your side, dynamite on the opponent's side.
- `{"type": "end_turn"}`: with the option explicit_end_turn, end your turn after a treasure card
  or dynamite (the draw, or the opponent's reveal, follows).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, ClassVar

from app.games.codec import Doc, encode_once
from app.games.yutaka.components import ISLANDS, SLOTS_PER_ISLAND, Card

# Not bounded here: an island or slot that does not exist is refused by the rules (illegal_action
# with the reason no_such_tile / no_such_island), as every other impossible move.
Island = Annotated[int, Doc(f"Island index, 0–{ISLANDS - 1}.")]


@dataclass(frozen=True, slots=True)
class Reveal:
    """Turn a face-down island tile face up: in the opening (four reveals, player 1 first), after
    your own equipment card, or after the opponent's dynamite. With stacked archipelagos only the
    uppermost face-down tile of an island may be revealed."""

    TYPE: ClassVar[str] = "reveal"
    island: Island
    slot: Annotated[int, Doc(f"Tile slot, 0–{SLOTS_PER_ISLAND - 1} (0 is the top).")]


@dataclass(frozen=True, slots=True)
class Play:
    """Play a card of your hand onto an island: a treasure or equipment card on your side, dynamite
    on the opponent's side (at most five cards per side and island)."""

    TYPE: ClassVar[str] = "play"
    card: Annotated[Card, Doc("A card of your hand.")]
    island: Island


@dataclass(frozen=True, slots=True)
class EndTurn:
    """End your turn after a treasure card or dynamite; legal only with the option
    explicit_end_turn. Your draw follows, or after dynamite the opponent's reveal."""

    TYPE: ClassVar[str] = "end_turn"


Action = Reveal | Play | EndTurn
ACTION_TYPES: dict[str, type[Action]] = {cls.TYPE: cls for cls in (Reveal, Play, EndTurn)}
for _cls in (Reveal, Play, EndTurn):
    encode_once(_cls)  # legal actions are shared objects (see `rules`), so their JSON is too
