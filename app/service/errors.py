"""The one error tree of the service; the HTTP edge (and later the WebSocket) maps it once.

Every class carries a machine `code` and an HTTP status; an instance carries a `message` safe to
show to the caller (it never names anything the caller may not see) and JSON `details`.

    ServiceError
    ├── ValidationFailed        validation_error        422
    ├── IdempotencyKeyReused    idempotency_key_reused  422
    ├── Unauthorized            unauthorized            401
    ├── Forbidden               forbidden               403
    ├── PlayerKeyRequired       player_key_required     403
    ├── Banned                  banned                  403
    ├── ChatClosed              chat_closed             403
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
    │   ├── AlreadyStarted      match_started
    │   ├── NameTaken           name_taken
    │   ├── MatchNotFinished    match_not_finished
    │   ├── TooManySeeks        too_many_seeks
    │   ├── SeekClosed          seek_closed
    │   └── ChallengeClosed     challenge_closed
    ├── PayloadTooLarge         payload_too_large       413
    ├── RateLimited             rate_limited            429
    ├── InternalError           internal_error          500
    └── Unavailable             unavailable             503
"""

from __future__ import annotations

from typing import ClassVar

from app.games.codec import JSONObject, JSONValue
from app.games.codes import ErrorCode


class ServiceError(Exception):
    code: ClassVar[ErrorCode]
    http_status: ClassVar[int] = 400
    default_message: ClassVar[str] = "the request failed"

    def __init_subclass__(cls, *, code: ErrorCode | None = None, status: int | None = None) -> None:
        """`class NotFound(ServiceError, code=ErrorCode.NOT_FOUND, status=404)`: a subclass names its
        code and, unless it inherits it, its HTTP status in its header."""
        super().__init_subclass__()
        if code is not None:
            cls.code = code
        if status is not None:
            cls.http_status = status

    def __init__(self, message: str | None = None, details: JSONValue = None) -> None:
        self.message = message or self.default_message
        self.details = details
        super().__init__(self.message)

    def to_json(self) -> dict[str, JSONObject]:
        return {"error": {"code": str(self.code), "message": self.message, "details": self.details}}


class ValidationFailed(ServiceError, code=ErrorCode.VALIDATION_ERROR, status=422):
    default_message = "the request is not valid"


class IdempotencyKeyReused(ServiceError, code=ErrorCode.IDEMPOTENCY_KEY_REUSED, status=422):
    default_message = "this Idempotency-Key was already used with a different request body"


class Unauthorized(ServiceError, code=ErrorCode.UNAUTHORIZED, status=401):
    default_message = "a valid seat token or player key is required (Authorization: Bearer <token>)"


class Forbidden(ServiceError, code=ErrorCode.FORBIDDEN, status=403):
    default_message = "this is not allowed"


class PlayerKeyRequired(ServiceError, code=ErrorCode.PLAYER_KEY_REQUIRED, status=403):
    """A rated match's seat is joined only with a player key (a sibling of `Forbidden`, whose code
    stays a leaf of the tree)."""

    default_message = "this match is rated: join it with a player key (Authorization: Bearer pk_…)"


class Banned(ServiceError, code=ErrorCode.BANNED, status=403):
    """The credential is a banned player's key, or the seat token of a seat a banned player holds
    (`app.service.bans`; a sibling of `Forbidden`, whose code stays a leaf of the tree)."""

    default_message = "this player is banned"


class ChatClosed(ServiceError, code=ErrorCode.CHAT_CLOSED, status=403):
    """The match's spectators' room is switched off (`"spectator_chat": false`): a sibling of
    `Forbidden`, whose code stays a leaf of the tree."""

    default_message = "this match's spectators' chat is switched off"


class NotFound(ServiceError, code=ErrorCode.NOT_FOUND, status=404):
    default_message = "not found"


class MethodNotAllowed(ServiceError, code=ErrorCode.METHOD_NOT_ALLOWED, status=405):
    default_message = "method not allowed"


class Conflict(ServiceError, status=409):
    pass


class IllegalActionError(Conflict, code=ErrorCode.ILLEGAL_ACTION):
    default_message = "this action is not allowed now"


class NotYourTurn(Conflict, code=ErrorCode.NOT_YOUR_TURN):
    default_message = "it is not your turn"


class MatchOver(Conflict, code=ErrorCode.MATCH_OVER):
    default_message = "the match is over"


class StaleVersion(Conflict, code=ErrorCode.VERSION_CONFLICT):
    default_message = "the match has moved on since expected_seq; reload the view and decide again"


class SeatTaken(Conflict, code=ErrorCode.SEAT_TAKEN):
    default_message = "this seat is already taken"


class SeatNotHeld(Conflict, code=ErrorCode.SEAT_NOT_HELD):
    default_message = "no person holds this seat"


class AlreadySeated(Conflict, code=ErrorCode.ALREADY_SEATED):
    default_message = "you already hold a seat in this match"


class AlreadyResigned(Conflict, code=ErrorCode.ALREADY_RESIGNED):
    default_message = "this seat has resigned already"


class MatchNotStarted(Conflict, code=ErrorCode.MATCH_NOT_STARTED):
    default_message = "the match has not started: not every seat is filled yet"


class AlreadyStarted(Conflict, code=ErrorCode.MATCH_STARTED):
    default_message = "the match has started"


class NameTaken(Conflict, code=ErrorCode.NAME_TAKEN):
    default_message = "this name is taken (names are unique regardless of case)"


class MatchNotFinished(Conflict, code=ErrorCode.MATCH_NOT_FINISHED):
    default_message = "the match is still running; its secret and full log are revealed after the end"


class TooManySeeks(Conflict, code=ErrorCode.TOO_MANY_SEEKS):
    default_message = "this player holds the most open seeks a player may"


class SeekClosed(Conflict, code=ErrorCode.SEEK_CLOSED):
    default_message = "this seek is no longer open"


class ChallengeClosed(Conflict, code=ErrorCode.CHALLENGE_CLOSED):
    default_message = "this challenge is no longer open"


class PayloadTooLarge(ServiceError, code=ErrorCode.PAYLOAD_TOO_LARGE, status=413):
    default_message = "the request body is too large"


class RateLimited(ServiceError, code=ErrorCode.RATE_LIMITED, status=429):
    default_message = "too many requests; slow down"


class InternalError(ServiceError, code=ErrorCode.INTERNAL_ERROR, status=500):
    default_message = "internal server error"


class Unavailable(ServiceError, code=ErrorCode.UNAVAILABLE, status=503):
    default_message = "the service is not ready"


def _leaves(cls: type[ServiceError]) -> list[type[ServiceError]]:
    out: list[type[ServiceError]] = []
    for sub in cls.__subclasses__():
        out.extend(_leaves(sub) if sub.__subclasses__() else [sub])
    return out


ALL_ERRORS: tuple[type[ServiceError], ...] = tuple(_leaves(ServiceError))
"""Every concrete error class, derived from the tree (never restated by hand)."""

BY_CODE: dict[ErrorCode, type[ServiceError]] = {cls.code: cls for cls in ALL_ERRORS}
"""One class per `ErrorCode` (a test checks that the tree and the enumeration match exactly)."""


def from_code(code: ErrorCode, message: str, details: JSONValue = None) -> ServiceError:
    """The error for a machine code raised by a lower layer (a rules refusal, a match refusal)."""
    return BY_CODE[code](message, details)
