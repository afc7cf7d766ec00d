"""In-process broadcaster: the default for one process, and the twin of the networked ones in tests.

A publish reaches only the handler of the same instance, through `loop.call_soon`, so a handler
never runs inside `publish` itself.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

from app.broadcast.base import RefCounts
from app.service.ports import MessageHandler


class MemoryBroadcaster:
    def __init__(self) -> None:
        self._handler: MessageHandler | None = None
        self._subs = RefCounts()

    async def start(self, handler: MessageHandler) -> None:
        if self._handler is not None:
            raise RuntimeError("broadcaster already started")
        self._handler = handler

    async def stop(self) -> None:
        self._handler = None

    async def publish(self, match_id: str, seq: int) -> None:
        if self._handler is not None and match_id in self._subs:
            asyncio.get_running_loop().call_soon(self._deliver, match_id, seq)

    async def publish_many(self, items: Sequence[tuple[str, int]]) -> None:
        for match_id, seq in items:
            await self.publish(match_id, seq)

    async def subscribe(self, match_id: str) -> None:
        self._subs.add(match_id)

    async def unsubscribe(self, match_id: str) -> None:
        self._subs.remove(match_id)

    def _deliver(self, match_id: str, seq: int) -> None:
        # Re-checked here: the match may have been unsubscribed, or the broadcaster stopped, since.
        if self._handler is not None and match_id in self._subs:
            self._handler(match_id, seq)
