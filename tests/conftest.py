"""Shared fixtures: throwaway databases on the real services named by environment variables.

`TEST_DATABASE_URL` (PostgreSQL) and `TEST_REDIS_URL` name real servers. Without them the tests
that need them skip, unless `TEST_REQUIRE_SERVICES=1` (set by `.ci/run`), where they fail instead:
in CI they must run. Each test run creates its own PostgreSQL database and drops it afterwards, and
uses its own Redis channel prefix, so nothing depends on leftovers.
"""

from __future__ import annotations

import asyncio
import os
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy.engine import make_url

REQUIRE_SERVICES = os.environ.get("TEST_REQUIRE_SERVICES") == "1"


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
