"""Group commit of appends on PostgreSQL: the appends that arrive while a batch is in flight go
out together as the next batch, in ONE transaction and ONE round trip.

When every append of a batch writes events alone, as actions do (with or without an idempotency
key), the batch is ONE statement, `APPEND_PLAIN_BATCH` (`APPEND_KEYED_BATCH` when some keep a key;
`app.store.postgres_sql`), whose arguments are the columns of all the appends: about 40% less of
PostgreSQL's CPU per append than a statement each, which shortens each batch's round trip and
leaves the CPU PostgreSQL shares with this server to the server. Any other batch (one with a
join's seats or a notice) is asyncpg's `fetchmany` of the one-statement `APPEND` (one execution
per append): the executions are pipelined (Bind/Execute for each, then a single Sync), so
PostgreSQL runs them in one implicit transaction and commits once. Either returns after the
commit, so every caller is answered only once its events are durable. An append whose checks
fail (a stale seq, an unknown seat, a key already taken) writes nothing and lets the others
commit. An error (a unique key, a deadlock between two processes' batches) aborts the whole
batch: then its appends are run again one by one, each its own transaction, and only the guilty
one fails. A batch of one is a plain `fetchrow`, so a lone writer pays nothing for the batching.
Appends of one match keep their order: a caller sends its next append only after the previous
one was answered.

Why batches rather than one transaction per append on every connection of the pool (PostgreSQL
shares the WAL flush of concurrent commits too)? Measured with `python -m bench.store_append --pg
…`, one-event appends, 16 writers each on its own match, on this shared 2-core machine (compare
within a run): batches 3,062 appends/s (16 per transaction), one transaction per append on 8
connections 1,355/s, a bare INSERT+COMMIT on raw asyncpg 1,614/s and through SQLAlchemy
(`bench-reference`) 744/s; CPU 48 µs per append batched against 219 µs one per transaction.

One batch is in flight at a time: the appends that come while it waits for its commit make the
next batch. asyncpg costs this process ~75 µs of CPU per batch whatever its size and ~6 µs per
append in it (`fetchmany`, measured apart), so fewer, larger batches leave more of the CPU to the
actions: paired runs of the whole server (`python -m bench.ab`, PostgreSQL, 16 matches, 2026-12-03)
gave one batch in flight 1.03–1.06× the actions/s of two and 0.94–0.95× the CPU per action (three
invocations; 4 matches: 1.006×, CPU 0.95×); three in flight, 0.96× of two. (An earlier, slower
day's unpaired runs had favoured two: 1,271 against 1,090 actions/s on mean.) Several batches in
flight are therefore not offered: with them, two batches holding appends that are not plain could
lock the same players' rows in opposite orders (a deadlock costs a 1 s detection).
Writing a plain batch as one statement (`APPEND_PLAIN_BATCH`) instead of one execution per
append cuts PostgreSQL's CPU per append (see there); for the whole server `bench.ab` (PostgreSQL,
16 matches, ten pairs, 2026-12-03) gave 1.02× the actions/s and 0.97× the CPU per action, within
that day's ±7% swing between invocations.
A lone writer pays one statement per append either way.
"""

from __future__ import annotations

import contextlib
from collections.abc import Awaitable, Callable

import asyncpg

from app.service.batching import GroupCall
from app.service.ports import Append, AppendResult, StoredNotice, VersionConflict
from app.store.postgres_sql import (
    APPEND,
    APPEND_KEYED_BATCH,
    APPEND_PLAIN,
    APPEND_PLAIN_BATCH,
    PLAIN_PARAMS,
    append_args,
    batchable,
    key_args,
    plain,
    plain_args,
    plain_batch_args,
)
from app.store.rows import appended_seq

MAX_BATCH = 64
RETRIES = 3  # of one append that met a deadlock or a serialization failure (nothing was written)

PoolGetter = Callable[[], Awaitable[asyncpg.Pool]]
OutcomeRow = tuple[int | None, bool, bool, bool, bool, list[int] | None]
"""An append's result row: actual seq, seats known, players known, key free, advanced, cursors."""
Outcome = AppendResult | Exception


class _Pending:
    """One queued append with its statement arguments: `APPEND_PLAIN`'s when it is plain (`APPEND`'s
    are built only if a batch with an append that is not plain takes it), else `APPEND`'s (whose
    first `PLAIN_PARAMS` are `APPEND_PLAIN`'s); `batchable`: a batch statement can write it."""

    __slots__ = ("append", "args", "batchable", "plain")

    def __init__(self, append: Append) -> None:
        self.append = append
        self.plain = plain(append)
        self.batchable = batchable(append)
        self.args = plain_args(append) if self.plain else append_args(append)

    def full_args(self) -> tuple[object, ...]:
        return append_args(self.append, self.args) if self.plain else self.args


def _statement(batch: list[_Pending], plain: bool) -> tuple[str, list[tuple[object, ...]]]:
    """`APPEND_PLAIN` when every append of the batch is `plain` (the usual actions), else `APPEND`."""
    if plain:
        return APPEND_PLAIN, [p.args for p in batch]
    return APPEND, [p.full_args() for p in batch]


def _batch_statement(batch: list[_Pending]) -> tuple[str, tuple[str, ...]] | None:
    """`APPEND_PLAIN_BATCH` (`APPEND_KEYED_BATCH` if an append keeps an idempotency key) and its
    arguments when every append of the batch is `batchable`, no match in it twice (a match has at
    most one append queued, so that is every such batch) and its values pack (`plain_batch_args`);
    else None."""
    if not all(p.batchable for p in batch) or len({p.append.match_id for p in batch}) != len(batch):
        return None
    keys = [key_args(p.append) for p in batch if not p.plain]
    args = plain_batch_args([p.args[:PLAIN_PARAMS] for p in batch], keys)  # a plain append's are all of them
    return None if args is None else (APPEND_KEYED_BATCH if keys else APPEND_PLAIN_BATCH, args)


async def _batch_rows(
    conn: asyncpg.Connection, batch: list[_Pending], plain: bool
) -> list[asyncpg.Record | OutcomeRow]:
    """The result row of each append of `batch`, in its order, written in one transaction."""
    one = _batch_statement(batch)
    if one is None:
        return list(await conn.fetchmany(*_statement(batch, plain)))
    query, args = one
    rows = {row[0]: tuple(row)[1:] for row in await conn.fetch(query, *args)}
    return [rows[p.append.match_id] for p in batch]


class PostgresAppender:
    """Batches appends, one batch in flight at a time on its own connection. Up to `hold`
    connections (one unless told) are kept between batches instead of going back to the pool:
    asyncpg's acquire and release cost a batch of a few appends about as much of this process's
    CPU as sending it. `max_batch=1` is one transaction per append (the benchmark compares it).
    """

    def __init__(self, pool: PoolGetter, *, max_batch: int = MAX_BATCH, hold: int = 1) -> None:
        self._pool = pool
        self._hold = min(hold, 1)  # one batch in flight: more connections would only sit idle
        # the idle connection kept for the next batch (at most `hold`)
        self._held: list[asyncpg.Connection] = []
        # A cancelled caller's append is dropped from its batch (not written).
        self._group: GroupCall[_Pending, AppendResult] = GroupCall(self._commit, max_batch)

    @property
    def batches(self) -> int:
        """Batches sent, for tests and the benchmark."""
        return self._group.batches

    async def append(self, append: Append) -> AppendResult:
        return await self._group(_Pending(append))

    async def _commit(self, batch: list[_Pending]) -> list[Outcome]:
        """Each append's outcome, written in one transaction when it can be (see the module)."""
        plain = all(p.plain for p in batch)
        outcomes: list[Outcome] = []
        conn: asyncpg.Connection | None = None
        healthy = False
        try:
            conn = await self._connection()
            if len(batch) > 1:
                try:
                    rows = await _batch_rows(conn, batch, plain)
                except asyncpg.PostgresError:
                    pass  # nothing was written: find whose append failed, one at a time
                else:
                    outcomes = [_outcome(p.append, row) for p, row in zip(batch, rows, strict=True)]
            for p in batch[len(outcomes) :]:
                outcomes.append(await _one(conn, p))
            healthy = True
        except Exception as e:  # the pool or the connection: the rest are not known to be written
            outcomes += [e] * (len(batch) - len(outcomes))
        finally:
            if conn is not None:
                await self._put_back(conn, healthy)
        return outcomes

    async def _connection(self) -> asyncpg.Connection:
        """A held connection that is still open, else one from the pool. One that closed while
        held (the server went away) goes back to the pool, whose acquire reconnects it."""
        while self._held:
            conn = self._held.pop()
            if not conn.is_closed():
                return conn
            await self._put_back(conn, healthy=False)
        return await (await self._pool()).acquire()

    async def _put_back(self, conn: asyncpg.Connection, healthy: bool) -> None:
        """Keep a healthy, idle connection for the next batch (up to `hold`); any other goes back to
        the pool, which drops a broken one and rolls back a transaction left open."""
        if healthy and len(self._held) < self._hold and not conn.is_closed() and not conn.is_in_transaction():
            self._held.append(conn)
        else:
            with contextlib.suppress(Exception):  # a broken connection: the pool drops it
                await (await self._pool()).release(conn)

    async def forget_held(self) -> None:
        """Give every held connection back to the pool as broken (after an outage: a connection
        whose server went away is not known to be closed until it is used, and a batch would fail
        on it after the database is back)."""
        held, self._held = self._held, []
        for conn in held:
            await self._put_back(conn, healthy=False)

    async def close(self) -> None:
        """Wait for the batches in flight (their callers are still owed an answer), then give the
        held connections back to the pool (which waits for them when it closes)."""
        await self._group.wait()
        held, self._held = self._held, []
        for conn in held:
            await self._put_back(conn, healthy=False)


async def _one(conn: asyncpg.Connection, p: _Pending) -> Outcome:
    """Run one append in its own transaction; a database error becomes its outcome."""
    a = p.append
    query, [args] = _statement([p], p.plain)
    for attempt in range(RETRIES):
        try:
            row = await conn.fetchrow(query, *args)
        except asyncpg.PostgresError as e:
            transient = isinstance(e, asyncpg.DeadlockDetectedError | asyncpg.SerializationError)
            if transient and attempt < RETRIES - 1:
                continue  # rolled back whole: try again
            return _failure(a, e)
        return _outcome(a, row)
    raise AssertionError("unreachable")


def _failure(a: Append, error: Exception) -> Exception:
    """What the caller of a failed append gets: the port's errors where they apply."""
    failure: Exception = error
    if isinstance(error, asyncpg.UniqueViolationError):  # a seq, a key, a token hash, a second seat
        failure = VersionConflict(a.match_id, a.expected_seq, a.expected_seq)
    elif isinstance(error, asyncpg.ForeignKeyViolationError):  # a seat's player, a key's seat
        failure = KeyError(f"match {a.match_id}: {error}")
    if failure is not error:
        failure.__cause__ = error
    return failure


def _outcome(a: Append, row: asyncpg.Record | OutcomeRow) -> Outcome:
    actual, seats_known, players_known, key_free, advanced, cursors = row
    if advanced:
        return AppendResult(appended_seq(a), _notices(a, cursors or []))
    if actual is None:
        return KeyError(a.match_id)
    if actual != a.expected_seq:
        return VersionConflict(a.match_id, a.expected_seq, actual)
    if not seats_known:
        return KeyError(f"match {a.match_id}: a written seat does not exist")
    if not key_free:
        return VersionConflict(a.match_id, a.expected_seq, actual)
    if not players_known:
        return KeyError(f"match {a.match_id}: a notified player does not exist")
    return VersionConflict(a.match_id, a.expected_seq)  # another writer won after the checks


def _notices(a: Append, cursors: list[int]) -> tuple[StoredNotice, ...]:
    """The notices as written: `cursors` come ordered by (player id, cursor), which is the order
    of the notices sorted by player id, each player's in the order given."""
    order = sorted(range(len(a.notices)), key=lambda i: a.notices[i].player_id)
    given_cursor = dict(zip(order, cursors, strict=True))
    return tuple(
        StoredNotice(n.player_id, given_cursor[i], n.type, dict(n.data), a.at)
        for i, n in enumerate(a.notices)
    )
