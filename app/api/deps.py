"""Dependencies of the routes, as `Annotated` aliases: the service context, the settings, the caller.

All are `async def`: FastAPI runs a plain `def` dependency in a worker thread, which costs more than
the dependency itself on every request. The caller is identified here once (a seat token, a player
key) without loading any match; the use case then checks it against the match it loads.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Header, Path, Request
from fastapi.security import HTTPBearer

from app.api.credentials import required_bearer
from app.api.schemas import ASCII_DIGITS
from app.service.auth import Caller, identify
from app.service.context import Context
from app.service.seeks import Matchmaking
from app.settings import Settings


class _Bearer(HTTPBearer):
    """FastAPI's bearer scheme for OpenAPI, parsed by the one parser (`app.api.credentials`)."""

    async def __call__(self, request: Request) -> str | None:  # type: ignore[override]
        return required_bearer(request.scope)


BEARER = _Bearer(
    auto_error=False,
    scheme_name="Bearer",
    description="A seat token (from `joinSeat`), a player key (`pk_…`, from `createPlayer`) or, for the "
    "host's routes, the host token (`ht_…`, from `createMatch`): `Authorization: Bearer <secret>`.",
)


async def context_of(request: Request) -> Context:
    ctx: Context = request.app.state.ctx
    return ctx


async def settings_of(request: Request) -> Settings:
    settings: Settings = request.app.state.settings
    return settings


async def matchmaking_of(request: Request) -> Matchmaking:
    mm: Matchmaking = request.app.state.matchmaking
    return mm


Ctx = Annotated[Context, Depends(context_of)]
Mm = Annotated[Matchmaking, Depends(matchmaking_of)]
RecordId = Annotated[str, Path(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_-]+$")]
"""A seek's, a challenge's or a webhook's id."""
AppSettings = Annotated[Settings, Depends(settings_of)]
MatchId = Annotated[
    str,
    Path(
        min_length=1,
        max_length=64,
        pattern=r"^[A-Za-z0-9_-]+$",
        description="The match id from `createMatch`.",
    ),
]
MAX_SEAT_NO = 63  # the highest seat number a URL may name
SeatNo = Annotated[int, Path(ge=0, le=MAX_SEAT_NO, description="A seat, from 0."), ASCII_DIGITS]
IdempotencyKey = Annotated[
    str | None,
    Header(min_length=1, max_length=200, pattern=r"^[\x21-\x7e]+$", description="Makes retries safe."),
]

BearerToken = Annotated[str | None, Depends(BEARER)]
"""The raw bearer secret (for the host's routes: compared with the match's host token hash)."""


# `caller_of` and `maybe_caller_of` reach the context through the request rather than through `Ctx`:
# every dependency FastAPI resolves costs tens of microseconds on each request.
async def caller_of(request: Request, token: BearerToken) -> Caller:
    return await identify(request.app.state.ctx, token)


async def maybe_caller_of(request: Request, token: BearerToken) -> Caller | None:
    return None if token is None else await identify(request.app.state.ctx, token)


CallerDep = Annotated[Caller, Depends(caller_of)]
"""A seat token or a player key: 401 without a valid one."""

MaybeCaller = Annotated[Caller | None, Depends(maybe_caller_of)]
"""The caller, or `None` (a spectator) when no credential is sent."""

CREDENTIAL_OPTIONAL: dict[str, object] = {"security": [{}]}
"""`openapi_extra` of routes that take a credential but serve callers without one too: `{}` makes
the bearer optional in OpenAPI (FastAPI appends this to the requirement the dependency declares)."""
