"""The games this server hosts, by name. Add a game by importing its `GAME` here."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from app.games.core import Game

GAMES: Mapping[str, Game[Any, Any, Any]] = {}


def get_game(name: str) -> Game[Any, Any, Any] | None:
    return GAMES.get(name)
