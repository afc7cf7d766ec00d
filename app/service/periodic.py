"""A periodic loop: one pass of some work, then a pause, in a task of its own, until stopped.

The sweeper, the webhook deliverer, the matcher and the ban watch each run one. A pass that raises
is logged (with its traceback) and the loop goes on after the usual pause: one bad pass never
stops the loop. With `again`, a pass whose result is truthy (work was found: more may be waiting)
is followed by the next one at once. The pause is wall-clock time; what a pass considers due is
read from the injected clock (`Context.clock`) by the work itself.
"""

from __future__ import annotations

import asyncio
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
        again: bool = False,
    ) -> None:
        self.name = name
        self.work = work
        self.interval_s = interval_s
        self.log = log
        self.failure = failure  # the log message of a pass that raised
        self.again = again
        self._task: asyncio.Task[None] | None = None

    @property
    def running(self) -> bool:
        return self._task is not None and not self._task.done()

    async def start(self) -> None:
        self._task = asyncio.create_task(self._loop(), name=self.name)

    async def stop(self) -> None:
        task, self._task = self._task, None
        await cancel_and_wait(task)

    async def _loop(self) -> None:
        while True:
            result: object = None
            try:
                result = await self.work()
            except Exception:
                self.log.exception(self.failure)
            if not (self.again and result):
                await asyncio.sleep(self.interval_s)
