"""A small typed client of the drago game server: sync and async HTTP clients and their errors.

It needs only httpx. The example bot, `clients.drago_client.bot`, also needs `websockets`.

async with AsyncClient("http://127.0.0.1:8000") as client:
    match = await client.create_match("yutaka", 2)
    seat = await client.join_seat(match["id"], 0, "Ada")
"""

from __future__ import annotations

from clients.drago_client.calls import SeatToken
from clients.drago_client.client import AsyncClient, Client
from clients.drago_client.errors import (
    Conflict,
    DragoError,
    Forbidden,
    IdempotencyKeyReused,
    IllegalAction,
    MatchNotFinished,
    MatchNotStarted,
    MatchOver,
    MethodNotAllowed,
    NotFound,
    NotYourTurn,
    PayloadTooLarge,
    RateLimited,
    SeatTaken,
    ServerError,
    Unauthorized,
    Unavailable,
    ValidationError,
    VersionConflict,
    error_from_envelope,
)

__all__ = [
    "AsyncClient",
    "Client",
    "Conflict",
    "DragoError",
    "Forbidden",
    "IdempotencyKeyReused",
    "IllegalAction",
    "MatchNotFinished",
    "MatchNotStarted",
    "MatchOver",
    "MethodNotAllowed",
    "NotFound",
    "NotYourTurn",
    "PayloadTooLarge",
    "RateLimited",
    "SeatTaken",
    "SeatToken",
    "ServerError",
    "Unauthorized",
    "Unavailable",
    "ValidationError",
    "VersionConflict",
    "error_from_envelope",
]
