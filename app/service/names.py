"""Player names: 1 to 32 printable characters, no space at either end, unique within a deployment
regardless of case (compared by `name_key`, Unicode case folding), the built-in bots' names
(`random`, `greedy`, `ismcts`) reserved. The stores keep `name_key` under a unique index and raise
`NameInUse` when an insert meets it (`app.service.players` answers 409 `name_taken`)."""

from __future__ import annotations

from typing import Final

from app.service.errors import NameTaken, ValidationFailed
from app.service.ratings import BOT_LEVELS

MAX_PLAYER_NAME: Final = 32
RESERVED: Final = frozenset(BOT_LEVELS)  # the built-in bot players' names


class NameInUse(ValueError):
    """A store refused a player whose `name_key` another player has."""


def name_key(name: str) -> str:
    """What names are compared by: case-folded (`Ada`, `ADA` and `ada` are one name)."""
    return name.casefold()


def player_name(name: str) -> str:
    """`name` if it is a valid player name, else `ValidationFailed` (or `NameTaken` if reserved)."""
    if not 1 <= len(name) <= MAX_PLAYER_NAME or not name.isprintable() or name != name.strip():
        raise ValidationFailed(
            f"a player name has 1 to {MAX_PLAYER_NAME} printable characters and no space at either end",
            {"field": "name"},
        )
    if name_key(name) in RESERVED:
        raise NameTaken("this name belongs to a built-in bot", {"field": "name"})
    return name
