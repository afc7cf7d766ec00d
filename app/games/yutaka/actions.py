"""The orders a Yutakâ player sends (JSON via `app.games.codec`; islands and slots count from 0).

- `{"type": "reveal", "island": 2, "slot": 1}`: turn a face-down island tile face up (in the
  opening, after your equipment card, or after the opponent's dynamite).
- `{"type": "play", "card": {"kind": "dagger", "value": 3}, "island": 0}`: play a card from your
  hand onto that island; typed cards go on your side, dynamite on the opponent's side.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from app.games.yutaka.components import Card


@dataclass(frozen=True, slots=True)
class Reveal:
    TYPE: ClassVar[str] = "reveal"
    island: int
    slot: int


@dataclass(frozen=True, slots=True)
class Play:
    TYPE: ClassVar[str] = "play"
    card: Card
    island: int


Action = Reveal | Play
ACTION_TYPES: dict[str, type[Action]] = {cls.TYPE: cls for cls in (Reveal, Play)}
