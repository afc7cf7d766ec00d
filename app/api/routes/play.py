"""`/v1/matches/{id}/view`, `/actions`, `/events`: what a seat (or a spectator) sees and does."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Header, Query

from app.api.deps import AppSettings, MatchId, SeatDep, Service, Viewer
from app.api.errors import error_responses
from app.api.schemas import ASCII_DIGITS, MAX_LIMIT, SEQ_LIMIT, ActionReply, EventPage, SubmitAction, ViewOut

router = APIRouter(prefix="/v1/matches", tags=["play"])

# Spectators are served without a token: `{}` makes the seat token optional in OpenAPI (FastAPI
# appends this list to the `SeatToken` requirement it derives from the dependency).
TOKEN_OPTIONAL: dict[str, object] = {"security": [{}]}


@router.get(
    "/{match_id}/view",
    operation_id="getView",
    response_model=ViewOut,
    summary="The caller's view (seat token) or the spectator view (no token)",
    description="With `at`, the view as it was when the match was at that seq (replay).",
    responses=error_responses(401, 403, 404, 422),
    openapi_extra=TOKEN_OPTIONAL,
)
async def get_view(
    match_id: MatchId,
    seat: Viewer,
    service: Service,
    at: Annotated[
        int | None, Query(ge=1, lt=SEQ_LIMIT, description="Replay: the view at this seq."), ASCII_DIGITS
    ] = None,
) -> ViewOut:
    return ViewOut.model_validate(await service.get_view(match_id, seat, at))


@router.post(
    "/{match_id}/actions",
    operation_id="submitAction",
    response_model=ActionReply,
    summary="Send an action for the caller's seat",
    description="Returns the new seq, the events the action caused (redacted for the caller) and the "
    "caller's new view. A retry with the same `Idempotency-Key` and body returns the first reply and "
    "never applies the action twice; the same key with another body is 422 `idempotency_key_reused`.",
    responses=error_responses(401, 403, 404, 409, 413, 422),
)
async def submit_action(
    match_id: MatchId,
    seat: SeatDep,
    body: SubmitAction,
    service: Service,
    idempotency_key: Annotated[
        str | None,
        Header(min_length=1, max_length=200, pattern=r"^[\x21-\x7e]+$", description="Makes retries safe."),
    ] = None,
) -> ActionReply:
    reply = await service.submit_action(match_id, seat, body.action, body.expected_seq, idempotency_key)
    return ActionReply.model_validate(reply)


@router.get(
    "/{match_id}/events",
    operation_id="listEvents",
    response_model=EventPage,
    summary="The event log redacted for the caller (history)",
    responses=error_responses(401, 403, 404, 422),
    openapi_extra=TOKEN_OPTIONAL,
)
async def list_events(
    match_id: MatchId,
    seat: Viewer,
    service: Service,
    settings: AppSettings,
    after: Annotated[
        int, Query(ge=0, lt=SEQ_LIMIT, description="Only events with a greater seq."), ASCII_DIGITS
    ] = 0,
    limit: Annotated[
        int | None, Query(ge=1, le=MAX_LIMIT, description="Page size (capped by the server)."), ASCII_DIGITS
    ] = None,
) -> EventPage:
    size = min(limit or settings.events_page_size, settings.max_events_page_size)
    return EventPage.model_validate(await service.get_events(match_id, seat, after, size))
