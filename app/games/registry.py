"""The games this server hosts, by name. Add a game by importing its `GAME` here."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from app.games.core import Game
from app.games.mount_drago import GAME as MOUNT_DRAGO_GAME
from app.games.yutaka import GAME as YUTAKA_GAME

GAMES: Mapping[str, Game[Any, Any, Any]] = {
    "mount_drago": MOUNT_DRAGO_GAME,
    "yutaka": YUTAKA_GAME,
}


def get_game(name: str) -> Game[Any, Any, Any] | None:
    return GAMES.get(name)
