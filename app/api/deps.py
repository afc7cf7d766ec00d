"""Dependencies of the routes, as `Annotated` aliases: the service, the settings, the caller's seat.

All are `async def`: FastAPI runs a plain `def` dependency in a worker thread, which costs more
than the dependency itself on every request.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Path, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from app.service.errors import Unauthorized
from app.service.matches import MatchService
from app.settings import Settings

_bearer = HTTPBearer(
    auto_error=False,
    scheme_name="SeatToken",
    description="The seat token returned once by `joinSeat`: `Authorization: Bearer <token>`.",
)


async def _service(request: Request) -> MatchService:
    service: MatchService = request.app.state.service
    return service


async def _settings(request: Request) -> Settings:
    settings: Settings = request.app.state.settings
    return settings


Service = Annotated[MatchService, Depends(_service)]
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


Credentials = Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)]


def _token(request: Request, credentials: HTTPAuthorizationCredentials | None) -> str | None:
    if credentials is None:
        if request.headers.get("authorization"):
            raise Unauthorized("the Authorization header must be 'Bearer <token>'")
        return None
    return credentials.credentials


# `_seat` and `_viewer` reach the service through the request rather than through `Service`:
# every dependency FastAPI resolves costs tens of microseconds on each request.
async def _seat(request: Request, match_id: MatchId, credentials: Credentials) -> int:
    service: MatchService = request.app.state.service
    return await service.authorize(match_id, _token(request, credentials))


async def _viewer(request: Request, match_id: MatchId, credentials: Credentials) -> int | None:
    service: MatchService = request.app.state.service
    return await service.viewer(match_id, _token(request, credentials))


SeatDep = Annotated[int, Depends(_seat)]
"""The caller's seat in the path's match: 401 without a valid token, 403 for another match's."""

Viewer = Annotated[int | None, Depends(_viewer)]
"""The caller's seat, or `None` (a spectator) when no token is sent."""
