"""`/v1/matches/{id}/seats/{seat}`: joining a free seat."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path

from app.api.deps import MatchId, Service
from app.api.errors import error_responses
from app.api.schemas import ASCII_DIGITS, JoinSeat, SeatToken

router = APIRouter(prefix="/v1/matches", tags=["seats"])


@router.post(
    "/{match_id}/seats/{seat}",
    operation_id="joinSeat",
    status_code=201,
    response_model=SeatToken,
    summary="Join a free seat; returns its secret token, once",
    description="The match starts when its last seat is filled.",
    responses=error_responses(404, 409, 413, 422),
)
async def join_seat(
    match_id: MatchId, seat: Annotated[int, Path(ge=0, le=64), ASCII_DIGITS], body: JoinSeat, service: Service
) -> SeatToken:
    return SeatToken.model_validate(await service.join_seat(match_id, seat, body.name))
