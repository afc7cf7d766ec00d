"""The ratings projection on PostgreSQL, mixed into `PostgresEventStore`: each application is one
transaction that inserts `rated_matches` at `max + 1` (a concurrent application of the same `ord`
waits for the first and then fails on the unique key: `RatingConflict`, nothing written) and the
ratings and history rows with it."""

from __future__ import annotations

from collections.abc import Sequence

import asyncpg

from app.service.rating_ports import RatedMatch, RatingConflict, RatingPoint, RatingRecord
from app.store import ratings_sql as q

_N = {
    name: q.numbered(getattr(q, name))
    for name in dir(q)
    if name.isupper() and isinstance(getattr(q, name), str)
}


def _named(rows: list[asyncpg.Record]) -> list[RatingRecord]:
    return [q.rating_of(r, r[6], r[7]) for r in rows]


def _points(rows: list[asyncpg.Record]) -> list[RatingPoint]:
    return [q.point_of(r, r[10]) for r in rows]


class PostgresRatings:
    async def pool(self) -> asyncpg.Pool: ...

    async def _rows(self, name: str, *args: object) -> list[asyncpg.Record]:
        return list(await (await self.pool()).fetch(_N[name], *args))

    async def rating_cursor(self) -> int:
        return int((await self._rows("CURSOR"))[0][0])

    async def unrated_ends(self, limit: int) -> list[str]:
        return [r[0] for r in await self._rows("PENDING_POSTGRES", limit)]

    async def is_applied(self, match_id: str) -> bool:
        return bool(await self._rows("IS_APPLIED", match_id))

    async def last_applied(self) -> str | None:
        rows = await self._rows("LAST")
        return str(rows[0][0]) if rows else None

    async def rated_order(self) -> list[str]:
        return [r[0] for r in await self._rows("ORDER")]

    async def get_ratings(self, game: str, player_ids: Sequence[str]) -> dict[str, RatingRecord]:
        rows = await self._rows("RATINGS_OF_PLAYERS_POSTGRES", game, list(player_ids))
        return {row[0]: q.rating_of(row, row[6]) for row in rows}

    async def apply_rated(self, rated: RatedMatch) -> None:
        async with (await self.pool()).acquire() as conn, conn.transaction():
            cursor = await conn.fetchval(_N["CURSOR"])
            if cursor != rated.ord - 1:
                raise RatingConflict(rated.match_id)
            try:
                await conn.execute(_N["INSERT_RATED"], rated.match_id, rated.ord, rated.game, rated.ended_at)
            except asyncpg.UniqueViolationError as e:
                raise RatingConflict(rated.match_id) from e
            await conn.executemany(
                _N["UPSERT_RATING"], [q.rating_args(r, r.last_played) for r in rated.ratings]
            )
            await conn.executemany(_N["INSERT_POINT"], [q.point_args(p, p.at) for p in rated.points])

    async def reset_ratings(self) -> None:
        async with (await self.pool()).acquire() as conn, conn.transaction():
            for statement in q.RESET:
                await conn.execute(statement)

    async def leaderboard(self, game: str, min_games: int, limit: int, offset: int) -> list[RatingRecord]:
        return _named(await self._rows("LEADERBOARD", game, min_games, limit, offset, game))

    async def player_ratings(self, player_id: str) -> list[RatingRecord]:
        return _named(await self._rows("PLAYER_RATINGS", player_id))

    async def rating_history(self, player_id: str, game: str) -> list[RatingPoint]:
        return _points(await self._rows("HISTORY", player_id, game))

    async def match_points(self, match_id: str) -> list[RatingPoint]:
        return _points(await self._rows("MATCH_POINTS", match_id))

    async def rating_tables(self) -> tuple[list[RatingRecord], list[RatingPoint]]:
        ratings = [q.rating_of(r, r[6]) for r in await self._rows("ALL_RATINGS")]
        return ratings, _points(await self._rows("ALL_POINTS"))
