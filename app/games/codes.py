"""The machine codes of every refusal, one enumeration shared by all layers.

The rules raise `IllegalAction` with one of `NOT_YOUR_TURN`, `MATCH_OVER`, `ILLEGAL_ACTION`; the
match layer refuses requests with any code; the service's error tree (`app.service.errors`) has
exactly one class per code, and the error table of `docs/api.md` lists exactly these codes (both
checked by `tests/contract/test_error_codes.py`). A code that is not a member is a type error, not
a silent `illegal_action`.
"""

from __future__ import annotations

from enum import StrEnum


class ErrorCode(StrEnum):
    """A refusal's machine code, as it appears in `{"error": {"code": …}}` and error frames."""

    VALIDATION_ERROR = "validation_error"
    IDEMPOTENCY_KEY_REUSED = "idempotency_key_reused"
    UNAUTHORIZED = "unauthorized"
    FORBIDDEN = "forbidden"
    PLAYER_KEY_REQUIRED = "player_key_required"
    BANNED = "banned"
    NOT_FOUND = "not_found"
    METHOD_NOT_ALLOWED = "method_not_allowed"
    ILLEGAL_ACTION = "illegal_action"
    NOT_YOUR_TURN = "not_your_turn"
    MATCH_OVER = "match_over"
    VERSION_CONFLICT = "version_conflict"
    SEAT_TAKEN = "seat_taken"
    SEAT_NOT_HELD = "seat_not_held"
    ALREADY_SEATED = "already_seated"
    ALREADY_RESIGNED = "already_resigned"
    MATCH_NOT_STARTED = "match_not_started"
    MATCH_STARTED = "match_started"
    MATCH_NOT_FINISHED = "match_not_finished"
    NAME_TAKEN = "name_taken"
    TOO_MANY_SEEKS = "too_many_seeks"
    SEEK_CLOSED = "seek_closed"
    CHALLENGE_CLOSED = "challenge_closed"
    CHAT_CLOSED = "chat_closed"
    PAYLOAD_TOO_LARGE = "payload_too_large"
    RATE_LIMITED = "rate_limited"
    INTERNAL_ERROR = "internal_error"
    UNAVAILABLE = "unavailable"
