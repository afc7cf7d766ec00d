"""`SeekStore` in memory: `MemorySeekStore`, the twin of the SQL seek stores, over a
`MemoryEventStore` (whose matches and notices a claim writes).

One lock orders every seek write, so a claim sees its seeks open and marks them matched with no
other seek write in between; the match is created before any seek changes (its checks are the only
step that can fail), so a failed claim leaves nothing behind.
"""

from __future__ import annotations

import asyncio
import dataclasses
from datetime import datetime

from app.service.ports import StoredNotice
from app.service.seek_ports import SeekClaim, SeekRecord
from app.store.memory import MemoryEventStore


class MemorySeekStore:
    def __init__(self, store: MemoryEventStore) -> None:
        self._store = store
        self._seeks: dict[str, SeekRecord] = {}
        self._lock = asyncio.Lock()

    async def add_seek(self, seek: SeekRecord, max_open: int, now: datetime) -> bool:
        async with self._lock:
            if seek.id in self._seeks:
                raise ValueError(f"seek {seek.id} exists")
            if await self._store.get_player(seek.player_id) is None:
                raise KeyError(f"player {seek.player_id}")
            held = sum(1 for s in self._seeks.values() if s.player_id == seek.player_id and _open(s, now))
            if held >= max_open:
                return False
            self._seeks[seek.id] = seek
            return True

    async def get_seek(self, seek_id: str) -> SeekRecord | None:
        return self._seeks.get(seek_id)

    async def open_seeks(self, now: datetime, limit: int, game: str | None = None) -> list[SeekRecord]:
        found = [s for s in self._seeks.values() if _open(s, now) and game in (None, s.game)]
        found.sort(key=lambda s: (s.created_at, s.id))
        return found[:limit]

    async def player_seeks(self, player_id: str, limit: int) -> list[SeekRecord]:
        found = [s for s in self._seeks.values() if s.player_id == player_id]
        found.sort(key=lambda s: (s.created_at, s.id), reverse=True)
        return found[:limit]

    async def cancel_seek(self, seek_id: str) -> bool:
        async with self._lock:
            seek = self._seeks.get(seek_id)
            if seek is None or seek.status != "open":
                return False
            self._seeks[seek_id] = dataclasses.replace(seek, status="cancelled")
            return True

    async def expire_seeks(self, now: datetime) -> int:
        async with self._lock:
            due = [s for s in self._seeks.values() if s.status == "open" and s.expires_at <= now]
            for s in due:
                self._seeks[s.id] = dataclasses.replace(s, status="expired")
            return len(due)

    async def claim(self, claim: SeekClaim) -> tuple[StoredNotice, ...] | None:
        async with self._lock:
            seeks = [self._seeks.get(i) for i in claim.seats]
            if any(s is None or s.status != "open" for s in seeks):
                return None
            w = claim.write
            await self._store.create_match(w.match, w.seat_rows, w.events)
            for seek_id, seat in claim.seats.items():
                self._seeks[seek_id] = dataclasses.replace(
                    self._seeks[seek_id], status="matched", match_id=w.match.id, seat=seat
                )
            return await self._store.write_notices(w.notices, w.match.created_at)


def _open(seek: SeekRecord, now: datetime) -> bool:
    return seek.status == "open" and seek.expires_at > now
