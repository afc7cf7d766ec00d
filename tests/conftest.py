"""Shared fixtures: throwaway databases on the real services named by environment variables.

`TEST_DATABASE_URL` (PostgreSQL) and `TEST_REDIS_URL` name real servers. Without them the tests
that need them skip, unless `TEST_REQUIRE_SERVICES=1` (set by `.ci/run`), where they fail instead:
in CI they must run. Each test run creates its own PostgreSQL database and drops it afterwards, and
uses its own Redis channel prefix, so nothing depends on leftovers.

The suite runs on both cores (pytest-xdist, `-n logical` in pyproject.toml; `-n 0` runs it in one
process). Each worker has its own database (the name holds its process id) and temporary
directories. What workers would share is kept on one of them, in collection order: the tests that
install or build into the repository's Node.js directories (`web/`, `clients/typescript/`: `npm ci`
replaces `node_modules` under any test using it) and those that read the fairness corpus (built once
per worker that asks for it, ~2 minutes). `pytest_xdist_make_scheduler` groups them by path: the
`xdist_group` mark cannot, as pytest-xdist 3.8 renames the items with pytest's `_nodeid`, which
pytest 9.2 no longer reads (the mark is silently ignored).
"""

from __future__ import annotations

import asyncio
import os
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy.engine import make_url

REQUIRE_SERVICES = os.environ.get("TEST_REQUIRE_SERVICES") == "1"
# The tests (nodeid prefixes) that share what the module docstring says, run on one xdist worker.
ONE_WORKER = ("tests/web/", "tests/clients/test_typescript.py", "tests/api/test_fair_deals.py")


# A pytest-xdist hook (optional: unknown with `-p no:xdist`), before pytest-xdist's own (first result).
@pytest.hookimpl(optionalhook=True, tryfirst=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: object) -> object:
    """`--dist load` (the default) and `loadgroup`, with `ONE_WORKER` kept together; other modes
    as pytest-xdist makes them."""
    if config.getvalue("dist") not in ("load", "loadgroup"):
        return None
    from xdist.scheduler import LoadScopeScheduling

    class OneWorkerForShared(LoadScopeScheduling):  # type: ignore[misc]  # pytest-xdist has no types
        """Every test its own unit of work, except those of `ONE_WORKER`: one unit, one worker."""

        def _split_scope(self, nodeid: str) -> str:
            return "one-worker" if nodeid.startswith(ONE_WORKER) else nodeid

        def remove_node(self, node: object) -> str | None:
            """A worker that crashed: its unfinished units go back to the queue, without the test
            it crashed in (reported failed by pytest-xdist) and without its finished units.
            pytest-xdist 3.8's own puts back every unit the worker ever ran: another worker given
            one with nothing left to run never asks for more, and the run hangs (a CI run did, until
            its time limit, after a segfault)."""
            workload: dict[str, dict[str, bool]] = self.assigned_work.pop(node)
            running = [(scope, unit) for scope, unit in workload.items() if not all(unit.values())]
            if not running:
                return None
            crashed = next(nodeid for _, unit in running for nodeid, done in unit.items() if not done)
            for scope, unit in running:
                unit.pop(crashed, None)
                if not all(unit.values()):
                    self.workqueue[scope] = unit
            for other in self.assigned_work:
                self._reschedule(other)
            return crashed

        def _reschedule(self, node: Any) -> None:
            """As pytest-xdist's, but not for a worker still collecting (one started in place of a
            crashed one): pytest-xdist 3.8 reschedules every worker whenever one finishes collecting
            or one crashes, and looked up the collection of a replacement that had none yet (a
            KeyError that ended the run). Its own end of collection schedules it."""
            if node in self.registered_collections:
                super()._reschedule(node)

    return OneWorkerForShared(config, log)


def _missing(var: str) -> None:
    message = f"{var} is not set"
    if REQUIRE_SERVICES:
        pytest.fail(f"{message}, but TEST_REQUIRE_SERVICES=1 requires it")
    pytest.skip(message)


async def _admin(url: str, sql: str) -> None:
    import asyncpg

    u = make_url(url)
    conn = await asyncpg.connect(
        host=u.host or "127.0.0.1",
        port=u.port or 5432,
        user=u.username or "postgres",
        password=u.password,
        database=u.database or "postgres",
    )
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    """URL (postgresql+asyncpg) of a fresh PostgreSQL database that lives for this test run."""
    base = os.environ.get("TEST_DATABASE_URL")
    if not base:
        _missing("TEST_DATABASE_URL")
        raise AssertionError("unreachable")
    name = f"drago_test_{os.getpid()}_{uuid.uuid4().hex[:8]}"
    asyncio.run(_admin(base, f'CREATE DATABASE "{name}"'))
    url = make_url(base).set(drivername="postgresql+asyncpg", database=name)
    try:
        yield url.render_as_string(hide_password=False)
    finally:
        asyncio.run(_admin(base, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


@pytest.fixture
def fresh_postgres_url(postgres_url: str) -> Iterator[str]:
    """An empty database of its own for one test, beside the session's (which other tests fill)."""
    base = make_url(postgres_url)
    name = f"{base.database}_{uuid.uuid4().hex[:6]}"
    asyncio.run(_admin(postgres_url, f'CREATE DATABASE "{name}"'))
    try:
        yield base.set(database=name).render_as_string(hide_password=False)
    finally:
        asyncio.run(_admin(postgres_url, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    """URL of a fresh SQLite file for one test."""
    return f"sqlite+aiosqlite:///{tmp_path / 'test.db'}"


@pytest.fixture(scope="session")
def redis_url() -> str:
    url = os.environ.get("TEST_REDIS_URL")
    if not url:
        _missing("TEST_REDIS_URL")
        raise AssertionError("unreachable")
    return url


@pytest.fixture
def channel_prefix() -> str:
    """A channel/key prefix unique to one test, so runs sharing a Redis never see each other."""
    return f"drago-test-{uuid.uuid4().hex[:12]}"


@pytest.fixture(scope="session")
def fair_corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A JSON file of finished drago-fair-2 matches played over HTTP, `FAIR_CORPUS_MATCHES` (200) per
    game, mode and player count, with their tampered variants (tests/fairness/corpus.py): made
    once per session and read by the Python, the TypeScript and the page's verifiers alike."""
    from tests.fairness import corpus

    return corpus.write(tmp_path_factory.mktemp("fairness") / "corpus.json", corpus.size())
