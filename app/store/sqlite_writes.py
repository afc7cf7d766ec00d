"""The SQLite store's writes: synchronous units of work that the writer thread runs.

Each function runs inside the SAVEPOINT the writer gives it (`app.store.sqlite_threads`): if it
raises, everything it wrote is rolled back and the rest of the batch commits without it. Rows are
prepared by the caller, on the event loop, so the writer holds the write lock only for the SQL.
Unique violations become `VersionConflict` (appends) or `ValueError` (creations); a foreign key
that points nowhere (a seat's or a notice's player, an idempotency key's seat) is a `KeyError`.
"""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime

from app.service.names import NameInUse, name_key
from app.service.ports import (
    Append,
    AppendResult,
    MatchRecord,
    NewEvent,
    PlayerRecord,
    SeatRecord,
    SeatWrite,
    Snapshot,
    StoredNotice,
    VersionConflict,
)
from app.store.rows import appended_seq, json_text, sqlite_time, sqlite_time_or_none

MATCH_COLUMNS = (
    "id, game, players, options, status, seq, created_at, updated_at, secret, commitment, to_act, "
    "scores, winners, settings, visibility, host_token_hash, invite_hash, deadline_at, open_seats, bot_due"
)
SEAT_COLUMNS = "match_id, seat, name, token_hash, bot, joined_at, player_id, bot_level"

_INSERT_MATCH = f"INSERT INTO matches ({MATCH_COLUMNS}) VALUES ({', '.join('?' * 20)})"
_INSERT_SEAT = f"INSERT INTO seats ({SEAT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
_INSERT_EVENT = (
    "INSERT INTO events (match_id, seq, commit_seq, type, data, recorded_at) VALUES (?, ?, ?, ?, ?, ?)"
)
# An append updates the match's row in two statements. SQLite rewrites the entries of every index
# holding a column an UPDATE sets, whether or not its value changed: setting the listing's indexed
# columns (status, deadline, free seats, a bot's turn: six indexes) on every action rewrote about
# five pages of the write-ahead log per action where one changes (measured: 5.1 pages per commit
# against 1.0, and 16 µs of CPU against 10). `_ADVANCE` sets the columns no index holds; `_RELIST`
# sets the indexed ones only where one of them changed (a match starting or ending, a clock, a bot's
# turn): otherwise it updates no row and touches no index.
_ADVANCE = (
    "UPDATE matches SET seq = ?, to_act = ?, scores = ?, winners = ?, updated_at = ? WHERE id = ? AND seq = ?"
)
_RELIST = (
    "UPDATE matches SET status = ?, deadline_at = ?, open_seats = ?, bot_due = ? WHERE id = ? "
    "AND (status IS NOT ? OR deadline_at IS NOT ? OR open_seats IS NOT ? OR bot_due IS NOT ?)"
)
_SELECT_SEQ = "SELECT seq FROM matches WHERE id = ?"
_WRITE_SEAT = (
    "UPDATE seats SET name = ?, token_hash = ?, bot = ?, joined_at = ?, player_id = ?, bot_level = ? "
    "WHERE match_id = ? AND seat = ?"
)
_INSERT_IDEMPOTENCY = (
    "INSERT INTO idempotency_keys (match_id, seat, key, request_hash, first_seq, last_seq, created_at) "
    "VALUES (?, ?, ?, ?, ?, ?, ?)"
)
_NEXT_CURSOR = "UPDATE players SET cursor = cursor + 1 WHERE id = ? RETURNING cursor"
_INSERT_NOTICE = "INSERT INTO notices (player_id, cursor, type, data, recorded_at) VALUES (?, ?, ?, ?, ?)"
_INSERT_PLAYER = (
    "INSERT INTO players (id, name, key_hash, created_at, cursor, name_key) VALUES (?, ?, ?, ?, ?, ?)"
)
_SET_KEY = "UPDATE players SET key_hash = ? WHERE id = ?"
_SET_BAN = "UPDATE players SET banned_at = ?, ban_reason = ? WHERE id = ?"
_PUT_SNAPSHOT = (
    "INSERT INTO snapshots (match_id, seq, version, data, created_at) VALUES (?, ?, ?, ?, ?) "
    "ON CONFLICT (match_id) DO UPDATE SET seq = excluded.seq, version = excluded.version, "
    "data = excluded.data, created_at = excluded.created_at WHERE snapshots.seq <= excluded.seq"
)
_PRUNE = "DELETE FROM idempotency_keys WHERE created_at < ?"

_UNIQUE = ("SQLITE_CONSTRAINT_PRIMARYKEY", "SQLITE_CONSTRAINT_UNIQUE")
_FOREIGN_KEY = "SQLITE_CONSTRAINT_FOREIGNKEY"

Row = tuple[object, ...]


def match_row(m: MatchRecord) -> Row:
    return (
        *(m.id, m.game, m.players, json_text(m.options), m.status, m.seq),
        *(sqlite_time(m.created_at), sqlite_time(m.updated_at), m.secret, m.commitment),
        *(json_text(m.to_act), json_text(m.scores), json_text(m.winners), json_text(m.settings)),
        *(m.visibility, m.host_token_hash, m.invite_hash, sqlite_time_or_none(m.deadline_at)),
        *(m.open_seats, int(m.bot_due)),
    )


def seat_row(s: SeatRecord | SeatWrite, match_id: str) -> Row:
    joined = sqlite_time_or_none(s.joined_at)
    return (match_id, s.seat, s.name, s.token_hash, int(s.bot), joined, s.player_id, s.bot_level)


def event_rows(
    match_id: str, after: int, events: tuple[NewEvent, ...] | list[NewEvent], when: str
) -> list[Row]:
    commit = after + len(events)
    return [(match_id, after + i, commit, e.type, json_text(e.data), when) for i, e in enumerate(events, 1)]


def create_match(conn: sqlite3.Connection, match: Row, seats: list[Row], events: list[Row]) -> None:
    try:
        conn.execute(_INSERT_MATCH, match)
        conn.executemany(_INSERT_SEAT, seats)
        conn.executemany(_INSERT_EVENT, events)
    except sqlite3.IntegrityError as e:  # the id, a token hash, a player's second seat, a player
        raise ValueError(f"match {match[0]} cannot be created: {e}") from e


class AppendRows:
    """An `Append` as the rows it writes, prepared on the event loop."""

    __slots__ = ("advance", "append", "events", "idempotency", "notices", "relist", "seats", "when")

    def __init__(self, a: Append) -> None:
        u = a.update
        self.append = a
        self.when = when = sqlite_time(a.at)
        self.advance: Row = (
            *(appended_seq(a), json_text(u.to_act), json_text(u.scores), json_text(u.winners), when),
            *(a.match_id, a.expected_seq),
        )
        listed = (u.status, sqlite_time_or_none(u.deadline_at), u.open_seats, int(u.bot_due))
        self.relist: Row = (*listed, a.match_id, *listed)
        self.events = event_rows(a.match_id, a.expected_seq, a.events, when)
        self.seats = [(*seat_row(w, a.match_id)[2:], a.match_id, w.seat) for w in a.seats]
        i = a.idempotency
        self.idempotency = (
            None if i is None else (a.match_id, i.seat, i.key, i.request_hash, i.first_seq, i.last_seq, when)
        )
        self.notices = [(n.player_id, n.type, json_text(n.data)) for n in a.notices]


def append(conn: sqlite3.Connection, rows: AppendRows) -> AppendResult:
    a = rows.append
    if conn.execute(_ADVANCE, rows.advance).rowcount != 1:
        found = conn.execute(_SELECT_SEQ, (a.match_id,)).fetchall()
        if not found:
            raise KeyError(a.match_id)
        raise VersionConflict(a.match_id, a.expected_seq, found[0][0])
    try:
        conn.execute(_RELIST, rows.relist)
        conn.executemany(_INSERT_EVENT, rows.events)
        for seat in rows.seats:
            if conn.execute(_WRITE_SEAT, seat).rowcount != 1:
                raise KeyError(f"match {a.match_id} has no seat {seat[-1]}")
        if rows.idempotency is not None:
            conn.execute(_INSERT_IDEMPOTENCY, rows.idempotency)
        written = []
        for notice, (player_id, type_, data) in zip(a.notices, rows.notices, strict=True):
            cursor = conn.execute(_NEXT_CURSOR, (player_id,)).fetchall()
            if not cursor:
                raise KeyError(f"player {player_id}")
            conn.execute(_INSERT_NOTICE, (player_id, cursor[0][0], type_, data, rows.when))
            written.append(StoredNotice(player_id, cursor[0][0], type_, dict(notice.data), a.at))
    except sqlite3.IntegrityError as e:
        name = getattr(e, "sqlite_errorname", None)
        if name in _UNIQUE:  # a seq, an idempotency key, a player's second seat, a token hash
            raise VersionConflict(a.match_id, a.expected_seq, a.expected_seq) from e
        if name == _FOREIGN_KEY:
            raise KeyError(f"match {a.match_id}: {e}") from e
        raise
    return AppendResult(appended_seq(a), tuple(written))


def create_player(conn: sqlite3.Connection, p: PlayerRecord) -> None:
    try:
        conn.execute(
            _INSERT_PLAYER, (p.id, p.name, p.key_hash, sqlite_time(p.created_at), p.cursor, name_key(p.name))
        )
    except sqlite3.IntegrityError as e:
        if "name_key" in str(e):
            raise NameInUse(p.name) from e
        raise ValueError(f"player {p.id} or its key exists") from e


def set_player_key(conn: sqlite3.Connection, player_id: str, key_hash: str) -> bool:
    try:
        return conn.execute(_SET_KEY, (key_hash, player_id)).rowcount == 1
    except sqlite3.IntegrityError as e:
        raise ValueError("this key hash is in use") from e


def set_ban(conn: sqlite3.Connection, player_id: str, banned_at: datetime | None, reason: str | None) -> bool:
    reason = None if banned_at is None else reason
    return conn.execute(_SET_BAN, (sqlite_time_or_none(banned_at), reason, player_id)).rowcount == 1


def put_snapshot(conn: sqlite3.Connection, s: Snapshot) -> None:
    now = sqlite_time(datetime.now(UTC))
    try:
        conn.execute(_PUT_SNAPSHOT, (s.match_id, s.seq, s.version, s.data, now))
    except sqlite3.IntegrityError as e:
        raise KeyError(s.match_id) from e


def prune_idempotency(conn: sqlite3.Connection, before: str) -> int:
    return conn.execute(_PRUNE, (before,)).rowcount
