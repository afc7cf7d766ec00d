"""`/v1/matches/{id}/chat` and `/v1/players/me/blocks`: the match's chat rooms, blocks and
reports (docs/chat.md)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path, Query, Response

from app.api.chat_schemas import (
    ChatMessageOut,
    ChatPageOut,
    ChatReportOut,
    PlayerBlockOut,
    PlayerBlockPage,
    PostChat,
    ReportChat,
    RoomName,
)
from app.api.deps import CREDENTIAL_OPTIONAL, CallerDep, Ctx, MatchId, MaybeCaller
from app.api.errors import error_responses
from app.api.schemas import ASCII_DIGITS
from app.service import chat, moderation

router = APIRouter(tags=["chat"])

Id = Annotated[str, Path(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_-]+$")]


@router.post(
    "/v1/matches/{match_id}/chat",
    operation_id="postChat",
    status_code=201,
    response_model=ChatMessageOut,
    summary="Write a message in one of the match's chat rooms",
    description="`players`: the seated players (seat token or player key); `spectators`: a player key "
    "without a seat, and after the end also the players. Text is trimmed; 1–500 characters, no control "
    "characters. At most `DRAGO_CHAT_RATE_MESSAGES` per `DRAGO_CHAT_RATE_SECONDS` per author (429 "
    "`rate_limited` with `Retry-After`). See docs/chat.md.",
    responses=error_responses(401, 403, 404, 413, 422, 429),
)
async def post_chat(match_id: MatchId, body: PostChat, caller: CallerDep, ctx: Ctx) -> ChatMessageOut:
    return ChatMessageOut.of(await chat.post_message(ctx, match_id, caller, body.room, body.text))


@router.get(
    "/v1/matches/{match_id}/chat",
    operation_id="getChat",
    response_model=ChatPageOut,
    summary="The messages of the chat rooms the caller may read, after a cursor",
    description="Without `room`: every room the caller may read now; a room it may not read is 403 "
    "(a switched-off spectators' room reads empty). Messages of players the caller blocks, and of banned "
    "players, are left out. Without a credential: an anonymous spectator.",
    responses=error_responses(401, 403, 404, 422),
    openapi_extra=CREDENTIAL_OPTIONAL,
)
async def get_chat(
    match_id: MatchId,
    caller: MaybeCaller,
    ctx: Ctx,
    room: RoomName | None = None,
    after: Annotated[
        int, Query(ge=0, le=2**63 - 1, description="A `chat_seq`: messages after it."), ASCII_DIGITS
    ] = 0,
    limit: Annotated[int, Query(ge=1, le=chat.MAX_PAGE), ASCII_DIGITS] = chat.DEFAULT_PAGE,
) -> ChatPageOut:
    page = await chat.read_page(ctx, match_id, caller, room, after, limit)
    return ChatPageOut(messages=[ChatMessageOut.of(m) for m in page.messages], next=page.next)


@router.post(
    "/v1/matches/{match_id}/chat/{message_id}/report",
    operation_id="reportChat",
    status_code=201,
    response_model=ChatReportOut,
    summary="Report a message to the operators",
    description="With a player key or a seat token; the message must be one the caller may read.",
    responses=error_responses(401, 403, 404, 413, 422),
)
async def report_chat(
    match_id: MatchId, message_id: Id, body: ReportChat, caller: CallerDep, ctx: Ctx
) -> ChatReportOut:
    return ChatReportOut.of(await moderation.report(ctx, match_id, caller, message_id, body.reason))


@router.post(
    "/v1/players/me/blocks/{player_id}",
    operation_id="blockPlayer",
    status_code=201,
    response_model=PlayerBlockOut,
    summary="Block a player: their chat messages never reach you",
    description="201 for a new block, 200 when it existed already. Blocking oneself is 422; an unknown "
    "player 404.",
    responses={
        200: {"model": PlayerBlockOut, "description": "Blocked already."},
        **error_responses(401, 404, 422),
    },
)
async def block_player(player_id: Id, caller: CallerDep, ctx: Ctx, response: Response) -> PlayerBlockOut:
    held, created = await moderation.block(ctx, caller, player_id)
    response.status_code = 201 if created else 200
    return PlayerBlockOut.of(held)


@router.delete(
    "/v1/players/me/blocks/{player_id}",
    operation_id="unblockPlayer",
    status_code=204,
    response_class=Response,
    summary="Lift a block",
    responses=error_responses(401, 404, 422),
)
async def unblock_player(player_id: Id, caller: CallerDep, ctx: Ctx) -> Response:
    await moderation.unblock(ctx, caller, player_id)
    return Response(status_code=204)


@router.get(
    "/v1/players/me/blocks",
    operation_id="listBlocks",
    response_model=PlayerBlockPage,
    summary="The players you block",
    responses=error_responses(401),
)
async def list_blocks(caller: CallerDep, ctx: Ctx) -> PlayerBlockPage:
    return PlayerBlockPage(items=[PlayerBlockOut.of(b) for b in await moderation.blocks(ctx, caller)])
