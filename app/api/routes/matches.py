"""`/v1/matches`: create, list, summarise and (after the end) reveal matches."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body, Query, Response

from app.api.deps import AppSettings, MatchId, Service
from app.api.errors import error_responses
from app.api.schemas import (
    ASCII_DIGITS,
    MAX_LIMIT,
    MAX_OFFSET,
    CreateMatch,
    MatchOut,
    MatchPage,
    RevealOut,
    Status,
)
from app.games.registry import GAMES

router = APIRouter(prefix="/v1/matches", tags=["matches"])


def _examples() -> dict[str, Any]:
    """One example per registered game, and one of the development features."""
    examples: dict[str, Any] = {
        name: {
            "summary": f"{game.info.title}, {game.info.min_players} players, the last seat a bot",
            "value": {"game": name, "players": game.info.min_players, "bots": [game.info.min_players - 1]},
        }
        for name, game in sorted(GAMES.items())
    }
    examples["development"] = {
        "summary": "Development only: a fixed seed (and optionally `setup`, see the game's setup_schema)",
        "value": {"game": next(iter(sorted(GAMES)), "mount_drago"), "players": 2, "seed": "bug-1234"},
    }
    return examples


@router.post(
    "",
    operation_id="createMatch",
    status_code=201,
    response_model=MatchOut,
    summary="Create a match",
    description="Deals the match (its first event, seq 1) and fills the bot seats. The match is `waiting` "
    "until its last seat is filled, then `active`. `seed` and `setup` are development features.",
    responses=error_responses(403, 413, 422),
)
async def create_match(
    body: Annotated[CreateMatch, Body(openapi_examples=_examples())], service: Service, response: Response
) -> MatchOut:
    summary = await service.create_match(
        body.game, body.players, body.options, body.bots, body.seed, body.setup
    )
    response.headers["Location"] = f"/v1/matches/{summary['id']}"
    return MatchOut.model_validate(summary)


@router.get(
    "",
    operation_id="listMatches",
    response_model=MatchPage,
    summary="List matches (newest first, paged)",
    responses=error_responses(422),
)
async def list_matches(
    service: Service,
    settings: AppSettings,
    status: Status | None = None,
    game: Annotated[str | None, Query(min_length=1, max_length=64, pattern=r"^[a-z0-9_]+$")] = None,
    limit: Annotated[
        int | None, Query(ge=1, le=MAX_LIMIT, description="Page size (capped by the server)."), ASCII_DIGITS
    ] = None,
    offset: Annotated[int, Query(ge=0, le=MAX_OFFSET, description="Matches to skip."), ASCII_DIGITS] = 0,
) -> MatchPage:
    size = min(limit or settings.page_size, settings.max_page_size)
    return MatchPage.model_validate(await service.list_matches(status, game, size, offset))


@router.get(
    "/{match_id}",
    operation_id="getMatch",
    response_model=MatchOut,
    summary="A match's public summary",
    responses=error_responses(404, 422),
)
async def get_match(match_id: MatchId, service: Service) -> MatchOut:
    return MatchOut.model_validate(await service.get_summary(match_id))


@router.get(
    "/{match_id}/reveal",
    operation_id="revealMatch",
    response_model=RevealOut,
    summary="After the end: the secret, the commitment and the full unredacted log",
    description="Anyone may read it once the match is finished; before that: 409 `match_not_finished`. "
    'Check: `sha256(canonical_json({"deal": events[0].data, "secret": secret})) == commitment`.',
    responses=error_responses(404, 409, 422),
)
async def reveal_match(match_id: MatchId, service: Service) -> RevealOut:
    return RevealOut.model_validate(await service.reveal(match_id))
