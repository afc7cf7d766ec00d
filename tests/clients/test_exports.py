"""The client's public names are frozen: adding or removing one is a deliberate change here."""

from __future__ import annotations

import clients.drago_client as drago_client


def test_public_names() -> None:
    assert sorted(drago_client.__all__) == [
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
    assert all(hasattr(drago_client, name) for name in drago_client.__all__)
