"""`/v1/seeks`: quick play. Post a seek with a player key; the matcher seats it in a match."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query

from app.api.deps import CallerDep, Mm, RecordId
from app.api.errors import error_responses
from app.api.schemas import MAX_LIMIT
from app.api.seek_schemas import CreateSeek, SeekOut, SeekPage
from app.service import seeks

router = APIRouter(tags=["seeks"])

Limit = Annotated[int, Query(ge=1, le=MAX_LIMIT, description="How many seeks at most.")]


@router.post(
    "/v1/seeks",
    operation_id="createSeek",
    status_code=201,
    response_model=SeekOut,
    summary="Seek a match (quick play)",
    description="The seek waits in the database until the matcher seats it in a match with compatible "
    "seekers (the same game, options and settings, a common player count, opponents each accepts), "
    "it is cancelled, or it expires. The player learns of the match on its personal stream "
    "(`seek_matched`) and in `listMySeeks`. A player holds at most a few open seeks (409 "
    "`too_many_seeks`); see docs/matchmaking.md.",
    responses=error_responses(401, 409, 413, 422),
)
async def create_seek(body: CreateSeek, caller: CallerDep, mm: Mm) -> SeekOut:
    return SeekOut.of(await seeks.create_seek(mm, caller, body.request()))


@router.get(
    "/v1/seeks",
    operation_id="listSeeks",
    response_model=SeekPage,
    summary="Open seeks, oldest first (public)",
    responses=error_responses(422),
)
async def list_seeks(
    mm: Mm,
    game: Annotated[str | None, Query(min_length=1, max_length=64, pattern=r"^[a-z0-9_]+$")] = None,
    limit: Limit = 50,
) -> SeekPage:
    return SeekPage(items=[SeekOut.of(s) for s in await seeks.open_seeks(mm, game=game, limit=limit)])


@router.get(
    "/v1/players/me/seeks",
    operation_id="listMySeeks",
    response_model=SeekPage,
    summary="The player's seeks in every status, newest first",
    responses=error_responses(401, 422),
)
async def my_seeks(caller: CallerDep, mm: Mm, limit: Limit = 50) -> SeekPage:
    return SeekPage(items=[SeekOut.of(s) for s in await seeks.my_seeks(mm, caller, limit=limit)])


@router.delete(
    "/v1/seeks/{seek_id}",
    operation_id="cancelSeek",
    response_model=SeekOut,
    summary="Cancel an open seek",
    responses=error_responses(401, 403, 404, 409, 422),
)
async def cancel_seek(seek_id: RecordId, caller: CallerDep, mm: Mm) -> SeekOut:
    return SeekOut.of(await seeks.cancel_seek(mm, caller, seek_id))
