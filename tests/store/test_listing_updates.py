"""An append writes the listing projection it carries, column by column, whatever changed.

The SQLite store updates the listing's indexed columns (status, deadline, free seats, a bot's turn)
in a statement of their own, only where one of them changed (`app.store.sqlite_writes._RELIST`):
these tests hold every store to the projection after each kind of change and back, and the SQLite
writes to touching the listing's row a second time only when the listing changed."""

from __future__ import annotations

import sqlite3
from datetime import timedelta

from app.service.ports import EventStore, MatchUpdate, SeatRecord
from app.store.sqlite_writes import AppendRows, create_match, match_row, seat_row
from app.store.sqlite_writes import append as sqlite_append
from tests.store.records import T0, append, match_record, new_match

STEPS = (
    MatchUpdate(status="active", to_act=(0,)),
    MatchUpdate(status="active", to_act=(1,)),  # nothing listed changes
    MatchUpdate(status="active", to_act=(0,), deadline_at=T0 + timedelta(seconds=30)),
    MatchUpdate(status="active", to_act=(1,), deadline_at=T0 + timedelta(seconds=61)),
    MatchUpdate(status="active", to_act=(1,), bot_due=True),
    MatchUpdate(status="active", to_act=(0,)),  # the deadline and the bot's turn go back
    MatchUpdate(status="waiting", to_act=(), open_seats=1),
    MatchUpdate(status="active", to_act=(1,)),
    MatchUpdate(status="finished", to_act=(), scores=(3, 1), winners=(0,)),
)


async def test_each_append_leaves_the_listing_as_its_projection(store: EventStore) -> None:
    match_id = await new_match(store)
    for seq, update in enumerate(STEPS):
        at = T0 + timedelta(seconds=seq)
        await store.append(append(match_id, seq, update=update, at=at))
        match = await store.get_match(match_id)
        assert match is not None
        listed = (match.status, match.to_act, match.scores, match.winners, match.deadline_at)
        assert listed == (update.status, update.to_act, update.scores, update.winners, update.deadline_at)
        assert (match.open_seats, match.bot_due, match.seq, match.updated_at) == (
            update.open_seats, update.bot_due, seq + 1, at
        )  # fmt: skip


def test_sqlite_touches_the_listing_only_when_it_changed(migrated_sqlite_url: str) -> None:
    """Rows changed per append, as SQLite counts them: the match's row and the event, and the
    match's row a second time when (only when) a listed column changed."""
    record = match_record()  # waiting, no free seat, no deadline, no bot's turn
    conn = sqlite3.connect(migrated_sqlite_url.split("///", 1)[1], isolation_level=None)
    try:
        seats = [seat_row(SeatRecord(record.id, s, None, None, False, None), record.id) for s in (0, 1)]
        create_match(conn, match_row(record), seats, [])
        listed = (record.status, record.deadline_at, record.open_seats, record.bot_due)
        for seq, update in enumerate(STEPS):
            before = conn.total_changes
            sqlite_append(conn, AppendRows(append(record.id, seq, update=update)))
            now = (update.status, update.deadline_at, update.open_seats, update.bot_due)
            assert conn.total_changes - before == 2 + (now != listed), (seq, update)
            listed = now
    finally:
        conn.close()
