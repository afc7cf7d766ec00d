"""How a stream ends: its close codes, the close code and reason of an error, a protocol error.

The 4xxx codes mirror the HTTP status of the same error (the one error tree, mapped once more by
`close_code`); a close reason carries the error's code and message (`close_reason`). `CLOSE_CODES`
describes each code in the committed frame schema (`app.api.frames`) and `docs/streams.md`.
"""

from __future__ import annotations

import enum

from app.service import errors as svc


class Close(enum.IntEnum):
    """Close codes of the stream. 4xxx mirror the HTTP status of the same error."""

    NORMAL = 1000  # the client closed
    GOING_AWAY = 1001  # the server is shutting down: reconnect (to another process) with `after`
    UNSUPPORTED_DATA = 1003  # a binary frame: frames are JSON text
    TOO_BIG = 1009  # a frame over the size limit (the HTTP body limit)
    INTERNAL_ERROR = 1011  # an unexpected server error: reconnect with `after`
    TRY_AGAIN_LATER = 1013  # the service reported itself unavailable
    SLOW_CONSUMER = 4008  # fell too far behind the live feed: reconnect with `after` = last seq seen
    BAD_REQUEST = 4400  # a malformed frame, an unknown frame type, a bad query parameter or `after`
    UNAUTHORIZED = 4401  # a bad token, or no `auth` frame in time
    FORBIDDEN = 4403  # a token of another match; a banned player (reason "banned: …")
    NOT_FOUND = 4404  # no such match
    RATE_LIMITED = 4429  # over the stream-connection or frame budget: wait, then reconnect with `after`


CLOSE_CODES: dict[int, str] = {
    Close.NORMAL: "normal closure (the client closed)",
    Close.GOING_AWAY: "the server is shutting down; reconnect (to another process) with after = last seq",
    Close.UNSUPPORTED_DATA: "a binary frame; frames are JSON text",
    Close.TOO_BIG: "a frame larger than the server's body limit",
    Close.INTERNAL_ERROR: "unexpected server error (a failing database too); reconnect with after = last seq",
    Close.TRY_AGAIN_LATER: "the service reported itself unavailable; reconnect later",
    Close.SLOW_CONSUMER: "slow consumer: the client fell too far behind; reconnect with after = last seq",
    Close.BAD_REQUEST: "bad request: malformed frame, unknown frame type, bad query parameter or after",
    Close.UNAUTHORIZED: "unauthorized: bad token, or no auth frame in time",
    Close.FORBIDDEN: "forbidden: the token belongs to another match, or its player is banned "
    "(reason banned: …)",
    Close.NOT_FOUND: "no such match",
    Close.RATE_LIMITED: "rate limited: too many stream connections or frames; wait (the reason says how "
    "long), then reconnect with after = last seq",
}


def close_code(error: svc.ServiceError) -> int:
    """The close code for an error that ends a stream: the one error tree, mapped once more."""
    status = error.http_status
    if status in (400, 422):
        return Close.BAD_REQUEST
    if 400 <= status < 500:
        return 4000 + status
    if status == 503:
        return Close.TRY_AGAIN_LATER
    return Close.INTERNAL_ERROR


def close_reason(error: svc.ServiceError) -> str:
    """The close reason for an error that ends a stream: its code and message (`docs/streams.md`),
    cut to the 123 bytes of UTF-8 a close frame holds."""
    return fit_reason(f"{error.code}: {error.message}")


def fit_reason(text: str) -> str:
    """A close reason fits in 123 bytes of UTF-8."""
    data = text.encode()
    if len(data) <= 123:
        return text
    return data[:120].decode(errors="ignore") + "…"


class ProtocolError(Exception):
    """A frame the server cannot take at all: the stream closes with `code`."""

    def __init__(self, reason: str, code: int = Close.BAD_REQUEST) -> None:
        super().__init__(reason)
        self.code = code
        self.reason = reason
