"""`SeekStore` in memory: `MemorySeekStore`, the twin of the SQL seek stores, over a
`MemoryEventStore` (whose matches and notices a claim writes).

One lock orders every seek write, so a claim sees its seeks open and marks them matched with no
other seek write in between; the match is created before any seek changes (its checks are the only
step that can fail), so a failed claim leaves nothing behind.
"""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Sequence
from datetime import datetime

from app.service import seek_ports as sp
from app.service.ports import NewNotice, StoredNotice
from app.service.seek_ports import ChallengeRecord, MatchWrite
from app.store.memory import MemoryEventStore


class MemorySeekStore:
    def __init__(self, store: MemoryEventStore) -> None:
        self._store = store
        self._seeks: dict[str, sp.SeekRecord] = {}
        self._challenges: dict[str, ChallengeRecord] = {}
        self._bots: set[str] = set()  # players marked as bots
        self._webhooks: dict[str, sp.WebhookRecord] = {}
        self._attempts: dict[str, list[sp.AttemptRecord]] = {}
        self._lock = asyncio.Lock()

    async def add_seek(self, seek: sp.SeekRecord, max_open: int, now: datetime) -> bool:
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

    async def get_seek(self, seek_id: str) -> sp.SeekRecord | None:
        return self._seeks.get(seek_id)

    async def open_seeks(self, now: datetime, limit: int, game: str | None = None) -> list[sp.SeekRecord]:
        found = [s for s in self._seeks.values() if _open(s, now) and game in (None, s.game)]
        found.sort(key=lambda s: (s.created_at, s.id))
        return found[:limit]

    async def player_seeks(self, player_id: str, limit: int) -> list[sp.SeekRecord]:
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

    async def claim(self, claim: sp.SeekClaim) -> tuple[StoredNotice, ...] | None:
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

    async def add_challenge(
        self, challenge: ChallengeRecord, notices: Sequence[NewNotice]
    ) -> tuple[StoredNotice, ...]:
        async with self._lock:
            for p in (challenge.from_id, *challenge.to_ids):
                if await self._store.get_player(p) is None:
                    raise KeyError(f"player {p}")
            if challenge.id in self._challenges:
                raise ValueError(f"challenge {challenge.id} exists")
            self._challenges[challenge.id] = challenge
            return await self._store.write_notices(notices, challenge.created_at)

    async def get_challenge(self, challenge_id: str) -> ChallengeRecord | None:
        return self._challenges.get(challenge_id)

    async def player_challenges(self, player_id: str, limit: int) -> list[ChallengeRecord]:
        found = [c for c in self._challenges.values() if player_id == c.from_id or player_id in c.to_ids]
        found.sort(key=lambda c: (c.created_at, c.id), reverse=True)
        return found[:limit]

    async def update_challenge(
        self, challenge: ChallengeRecord, write: MatchWrite | None, notices: Sequence[NewNotice], at: datetime
    ) -> tuple[StoredNotice, ...] | None:
        async with self._lock:
            stored = self._challenges.get(challenge.id)
            if stored is None or stored.version != challenge.version - 1:
                return None
            written: tuple[StoredNotice, ...] = ()
            if write is not None:
                await self._store.create_match(write.match, write.seat_rows, write.events)
                written = await self._store.write_notices(write.notices, write.match.created_at)
            self._challenges[challenge.id] = challenge
            return written + await self._store.write_notices(notices, at)

    async def expire_challenges(self, now: datetime) -> int:
        async with self._lock:
            due = [c for c in self._challenges.values() if c.status == "open" and c.expires_at <= now]
            for c in due:
                self._challenges[c.id] = dataclasses.replace(c, status="expired", version=c.version + 1)
            return len(due)

    async def player_bot(self, player_id: str) -> bool | None:
        if await self._store.get_player(player_id) is None:
            return None
        return player_id in self._bots

    async def set_player_bot(self, player_id: str, bot: bool) -> bool:
        if await self._store.get_player(player_id) is None:
            return False
        (self._bots.add if bot else self._bots.discard)(player_id)
        return True

    async def add_webhook(self, webhook: sp.WebhookRecord) -> None:
        if await self._store.get_player(webhook.player_id) is None:
            raise KeyError(f"player {webhook.player_id}")
        self._webhooks[webhook.id] = webhook

    async def get_webhook(self, webhook_id: str) -> sp.WebhookRecord | None:
        return self._webhooks.get(webhook_id)

    async def player_webhooks(self, player_id: str) -> list[sp.WebhookRecord]:
        found = [w for w in self._webhooks.values() if w.player_id == player_id]
        return sorted(found, key=lambda w: (w.created_at, w.id))

    async def delete_webhook(self, webhook_id: str) -> bool:
        self._attempts.pop(webhook_id, None)
        return self._webhooks.pop(webhook_id, None) is not None

    async def due_webhooks(self, now: datetime, limit: int) -> list[str]:
        due = []
        for w in self._webhooks.values():
            player = await self._store.get_player(w.player_id)
            if player is None or w.cursor >= player.cursor:
                continue
            if (w.next_at is None or w.next_at <= now) and (w.lease_until is None or w.lease_until <= now):
                due.append(w)
        due.sort(key=lambda w: (w.next_at is not None, w.next_at or now, w.id))
        return [w.id for w in due[:limit]]

    async def lease_webhook(self, webhook_id: str, now: datetime, until: datetime) -> sp.WebhookRecord | None:
        w = self._webhooks.get(webhook_id)
        if w is None or (w.lease_until is not None and w.lease_until > now):
            return None
        self._webhooks[webhook_id] = w = dataclasses.replace(w, lease_until=until)
        return w

    async def webhook_progress(
        self, webhook_id: str, progress: sp.WebhookProgress, attempt: sp.AttemptRecord | None
    ) -> None:
        w = self._webhooks.get(webhook_id)
        if w is None:
            return
        p = progress
        self._webhooks[webhook_id] = dataclasses.replace(
            w, cursor=p.cursor, attempts=p.attempts, failing_since=p.failing_since, next_at=p.next_at
        )
        if attempt is not None:
            kept = self._attempts.setdefault(webhook_id, [])
            kept.append(attempt)
            del kept[:-100]

    async def release_webhook(self, webhook_id: str) -> None:
        w = self._webhooks.get(webhook_id)
        if w is not None:
            self._webhooks[webhook_id] = dataclasses.replace(w, lease_until=None)

    async def webhook_attempts(self, webhook_id: str, limit: int) -> list[sp.AttemptRecord]:
        return list(reversed(self._attempts.get(webhook_id, [])))[:limit]


def _open(seek: sp.SeekRecord, now: datetime) -> bool:
    return seek.status == "open" and seek.expires_at > now
