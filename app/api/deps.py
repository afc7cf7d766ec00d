"""Dependencies of the routes, as `Annotated` aliases: the service context, the settings, the caller.

All are `async def`: FastAPI runs a plain `def` dependency in a worker thread, which costs more than
the dependency itself on every request. The caller is identified here once (a seat token, a player
key) without loading any match; the use case then checks it against the match it loads.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Path, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from app.api.schemas import ASCII_DIGITS
from app.service.auth import Caller, identify
from app.service.context import Context
from app.service.errors import Unauthorized
from app.settings import Settings

_bearer = HTTPBearer(
    auto_error=False,
    scheme_name="Bearer",
    description="A seat token (from `joinSeat`), a player key (`pk_…`, from `createPlayer`) or, for the "
    "host's routes, the host token (`ht_…`, from `createMatch`): `Authorization: Bearer <secret>`.",
)


async def _context(request: Request) -> Context:
    ctx: Context = request.app.state.ctx
    return ctx


async def _settings(request: Request) -> Settings:
    settings: Settings = request.app.state.settings
    return settings


Ctx = Annotated[Context, Depends(_context)]
AppSettings = Annotated[Settings, Depends(_settings)]
MatchId = Annotated[
    str,
    Path(
        min_length=1,
        max_length=64,
        pattern=r"^[A-Za-z0-9_-]+$",
        description="The match id from `createMatch`.",
    ),
]
MAX_SEAT_NO = 63  # the highest seat number a URL may name (`app.api.hot` takes the same bound)
SeatNo = Annotated[int, Path(ge=0, le=MAX_SEAT_NO, description="A seat, from 0."), ASCII_DIGITS]

Credentials = Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)]


def _token(request: Request, credentials: HTTPAuthorizationCredentials | None) -> str | None:
    if credentials is None:
        if request.headers.get("authorization"):
            raise Unauthorized("the Authorization header must be 'Bearer <token>'")
        return None
    return credentials.credentials


async def _bearer_token(request: Request, credentials: Credentials) -> str | None:
    return _token(request, credentials)


# `_caller` and `_maybe_caller` reach the context through the request rather than through `Ctx`:
# every dependency FastAPI resolves costs tens of microseconds on each request.
async def _caller(request: Request, credentials: Credentials) -> Caller:
    return await identify(request.app.state.ctx, _token(request, credentials))


async def _maybe_caller(request: Request, credentials: Credentials) -> Caller | None:
    token = _token(request, credentials)
    return None if token is None else await identify(request.app.state.ctx, token)


BearerToken = Annotated[str | None, Depends(_bearer_token)]
"""The raw bearer secret (for the host's routes: compared with the match's host token hash)."""

CallerDep = Annotated[Caller, Depends(_caller)]
"""A seat token or a player key: 401 without a valid one."""

MaybeCaller = Annotated[Caller | None, Depends(_maybe_caller)]
"""The caller, or `None` (a spectator) when no credential is sent."""

CREDENTIAL_OPTIONAL: dict[str, object] = {"security": [{}]}
"""`openapi_extra` of routes that take a credential but serve callers without one too: `{}` makes
the bearer optional in OpenAPI (FastAPI appends this to the requirement the dependency declares)."""
