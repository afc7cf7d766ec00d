"""The chat on SQLite, mixed into `SqliteEventStore`: reads on the reader threads, writes on the
writer (a message takes the next `chat_seq` under the primary key: another process's writer that
took it first makes this one `ChatConflict`)."""

from __future__ import annotations

import functools
import sqlite3
from collections.abc import Sequence
from datetime import datetime

from app.service.chat_ports import Block, ChatConflict, ChatMessage, ChatReport, Room
from app.store import chat_sql as q
from app.store.rows import parse_sqlite_time, sqlite_time
from app.store.sqlite_threads import SqliteReaders, SqliteWriter


def _all(conn: sqlite3.Connection, query: str, args: tuple[object, ...] = ()) -> list[sqlite3.Row]:
    return conn.execute(query, args).fetchall()


def _write(conn: sqlite3.Connection, query: str, args: tuple[object, ...]) -> int:
    return conn.execute(query, args).rowcount


def _append(conn: sqlite3.Connection, message: ChatMessage) -> None:
    try:
        conn.execute(q.INSERT_MESSAGE, q.message_args(message, sqlite_time(message.created_at)))
    except sqlite3.IntegrityError as e:
        raise ChatConflict(message.match_id) from e


class SqliteChat:
    readers: SqliteReaders
    writer: SqliteWriter

    async def _chat_read(self, query: str, *args: object) -> list[sqlite3.Row]:
        return await self.readers.run(functools.partial(_all, query=query, args=args))

    async def _chat_write(self, query: str, *args: object) -> int:
        return await self.writer.run(functools.partial(_write, query=query, args=args))

    async def append_chat(self, message: ChatMessage) -> None:
        await self.writer.run(functools.partial(_append, message=message))

    async def chat_head(self, match_id: str) -> int:
        return int((await self._chat_read(q.HEAD, match_id))[0][0])

    async def read_chat(
        self, match_id: str, after: int, limit: int, rooms: Sequence[Room]
    ) -> list[ChatMessage]:
        if not rooms:
            return []
        query, by_room = q.read_query(tuple(rooms))
        args = (match_id, after, rooms[0], limit) if by_room else (match_id, after, limit)
        return [q.message_of(r, parse_sqlite_time(r[9])) for r in await self._chat_read(query, *args)]

    async def get_chat_message(self, match_id: str, message_id: str) -> ChatMessage | None:
        rows = await self._chat_read(q.GET_MESSAGE, match_id, message_id)
        return q.message_of(rows[0], parse_sqlite_time(rows[0][9])) if rows else None

    async def recent_chat(self, author_key: str, since: datetime) -> list[datetime]:
        return [
            parse_sqlite_time(r[0]) for r in await self._chat_read(q.RECENT, author_key, sqlite_time(since))
        ]

    async def prune_chat(self, before: datetime, keep: int) -> int:
        return await self._chat_write(q.PRUNE, sqlite_time(before), keep)

    async def add_chat_report(self, report: ChatReport) -> None:
        await self._chat_write(q.INSERT_REPORT, *q.report_args(report, sqlite_time(report.created_at)))

    async def open_chat_reports(self, limit: int) -> list[ChatReport]:
        return [q.report_of(r, parse_sqlite_time(r[5])) for r in await self._chat_read(q.OPEN_REPORTS, limit)]

    async def block_player(self, blocker_id: str, blocked_id: str, at: datetime) -> bool:
        return await self._chat_write(q.INSERT_BLOCK, blocker_id, blocked_id, sqlite_time(at)) > 0

    async def unblock_player(self, blocker_id: str, blocked_id: str) -> bool:
        return await self._chat_write(q.DELETE_BLOCK, blocker_id, blocked_id) > 0

    async def blocks_of(self, blocker_id: str) -> list[Block]:
        return [Block(r[0], parse_sqlite_time(r[1])) for r in await self._chat_read(q.BLOCKS, blocker_id)]
