"""Running a coroutine at once, up to its first wait, instead of at the event loop's next turn.

`asyncio.create_task` runs a coroutine's first step at the loop's next turn, behind every callback
and task ready before it. `step(coro)` runs it now, in the caller, until it first waits: its
value if it finished there, else a `Rest` that finishes it, awaited by the caller itself (no task)
or wrapped in one. The stream fast lane sends frames so (`app.api.fast_lane.send_now`), and a
commit puts its append on its way before it renders the reply (`app.service.committing`).
"""

from __future__ import annotations

from collections.abc import Coroutine, Generator
from typing import Generic, TypeVar

T = TypeVar("T")


class Rest(Generic[T]):
    """The rest of a coroutine that yielded `waiting` (a future) outside any task: awaiting it
    waits for what the coroutine waited for, then resumes it, as its own task would, and gives its
    value. Cancelled while waiting, the coroutine gets the cancellation."""

    __slots__ = ("coro", "waiting")

    def __init__(self, coro: Coroutine[object, None, T], waiting: object) -> None:
        self.coro, self.waiting = coro, waiting

    async def run(self) -> T:
        """The rest as a coroutine (for a task)."""
        return await self

    def __await__(self) -> Generator[object, None, T]:
        waiting = self.waiting
        while True:
            try:
                yield waiting
            except BaseException as e:  # cancelled while waiting: the coroutine gets it
                try:
                    waiting = self.coro.throw(e)
                except StopIteration as done:
                    return done.value  # type: ignore[no-any-return]
                continue
            try:
                waiting = self.coro.send(None)
            except StopIteration as done:
                return done.value  # type: ignore[no-any-return]


class Done(Generic[T]):
    """A coroutine that finished in its first step, and its value."""

    __slots__ = ("value",)

    def __init__(self, value: T) -> None:
        self.value = value


def step(coro: Coroutine[object, None, T]) -> Done[T] | Rest[T]:
    """Run `coro` now until it first waits. Errors it meets there are raised here."""
    try:
        waiting = coro.send(None)
    except StopIteration as done:
        return Done(done.value)
    return Rest(coro, waiting)
