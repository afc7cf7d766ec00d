"""The chat's SQL, shared by SQLite and PostgreSQL (written with `?` placeholders; `numbered`
turns them into asyncpg's `$n`), and the row conversion both stores use."""

from __future__ import annotations

from datetime import datetime

from app.service.chat_ports import ChatMessage, ChatReport, Room
from app.store.ratings_sql import numbered
from app.store.rows import Row

_MESSAGE = (
    "match_id, chat_seq, id, room, author_key, author_seat, author_player_id, author_name, text, created_at"
)
INSERT_MESSAGE = f"INSERT INTO chat_messages ({_MESSAGE}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
HEAD = "SELECT COALESCE(MAX(chat_seq), 0) FROM chat_messages WHERE match_id = ?"
READ_ONE_ROOM = (
    f"SELECT {_MESSAGE} FROM chat_messages WHERE match_id = ? AND chat_seq > ? AND room = ? "
    "ORDER BY chat_seq LIMIT ?"
)
READ_ALL_ROOMS = (
    f"SELECT {_MESSAGE} FROM chat_messages WHERE match_id = ? AND chat_seq > ? ORDER BY chat_seq LIMIT ?"
)
GET_MESSAGE = f"SELECT {_MESSAGE} FROM chat_messages WHERE match_id = ? AND id = ?"
RECENT = "SELECT created_at FROM chat_messages WHERE author_key = ? AND created_at > ? ORDER BY created_at"
# Older than the age, and not among the newest `keep` of its room: those stay readable.
PRUNE = (
    "DELETE FROM chat_messages WHERE created_at < ? AND chat_seq <= COALESCE(("
    "SELECT n.chat_seq FROM chat_messages n WHERE n.match_id = chat_messages.match_id "
    "AND n.room = chat_messages.room ORDER BY n.chat_seq DESC LIMIT 1 OFFSET ?), 0)"
)
_REPORT = "id, match_id, message_id, reporter_id, reason, created_at, resolved"
INSERT_REPORT = f"INSERT INTO chat_reports ({_REPORT}) VALUES (?, ?, ?, ?, ?, ?, ?)"
OPEN_REPORTS = f"SELECT {_REPORT} FROM chat_reports WHERE NOT resolved ORDER BY created_at, id LIMIT ?"
INSERT_BLOCK = (
    "INSERT INTO player_blocks (blocker_id, blocked_id, created_at) VALUES (?, ?, ?) "
    "ON CONFLICT (blocker_id, blocked_id) DO NOTHING"
)
DELETE_BLOCK = "DELETE FROM player_blocks WHERE blocker_id = ? AND blocked_id = ?"
BLOCKS = (
    "SELECT blocked_id, created_at FROM player_blocks WHERE blocker_id = ? ORDER BY created_at, blocked_id"
)

NUMBERED = {
    name: numbered(value)
    for name, value in dict(globals()).items()
    if name.isupper() and isinstance(value, str)
}


def read_query(rooms: tuple[Room, ...]) -> tuple[str, bool]:
    """The page query for `rooms` and whether it takes the room as an argument."""
    return (READ_ALL_ROOMS, False) if len(rooms) > 1 else (READ_ONE_ROOM, True)


def message_args(m: ChatMessage, at: object) -> tuple[object, ...]:
    return (
        m.match_id, m.chat_seq, m.id, m.room, m.author_key, m.author_seat,
        m.author_player_id, m.author_name, m.text, at,
    )  # fmt: skip


def message_of(row: Row, at: datetime) -> ChatMessage:
    match_id, chat_seq, id_, room, key, seat, player_id, name, text = row[:9]
    return ChatMessage(match_id, int(chat_seq), id_, room, key, seat, player_id, name, text, at)


def report_args(r: ChatReport, at: object) -> tuple[object, ...]:
    return (r.id, r.match_id, r.message_id, r.reporter_id, r.reason, at, r.resolved)


def report_of(row: Row, at: datetime) -> ChatReport:
    id_, match_id, message_id, reporter_id, reason = row[:5]
    return ChatReport(id_, match_id, message_id, reporter_id, reason, at, bool(row[6]))
