"""The `ChatStore` contract on every backend (memory, SQLite, PostgreSQL): the next `chat_seq`
under the primary key, pages by room, a message by id within its match, the rate limit's window,
the prune (old messages beyond each room's newest N), reports and blocks."""

from __future__ import annotations

import uuid
from datetime import timedelta

import pytest

from app.service.chat_ports import ChatConflict, ChatMessage, ChatReport, ChatStore, Room
from app.service.ports import EventStore

from .records import T0, new_match, new_player


def _chat(store: EventStore) -> ChatStore:
    assert isinstance(store, ChatStore)
    return store


def message(
    match_id: str, seq: int, room: Room = "players", key: str = "p:x", age_s: float = 0
) -> ChatMessage:
    at = T0 - timedelta(seconds=age_s)
    return ChatMessage(match_id, seq, uuid.uuid4().hex, room, key, 0, None, "Ana", f"m{seq} ünïcode", at)


async def test_messages_take_the_next_seq_and_read_back_by_room(store: EventStore) -> None:
    chat = _chat(store)
    m = await new_match(store)
    assert await chat.chat_head(m) == 0
    rows = [message(m, 1), message(m, 2, "spectators"), message(m, 3)]
    for row in rows:
        await chat.append_chat(row)
    with pytest.raises(ChatConflict):
        await chat.append_chat(message(m, 3))
    assert await chat.chat_head(m) == 3
    assert await chat.read_chat(m, 0, 10, ("players", "spectators")) == rows
    assert await chat.read_chat(m, 0, 10, ("players",)) == [rows[0], rows[2]]
    assert await chat.read_chat(m, 1, 1, ("players", "spectators")) == [rows[1]]
    assert await chat.read_chat(m, 0, 10, ()) == []
    assert await chat.get_chat_message(m, rows[1].id) == rows[1]
    other = await new_match(store)
    assert await chat.get_chat_message(other, rows[1].id) is None


async def test_the_rate_window_is_after_since_and_the_prune_keeps_each_rooms_newest(
    store: EventStore,
) -> None:
    chat = _chat(store)
    m = await new_match(store)
    key = f"p:{uuid.uuid4().hex}"
    written: list[tuple[Room, int]] = [
        ("players", 50), ("spectators", 50), ("players", 40), ("players", 30), ("spectators", 5)
    ]  # fmt: skip
    for seq, (room, age) in enumerate(written, start=1):
        await chat.append_chat(message(m, seq, room, key, age))
    assert await chat.recent_chat(key, T0 - timedelta(seconds=40)) == [
        T0 - timedelta(seconds=30),
        T0 - timedelta(seconds=5),
    ]
    # Older than 20 s and beyond its room's newest one: 1, 2 and 3 go; 4 and 5 are their rooms' newest.
    await chat.prune_chat(T0 - timedelta(seconds=20), 1)
    left = [r.chat_seq for r in await chat.read_chat(m, 0, 10, ("players", "spectators"))]
    assert left == [4, 5]


async def test_reports_and_blocks(store: EventStore) -> None:
    chat = _chat(store)
    ana, bea = await new_player(store), await new_player(store, "Bea")
    report = ChatReport(uuid.uuid4().hex, "m", "msg", ana.id, "rude", T0 + timedelta(days=9000))
    await chat.add_chat_report(report)
    assert report in await chat.open_chat_reports(100_000)
    assert await chat.block_player(ana.id, bea.id, T0) is True
    assert await chat.block_player(ana.id, bea.id, T0 + timedelta(seconds=1)) is False
    assert [(b.blocked_id, b.created_at) for b in await chat.blocks_of(ana.id)] == [(bea.id, T0)]
    assert await chat.blocks_of(bea.id) == []
    assert await chat.unblock_player(ana.id, bea.id) is True
    assert await chat.unblock_player(ana.id, bea.id) is False
    assert await chat.blocks_of(ana.id) == []
