"""What a bot is given: one seat's information set, and nothing else.

`InfoSet` is the only input of every level's `choose`: the game's name, the seat, the match's game
events redacted for that seat (JSON, in order: `to_json(game.redact(event, seat))`) and the seat's
legal actions (decoded actions of the game). It holds no engine state, so a bot cannot see another
seat's cards or the deck order; whatever it needs about them it samples from the history
(`app.games.samplers`). `observe` builds an `InfoSet` through the real redaction.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from app.games.codec import JSON, to_json
from app.games.core import AnyGame


@dataclass(frozen=True, slots=True)
class InfoSet:
    """One seat's information: its redacted history and its legal actions (see the module doc)."""

    game: str
    seat: int
    history: tuple[JSON, ...]
    legal_actions: tuple[object, ...]


def observe(game: AnyGame, seat: int, events: Iterable[object], legal_actions: Iterable[object]) -> InfoSet:
    """The `InfoSet` of `seat`: every event redacted for it (`redact` may return JSON or a dataclass;
    both become JSON), with its legal actions."""
    history = tuple(to_json(game.redact(event, seat)) for event in events)
    return InfoSet(game.info.name, seat, history, tuple(legal_actions))
