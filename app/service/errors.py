"""The one error tree of the service; the HTTP edge (and later the WebSocket) maps it once.

Every class carries a machine `code` and an HTTP status; an instance carries a `message` safe to
show to the caller (it never names anything the caller may not see) and JSON `details`.

    ServiceError
    ├── ValidationFailed        validation_error        422
    ├── IdempotencyKeyReused    idempotency_key_reused  422
    ├── Unauthorized            unauthorized            401
    ├── Forbidden               forbidden               403
    ├── PlayerKeyRequired       player_key_required     403
    ├── NotFound                not_found               404
    ├── MethodNotAllowed        method_not_allowed      405
    ├── Conflict                (409)
    │   ├── IllegalActionError  illegal_action
    │   ├── NotYourTurn         not_your_turn
    │   ├── MatchOver           match_over
    │   ├── StaleVersion        version_conflict
    │   ├── SeatTaken           seat_taken
    │   ├── SeatNotHeld         seat_not_held
    │   ├── AlreadySeated       already_seated
    │   ├── AlreadyResigned     already_resigned
    │   ├── MatchNotStarted     match_not_started
    │   ├── MatchStarted        match_started
    │   ├── NameTaken           name_taken
    │   └── MatchNotFinished    match_not_finished
    ├── PayloadTooLarge         payload_too_large       413
    ├── RateLimited             rate_limited            429
    ├── InternalError           internal_error          500
    └── Unavailable             unavailable             503
"""

from __future__ import annotations

from typing import Any, ClassVar

from app.games.core import GAME_OVER, ILLEGAL, NOT_YOUR_TURN


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


class PlayerKeyRequired(ServiceError):
    """A rated match's seat is joined only with a player key (a sibling of `Forbidden`, whose code
    stays a leaf of the tree)."""

    code = "player_key_required"
    http_status = 403
    default_message = "this match is rated: join it with a player key (Authorization: Bearer pk_…)"


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


class StaleVersion(Conflict):
    code = "version_conflict"
    default_message = "the match has moved on since expected_seq; reload the view and decide again"


class SeatTaken(Conflict):
    code = "seat_taken"
    default_message = "this seat is already taken"


class SeatNotHeld(Conflict):
    code = "seat_not_held"
    default_message = "no person holds this seat"


class AlreadySeated(Conflict):
    code = "already_seated"
    default_message = "you already hold a seat in this match"


class AlreadyResigned(Conflict):
    code = "already_resigned"
    default_message = "this seat has resigned already"


class MatchNotStarted(Conflict):
    code = "match_not_started"
    default_message = "the match has not started: not every seat is filled yet"


class MatchStarted(Conflict):
    code = "match_started"
    default_message = "the match has started"


class NameTaken(Conflict):
    code = "name_taken"
    default_message = "this name is taken (names are unique regardless of case)"


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


def _leaves(cls: type[ServiceError]) -> list[type[ServiceError]]:
    out: list[type[ServiceError]] = []
    for sub in cls.__subclasses__():
        out.extend(_leaves(sub) if sub.__subclasses__() else [sub])
    return out


ALL_ERRORS: tuple[type[ServiceError], ...] = tuple(_leaves(ServiceError))
"""Every concrete error class, derived from the tree (never restated by hand)."""

BY_CODE: dict[str, type[ServiceError]] = {cls.code: cls for cls in ALL_ERRORS}


def from_code(code: str, message: str, details: Any = None) -> ServiceError:
    """The error for a machine code raised by a lower layer (a rules refusal, a match refusal)."""
    return BY_CODE.get(code, IllegalActionError)(message, details)
