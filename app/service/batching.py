"""Group calls: what callers ask while a batch is in flight goes out together as the next batch.

The PostgreSQL store's group commit (`app.store.postgres_commit`) and the rate limits' Redis
counters (`app.api.rate_counters`) pay a round trip, and a fixed cost of their client library,
per call whatever its size. `GroupCall(send, max_batch)` lets each caller `await group(item)`
as if it made the call alone: the first caller's item goes out at once, alone; the items that
come while it is in flight wait and go out as the next batch (up to `max_batch`, oldest first),
one batch in flight at a time. A lone caller pays nothing for the batching; under load the fixed
cost is shared.

`send(items)` returns one outcome per item, in order: its result, or an exception that its caller
gets raised. If `send` itself raises, every caller of the batch gets that exception. A caller that
was cancelled before its batch went out is dropped from it (its item is not sent).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from typing import Generic, TypeVar

T = TypeVar("T")
R = TypeVar("R")


class GroupCall(Generic[T, R]):
    """Batches callers' items into calls of `send`, one call in flight at a time (see the module)."""

    def __init__(self, send: Callable[[list[T]], Awaitable[Sequence[R | Exception]]], max_batch: int) -> None:
        self._send = send
        self._max_batch = max_batch
        self._pending: list[tuple[T, asyncio.Future[R]]] = []
        self._draining = False  # set in `_drain` itself: a task ends a while after it returns
        self._tasks: set[asyncio.Task[None]] = set()
        self.batches = 0  # calls of `send` made, for tests and the benchmarks

    async def __call__(self, item: T) -> R:
        future: asyncio.Future[R] = asyncio.get_running_loop().create_future()
        self._pending.append((item, future))
        if not self._draining:
            self._draining = True
            task = asyncio.create_task(self._drain())
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
        return await future

    async def wait(self) -> None:
        """Wait until no batch is in flight or waiting (their callers are owed an answer)."""
        while self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)

    async def _drain(self) -> None:
        try:
            while self._pending:
                live = [p for p in self._pending if not p[1].done()]
                batch, self._pending = live[: self._max_batch], live[self._max_batch :]
                if batch:
                    await self._call(batch)
        finally:
            # No await since the queue was seen empty: nothing is left behind.
            self._draining = False

    async def _call(self, batch: list[tuple[T, asyncio.Future[R]]]) -> None:
        self.batches += 1
        try:
            outcomes: Sequence[R | Exception] = await self._send([item for item, _ in batch])
        except Exception as e:
            outcomes = [e] * len(batch)
        for (_, future), outcome in zip(batch, outcomes, strict=True):
            if future.done():
                continue
            if isinstance(outcome, Exception):
                future.set_exception(outcome)
            else:
                future.set_result(outcome)
