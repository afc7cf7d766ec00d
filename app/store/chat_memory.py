"""The chat in memory (`ChatStore`'s twin), mixed into `MemoryEventStore`."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime

from app.service.chat_ports import Block, ChatConflict, ChatMessage, ChatReport, Room


@dataclass
class _ChatState:
    messages: dict[str, list[ChatMessage]] = field(default_factory=dict)  # by match, by chat_seq
    reports: list[ChatReport] = field(default_factory=list)
    blocks: dict[str, dict[str, datetime]] = field(default_factory=dict)  # blocker -> blocked -> at


class MemoryChat:
    def _chat(self) -> _ChatState:
        state: _ChatState | None = getattr(self, "_chat_state", None)
        if state is None:
            state = self._chat_state = _ChatState()
        return state

    async def append_chat(self, message: ChatMessage) -> None:
        rows = self._chat().messages.setdefault(message.match_id, [])
        if rows and rows[-1].chat_seq >= message.chat_seq:
            raise ChatConflict(message.match_id)
        rows.append(message)

    async def chat_head(self, match_id: str) -> int:
        rows = self._chat().messages.get(match_id)
        return rows[-1].chat_seq if rows else 0

    async def read_chat(
        self, match_id: str, after: int, limit: int, rooms: Sequence[Room]
    ) -> list[ChatMessage]:
        rows = self._chat().messages.get(match_id, [])
        return [m for m in rows if m.chat_seq > after and m.room in rooms][:limit]

    async def get_chat_message(self, match_id: str, message_id: str) -> ChatMessage | None:
        return next((m for m in self._chat().messages.get(match_id, []) if m.id == message_id), None)

    async def recent_chat(self, author_key: str, since: datetime) -> list[datetime]:
        times = [
            m.created_at
            for rows in self._chat().messages.values()
            for m in rows
            if m.author_key == author_key and m.created_at > since
        ]
        return sorted(times)

    async def prune_chat(self, before: datetime, keep: int) -> int:
        state, pruned = self._chat(), 0
        for match_id, rows in state.messages.items():
            kept = {
                m.id
                for room in ("players", "spectators")
                for m in [r for r in rows if r.room == room][-keep:]
            }
            left = [m for m in rows if m.id in kept or m.created_at >= before]
            pruned += len(rows) - len(left)
            state.messages[match_id] = left
        return pruned

    async def add_chat_report(self, report: ChatReport) -> None:
        self._chat().reports.append(report)

    async def open_chat_reports(self, limit: int) -> list[ChatReport]:
        return [r for r in self._chat().reports if not r.resolved][:limit]

    async def block_player(self, blocker_id: str, blocked_id: str, at: datetime) -> bool:
        blocks = self._chat().blocks.setdefault(blocker_id, {})
        if blocked_id in blocks:
            return False
        blocks[blocked_id] = at
        return True

    async def unblock_player(self, blocker_id: str, blocked_id: str) -> bool:
        return self._chat().blocks.get(blocker_id, {}).pop(blocked_id, None) is not None

    async def blocks_of(self, blocker_id: str) -> list[Block]:
        blocks = self._chat().blocks.get(blocker_id, {})
        return [Block(b, at) for b, at in sorted(blocks.items(), key=lambda item: (item[1], item[0]))]
