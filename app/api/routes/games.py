"""`/v1/games`: the catalogue of games this server hosts, with each game's payload schemas."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path

from app.api.deps import Ctx
from app.api.errors import error_responses
from app.api.schemas import GameDetail, GameList
from app.service import catalogue

router = APIRouter(prefix="/v1/games", tags=["games"])


@router.get("", operation_id="listGames", response_model=GameList, summary="List the games")
async def list_games(ctx: Ctx) -> GameList:
    return GameList.model_validate(catalogue.list_games(ctx), from_attributes=True)


@router.get(
    "/{game}",
    operation_id="getGame",
    response_model=GameDetail,
    summary="A game: player counts, payload schemas, drawing data",
    responses=error_responses(404, 422),
)
async def get_game(
    game: Annotated[str, Path(min_length=1, max_length=64, pattern=r"^[a-z0-9_]+$")], ctx: Ctx
) -> GameDetail:
    return GameDetail.model_validate(catalogue.describe_game(ctx, game), from_attributes=True)
