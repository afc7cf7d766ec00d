"""Where SQLite work runs: ONE writer thread that commits in groups, and a few reader threads.

ONE writer thread with ONE connection: SQLite has a single write lock per file, so more writers
only queue on it, and make tail latency much worse. The writer drains everything queued while
it was busy into ONE transaction (group commit): each unit of work runs inside its own SAVEPOINT,
so one that fails (a version conflict, a unique key) is rolled back alone, and the others commit
together with one fsync. Callers are answered only after COMMIT has returned, so every
acknowledged write is durable (`synchronous=FULL`). A unit of work is a synchronous function on
the connection; the whole batch is one hand-off to the thread and one wake-up of each event loop.

Readers are read-only autocommit connections, one per thread, which WAL lets read while the
writer commits; each statement sees the latest commit. Pragmas: WAL; `synchronous=FULL`, because
in WAL mode NORMAL skips the fsync at each commit, so a power cut could lose actions already
acknowledged, and the design promises that a crash loses no committed action; `busy_timeout` so a
second process or a migration waits for the lock instead of failing at once; `foreign_keys=ON`,
off by default in SQLite. Measured by `bench/store_append.py` (see `app.store.sqlite`).
"""

from __future__ import annotations

import asyncio
import contextlib
import queue
import sqlite3
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Protocol, TypeVar

T = TypeVar("T")
Work = Callable[[sqlite3.Connection], T]
"""Synchronous work on one connection; its return value is handed back to the caller."""

BUSY_TIMEOUT_MS = 5000
WRITER_PRAGMAS = (
    f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}",
    "PRAGMA synchronous=FULL",
    "PRAGMA foreign_keys=ON",
)
READER_PRAGMAS = (f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}", "PRAGMA query_only=ON")
MAX_BATCH = 256  # bounds one transaction's size, and the wait of its last caller
LINGER_S = 0.001
"""How long the writer waits for more work before committing a batch, only while writes come
concurrently (the last batch held more than one). Each commit's fsync costs this process a fixed
amount of kernel CPU (about a millisecond on these virtual disks: a sixth of the server's CPU per
action at 16 matches), so fewer, larger batches leave more CPU to the event loop. Measured through
the server at 16 matches: 5.6 jobs per batch against 3.6, and with `python -m bench.ab --store
sqlite` four times (8-10 pairs each) 0.95x, 1.04x, 1.07x and 1.075x the actions/s (CPU per action
1.05x, 0.97x, 0.93x, 0.95x); at 1 match 1.02x. A lone writer (the last batch held one job) never
waits."""
WAL_RETRY_S = 0.02


def connect(path: str, pragmas: tuple[str, ...]) -> sqlite3.Connection:
    """A connection in autocommit mode (we issue BEGIN ourselves), usable from any one thread."""
    conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    for pragma in pragmas:
        conn.execute(pragma)
    return conn


class _Cursor(Protocol):
    def execute(self, sql: str, /) -> object: ...

    def close(self) -> object: ...


class Cursors(Protocol):
    """A DB-API connection as `use_wal` uses it (sqlite3's, or SQLAlchemy's adapter of aiosqlite)."""

    def cursor(self) -> _Cursor: ...


def use_wal(conn: Cursors, wait_s: float) -> None:
    """`PRAGMA journal_mode=WAL` on a DB-API connection, retried for up to `wait_s` while the
    database is locked: switching the journal mode needs the database to itself, and SQLite may
    answer "database is locked" at once, without its busy handler (seen with several processes
    starting on a new file together). A database already in WAL mode stays so: a no-op then."""
    deadline = time.monotonic() + wait_s
    while True:
        cursor = conn.cursor()
        try:
            cursor.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as e:
            if "locked" not in str(e) or time.monotonic() >= deadline:
                raise
        finally:
            cursor.close()
        time.sleep(WAL_RETRY_S)


class _Job:
    __slots__ = ("future", "loop", "ok", "value", "work")

    def __init__(self, work: Work[Any], loop: asyncio.AbstractEventLoop, future: asyncio.Future[Any]):
        self.work, self.loop, self.future = work, loop, future
        self.ok = False
        self.value: Any = None


class SqliteWriter:
    """The writer thread. `max_batch=1` turns group commit off (for the benchmark); `linger` is
    `LINGER_S` unless told."""

    def __init__(self, path: str, *, max_batch: int = MAX_BATCH, linger: float = LINGER_S) -> None:
        self._path = path
        self._max_batch = max_batch
        self._linger = linger
        self._last = 0  # jobs in the last batch: more than one, and the next may linger
        self._queue: queue.SimpleQueue[_Job | None] = queue.SimpleQueue()
        self._conn: sqlite3.Connection | None = None
        self._thread: threading.Thread | None = None
        self._start = threading.Lock()
        self.batches = 0  # transactions committed or attempted, for tests and the benchmark

    async def run(self, work: Work[T]) -> T:
        """Run `work` in the next transaction; return once that transaction has committed."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[T] = loop.create_future()
        self._ensure_thread()
        self._queue.put(_Job(work, loop, future))
        return await future

    def _ensure_thread(self) -> None:
        if self._thread is None:
            with self._start:
                if self._thread is None:
                    self._thread = threading.Thread(target=self._loop, name="sqlite-writer", daemon=True)
                    self._thread.start()

    def _loop(self) -> None:
        stop = False
        while not stop:
            job = self._queue.get()
            if job is None:
                break
            batch = [job]
            linger_until = time.monotonic() + self._linger if self._last > 1 else None
            while len(batch) < self._max_batch:
                try:
                    more = self._next(linger_until)
                except queue.Empty:
                    break
                if more is None:
                    stop = True
                    break
                batch.append(more)
            self._commit(batch)
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    def _next(self, linger_until: float | None) -> _Job | None:
        """The next queued job (None: stop), waiting until `linger_until` if given; raises
        `queue.Empty` when none came."""
        if linger_until is None:
            return self._queue.get_nowait()
        return self._queue.get(timeout=max(0.0, linger_until - time.monotonic()))

    def _commit(self, batch: list[_Job]) -> None:
        self.batches += 1
        self._last = len(batch)
        try:
            if self._conn is None:
                self._conn = connect(self._path, WRITER_PRAGMAS)
                use_wal(self._conn, BUSY_TIMEOUT_MS / 1000)
            conn = self._conn
            conn.execute("BEGIN IMMEDIATE")
            for job in batch:
                conn.execute("SAVEPOINT job")
                try:
                    job.value, job.ok = job.work(conn), True
                except Exception as e:  # this job's own failure: undo it alone
                    job.value = e
                    conn.execute("ROLLBACK TO job")
                conn.execute("RELEASE job")
            conn.execute("COMMIT")
        except Exception as e:  # the transaction itself failed: nothing of the batch is written
            if self._conn is not None and self._conn.in_transaction:
                self._conn.execute("ROLLBACK")
            for job in batch:
                if job.ok or job.value is None:  # done, or not reached: not written after all
                    job.ok, job.value = False, e
        _answer(batch)

    async def close(self) -> None:
        if self._thread is not None:
            self._queue.put(None)
            await asyncio.to_thread(self._thread.join)
            self._thread = None


def _answer(batch: list[_Job]) -> None:
    """Hand each caller its result: one wake-up per event loop for the whole batch."""
    by_loop: dict[asyncio.AbstractEventLoop, list[_Job]] = {}
    for job in batch:
        by_loop.setdefault(job.loop, []).append(job)
    for loop, jobs in by_loop.items():
        with contextlib.suppress(RuntimeError):  # that loop is closed: nobody waits any more
            loop.call_soon_threadsafe(_settle, jobs)


def _settle(jobs: list[_Job]) -> None:
    for job in jobs:
        if job.future.done():  # the caller was cancelled
            continue
        if job.ok:
            job.future.set_result(job.value)
        else:
            job.future.set_exception(job.value)


class SqliteReaders:
    """Reader threads, each with its own read-only connection opened on first use."""

    def __init__(self, path: str, size: int) -> None:
        self._path = path
        self._executor = ThreadPoolExecutor(size, thread_name_prefix="sqlite-reader")
        self._local = threading.local()
        self._opened: list[sqlite3.Connection] = []
        self._lock = threading.Lock()

    async def run(self, work: Work[T]) -> T:
        return await asyncio.get_running_loop().run_in_executor(self._executor, self._call, work)

    def _call(self, work: Work[T]) -> T:
        conn: sqlite3.Connection | None = getattr(self._local, "conn", None)
        if conn is None:
            conn = self._local.conn = connect(self._path, READER_PRAGMAS)
            with self._lock:
                self._opened.append(conn)
        return work(conn)

    async def close(self) -> None:
        await asyncio.to_thread(self._executor.shutdown)
        with self._lock:
            for conn in self._opened:
                conn.close()
            self._opened.clear()
