"""`EventStore` on PostgreSQL through raw asyncpg: `PostgresEventStore`, ONE pool per store.

The pool (`pool_size` connections, opened lazily, kept open) serves every method; appends go
through the group commit of `app.store.postgres_commit`, whose batches take one connection each
(kept between batches: one per batch in flight, never the pool's last one, which reads keep).
So a process that runs one store holds at most `pool_size` connections to the database (plus
whatever its broadcaster opens). Every method is one statement, sent without BEGIN/COMMIT: reads
run in autocommit, and the writes are single statements (`app.store.postgres_sql`). A page and
its total come from one statement, so they agree. JSONB arrives as text and is decoded by orjson.

An outage is `Unavailable` (503 at the edge, with `Retry-After`), never a bare driver error: a
refused or broken connection, a server shutting down, or no answer within `CONNECT_TIMEOUT_S` (to
connect) or `COMMAND_TIMEOUT_S` (a statement) — so a request during an outage is answered within
a bounded time. The pool drops broken connections and opens new ones on demand, so the store
recovers by itself when the database is back (`tests/fleet/test_outages.py`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Collection, Sequence
from datetime import datetime
from typing import Any

import asyncpg
import orjson

from app.service import ports
from app.service.errors import Unavailable
from app.service.names import NameInUse, name_key
from app.service.ports import MatchRecord, NewEvent, SeatRecord
from app.store import postgres_sql as sql
from app.store.chat_postgres import PostgresChat
from app.store.postgres_commit import MAX_BATCH, PostgresAppender
from app.store.ratings_postgres import PostgresRatings
from app.store.rows import from_json, ints, json_many

DEFAULT_POOL_SIZE = 8
CONNECT_TIMEOUT_S = 5.0  # asyncpg's default is 60 s: a request would hang that long in an outage
COMMAND_TIMEOUT_S = 15.0  # no statement of this store takes a fraction of it on a live database

# What an outage looks like from asyncpg: refused or dropped connections, a server going down or
# starting up (57P01 admin shutdown, 57P03 cannot connect now, …: class 57 and 08), timeouts.
OUTAGE_ERRORS: tuple[type[BaseException], ...] = (
    OSError,
    TimeoutError,
    asyncpg.InterfaceError,  # the connection is closed, or the pool is
    asyncpg.PostgresConnectionError,
    asyncpg.OperatorInterventionError,
    # A pooled connection left mid-operation by the server's going away ("cannot switch to state
    # 12; another operation is in progress", seen in the fleet test while PostgreSQL stopped).
    asyncpg.InternalClientError,
)


def outage(error: BaseException) -> Unavailable:
    failure = Unavailable(f"the database is unreachable ({type(error).__name__}); retry shortly")
    failure.__cause__ = error
    return failure


_SEAT_COLUMNS = "match_id, seat, name, token_hash, bot, joined_at, player_id, bot_level"
_M_COLUMNS = ", ".join(f"m.{c.strip()}" for c in sql.MATCH_COLUMNS.split(","))
_READ = (
    "SELECT seq, commit_seq, type, data, recorded_at FROM events "
    "WHERE match_id = $1 AND seq > $2 ORDER BY seq"
)
_NOTICES = (
    "SELECT cursor, type, data, recorded_at FROM notices WHERE player_id = $1 AND cursor > $2 ORDER BY cursor"
)
_PLAYER = "SELECT id, name, key_hash, created_at, cursor, banned_at, ban_reason FROM players WHERE "
_IDEMPOTENCY = (
    "SELECT match_id, seat, key, request_hash, first_seq, last_seq FROM idempotency_keys "
    "WHERE match_id = $1 AND seat = $2 AND key = $3"
)
_DUE = (
    "SELECT id FROM matches WHERE deadline_at <= $1 AND status IN ('waiting', 'active') "
    "ORDER BY deadline_at, id LIMIT $2"
)
_STALLED = (
    "SELECT id FROM matches WHERE bot_due AND status = 'active' AND updated_at <= $1 "
    "ORDER BY updated_at, id LIMIT $2"
)
_OPEN = "(status = 'waiting' AND open_seats > 0)"


async def _keep_session(conn: asyncpg.Connection) -> None:
    """The pool's reset on release, a no-op. asyncpg's default runs `SELECT pg_advisory_unlock_all();
    CLOSE ALL; UNLISTEN *; RESET ALL` — one more round trip per query, as long as the append itself
    — for session state this store never creates: its statements take no advisory locks, open no
    cursors, LISTEN nowhere and SET nothing outside a transaction (the broadcaster and the
    migrations have their own connections). asyncpg still rolls back a transaction left open."""


class PostgresEventStore(PostgresRatings, PostgresChat):
    """The PostgreSQL event store at `dsn` (migrated already). `max_batch` tunes the group commit
    (`PostgresAppender`); the benchmark alone changes it."""

    appends_remotely = True  # the database server commits it: `ports.EventStore.appends_remotely`

    def __init__(
        self,
        dsn: str,
        *,
        pool_size: int = DEFAULT_POOL_SIZE,
        max_batch: int = MAX_BATCH,
    ) -> None:
        self.dsn = dsn
        self.pool_size = pool_size
        self._pool: asyncpg.Pool | None = None
        self._opening = asyncio.Lock()
        # The appender keeps its batches' connections between batches, but always leaves one to reads.
        self.appender = PostgresAppender(self.pool, max_batch=max_batch, hold=pool_size - 1)

    async def pool(self) -> asyncpg.Pool:
        """The store's one pool, opened on first use."""
        if self._pool is None:
            async with self._opening:
                if self._pool is None:
                    try:
                        self._pool = await asyncpg.create_pool(
                            self.dsn,
                            min_size=1,
                            max_size=self.pool_size,
                            reset=_keep_session,
                            timeout=CONNECT_TIMEOUT_S,
                            command_timeout=COMMAND_TIMEOUT_S,
                        )
                    except OUTAGE_ERRORS as e:
                        raise outage(e) from e
        return self._pool

    async def _fetch(self, query: str, *args: object) -> list[asyncpg.Record]:
        try:
            return list(await (await self.pool()).fetch(query, *args, timeout=COMMAND_TIMEOUT_S))
        except OUTAGE_ERRORS as e:
            raise await self._outage(e) from e

    async def _execute(self, query: str, *args: object) -> str:
        try:
            return str(await (await self.pool()).execute(query, *args, timeout=COMMAND_TIMEOUT_S))
        except OUTAGE_ERRORS as e:
            raise await self._outage(e) from e

    async def _outage(self, error: BaseException) -> Unavailable:
        """`Unavailable` for `error`; the appender's held connections are dropped too (they went
        down with the server, but do not know it yet)."""
        await self.appender.forget_held()
        return outage(error)

    # Matches and seats

    async def create_match(
        self, match: MatchRecord, seats: Sequence[SeatRecord], events: Sequence[NewEvent] = ()
    ) -> None:
        if match.seq != len(events):
            raise ValueError(f"match {match.id}: seq {match.seq} but {len(events)} events")
        try:
            await self._execute(sql.CREATE_MATCH, *sql.create_match_args(match, list(seats), list(events)))
        except asyncpg.IntegrityConstraintViolationError as e:
            raise ValueError(f"match {match.id} cannot be created: {e}") from e

    async def get_match(self, match_id: str) -> MatchRecord | None:
        rows = await self._fetch(f"SELECT {sql.MATCH_COLUMNS} FROM matches WHERE id = $1", match_id)
        return _match(rows[0]) if rows else None

    async def list_matches(self, flt: ports.MatchFilter) -> tuple[list[MatchRecord], int]:
        page, count, args = lobby_query(flt)
        rows = await self._fetch(_with_total(page, count, len(args)), *args, flt.limit, flt.offset)
        return [_match(r[1:]) for r in rows if r[1] is not None], rows[0][0]

    async def get_seats(self, match_id: str) -> list[SeatRecord]:
        query = f"SELECT {_SEAT_COLUMNS} FROM seats WHERE match_id = $1 ORDER BY seat"
        return [SeatRecord(*r) for r in await self._fetch(query, match_id)]

    async def seat_by_token(self, token_hash: str) -> SeatRecord | None:
        rows = await self._fetch(f"SELECT {_SEAT_COLUMNS} FROM seats WHERE token_hash = $1", token_hash)
        return SeatRecord(*rows[0]) if rows else None

    # Appending and reading

    async def append(self, append: ports.Append) -> ports.AppendResult:
        try:
            return await self.appender.append(append)
        except OUTAGE_ERRORS as e:  # not known to be written: a retry with its idempotency key tells
            raise await self._outage(e) from e

    async def read(self, match_id: str, after: int = 0, limit: int | None = None) -> list[ports.StoredEvent]:
        if limit is None:
            rows = await self._fetch(_READ, match_id, after)
        else:
            rows = await self._fetch(_READ + " LIMIT $3", match_id, after, limit)
        datas = json_many([r[3] for r in rows])
        return [
            ports.StoredEvent(match_id, r[0], r[2], d, r[4], r[1]) for r, d in zip(rows, datas, strict=True)
        ]

    async def get_idempotent(self, match_id: str, seat: int, key: str) -> ports.IdempotencyRecord | None:
        rows = await self._fetch(_IDEMPOTENCY, match_id, seat, key)
        return ports.IdempotencyRecord(*rows[0]) if rows else None

    async def prune_idempotency(self, before: datetime) -> int:
        return int((await self._execute(sql.PRUNE, before)).split()[-1])  # "DELETE <n>"

    # Sweeping

    async def due_matches(self, now: datetime, limit: int) -> list[str]:
        return [r[0] for r in await self._fetch(_DUE, now, limit)]

    async def stalled_bots(self, before: datetime, limit: int) -> list[str]:
        return [r[0] for r in await self._fetch(_STALLED, before, limit)]

    # Players and their notices

    async def create_player(self, player: ports.PlayerRecord) -> None:
        p = player
        try:
            await self._execute(
                sql.INSERT_PLAYER, p.id, p.name, p.key_hash, p.created_at, p.cursor, name_key(p.name)
            )
        except asyncpg.UniqueViolationError as e:
            if e.constraint_name == "ix_players_name_key":
                raise NameInUse(p.name) from e
            raise ValueError(f"player {p.id} or its key exists") from e

    async def get_player(self, player_id: str) -> ports.PlayerRecord | None:
        rows = await self._fetch(_PLAYER + "id = $1", player_id)
        return ports.PlayerRecord(*rows[0]) if rows else None

    async def player_by_key(self, key_hash: str) -> ports.PlayerRecord | None:
        rows = await self._fetch(_PLAYER + "key_hash = $1", key_hash)
        return ports.PlayerRecord(*rows[0]) if rows else None

    async def set_player_key(self, player_id: str, key_hash: str) -> bool:
        try:
            return await self._execute(sql.SET_KEY, player_id, key_hash) == "UPDATE 1"
        except asyncpg.UniqueViolationError as e:
            raise ValueError("this key hash is in use") from e

    async def set_ban(self, player_id: str, banned_at: datetime | None, reason: str | None) -> bool:
        reason = None if banned_at is None else reason
        return await self._execute(sql.SET_BAN, player_id, banned_at, reason) == "UPDATE 1"

    async def banned_among(self, player_ids: Collection[str]) -> set[str]:
        if not player_ids:
            return set()
        return {r[0] for r in await self._fetch(sql.BANNED_AMONG, list(player_ids))}

    async def player_matches(self, flt: ports.PlayerMatchFilter) -> tuple[list[ports.PlayerMatch], int]:
        page, count, args = player_matches_query(flt)
        rows = await self._fetch(_with_total(page, count, len(args)), *args, flt.limit, flt.offset)
        return [ports.PlayerMatch(_match(r[1:-1]), r[-1]) for r in rows if r[1] is not None], rows[0][0]

    async def read_notices(
        self, player_id: str, after: int = 0, limit: int | None = None
    ) -> list[ports.StoredNotice]:
        if limit is None:
            rows = await self._fetch(_NOTICES, player_id, after)
        else:
            rows = await self._fetch(_NOTICES + " LIMIT $3", player_id, after, limit)
        return [
            ports.StoredNotice(player_id, c, type_, orjson.loads(data), at) for c, type_, data, at in rows
        ]

    # Snapshots

    async def get_snapshot(self, match_id: str) -> ports.Snapshot | None:
        rows = await self._fetch("SELECT seq, version, data FROM snapshots WHERE match_id = $1", match_id)
        return ports.Snapshot(match_id, rows[0][0], rows[0][1], bytes(rows[0][2])) if rows else None

    async def put_snapshot(self, snapshot: ports.Snapshot) -> None:
        s = snapshot
        try:
            await self._execute(sql.PUT_SNAPSHOT, s.match_id, s.seq, s.version, s.data)
        except asyncpg.ForeignKeyViolationError as e:
            raise KeyError(s.match_id) from e

    # Operations

    async def ping(self) -> None:
        await self._fetch("SELECT 1")

    async def close(self) -> None:
        try:
            await self.appender.close()
        finally:
            async with self._opening:  # a pool still being opened is closed too, not leaked
                if self._pool is not None:
                    await self._pool.close()
                    self._pool = None


def _equal(where: list[str], args: list[object], *filters: tuple[str, object]) -> None:
    """`column = $n` for each (column, value) of a filter whose value is set."""
    for column, value in filters:
        if value is not None:
            args.append(value)
            where.append(f"{column} = ${len(args)}")


def lobby_query(flt: ports.MatchFilter) -> tuple[str, str, list[object]]:
    """The lobby's page statement (without LIMIT/OFFSET), its count, and their arguments."""
    where = ["TRUE" if flt.include_unlisted else "visibility = 'public'"]
    args: list[object] = []
    _equal(where, args, ("status", flt.status), ("game", flt.game))
    if flt.open is not None:
        where.append(_OPEN if flt.open else f"NOT {_OPEN}")
    cond = " AND ".join(where)
    page = f"SELECT {sql.MATCH_COLUMNS} FROM matches WHERE {cond} ORDER BY created_at DESC, id DESC"
    return page, f"SELECT count(*) FROM matches WHERE {cond}", args


def player_matches_query(flt: ports.PlayerMatchFilter) -> tuple[str, str, list[Any]]:
    """A player's page of matches (without LIMIT/OFFSET), its count, and their arguments."""
    where = ["s.player_id = $1"]
    args: list[object] = [flt.player_id]
    _equal(where, args, ("m.status", flt.status), ("m.game", flt.game))
    if flt.to_act:
        where.append("m.to_act @> to_jsonb(s.seat)")  # a JSON array contains that number
    source = f"seats AS s JOIN matches AS m ON m.id = s.match_id WHERE {' AND '.join(where)}"
    page = f"SELECT {_M_COLUMNS}, s.seat FROM {source} ORDER BY m.updated_at DESC, m.id DESC"
    return page, f"SELECT count(*) FROM {source}", args


def _with_total(page: str, count: str, n: int) -> str:
    """One statement for a page and its total (one snapshot): a row per record, each led by the
    total; a page past the end is one row of the total and NULLs. Limit and offset come last."""
    return (
        f"SELECT t.total, p.* FROM ({count}) AS t (total) "
        f"LEFT JOIN LATERAL ({page} LIMIT ${n + 1} OFFSET ${n + 2}) AS p ON TRUE"
    )


def _match(r: asyncpg.Record) -> MatchRecord:
    return MatchRecord(
        *(
            r[0],
            r[1],
            r[2],
            orjson.loads(r[3]),
            r[4],
            r[5],
            r[6],
            r[7],
            r[8],
            r[9],
            tuple(orjson.loads(r[10])),
        ),
        *(ints(from_json(r[11])), ints(from_json(r[12])), orjson.loads(r[13]), r[14], r[15], r[16], r[17]),
        *(r[18], r[19]),
    )
