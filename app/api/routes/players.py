"""`/v1/players`: a player key for many matches, "my matches"."""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Query

from app.api.deps import AppSettings, CallerDep, Ctx
from app.api.errors import error_responses
from app.api.schemas import (
    ASCII_DIGITS,
    MAX_LIMIT,
    MAX_OFFSET,
    CreatePlayer,
    PlayerKeyOut,
    PlayerMatchPage,
    PlayerOut,
)
from app.matches.fold import Status
from app.service import players

router = APIRouter(prefix="/v1/players", tags=["players"])


@router.post(
    "",
    operation_id="createPlayer",
    status_code=201,
    response_model=PlayerKeyOut,
    summary="Create a player; returns its secret key, once",
    description="No password, no e-mail: the key (`pk_…`) is the identity, like a personal API token. "
    "Join seats with it (`Authorization: Bearer <key>`) and it authorizes them in every match.",
    responses=error_responses(409, 413, 422),
)
async def create_player(body: CreatePlayer, ctx: Ctx) -> PlayerKeyOut:
    return PlayerKeyOut.model_validate(await players.create_player(ctx, body.name), from_attributes=True)


@router.get(
    "/me",
    operation_id="getMe",
    response_model=PlayerOut,
    summary="The player of the key",
    responses=error_responses(401),
)
async def me(caller: CallerDep, ctx: Ctx) -> PlayerOut:
    return PlayerOut.model_validate(await players.me(ctx, caller), from_attributes=True)


@router.post(
    "/me/keys",
    operation_id="rotateKey",
    status_code=201,
    response_model=PlayerKeyOut,
    summary="A new key for the player (the old one stops working at once)",
    responses=error_responses(401),
)
async def rotate_key(caller: CallerDep, ctx: Ctx) -> PlayerKeyOut:
    return PlayerKeyOut.model_validate(await players.rotate_key(ctx, caller), from_attributes=True)


@router.get(
    "/me/matches",
    operation_id="myMatches",
    response_model=PlayerMatchPage,
    summary="The player's matches, newest activity first",
    description="`to_act=me`: only matches where the player must act now.",
    responses=error_responses(401, 422),
)
async def my_matches(
    caller: CallerDep,
    ctx: Ctx,
    settings: AppSettings,
    status: Status | None = None,
    game: Annotated[str | None, Query(min_length=1, max_length=64, pattern=r"^[a-z0-9_]+$")] = None,
    to_act: Literal["me"] | None = None,
    limit: Annotated[
        int | None, Query(ge=1, le=MAX_LIMIT, description="Page size (capped by the server)."), ASCII_DIGITS
    ] = None,
    offset: Annotated[int, Query(ge=0, le=MAX_OFFSET), ASCII_DIGITS] = 0,
) -> PlayerMatchPage:
    size = min(limit or settings.page_size, settings.max_page_size)
    page = await players.my_matches(
        ctx, caller, status=status, game=game, to_act=to_act == "me", limit=size, offset=offset
    )
    return PlayerMatchPage.model_validate(page, from_attributes=True)
