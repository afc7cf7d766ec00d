"""`GET /v1/players/{player_id}/matches?status=finished&format=ndjson`: a player's finished matches,
one JSON object per line (`ExportLine`, published in the OpenAPI components), streamed."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import datetime
from typing import Annotated, Literal

import orjson
from fastapi import APIRouter, Query
from fastapi.responses import StreamingResponse
from pydantic import Field

from app.api.deps import CREDENTIAL_OPTIONAL, Ctx, MaybeCaller
from app.api.errors import error_responses
from app.api.routes.ratings import MatchRatingsOut, PlayerId
from app.api.schemas import MatchOut, Out, RevealOut
from app.service import exports

router = APIRouter(tags=["ratings"])

NDJSON = "application/x-ndjson"


class ExportLine(Out):
    """One line of a player's export: one finished match, self-contained."""

    summary: MatchOut
    seat: int = Field(description="The exported player's seat.")
    ranks: list[int] = Field(description="Each seat's final rank: 1 best, ties share, seats that left last.")
    ratings: MatchRatingsOut = Field(description="Rating changes (rated matches; else `rated` false).")
    reveal: RevealOut = Field(description="The secret and the full log, as `revealMatch` gives them.")


def line(m: exports.ExportedMatch) -> bytes:
    data: dict[str, object] = {
        "summary": MatchOut.model_validate(m.summary, from_attributes=True).model_dump(mode="json"),
        "seat": m.seat,
        "ranks": list(m.ranks),
        "ratings": MatchRatingsOut.model_validate(m.ratings).model_dump(mode="json"),
        "reveal": RevealOut.model_validate(m.reveal, from_attributes=True).model_dump(mode="json"),
    }
    return orjson.dumps(data) + b"\n"


@router.get(
    "/v1/players/{player_id}/matches",
    operation_id="exportPlayerMatches",
    response_class=StreamingResponse,
    summary="A player's finished matches, one JSON object per line (NDJSON), streamed",
    description="Newest first; `since`/`until` bound the end time (`since` inclusive). Public matches "
    "for anybody; with the player's own key also its unlisted ones. Each line is an `ExportLine`.",
    openapi_extra=CREDENTIAL_OPTIONAL,
    responses={
        200: {
            "content": {NDJSON: {"schema": {"$ref": "#/components/schemas/ExportLine"}}},
            "description": "NDJSON.",
        },
        **error_responses(401, 404, 422),
    },
)
async def export_player_matches(
    player_id: PlayerId,
    ctx: Ctx,
    caller: MaybeCaller,
    status: Annotated[
        Literal["finished"], Query(description="Only finished matches are exported.")
    ] = "finished",
    format: Annotated[Literal["ndjson"], Query(description="One JSON object per line.")] = "ndjson",
    since: datetime | None = None,
    until: datetime | None = None,
) -> StreamingResponse:
    records = await exports.export_matches(ctx, player_id, caller, since=since, until=until)

    async def body() -> AsyncIterator[bytes]:
        async for m in records:
            yield line(m)

    return StreamingResponse(body(), media_type=NDJSON)
