"""The webhooks' columns, statements and row conversions, shared by the SQLite and PostgreSQL
stores; `{p}` marks a parameter (`?` on SQLite, `$n` on PostgreSQL)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import TypeVar

import orjson

from app.service.seek_ports import AttemptRecord, WebhookRecord
from app.store.rows import Row, json_text

T = TypeVar("T")

COLUMNS = (
    "id, player_id, url, events, secret, created_at, cursor, attempts, failing_since, next_at, lease_until"
)
ATTEMPT_COLUMNS = "webhook_id, delivery_id, cursor, type, attempt, at, outcome, status_code, error"
KEEP_ATTEMPTS = 100  # per webhook; older ones are deleted as new ones come


def values(w: WebhookRecord, time: Callable[[datetime], object]) -> tuple[object, ...]:
    def opt(t: datetime | None) -> object:
        return None if t is None else time(t)

    return (
        *(w.id, w.player_id, w.url, json_text(list(w.events)), w.secret, time(w.created_at), w.cursor),
        *(w.attempts, opt(w.failing_since), opt(w.next_at), opt(w.lease_until)),
    )


def record(r: Row, parse: Callable[[T], datetime]) -> WebhookRecord:
    def opt(t: T | None) -> datetime | None:
        return None if t is None else parse(t)

    return WebhookRecord(
        *(r[0], r[1], r[2], tuple(orjson.loads(r[3])), r[4], parse(r[5]), r[6], r[7]),
        *(opt(r[8]), opt(r[9]), opt(r[10])),
    )


def attempt(r: Row, parse: Callable[[T], datetime]) -> AttemptRecord:
    return AttemptRecord(r[0], r[1], r[2], r[3], r[4], parse(r[5]), r[6], r[7], r[8])
