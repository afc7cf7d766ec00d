"""`/v1/matches`: create, list, summarise, abort (the host) and, after the end, reveal matches."""

from __future__ import annotations

import dataclasses
from typing import Annotated

from fastapi import APIRouter, Body, Query, Response

from app.api.deps import CREDENTIAL_OPTIONAL, AppSettings, BearerToken, Ctx, MatchId, MaybeCaller
from app.api.errors import error_responses
from app.api.schemas import (
    ASCII_DIGITS,
    MAX_LIMIT,
    MAX_OFFSET,
    BotSeat,
    CreatedMatchOut,
    CreateMatch,
    MatchOut,
    MatchPage,
    RevealOut,
)
from app.games.registry import GAMES
from app.matches.fold import Status
from app.service import creating, reading, seating
from app.service.creating import CreateRequest
from app.service.errors import ValidationFailed
from app.service.ports import MatchFilter
from app.service.results import CreatedMatch

router = APIRouter(prefix="/v1/matches", tags=["matches"])


def _examples() -> dict[str, object]:
    """One example per registered game, and one each of the match settings and dev features."""
    examples: dict[str, object] = {
        name: {
            "summary": f"{game.info.title}, {game.info.min_players} players, the last seat a bot",
            "value": {"game": name, "players": game.info.min_players, "bots": [game.info.min_players - 1]},
        }
        for name, game in sorted(GAMES.items())
    }
    examples["correspondence"] = {
        "summary": "A day per decision, unlisted, with turn drafts and a strong bot",
        "value": {
            "game": "mount_drago", "players": 3, "bots": [{"seat": 2, "level": "ismcts"}],
            "clock": {"per_decision_s": 86400}, "visibility": "unlisted", "drafts": True,
        },
    }  # fmt: skip
    examples["development"] = {
        "summary": "Development only: a fixed seed (and optionally `setup`, see the game's schemas.setup)",
        "value": {"game": next(iter(sorted(GAMES)), "mount_drago"), "players": 2, "seed": "bug-1234"},
    }
    return examples


CreateBody = Annotated[CreateMatch, Body(openapi_examples=_examples())]


def create_request(body: CreateMatch) -> CreateRequest:
    """The use case's request from the validated body (also `app.api.hot`'s)."""
    bots: dict[int, str | None] = {}
    for b in body.bots:
        seat, level = (b.seat, b.level) if isinstance(b, BotSeat) else (b, None)
        if seat in bots:
            raise ValidationFailed("bots must be distinct seats", {"field": "bots"})
        bots[seat] = level
    settings = {
        "clock": None if body.clock is None else body.clock.model_dump(),
        "on_timeout": body.on_timeout,
        "takeover_after": body.takeover_after,
        "visibility": body.visibility,
        "drafts": body.drafts,
        "allow_samples": body.allow_samples,
        "rated": body.rated,
        "spectator_chat": body.spectator_chat,
    }
    return CreateRequest(body.game, body.players, body.options, settings, bots, body.seed, body.setup)


@router.post(
    "",
    operation_id="createMatch",
    status_code=201,
    response_model=CreatedMatchOut,
    summary="Create a match",
    description="Deals the match and seats its server bots, in one commit. The match is `waiting` until "
    "its last seat is filled, then `active` (a `match_started` event). The reply carries the host token "
    "(and, for an unlisted match, the invite code) once. `seed` and `setup` are development features.",
    responses=error_responses(401, 403, 413, 422),
    openapi_extra=CREDENTIAL_OPTIONAL,  # a player key only where the server requires one
)
async def create_match(
    body: CreateBody,
    caller: MaybeCaller,
    ctx: Ctx,
    response: Response,
) -> CreatedMatchOut:
    created = await creating.create_match(ctx, create_request(body), caller)
    response.headers["Location"] = f"/v1/matches/{created.match.id}"
    return created_out(created)


def created_out(created: CreatedMatch) -> CreatedMatchOut:
    """`createMatch`'s reply (also `app.api.hot`'s): the summary's fields and the host's secrets,
    validated in one pass (the nested seats and clocks from their attributes)."""
    m = created.match
    fields = {f.name: getattr(m, f.name) for f in dataclasses.fields(m)}
    secrets = {"host_token": created.host_token, "invite": created.invite}
    return CreatedMatchOut.model_validate({**fields, **secrets}, from_attributes=True)


@router.get(
    "",
    operation_id="listMatches",
    response_model=MatchPage,
    summary="The lobby: public matches, newest first, paged",
    description="Unlisted matches never appear. `open=true`: waiting matches with a free seat; each item "
    "lists its seats, so a lobby needs one request.",
    responses=error_responses(422),
)
async def list_matches(
    ctx: Ctx,
    settings: AppSettings,
    status: Status | None = None,
    game: Annotated[str | None, Query(min_length=1, max_length=64, pattern=r"^[a-z0-9_]+$")] = None,
    open: Annotated[
        bool | None, Query(description="Only waiting matches with a free seat (or none).")
    ] = None,
    limit: Annotated[
        int | None, Query(ge=1, le=MAX_LIMIT, description="Page size (capped by the server)."), ASCII_DIGITS
    ] = None,
    offset: Annotated[int, Query(ge=0, le=MAX_OFFSET, description="Matches to skip."), ASCII_DIGITS] = 0,
) -> MatchPage:
    size = min(limit or settings.page_size, settings.max_page_size)
    page = await reading.list_matches(ctx, MatchFilter(status, game, open, False, size, offset))
    return MatchPage.model_validate(page, from_attributes=True)


@router.get(
    "/{match_id}",
    operation_id="getMatch",
    response_model=MatchOut,
    summary="A match's public summary",
    responses=error_responses(404, 422),
)
async def get_match(match_id: MatchId, ctx: Ctx) -> MatchOut:
    return MatchOut.model_validate(await reading.get_summary(ctx, match_id), from_attributes=True)


@router.post(
    "/{match_id}/abort",
    operation_id="abortMatch",
    response_model=MatchOut,
    summary="The host cancels a match before it starts",
    description="Needs the host token. Appends `match_aborted` and `match_ended` (reason `aborted`); a "
    "started match is 409 `match_started`.",
    responses=error_responses(401, 403, 404, 409, 422),
)
async def abort_match(match_id: MatchId, token: BearerToken, ctx: Ctx) -> MatchOut:
    return MatchOut.model_validate(await seating.abort(ctx, match_id, token), from_attributes=True)


@router.get(
    "/{match_id}/reveal",
    operation_id="revealMatch",
    response_model=RevealOut,
    summary="After the end: the secret, the commitment and the full unredacted log",
    description="Anyone may read it once the match is over; before that: 409 `match_not_finished`. "
    'Check: `sha256(canonical_json({"deal": events[0].data, "secret": secret})) == commitment`.',
    responses=error_responses(404, 409, 422),
)
async def reveal_match(match_id: MatchId, ctx: Ctx) -> RevealOut:
    return RevealOut.model_validate(await reading.reveal(ctx, match_id), from_attributes=True)
