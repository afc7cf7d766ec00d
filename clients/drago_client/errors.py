"""The client's error tree: one class per server error code, built from the `{"error": ...}` envelope.

It mirrors `app.service.errors` without importing it, so the client stays usable on its own. Every
error keeps the server's `code`, `message`, `details` and the HTTP `status`; a code this client does
not know yet becomes the base `DragoError`, so a newer server never breaks an older client.
"""

from __future__ import annotations

from typing import Any, ClassVar


class DragoError(Exception):
    """A request the server refused (or an answer the client could not read)."""

    default_code: ClassVar[str] = "error"

    def __init__(self, code: str, message: str, details: Any = None, status: int = 0) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.details = details
        self.status = status


class ValidationError(DragoError):
    default_code = "validation_error"


class IdempotencyKeyReused(DragoError):
    default_code = "idempotency_key_reused"


class Unauthorized(DragoError):
    default_code = "unauthorized"


class Forbidden(DragoError):
    default_code = "forbidden"


class NotFound(DragoError):
    default_code = "not_found"


class MethodNotAllowed(DragoError):
    default_code = "method_not_allowed"


class Conflict(DragoError):
    """A 409: the request is well-formed but the match's state refuses it."""


class IllegalAction(Conflict):
    default_code = "illegal_action"


class NotYourTurn(Conflict):
    default_code = "not_your_turn"


class MatchOver(Conflict):
    default_code = "match_over"


class VersionConflict(Conflict):
    default_code = "version_conflict"


class SeatTaken(Conflict):
    default_code = "seat_taken"


class MatchNotStarted(Conflict):
    default_code = "match_not_started"


class MatchNotFinished(Conflict):
    default_code = "match_not_finished"


class PayloadTooLarge(DragoError):
    default_code = "payload_too_large"


class RateLimited(DragoError):
    default_code = "rate_limited"


class ServerError(DragoError):
    default_code = "internal_error"


class Unavailable(DragoError):
    default_code = "unavailable"


ERRORS: dict[str, type[DragoError]] = {
    cls.default_code: cls
    for cls in (
        ValidationError,
        IdempotencyKeyReused,
        Unauthorized,
        Forbidden,
        NotFound,
        MethodNotAllowed,
        IllegalAction,
        NotYourTurn,
        MatchOver,
        VersionConflict,
        SeatTaken,
        MatchNotStarted,
        MatchNotFinished,
        PayloadTooLarge,
        RateLimited,
        ServerError,
        Unavailable,
    )
}
"""Server error code → client class."""


def error_from_envelope(body: Any, status: int = 0) -> DragoError:
    """The error for a `{"error": {"code", "message", "details"}}` body (HTTP or a stream frame).

    A body without that shape (a proxy's HTML page, say) still gives a `DragoError`, code `http_error`.
    """
    error = body.get("error") if isinstance(body, dict) else None
    if not isinstance(error, dict) or not isinstance(error.get("code"), str):
        return DragoError("http_error", f"unexpected error response (HTTP {status})", body, status)
    code: str = error["code"]
    cls = ERRORS.get(code, DragoError)
    return cls(code, str(error.get("message") or code), error.get("details"), status)
