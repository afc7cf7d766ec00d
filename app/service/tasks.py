"""Stopping a background task (the bot runner, the sweeper, a broadcaster's listener)."""

from __future__ import annotations

import asyncio
import logging

log = logging.getLogger(__name__)


async def cancel_and_wait(task: asyncio.Task[None] | None) -> None:
    """Cancel `task` and wait until it has finished, logging (not raising) its failure."""
    if task is None:
        return
    while not task.done():  # cancelled again if a cancel was swallowed on the way
        task.cancel()
        await asyncio.wait({task}, timeout=1.0)
    if not task.cancelled() and task.exception() is not None:
        log.error("task %s failed", task.get_name(), exc_info=task.exception())
