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

import asyncio
import json
import logging
import re
import sys
from contextvars import ContextVar
from datetime import UTC, datetime
from typing import TextIO

import orjson

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
    """Rewrites every record it sees through `scrub`: message, extra string fields, traceback.

    The message and the extra strings are searched for `_TRIGGER` together, once: a match in one
    of them is a match in the text that joins them (a newline between two fields starts no
    match), and a record without one (an access line, most lines) is left as it is."""

    _formatter = logging.Formatter()

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:  # a broken format string: show it raw, scrubbed
            message = f"{record.msg} {record.args}"
        fields = record.__dict__
        fields.pop("color_message", None)  # formatted from the args: would bring them back
        extra = [key for key, value in fields.items() if key not in _RESERVED and isinstance(value, str)]
        if _TRIGGER.search("\n".join([message, *(fields[key] for key in extra)])):
            message = scrub(message)
            for key in extra:
                fields[key] = scrub(fields[key])
        record.msg, record.args = message, None
        if record.exc_info and not record.exc_text:
            record.exc_text = self._formatter.formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = scrub(record.exc_text)
        if record.stack_info:
            record.stack_info = scrub(record.stack_info)
        return True


class JsonFormatter(logging.Formatter):
    """One JSON object per record: time, level, logger, message, the request id, extra fields."""

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
        try:
            return orjson.dumps(data, default=str).decode()
        except TypeError:  # what orjson refuses outright (an int beyond 64 bits, say)
            return json.dumps(data, default=str, ensure_ascii=False)


class _JsonHandler(logging.StreamHandler):  # type: ignore[type-arg]
    """Writes to the current `sys.stdout` (which test runners swap); configuring twice replaces it.

    On an event loop's thread, the lines written while the loop runs one step are flushed together
    when it has run (`call_soon`): one `write` system call per step, not one per line (an action
    over HTTP logs two lines). Elsewhere (another thread, no loop running) each line is flushed at
    once, as `StreamHandler` does."""

    def __init__(self) -> None:
        super().__init__(sys.stdout)
        self._flushing: asyncio.AbstractEventLoop | None = None  # the loop that will flush

    def emit(self, record: logging.LogRecord) -> None:
        stream = self.stream = sys.stdout
        try:
            stream.write(self.format(record) + self.terminator)
        except RecursionError:  # as StreamHandler.emit
            raise
        except Exception:
            self.handleError(record)
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            self.flush()
            return
        if self._flushing is not loop:
            self._flushing = loop
            loop.call_soon(self._flush_later, stream)

    def _flush_later(self, stream: TextIO) -> None:
        self._flushing = None
        with self.lock:  # type: ignore[union-attr]  # made by Handler.__init__
            if hasattr(stream, "flush"):
                stream.flush()


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
    # What no line of ours shows, not computed per record (the logging HOWTO's "Optimization"):
    # the caller's file and line, and the thread's and process's names and ids.
    logging._srcfile = None
    logging.logThreads = logging.logProcesses = logging.logMultiprocessing = False
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access"):
        logging.getLogger(name).handlers.clear()
        logging.getLogger(name).propagate = True
    for name in _AT_LEAST_INFO:
        logger = logging.getLogger(name)
        if logger.getEffectiveLevel() < logging.INFO:
            logger.setLevel(logging.INFO)
