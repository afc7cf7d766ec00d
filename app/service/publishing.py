"""Telling the other processes "channel C is at N", off the request's path: the `Publisher`.

A commit (or a chat message) is told to this process's streams at once, by the live hub; the other
processes learn of it through the broadcaster, whose publish is a round trip to Redis or
PostgreSQL. The request that committed never waits for it: `soon` notes the channel's newest seq
and returns, and one background task publishes what was noted, one batch at a time
(`Broadcaster.publish_many`: one round trip for the batch). What is noted while a batch is on its
way makes the next one, each channel once, at its newest seq: a reader reads the store after its
own cursor, so a seq in between tells it nothing more. A failed batch is logged and counted, not
retried: the commits stand, and the other processes catch up on the next notification or their
quiet reads (`app.service.live`).
"""

from __future__ import annotations

import asyncio
import itertools
import logging

from app.service.ports import Broadcaster
from app.service.tasks import cancel_and_wait

log = logging.getLogger(__name__)

CLOSE_WAIT_S = 5.0
"""How long `Publisher.close` waits for what is still to publish."""


class Publisher:
    """Publishes the noted (channel, seq)s in the background, in batches (see the module)."""

    def __init__(self, broadcaster: Broadcaster) -> None:
        self._broadcaster = broadcaster
        self._noted: dict[str, int] = {}  # channel: its newest seq not yet published
        self._task: asyncio.Task[None] | None = None  # `_run`, while there is something to publish
        self._closed = False
        self.errors = 0  # notifications whose publish failed

    def soon(self, channel: str, seq: int) -> None:
        """Publish that `channel` is at `seq` (or later), without waiting. Nothing once closed."""
        if self._closed:
            return
        noted = self._noted
        if seq > noted.get(channel, seq - 1):
            noted[channel] = seq
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name="broadcast-publish")

    async def published(self) -> None:
        """Wait until what was noted so far has been handed to the broadcaster (or has failed)."""
        while (task := self._task) is not None:
            await asyncio.shield(task)

    async def close(self, wait_s: float | None = None) -> None:
        """Note nothing more; publish what is noted, giving up on a broadcaster that does not
        answer within `wait_s` (`CLOSE_WAIT_S` unless told; before the broadcaster itself stops)."""
        self._closed = True
        task = self._task
        if task is not None:
            await asyncio.wait({task}, timeout=CLOSE_WAIT_S if wait_s is None else wait_s)
            await cancel_and_wait(task)

    async def _run(self) -> None:
        try:
            while self._noted:
                batch, self._noted = self._noted, {}
                try:
                    await self._broadcaster.publish_many(list(batch.items()))
                except Exception:
                    self.errors += len(batch)
                    told = ", ".join(f"{c} at {s}" for c, s in itertools.islice(batch.items(), 5))
                    more = f" and {len(batch) - 5} more" if len(batch) > 5 else ""
                    log.exception("publishing %s%s failed", told, more)
        finally:
            self._task = None
