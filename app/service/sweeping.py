"""The sweeper: every process looks for due work now and then, with no leader.

Each pass asks the store for matches whose `deadline_at` has passed (a turn clock ran out, a waiting
match expired) and fires each (`app.service.seating.fire_due`) by appending at the expected seq,
so when several processes sweep the same deadline exactly one commit wins; it wakes the bot runner
for matches whose bot has owed a decision for longer than `stall_s` (a crashed process); now and
then it applies the ratings of rated matches that ended without them (`app.service.rating_projection`)
and forgets idempotency keys older than their time to live and chat messages older than theirs
(beyond each room's newest `chat_keep_last`). A process that starts after a
deadline passed fires it on its first pass.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import Final

from app.service.chat import keeps_chat
from app.service.context import Context
from app.service.periodic import Periodic
from app.service.rating_ports import RatingStore
from app.service.rating_projection import project_ratings
from app.service.seating import fire_due

log = logging.getLogger("app.sweeper")

BATCH: Final = 50  # matches per query; a pass repeats while a batch comes back full


class Sweeper:
    def __init__(
        self,
        ctx: Context,
        *,
        interval_s: float = 0.5,
        stall_s: float = 5.0,
        prune_every_s: float = 60.0,
        ratings_every_s: float = 5.0,
    ):
        self.ctx = ctx
        self.interval_s = interval_s
        self.stall_s = stall_s
        self.prune_every_s = prune_every_s
        self._periodic = Periodic("sweeper", self.sweep_once, interval_s, log=log, failure="sweep failed")
        self._last_prune: datetime | None = None
        # Looking for pending ratings reads the index of finished rated matches whole: not every
        # pass (a commit that ends a rated match applies it at once; this is the catch-up).
        self.ratings_every_s = ratings_every_s
        self._last_ratings: datetime | None = None
        self.fired = 0
        self.failed = 0  # deadlines that raised; retried on the next pass

    async def start(self) -> None:
        await self._periodic.start()

    async def stop(self) -> None:
        await self._periodic.stop()

    async def sweep_once(self) -> int:
        """One pass; returns how many matches it committed something to."""
        ctx = self.ctx
        now = ctx.clock()
        fired = 0
        for _ in range(100):
            due = await ctx.store.due_matches(now, BATCH)
            progress = 0
            for match_id in due:
                try:
                    if await fire_due(ctx, match_id):
                        progress += 1
                except Exception:  # one broken match must not hold up every deadline behind it
                    self.failed += 1
                    log.exception("firing the deadline of match %s failed", match_id)
            fired += progress
            if len(due) < BATCH or progress == 0:
                break
        for match_id in await ctx.store.stalled_bots(now - timedelta(seconds=self.stall_s), BATCH):
            ctx.bots.wake(match_id)
        if self._last_prune is None or (now - self._last_prune).total_seconds() >= self.prune_every_s:
            self._last_prune = now
            await ctx.store.prune_idempotency(now - timedelta(seconds=ctx.config.idempotency_ttl_s))
            if keeps_chat(ctx.store):  # old messages beyond each room's newest N
                before = now - timedelta(seconds=ctx.config.chat_retention_s)
                await ctx.store.prune_chat(before, ctx.config.chat_keep_last)
        last = self._last_ratings
        if (last is None or (now - last).total_seconds() >= self.ratings_every_s) and isinstance(
            ctx.store, RatingStore
        ):  # ratings a process left pending (it died)
            self._last_ratings = now
            await project_ratings(ctx)
        self.fired += fired
        return fired
