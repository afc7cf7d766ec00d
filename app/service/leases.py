"""Claims on bot decisions: one search per decision across every process of a fleet.

Several processes may be woken for the same bot decision — the one whose commit handed the turn to
the bot, and each process's sweeper when the bot seems stalled — and each would run the (costly)
search, only for all but one append to be refused. So before searching, the bot runner claims the
match (`BotClaims.claim`); a process that does not get the claim leaves the decision to the holder,
and the holder re-reads the match's seq once it holds the claim, so a decision already made is
never searched again. A claim lives only as long as its holder: on PostgreSQL it is a session-level
advisory lock (`app.store.claims`) that the server releases when the holder's connection closes —
when the process dies, at once — after which the sweeper of any live process wakes the bot again.
`LocalClaims` is the one-process version (memory and SQLite stores).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from typing import Protocol


class BotClaims(Protocol):
    def claim(self, match_id: str) -> AbstractAsyncContextManager[bool]:
        """Hold the claim on `match_id`'s bot decisions for the block: True if this process got it,
        False if another holder has it (then leave the decision alone)."""
        ...

    async def close(self) -> None: ...


class LocalClaims:
    """Claims within one process: the matches some task is deciding for right now."""

    def __init__(self) -> None:
        self._held: set[str] = set()

    @asynccontextmanager
    async def claim(self, match_id: str) -> AsyncIterator[bool]:
        if match_id in self._held:
            yield False
            return
        self._held.add(match_id)
        try:
            yield True
        finally:
            self._held.discard(match_id)

    async def close(self) -> None:
        await asyncio.sleep(0)
