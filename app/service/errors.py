"""The one error tree of the service; the HTTP edge (and later the WebSocket) maps it once.

Every class carries a machine `code` and an HTTP status; an instance carries a `message` safe to
show to the caller (it never names anything the caller may not see) and JSON `details`.

    ServiceError
    ├── ValidationFailed        validation_error        422
    ├── IdempotencyKeyReused    idempotency_key_reused  422
    ├── Unauthorized            unauthorized            401
    ├── Forbidden               forbidden               403
    ├── NotFound                not_found               404
    ├── MethodNotAllowed        method_not_allowed      405
    ├── Conflict                (409)
    │   ├── IllegalActionError  illegal_action
    │   ├── NotYourTurn         not_your_turn
    │   ├── MatchOver           match_over
    │   ├── VersionConflictError version_conflict
    │   ├── SeatTakenError      seat_taken
    │   ├── MatchNotStarted     match_not_started
    │   └── MatchNotFinished    match_not_finished
    ├── PayloadTooLarge         payload_too_large       413
    ├── RateLimited             rate_limited            429
    ├── InternalError           internal_error          500
    └── Unavailable             unavailable             503
"""

from __future__ import annotations

from typing import Any, ClassVar

from app.games.core import GAME_OVER, ILLEGAL, NOT_YOUR_TURN, IllegalAction


class ServiceError(Exception):
    code: ClassVar[str] = "error"
    http_status: ClassVar[int] = 400
    default_message: ClassVar[str] = "the request failed"

    def __init__(self, message: str | None = None, details: Any = None) -> None:
        self.message = message or self.default_message
        self.details = details
        super().__init__(self.message)

    def to_json(self) -> dict[str, Any]:
        return {"error": {"code": self.code, "message": self.message, "details": self.details}}


class ValidationFailed(ServiceError):
    code = "validation_error"
    http_status = 422
    default_message = "the request is not valid"


class IdempotencyKeyReused(ServiceError):
    code = "idempotency_key_reused"
    http_status = 422
    default_message = "this Idempotency-Key was already used with a different request body"


class Unauthorized(ServiceError):
    code = "unauthorized"
    http_status = 401
    default_message = "a valid seat token is required (Authorization: Bearer <token>)"


class Forbidden(ServiceError):
    code = "forbidden"
    http_status = 403
    default_message = "this is not allowed"


class NotFound(ServiceError):
    code = "not_found"
    http_status = 404
    default_message = "not found"


class MethodNotAllowed(ServiceError):
    code = "method_not_allowed"
    http_status = 405
    default_message = "method not allowed"


class Conflict(ServiceError):
    http_status = 409


class IllegalActionError(Conflict):
    code = ILLEGAL
    default_message = "this action is not allowed now"


class NotYourTurn(Conflict):
    code = NOT_YOUR_TURN
    default_message = "it is not your turn"


class MatchOver(Conflict):
    code = GAME_OVER
    default_message = "the match is over"


class VersionConflictError(Conflict):
    code = "version_conflict"
    default_message = "the match has moved on since expected_seq; reload the view and decide again"


class SeatTakenError(Conflict):
    code = "seat_taken"
    default_message = "this seat is already taken"


class MatchNotStarted(Conflict):
    code = "match_not_started"
    default_message = "the match has not started: not every seat is filled yet"


class MatchNotFinished(Conflict):
    code = "match_not_finished"
    default_message = "the match is still running; its secret and full log are revealed after the end"


class PayloadTooLarge(ServiceError):
    code = "payload_too_large"
    http_status = 413
    default_message = "the request body is too large"


class RateLimited(ServiceError):
    code = "rate_limited"
    http_status = 429
    default_message = "too many requests; slow down"


class InternalError(ServiceError):
    code = "internal_error"
    http_status = 500
    default_message = "internal server error"


class Unavailable(ServiceError):
    code = "unavailable"
    http_status = 503
    default_message = "the service is not ready"


_BY_RULE_CODE: dict[str, type[Conflict]] = {
    NOT_YOUR_TURN: NotYourTurn,
    GAME_OVER: MatchOver,
    ILLEGAL: IllegalActionError,
}


def from_illegal(exc: IllegalAction) -> Conflict:
    """Map a rules refusal; its message is for the acting seat only (it is the one who gets it)."""
    cls = _BY_RULE_CODE.get(exc.code, IllegalActionError)
    return cls(exc.message, {"reason": exc.reason})


ALL_ERRORS: tuple[type[ServiceError], ...] = (
    ValidationFailed,
    IdempotencyKeyReused,
    Unauthorized,
    Forbidden,
    NotFound,
    MethodNotAllowed,
    IllegalActionError,
    NotYourTurn,
    MatchOver,
    VersionConflictError,
    SeatTakenError,
    MatchNotStarted,
    MatchNotFinished,
    PayloadTooLarge,
    RateLimited,
    InternalError,
    Unavailable,
)
