"""`/v1/matches/{id}/view`, `/actions`, `/resign`, `/events`, `/samples`: what a seat (or a
spectator) sees and does."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query
from starlette.responses import Response

from app.api.deps import (
    CREDENTIAL_OPTIONAL,
    AppSettings,
    CallerDep,
    Ctx,
    IdempotencyKey,
    MatchId,
    MaybeCaller,
)
from app.api.errors import error_responses
from app.api.render import action_response, view_response
from app.api.schemas import (
    ASCII_DIGITS,
    MAX_LIMIT,
    ActionReply,
    EventPage,
    SampleRequest,
    SamplesOut,
    SubmitAction,
    ViewOut,
)
from app.service import acting, reading, sampling
from app.service.ports import MAX_SEQ

router = APIRouter(prefix="/v1/matches", tags=["play"])


@router.get(
    "/{match_id}/view",
    operation_id="getView",
    response_model=ViewOut,
    summary="The caller's view (seat token or player key) or the spectator view (no credential)",
    description="With `at`, the view as it was when the match was at that seq (a replay); `at` must end "
    "a commit (the `commit` of its event), else 422 naming the nearest valid seqs.",
    responses=error_responses(401, 403, 404, 422),
    openapi_extra=CREDENTIAL_OPTIONAL,
)
async def get_view(
    match_id: MatchId,
    caller: MaybeCaller,
    ctx: Ctx,
    at: Annotated[
        int | None, Query(ge=1, le=MAX_SEQ, description="Replay: the view at this seq."), ASCII_DIGITS
    ] = None,
) -> Response:
    return view_response(await reading.get_view(ctx, match_id, caller, at))


@router.post(
    "/{match_id}/actions",
    operation_id="submitAction",
    response_model=ActionReply,
    summary="Send an action for the caller's seat",
    description="Returns the new seq, the events of this commit (redacted for the caller) and the caller's "
    "new view. A retry with the same `Idempotency-Key` and body returns the first reply and never applies "
    "the action twice; the same key with another body is 422 `idempotency_key_reused`.",
    responses=error_responses(401, 403, 404, 409, 413, 422),
)
async def submit_action(
    match_id: MatchId, caller: CallerDep, body: SubmitAction, ctx: Ctx, idempotency_key: IdempotencyKey = None
) -> Response:
    result = await acting.submit_action(
        ctx, match_id, caller, body.action, body.expected_seq, idempotency_key
    )
    return action_response(result)


@router.post(
    "/{match_id}/resign",
    operation_id="resign",
    response_model=ActionReply,
    summary="The caller's seat resigns",
    description="Two players: the other wins (`match_ended`, reason `resigned`). More: a server bot plays "
    "the seat on and it is ranked last. A second resignation is 409 `already_resigned` (or `match_over`); "
    "with the same `Idempotency-Key` a retry gets the first reply.",
    responses=error_responses(401, 403, 404, 409, 422),
)
async def resign(
    match_id: MatchId, caller: CallerDep, ctx: Ctx, idempotency_key: IdempotencyKey = None
) -> Response:
    return action_response(await acting.resign(ctx, match_id, caller, idempotency_key))


@router.get(
    "/{match_id}/events",
    operation_id="listEvents",
    response_model=EventPage,
    summary="The event log redacted for the caller (history)",
    responses=error_responses(401, 403, 404, 422),
    openapi_extra=CREDENTIAL_OPTIONAL,
)
async def list_events(
    match_id: MatchId,
    caller: MaybeCaller,
    ctx: Ctx,
    settings: AppSettings,
    after: Annotated[
        int, Query(ge=0, le=MAX_SEQ, description="Only events with a greater seq."), ASCII_DIGITS
    ] = 0,
    limit: Annotated[
        int | None, Query(ge=1, le=MAX_LIMIT, description="Page size (capped by the server)."), ASCII_DIGITS
    ] = None,
) -> EventPage:
    size = min(limit or settings.events_page_size, settings.max_events_page_size)
    page = await reading.get_events(ctx, match_id, caller, after, size)
    return EventPage.model_validate(page, from_attributes=True)


@router.post(
    "/{match_id}/samples",
    operation_id="sampleHiddenState",
    response_model=SamplesOut,
    summary="Determinizations: complete hidden states consistent with the caller's information",
    description="Drawn with a fresh RNG independent of the match's secret (seeded by `seed` if given), "
    "from what the caller's seat knows only — never from the real hidden state. A per-seat budget per "
    "match (429 when spent) and the match setting `allow_samples` (403 when off) apply.",
    responses=error_responses(401, 403, 404, 409, 422),
)
async def samples(match_id: MatchId, caller: CallerDep, body: SampleRequest, ctx: Ctx) -> SamplesOut:
    result = await sampling.samples(ctx, match_id, caller, body.n, body.seed)
    return SamplesOut.model_validate(result, from_attributes=True)
