"""The chat on PostgreSQL, mixed into `PostgresEventStore`: one statement per call (a message
takes the next `chat_seq` under the primary key; a concurrent writer that took it first makes
this one `ChatConflict`)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

import asyncpg

from app.service.chat_ports import Block, ChatConflict, ChatMessage, ChatReport, Room
from app.store import chat_sql as q

_N = q.NUMBERED


class PostgresChat:
    async def pool(self) -> asyncpg.Pool: ...

    async def _chat_rows(self, name: str, *args: object) -> list[asyncpg.Record]:
        return list(await (await self.pool()).fetch(_N[name], *args))

    async def _chat_execute(self, name: str, *args: object) -> int:
        status: str = await (await self.pool()).execute(_N[name], *args)
        return int(status.rsplit(" ", 1)[-1])

    async def append_chat(self, message: ChatMessage) -> None:
        try:
            await self._chat_execute("INSERT_MESSAGE", *q.message_args(message, message.created_at))
        except asyncpg.UniqueViolationError as e:
            raise ChatConflict(message.match_id) from e

    async def chat_head(self, match_id: str) -> int:
        return int((await self._chat_rows("HEAD", match_id))[0][0])

    async def read_chat(
        self, match_id: str, after: int, limit: int, rooms: Sequence[Room]
    ) -> list[ChatMessage]:
        if not rooms:
            return []
        _, by_room = q.read_query(tuple(rooms))
        if by_room:
            rows = await self._chat_rows("READ_ONE_ROOM", match_id, after, rooms[0], limit)
        else:
            rows = await self._chat_rows("READ_ALL_ROOMS", match_id, after, limit)
        return [q.message_of(r, r[9]) for r in rows]

    async def get_chat_message(self, match_id: str, message_id: str) -> ChatMessage | None:
        rows = await self._chat_rows("GET_MESSAGE", match_id, message_id)
        return q.message_of(rows[0], rows[0][9]) if rows else None

    async def recent_chat(self, author_key: str, since: datetime) -> list[datetime]:
        return [r[0] for r in await self._chat_rows("RECENT", author_key, since)]

    async def prune_chat(self, before: datetime, keep: int) -> int:
        return await self._chat_execute("PRUNE", before, keep)

    async def add_chat_report(self, report: ChatReport) -> None:
        await self._chat_execute("INSERT_REPORT", *q.report_args(report, report.created_at))

    async def open_chat_reports(self, limit: int) -> list[ChatReport]:
        return [q.report_of(r, r[5]) for r in await self._chat_rows("OPEN_REPORTS", limit)]

    async def block_player(self, blocker_id: str, blocked_id: str, at: datetime) -> bool:
        return await self._chat_execute("INSERT_BLOCK", blocker_id, blocked_id, at) > 0

    async def unblock_player(self, blocker_id: str, blocked_id: str) -> bool:
        return await self._chat_execute("DELETE_BLOCK", blocker_id, blocked_id) > 0

    async def blocks_of(self, blocker_id: str) -> list[Block]:
        return [Block(r[0], r[1]) for r in await self._chat_rows("BLOCKS", blocker_id)]
