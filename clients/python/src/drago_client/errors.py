"""Every error the client raises, one tree; `ApiError` subclasses mirror the server's error codes.

    DragoError
    ├── TransportError              the server could not be reached (after the retries)
    ├── DecodeError                 an answer does not match the generated types
    ├── StreamClosed                a stream closed for good (a close code retrying cannot fix)
    └── ApiError                    the server refused: `status`, `code`, `message`, `details`
        ├── ValidationError         validation_error        422
        ├── IdempotencyKeyReused    idempotency_key_reused  422
        ├── Unauthorized            unauthorized            401
        ├── Forbidden               forbidden               403
        ├── PlayerKeyRequired       player_key_required     403  (a rated match's seat)
        ├── Banned                  banned                  403  (an operator banned the player)
        ├── ChatClosed              chat_closed             403  (no spectators' room)
        ├── NotFound                not_found               404
        ├── MethodNotAllowed        method_not_allowed      405
        ├── Conflict                (409)
        │   ├── IllegalAction       illegal_action
        │   ├── NotYourTurn         not_your_turn
        │   ├── MatchOver           match_over
        │   ├── VersionConflict     version_conflict
        │   ├── SeatTaken           seat_taken
        │   ├── SeatNotHeld         seat_not_held
        │   ├── AlreadySeated       already_seated
        │   ├── AlreadyResigned     already_resigned
        │   ├── MatchNotStarted     match_not_started
        │   ├── MatchStarted        match_started
        │   ├── NameTaken           name_taken
        │   ├── MatchNotFinished    match_not_finished
        │   ├── TooManySeeks        too_many_seeks
        │   ├── SeekClosed          seek_closed
        │   └── ChallengeClosed     challenge_closed
        ├── PayloadTooLarge         payload_too_large       413
        ├── RateLimited             rate_limited            429  (`retry_after`, seconds)
        ├── InternalError           internal_error          500
        └── Unavailable             unavailable             503

A code this client does not know (a newer server) becomes the class of its status (`Conflict` for
409) or a plain `ApiError`, so `except Conflict` keeps working.
"""

from __future__ import annotations

from typing import Any


class DragoError(Exception):
    """The base of every error of this package."""


class TransportError(DragoError):
    """The server could not be reached, or the connection broke, and retrying did not help."""


class DecodeError(DragoError):
    """A server answer does not match the types this client was generated from."""

    def __init__(self, message: str, path: str = "$") -> None:
        super().__init__(f"{path}: {message}")
        self.path = path


class StreamClosed(DragoError):
    """A stream closed with a code that retrying cannot fix (e.g. 4400 bad request, 1003)."""

    def __init__(self, code: int, reason: str = "") -> None:
        super().__init__(f"stream closed with {code}: {reason}" if reason else f"stream closed with {code}")
        self.code = code
        self.reason = reason


class ApiError(DragoError):
    """The server answered with its error envelope `{"error": {"code", "message", "details"}}`."""

    code: str = "error"
    status: int = 400

    def __init__(
        self, message: str, details: Any = None, *, status: int | None = None, code: str | None = None
    ) -> None:
        super().__init__(message)
        self.message = message
        self.details = details
        if status is not None:  # the status it came with (an unknown code, a proxy's answer)
            self.status = status
        if code is not None:
            self.code = code

    def __repr__(self) -> str:
        return f"{type(self).__name__}(code={self.code!r}, status={self.status}, message={self.message!r})"


class ValidationError(ApiError):
    code = "validation_error"
    status = 422


class IdempotencyKeyReused(ApiError):
    code = "idempotency_key_reused"
    status = 422


class Unauthorized(ApiError):
    code = "unauthorized"
    status = 401


class Forbidden(ApiError):
    code = "forbidden"
    status = 403


class PlayerKeyRequired(ApiError):
    """403: a rated match's seats are joined only with a player key."""

    code = "player_key_required"
    status = 403


class Banned(ApiError):
    """403: an operator banned the player: its key and its seats' tokens are refused everywhere."""

    code = "banned"
    status = 403


class ChatClosed(ApiError):
    """403: the match's spectators' chat room is switched off (`spectator_chat: false`)."""

    code = "chat_closed"
    status = 403


class NotFound(ApiError):
    code = "not_found"
    status = 404


class MethodNotAllowed(ApiError):
    code = "method_not_allowed"
    status = 405


class Conflict(ApiError):
    """409: the request is well formed but the match's state refuses it."""

    code = "conflict"
    status = 409


class IllegalAction(Conflict):
    code = "illegal_action"


class NotYourTurn(Conflict):
    code = "not_your_turn"


class MatchOver(Conflict):
    code = "match_over"


class VersionConflict(Conflict):
    """`expected_seq` is stale: the match moved on; read the view again and decide again."""

    code = "version_conflict"


class SeatTaken(Conflict):
    code = "seat_taken"


class SeatNotHeld(Conflict):
    code = "seat_not_held"


class AlreadySeated(Conflict):
    code = "already_seated"


class AlreadyResigned(Conflict):
    code = "already_resigned"


class MatchNotStarted(Conflict):
    code = "match_not_started"


class MatchStarted(Conflict):
    code = "match_started"


class NameTaken(Conflict):
    """409: another player has this name (names are unique regardless of case)."""

    code = "name_taken"


class MatchNotFinished(Conflict):
    code = "match_not_finished"


class TooManySeeks(Conflict):
    code = "too_many_seeks"


class SeekClosed(Conflict):
    code = "seek_closed"


class ChallengeClosed(Conflict):
    code = "challenge_closed"


class PayloadTooLarge(ApiError):
    code = "payload_too_large"
    status = 413


class RateLimited(ApiError):
    """429 (or a stream closed with 4429): `retry_after` is the server's `Retry-After`, in seconds."""

    code = "rate_limited"
    status = 429
    retry_after: float | None = None


class InternalError(ApiError):
    code = "internal_error"
    status = 500


class Unavailable(ApiError):
    code = "unavailable"
    status = 503


def _leaves(cls: type[ApiError]) -> list[type[ApiError]]:
    out: list[type[ApiError]] = []
    for sub in cls.__subclasses__():
        out.extend(_leaves(sub) if sub.__subclasses__() else [sub])
    return out


BY_CODE: dict[str, type[ApiError]] = {cls.code: cls for cls in _leaves(ApiError)}
"""Every server error code and its class (derived from the tree above)."""

_BY_STATUS: dict[int, type[ApiError]] = {409: Conflict}


def api_error(body: Any, status: int, retry_after: float | None = None) -> ApiError:
    """The `ApiError` for an error answer: its envelope if it has one, else the status alone."""
    error = body.get("error") if isinstance(body, dict) else None
    if isinstance(error, dict) and isinstance(error.get("code"), str):
        code: str = error["code"]
        message = str(error.get("message") or code)
        details = error.get("details")
    else:
        code, message, details = f"http_{status}", f"HTTP {status}", body
    cls = BY_CODE.get(code) or _BY_STATUS.get(status) or ApiError
    exc = cls(message, details, status=status, code=code)
    if isinstance(exc, RateLimited):
        exc.retry_after = retry_after
    return exc
