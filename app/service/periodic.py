"""A periodic loop: one pass of some work, then a pause, in a task of its own, until stopped.

The sweeper, the webhook deliverer, the matcher and the ban watch each run one. A pass that raises
is logged (with its traceback) and the loop goes on after the usual pause: one bad pass never
stops the loop. The pause after a pass is `interval_s`, or with `pause`, `pause(result)` seconds
(0: the next pass at once, as when work was found and more may be waiting; a pass that raised
pauses `interval_s`). `kick` ends a pause at once, and a kick
during a pass makes the next pass follow it at once (work arrived here: no need to wait for the
next round). The pause is wall-clock time; what a pass considers due is read from the injected
clock (`Context.clock`) by the work itself.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable

from app.service.tasks import cancel_and_wait


class Periodic:
    def __init__(
        self,
        name: str,
        work: Callable[[], Awaitable[object]],
        interval_s: float,
        *,
        log: logging.Logger,
        failure: str,
        pause: Callable[[object], float] | None = None,
    ) -> None:
        self.name = name
        self.work = work
        self.interval_s = interval_s
        self.log = log
        self.failure = failure  # the log message of a pass that raised
        self.pause = pause
        self._task: asyncio.Task[None] | None = None
        self._kicked = asyncio.Event()

    @property
    def running(self) -> bool:
        return self._task is not None and not self._task.done()

    async def start(self) -> None:
        self._task = asyncio.create_task(self._loop(), name=self.name)

    async def stop(self) -> None:
        task, self._task = self._task, None
        await cancel_and_wait(task)

    def kick(self) -> None:
        """The next pass now: end the pause under way, or skip the one after the pass under way."""
        self._kicked.set()

    async def _loop(self) -> None:
        while True:
            self._kicked.clear()  # a kick from here on is for a pass after this one
            delay = self.interval_s
            try:
                result = await self.work()
            except Exception:
                self.log.exception(self.failure)
            else:
                if self.pause is not None:
                    delay = self.pause(result)
            if delay <= 0 or self._kicked.is_set():
                await asyncio.sleep(0)  # at once, yet never without letting the other tasks run
                continue
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._kicked.wait(), delay)
