"""`/v1/matches/{id}/seats/{seat}`: joining a free seat, and the host's seat controls."""

from __future__ import annotations

from fastapi import APIRouter

from app.api.deps import CREDENTIAL_OPTIONAL, BearerToken, Ctx, MatchId, MaybeCaller, SeatNo
from app.api.errors import error_responses
from app.api.schemas import JoinSeat, MatchOut, SeatToken
from app.service import seating

router = APIRouter(prefix="/v1/matches", tags=["seats"])


@router.post(
    "/{match_id}/seats/{seat}",
    operation_id="joinSeat",
    status_code=201,
    response_model=SeatToken,
    summary="Join a free seat; returns its secret token, once",
    description="The match starts when its last seat is filled. With `Authorization: Bearer <player key>` "
    "the seat is bound to that player (one seat per match), whose key then works as the seat's token. "
    "An unlisted match needs its `invite` code. `client_seed` is the seat's own seed for the deal "
    "(docs/fairness.md); the reply returns it, or the one the server chose.",
    responses=error_responses(401, 403, 404, 409, 413, 422),
    openapi_extra=CREDENTIAL_OPTIONAL,  # a player key is optional: anybody may join a free seat
)
async def join_seat(
    match_id: MatchId, seat: SeatNo, body: JoinSeat, caller: MaybeCaller, ctx: Ctx
) -> SeatToken:
    grant = await seating.join_seat(
        ctx, match_id, seat, body.name, invite=body.invite, player=caller, client_seed=body.client_seed
    )
    return SeatToken.model_validate(grant, from_attributes=True)


@router.post(
    "/{match_id}/seats/{seat}/token",
    operation_id="reissueSeatToken",
    status_code=201,
    response_model=SeatToken,
    summary="The host issues a seat a new token (the old one stops working at once)",
    description="Needs the host token. Appends `seat_token_reissued` (which holds no token).",
    responses=error_responses(401, 403, 404, 409, 422),
)
async def reissue_token(match_id: MatchId, seat: SeatNo, token: BearerToken, ctx: Ctx) -> SeatToken:
    grant = await seating.reissue_token(ctx, match_id, seat, token)
    return SeatToken.model_validate(grant, from_attributes=True)


@router.post(
    "/{match_id}/seats/{seat}/bot",
    operation_id="handSeatToBot",
    response_model=MatchOut,
    summary="The host hands a silent seat to a server bot for the rest of the match",
    description="Needs the host token. Appends `seat_taken_over` (reason `host`).",
    responses=error_responses(401, 403, 404, 409, 422),
)
async def hand_to_bot(match_id: MatchId, seat: SeatNo, token: BearerToken, ctx: Ctx) -> MatchOut:
    return MatchOut.model_validate(
        await seating.hand_to_bot(ctx, match_id, seat, token), from_attributes=True
    )
