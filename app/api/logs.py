"""JSON logs on stdout, one object per line, stamped with the request id, and never a secret.

The app's own lines carry ids, seats, seqs, codes and timings only: never tokens, secrets, views,
actions' contents or query strings (a WebSocket may carry its token in one). Libraries are less
careful — at DEBUG, uvicorn and websockets print each handshake's request line (with `?token=…`),
its headers (`authorization: Bearer …`) and every frame (an `auth` frame holds a token); httpx
prints URLs. So `configure_logging` puts `SecretFilter` on the root handler, where every logger's
records end up: it rewrites each record's message (formatted with its args), its extra fields and
its traceback through `scrub`, which removes bearer credentials, Authorization header values,
`token`/`key`/`secret` values and whole query strings. It also keeps the loggers that print SQL
parameters (`sqlalchemy.engine`, `aiosqlite`: a match's secret seed is one) at INFO or above.
"""

from __future__ import annotations

import json
import logging
import re
import sys
from contextvars import ContextVar
from datetime import UTC, datetime

request_id: ContextVar[str | None] = ContextVar("request_id", default=None)

_RESERVED = frozenset(logging.LogRecord("", 0, "", 0, "", (), None).__dict__) | {
    "message",
    "asctime",
    "color_message",  # uvicorn's copy of the message with terminal colours
}

REDACTED = "[redacted]"

# Most lines hold none of these, and skip the rewriting below.
_TRIGGER = re.compile(r"(?i)bearer|authori[sz]ation|token|key|secret|\?|\b(?:TEXT|BINARY|CONT) ")
_RULES: tuple[tuple[re.Pattern[str], str], ...] = (
    # A query string after a path or URL: all of it (it is where browsers put stream tokens).
    (re.compile(r"(/[^\s?#\"'<>]*)\?[^\s#\"'<>]*"), r"\1"),
    # A websockets frame dump: `TEXT '{"type":"auth","token":…}' [52 bytes]`.
    (re.compile(r"\b(TEXT|BINARY|CONT) .*? \[(\d+ bytes?)"), rf"\1 {REDACTED} [\2"),
    # An Authorization header value, whatever its scheme, as text or as a repr of bytes.
    (
        re.compile(r"(?i)(authori[sz]ation['\"]?\s*[:=,]\s*(?:b(?=['\"]))?['\"]?)[^\r\n'\"]+"),
        rf"\1{REDACTED}",
    ),
    # A bearer credential anywhere else.
    (re.compile(r"(?i)\b(bearer\s+)[^\s'\",;)]+"), rf"\1{REDACTED}"),
    # `token=…`, `key=…`, `player_key=…` outside a URL.
    (re.compile(r"(?i)\b((?:\w*_)?(?:token|key|secret)s?=)[^&\s'\",;)]+"), rf"\1{REDACTED}"),
    # `"token": "…"` in JSON or a repr.
    (re.compile(r"(?i)(['\"](?:\w*_)?(?:token|key|secret)['\"]\s*:\s*b?['\"])[^'\"]*"), rf"\1{REDACTED}"),
)


def scrub(text: str) -> str:
    """`text` without credentials or query strings."""
    if not _TRIGGER.search(text):
        return text
    for pattern, replacement in _RULES:
        text = pattern.sub(replacement, text)
    return text


class SecretFilter(logging.Filter):
    """Rewrites every record it sees through `scrub`: message, extra string fields, traceback."""

    _formatter = logging.Formatter()

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:  # a broken format string: show it raw, scrubbed
            message = f"{record.msg} {record.args}"
        record.msg, record.args = scrub(message), None
        record.__dict__.pop("color_message", None)  # formatted from the args: would bring them back
        for key, value in list(record.__dict__.items()):
            if key not in _RESERVED and isinstance(value, str):
                record.__dict__[key] = scrub(value)
        if record.exc_info and not record.exc_text:
            record.exc_text = self._formatter.formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = scrub(record.exc_text)
        if record.stack_info:
            record.stack_info = scrub(record.stack_info)
        return True


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        data: dict[str, object] = {
            "ts": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        rid = request_id.get()  # records may carry their own (`extra={"request_id": ...}`)
        if rid is not None:
            data["request_id"] = rid
        for key, value in record.__dict__.items():
            if key not in _RESERVED and not key.startswith("_"):
                data[key] = value
        if record.exc_info or record.exc_text:
            data["exc_info"] = record.exc_text or self.formatException(record.exc_info)  # type: ignore[arg-type]
        return json.dumps(data, default=str, ensure_ascii=False)


class _JsonHandler(logging.StreamHandler):  # type: ignore[type-arg]
    """Writes to the current `sys.stdout` (which test runners swap); configuring twice replaces it."""

    def emit(self, record: logging.LogRecord) -> None:
        self.stream = sys.stdout
        super().emit(record)


# Loggers whose DEBUG lines print SQL parameters or call arguments (a match's secret seed, hands).
_AT_LEAST_INFO = ("sqlalchemy.engine", "sqlalchemy.pool", "aiosqlite")


def configure_logging(level: str = "INFO") -> None:
    """JSON lines on stdout at `level`, through `SecretFilter`, for every logger of the process."""
    root = logging.getLogger()
    for handler in [h for h in root.handlers if isinstance(h, _JsonHandler)]:
        root.removeHandler(handler)
    handler = _JsonHandler()
    handler.setFormatter(JsonFormatter())
    root.addHandler(handler)
    for each in root.handlers:  # a handler someone else put there passes through it too
        if not any(isinstance(f, SecretFilter) for f in each.filters):
            each.addFilter(SecretFilter())
    root.setLevel(level)
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access"):
        logging.getLogger(name).handlers.clear()
        logging.getLogger(name).propagate = True
    for name in _AT_LEAST_INFO:
        logger = logging.getLogger(name)
        if logger.getEffectiveLevel() < logging.INFO:
            logger.setLevel(logging.INFO)
