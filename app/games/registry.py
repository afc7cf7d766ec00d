"""The games this server hosts, by name. Add a game by importing its `GAME` here."""

from __future__ import annotations

from collections.abc import Mapping

from app.games.core import AnyGame
from app.games.mount_drago import GAME as MOUNT_DRAGO_GAME
from app.games.yutaka import GAME as YUTAKA_GAME

GAMES: Mapping[str, AnyGame] = {
    "mount_drago": MOUNT_DRAGO_GAME,
    "yutaka": YUTAKA_GAME,
}


def get_game(name: str) -> AnyGame | None:
    return GAMES.get(name)
