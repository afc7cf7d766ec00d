"""The games catalogue: what each registered game declares, for lobbies, frontends and SDKs."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from app.games.codec import JSON
from app.games.core import AnyGame
from app.matches.contract import wire_schemas
from app.service.context import Context
from app.service.errors import NotFound


@dataclass(frozen=True, slots=True)
class GameSummary:
    name: str
    title: str
    min_players: int
    max_players: int
    hidden_information: bool
    chance: bool


@dataclass(frozen=True, slots=True)
class GameList:
    items: tuple[GameSummary, ...]


@dataclass(frozen=True, slots=True)
class GameDetail(GameSummary):
    options_schema: Mapping[str, JSON]
    setup_schema: Mapping[str, JSON]
    schemas: Mapping[str, JSON]
    catalogue: JSON


def _summary(game: AnyGame) -> GameSummary:
    i = game.info
    return GameSummary(i.name, i.title, i.min_players, i.max_players, i.hidden_information, i.chance)


def list_games(ctx: Context) -> GameList:
    return GameList(tuple(_summary(ctx.games[name]) for name in sorted(ctx.games)))


def describe_game(ctx: Context, name: str) -> GameDetail:
    game = ctx.games.get(name)
    if game is None:
        raise NotFound(f"unknown game {name!r}", {"known": sorted(ctx.games)})
    schemas = wire_schemas(game)
    s = _summary(game)
    return GameDetail(
        s.name, s.title, s.min_players, s.max_players, s.hidden_information, s.chance,
        schemas["options"], schemas["setup"], schemas, game.catalogue(),
    )  # fmt: skip
