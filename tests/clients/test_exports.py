"""The public names of the package are frozen: adding one is a decision, removing one a break."""

from __future__ import annotations

import drago_client
from drago_client import errors

PUBLIC = [
    "AlreadyResigned", "AlreadySeated", "ApiError", "AsyncClient", "Banned", "ChallengeClosed", "ChatClosed",
    "Client",
    "Conflict", "DecodeError",
    "DragoError", "Forbidden", "IdempotencyKeyReused", "IllegalAction", "InternalError", "MatchNotFinished",
    "MatchNotStarted", "MatchOver", "MatchStarted", "MethodNotAllowed", "NameTaken", "NotFound",
    "NotYourTurn", "PayloadTooLarge", "PlayerKeyRequired", "RateLimited", "Retry", "SeatNotHeld",
    "SeatTaken", "SeekClosed", "StreamClosed", "TooManySeeks", "TransportError", "Unauthorized",
    "Unavailable", "Unknown", "ValidationError", "VersionConflict", "__version__", "decode", "encode",
    "games", "models", "InvalidWebhook", "verify_webhook",
]  # fmt: skip


def test_all_is_frozen() -> None:
    assert sorted(drago_client.__all__) == sorted(PUBLIC)


def test_every_name_exists_and_every_public_error_is_exported() -> None:
    for name in drago_client.__all__:
        assert hasattr(drago_client, name), name
    exported_errors = {n for n in drago_client.__all__ if isinstance(getattr(drago_client, n), type)}
    for cls in errors.BY_CODE.values():
        assert cls.__name__ in exported_errors, cls.__name__
