"""`/v1/challenges`: invite named players to a match; and the player's bot flag and public profile."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query

from app.api.deps import CallerDep, Mm, RecordId
from app.api.errors import error_responses
from app.api.schemas import MAX_LIMIT
from app.api.seek_schemas import (
    ChallengeOut,
    ChallengePage,
    CreateChallenge,
    DeclineChallenge,
    PlayerBotOut,
    UpdatePlayer,
)
from app.service import challenges

router = APIRouter(tags=["challenges"])

_NO_REASON = DeclineChallenge(reason=None)


@router.post(
    "/v1/challenges",
    operation_id="createChallenge",
    status_code=201,
    response_model=ChallengeOut,
    summary="Challenge named players to a match",
    description="Each invited player is told on its personal stream (`challenge_received`) and sees the "
    "challenge in `listMyChallenges`; the match starts when every one has accepted. A challenge expires "
    "after a day unless `expires_s` says otherwise.",
    responses=error_responses(401, 404, 413, 422),
)
async def create_challenge(body: CreateChallenge, caller: CallerDep, mm: Mm) -> ChallengeOut:
    return ChallengeOut.of(await challenges.create_challenge(mm, caller, body.request()))


@router.get(
    "/v1/players/me/challenges",
    operation_id="listMyChallenges",
    response_model=ChallengePage,
    summary="Challenges the player sent or received, newest first",
    responses=error_responses(401, 422),
)
async def my_challenges(
    caller: CallerDep, mm: Mm, limit: Annotated[int, Query(ge=1, le=MAX_LIMIT)] = 50
) -> ChallengePage:
    return ChallengePage(
        items=[ChallengeOut.of(v) for v in await challenges.my_challenges(mm, caller, limit=limit)]
    )


@router.post(
    "/v1/challenges/{challenge_id}/accept",
    operation_id="acceptChallenge",
    response_model=ChallengeOut,
    summary="Accept a challenge (the last acceptance starts the match)",
    responses=error_responses(401, 403, 404, 409, 422),
)
async def accept_challenge(challenge_id: RecordId, caller: CallerDep, mm: Mm) -> ChallengeOut:
    return ChallengeOut.of(await challenges.accept(mm, caller, challenge_id))


@router.post(
    "/v1/challenges/{challenge_id}/decline",
    operation_id="declineChallenge",
    response_model=ChallengeOut,
    summary="Decline a challenge, with an optional reason",
    responses=error_responses(401, 403, 404, 409, 413, 422),
)
async def decline_challenge(
    challenge_id: RecordId, caller: CallerDep, mm: Mm, body: DeclineChallenge = _NO_REASON
) -> ChallengeOut:
    return ChallengeOut.of(await challenges.decline(mm, caller, challenge_id, body.reason))


@router.patch(
    "/v1/players/me",
    operation_id="updateMe",
    response_model=PlayerBotOut,
    summary="Say whether this player is a bot",
    description='`{"bot": true}` marks the player as a bot: its profile, seeks and challenges show it, and '
    "seeks choose whether they accept bots as opponents.",
    responses=error_responses(401, 413, 422),
)
async def update_me(body: UpdatePlayer, caller: CallerDep, mm: Mm) -> PlayerBotOut:
    player_id, name, bot = await challenges.set_bot(mm, caller, body.bot)
    return PlayerBotOut(player_id=player_id, name=name, bot=bot)
