"""A typed client of the Mount Drago and Yutakâ game server: sync and async, with resumable streams.

    from drago_client import Client

    with Client("http://127.0.0.1:8000") as api:
        match = api.create_match("yutaka", 2, bots=[1])
        seat = api.join_seat(match.id, 0, "Ada")
        view = api.get_view(match.id, token=seat.token)
        api.submit_action(match.id, view.legal_actions[0], expected_seq=view.seq, token=seat.token)

Results are frozen dataclasses generated from the server's JSON Schemas: the envelope in
`drago_client.models`, each game's view, actions and events in `drago_client.games.<game>`.
Errors are the tree in `drago_client.errors`. `python -m drago_client.bot` is an example bot.
"""

from __future__ import annotations

from drago_client import games, models
from drago_client.client import AsyncClient, Client
from drago_client.errors import (
    AlreadyResigned,
    AlreadySeated,
    ApiError,
    Banned,
    ChallengeClosed,
    ChatClosed,
    Conflict,
    DecodeError,
    DragoError,
    Forbidden,
    IdempotencyKeyReused,
    IllegalAction,
    InternalError,
    MatchNotFinished,
    MatchNotStarted,
    MatchOver,
    MatchStarted,
    MethodNotAllowed,
    NameTaken,
    NotFound,
    NotYourTurn,
    PayloadTooLarge,
    PlayerKeyRequired,
    RateLimited,
    SeatNotHeld,
    SeatTaken,
    SeekClosed,
    StreamClosed,
    TooManySeeks,
    TransportError,
    Unauthorized,
    Unavailable,
    ValidationError,
    VersionConflict,
)
from drago_client.retry import Retry
from drago_client.transport import VERSION
from drago_client.webhooks import InvalidWebhook, verify_webhook
from drago_client.wire import Unknown, decode, encode

__version__ = VERSION

__all__ = [
    "AlreadyResigned",
    "AlreadySeated",
    "ApiError",
    "AsyncClient",
    "Banned",
    "ChallengeClosed",
    "ChatClosed",
    "Client",
    "Conflict",
    "DecodeError",
    "DragoError",
    "Forbidden",
    "IdempotencyKeyReused",
    "IllegalAction",
    "InternalError",
    "InvalidWebhook",
    "MatchNotFinished",
    "MatchNotStarted",
    "MatchOver",
    "MatchStarted",
    "MethodNotAllowed",
    "NameTaken",
    "NotFound",
    "NotYourTurn",
    "PayloadTooLarge",
    "PlayerKeyRequired",
    "RateLimited",
    "Retry",
    "SeatNotHeld",
    "SeatTaken",
    "SeekClosed",
    "StreamClosed",
    "TooManySeeks",
    "TransportError",
    "Unauthorized",
    "Unavailable",
    "Unknown",
    "ValidationError",
    "VersionConflict",
    "__version__",
    "decode",
    "encode",
    "games",
    "models",
    "verify_webhook",
]
