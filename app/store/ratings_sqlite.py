"""The ratings projection on SQLite, mixed into `SqliteEventStore`: reads on the reader threads,
each application one unit of work on the writer (its own savepoint in a write transaction, so the
insert of `rated_matches` at `max + 1` and the writes that go with it commit together or not at
all; another process's writer waits for SQLite's lock and then conflicts on `ord`)."""

from __future__ import annotations

import functools
import sqlite3
from collections.abc import Sequence

from app.service.rating_ports import RatedMatch, RatingConflict, RatingPoint, RatingRecord
from app.store import ratings_sql as q
from app.store.rows import parse_sqlite_time, sqlite_time
from app.store.sqlite_threads import SqliteReaders, SqliteWriter


def _cursor(conn: sqlite3.Connection) -> int:
    return int(conn.execute(q.CURSOR).fetchone()[0])


def _all(conn: sqlite3.Connection, query: str, args: tuple[object, ...] = ()) -> list[sqlite3.Row]:
    return conn.execute(query, args).fetchall()


def _ratings(conn: sqlite3.Connection, game: str, player_ids: Sequence[str]) -> dict[str, RatingRecord]:
    out = {}
    for p in player_ids:
        for row in conn.execute(q.RATINGS_OF_GAME, (game, p)).fetchall():
            out[p] = q.rating_of(row, parse_sqlite_time(row[6]))
    return out


def _apply(conn: sqlite3.Connection, rated: RatedMatch) -> None:
    if _cursor(conn) != rated.ord - 1:
        raise RatingConflict(rated.match_id)
    try:
        conn.execute(q.INSERT_RATED, (rated.match_id, rated.ord, rated.game, sqlite_time(rated.ended_at)))
    except sqlite3.IntegrityError as e:
        raise RatingConflict(rated.match_id) from e
    conn.executemany(q.UPSERT_RATING, [q.rating_args(r, sqlite_time(r.last_played)) for r in rated.ratings])
    conn.executemany(q.INSERT_POINT, [q.point_args(p, sqlite_time(p.at)) for p in rated.points])


def _reset(conn: sqlite3.Connection) -> None:
    for statement in q.RESET:
        conn.execute(statement)


def _named(rows: list[sqlite3.Row]) -> list[RatingRecord]:
    return [q.rating_of(r, parse_sqlite_time(r[6]), r[7]) for r in rows]


def _points(rows: list[sqlite3.Row]) -> list[RatingPoint]:
    return [q.point_of(r, parse_sqlite_time(r[10])) for r in rows]


class SqliteRatings:
    readers: SqliteReaders
    writer: SqliteWriter

    async def _read(self, query: str, *args: object) -> list[sqlite3.Row]:
        return await self.readers.run(functools.partial(_all, query=query, args=args))

    async def rating_cursor(self) -> int:
        return int((await self._read(q.CURSOR))[0][0])

    async def unrated_ends(self, limit: int) -> list[str]:
        return [r[0] for r in await self._read(q.PENDING_SQLITE, limit)]

    async def is_applied(self, match_id: str) -> bool:
        return bool(await self._read(q.IS_APPLIED, match_id))

    async def last_applied(self) -> str | None:
        rows = await self._read(q.LAST)
        return str(rows[0][0]) if rows else None

    async def rated_order(self) -> list[str]:
        return [r[0] for r in await self._read(q.ORDER)]

    async def get_ratings(self, game: str, player_ids: Sequence[str]) -> dict[str, RatingRecord]:
        work = functools.partial(_ratings, game=game, player_ids=tuple(player_ids))
        result: dict[str, RatingRecord] = await self.readers.run(work)
        return result

    async def apply_rated(self, rated: RatedMatch) -> None:
        await self.writer.run(functools.partial(_apply, rated=rated))

    async def reset_ratings(self) -> None:
        await self.writer.run(_reset)

    async def leaderboard(self, game: str, min_games: int, limit: int, offset: int) -> list[RatingRecord]:
        return _named(await self._read(q.LEADERBOARD, game, min_games, limit, offset, game))

    async def player_ratings(self, player_id: str) -> list[RatingRecord]:
        return _named(await self._read(q.PLAYER_RATINGS, player_id))

    async def rating_history(self, player_id: str, game: str) -> list[RatingPoint]:
        return _points(await self._read(q.HISTORY, player_id, game))

    async def match_points(self, match_id: str) -> list[RatingPoint]:
        return _points(await self._read(q.MATCH_POINTS, match_id))

    async def rating_tables(self) -> tuple[list[RatingRecord], list[RatingPoint]]:
        ratings = [q.rating_of(r, parse_sqlite_time(r[6])) for r in await self._read(q.ALL_RATINGS)]
        return ratings, _points(await self._read(q.ALL_POINTS))
