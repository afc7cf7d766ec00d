"""Switching a SQLite file to write-ahead logging while another connection holds it: SQLite may
answer "database is locked" at once, without its busy handler (two connections both escalating
their locks: one is refused to avoid a deadlock), so the switch is retried. Several server
processes migrating a new file together met it (`test_concurrent_upgrades_of_one_sqlite_file`).
Here the connections have no busy handler, to meet the refusal at once."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import pytest

from app.store.sqlite_threads import use_wal


def _held(path: Path) -> sqlite3.Connection:
    holder = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    holder.execute("CREATE TABLE IF NOT EXISTS t (x)")
    holder.execute("BEGIN EXCLUSIVE")
    holder.execute("INSERT INTO t VALUES (1)")
    return holder


def test_the_switch_waits_for_the_holder_then_succeeds(tmp_path: Path) -> None:
    path = tmp_path / "new.db"
    holder = _held(path)
    conn = sqlite3.connect(path, isolation_level=None, timeout=0)  # no busy handler: fails at once
    with pytest.raises(sqlite3.OperationalError, match="locked"):
        conn.execute("PRAGMA journal_mode=WAL")  # what a single try meets
    commit = threading.Timer(0.2, holder.execute, ["COMMIT"])
    commit.start()
    use_wal(conn, wait_s=10)
    assert conn.execute("PRAGMA journal_mode").fetchone() == ("wal",)
    # The switch can succeed the moment the lock goes, while the timer's thread is still inside
    # `execute`: closing the connection under it crashed the process (a CI run's segfault).
    commit.join()
    holder.close()
    conn.close()


def test_the_switch_gives_up_after_its_wait(tmp_path: Path) -> None:
    path = tmp_path / "held.db"
    holder = _held(path)
    conn = sqlite3.connect(path, isolation_level=None, timeout=0)  # no busy handler: fails at once
    with pytest.raises(sqlite3.OperationalError, match="locked"):
        use_wal(conn, wait_s=0.1)
    holder.execute("COMMIT")
    holder.close()
    conn.close()
