"""The games catalogue: what each registered game declares, for lobbies and frontends."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from app.games.codec import JSON
from app.games.core import Game
from app.service.errors import NotFound


def game_summary(game: Game[Any, Any, Any]) -> dict[str, JSON]:
    info = game.info
    return {
        "name": info.name,
        "title": info.title,
        "min_players": info.min_players,
        "max_players": info.max_players,
        "hidden_information": info.hidden_information,
        "chance": info.chance,
    }


def list_games(games: Mapping[str, Game[Any, Any, Any]]) -> list[dict[str, JSON]]:
    return [game_summary(games[name]) for name in sorted(games)]


def describe_game(games: Mapping[str, Game[Any, Any, Any]], name: str) -> dict[str, JSON]:
    game = games.get(name)
    if game is None:
        raise NotFound(f"unknown game {name!r}", {"known": sorted(games)})
    schemas = game.schemas()
    return {
        **game_summary(game),
        "options_schema": schemas["options"],
        "setup_schema": schemas["setup"],
        "catalogue": game.catalogue(),
    }
