"""The seeks' columns and row conversions, shared by the SQLite and PostgreSQL seek stores.

A seek's `rating_range` is kept in its `settings` JSON column, under the member `rating_range`
(`[min, max]`), so that the range needed no migration; the record's `settings` never contain it
(they are the match settings, and part of the seek's key, which the range is not).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import TypeVar

import orjson

from app.games.codec import JSON
from app.service.seek_ports import SeekRecord
from app.store.rows import Row, json_text

T = TypeVar("T")

COLUMNS = (
    "id, player_id, name, game, counts, options, settings, key, opponents, bot, bots_after_s, "
    "created_at, expires_at, status, match_id, seat"
)
RANGE = "rating_range"  # the member of the stored settings that holds the range


def values(s: SeekRecord, time: Callable[[datetime], object]) -> tuple[object, ...]:
    """The row of `s`, times converted by `time` (SQLite stores text, PostgreSQL timestamps)."""
    settings: dict[str, JSON] = dict(s.settings)
    if s.rating_range is not None:
        settings[RANGE] = list(s.rating_range)
    return (
        *(s.id, s.player_id, s.name, s.game, json_text(list(s.counts)), json_text(s.options)),
        *(json_text(settings), s.key, s.opponents, s.bot, s.bots_after_s, time(s.created_at)),
        *(time(s.expires_at), s.status, s.match_id, s.seat),
    )


def record(r: Row, parse: Callable[[T], datetime]) -> SeekRecord:
    settings: dict[str, JSON] = orjson.loads(r[6])
    bounds = settings.pop(RANGE, None)
    created: datetime = parse(r[11])
    expires: datetime = parse(r[12])
    return SeekRecord(
        r[0], r[1], r[2], r[3], tuple(orjson.loads(r[4])), orjson.loads(r[5]), settings, r[7], r[8],
        bool(r[9]), r[10], created, expires, r[13], r[14], r[15], rating_range=_range(bounds),
    )  # fmt: skip


def _range(bounds: JSON) -> tuple[float, float] | None:
    if not isinstance(bounds, list):
        return None
    low, high = bounds
    assert isinstance(low, int | float) and isinstance(high, int | float)
    return float(low), float(high)
