"""Operations: `python -m app migrate`, readiness that waits for the schema, the health check on
the port the server really uses, the keep-alive of idle connections, the LICENSE, and a README that
lists every setting."""

from __future__ import annotations

import asyncio
import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import httpx
import pytest

from app.api.middleware import Readiness
from app.settings import Settings
from app.store.migrate import at_head_async, upgrade_async
from tests.api.conftest import started
from tests.edge.serving import served
from tests.stream.servers import ROOT, free_port, serving


def run_app(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    base = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith("DRAGO_") and k not in ("DATABASE_URL", "PORT")
    }
    return subprocess.run(
        [sys.executable, "-m", "app", *args],
        env={**base, **env},
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


async def test_readiness_waits_for_the_schema_and_migrate_brings_it(sqlite_url: str) -> None:
    async with started(sqlite_url, run_migrations_on_start=False) as (_, client):
        r = await client.get("/readyz")
        assert r.status_code == 503 and r.json()["error"]["code"] == "unavailable"
        assert "migrate" in r.json()["error"]["message"]
        assert (await client.get("/healthz")).status_code == 200  # alive, not ready
        for call in (
            client.get("/v1/matches"),
            client.post("/v1/matches", json={"game": "yutaka", "players": 2}),
        ):
            r = await call  # no 500 from a missing table: 503 until migrated
            assert r.status_code == 503 and r.json()["error"]["code"] == "unavailable"
            assert r.headers["retry-after"]
        assert (await client.get("/docs")).status_code == 200
        done = run_app("migrate", DRAGO_DATABASE_URL=sqlite_url)
        assert done.returncode == 0, done.stderr
        assert await at_head_async(sqlite_url)
        await asyncio.sleep(Readiness.RECHECK)
        assert (await client.get("/readyz")).status_code == 200
        assert (await client.post("/v1/matches", json={"game": "yutaka", "players": 2})).status_code == 201


async def test_migrate_on_postgresql_and_when_there_is_nothing_to_migrate(sql_database_url: str) -> None:
    assert run_app("migrate", DATABASE_URL=sql_database_url).returncode == 0
    assert await at_head_async(sql_database_url)
    assert run_app("migrate", DRAGO_DATABASE_URL=sql_database_url).returncode == 0  # again: a no-op
    assert run_app("migrate", DRAGO_DATABASE_URL="memory://").returncode == 0
    assert run_app("nonsense").returncode == 2


async def test_an_unreadable_schema_is_not_ready(sqlite_url: str) -> None:
    await upgrade_async(sqlite_url)
    async with started(sqlite_url) as (app, client):

        async def broken() -> bool:
            raise OSError("gone")

        app.state.readiness.probe, app.state.readiness.ready = broken, False
        assert (await client.get("/readyz")).status_code == 503
        assert (await client.get("/v1/games")).status_code == 503


async def test_a_migrated_database_is_ready_without_migrating_on_start(sqlite_url: str) -> None:
    await upgrade_async(sqlite_url)
    async with started(sqlite_url, run_migrations_on_start=False) as (_, client):
        assert (await client.get("/readyz")).status_code == 200
        assert (await client.get("/v1/games")).status_code == 200


async def test_the_healthcheck_probes_the_port_the_server_uses(tmp_path: Path) -> None:
    async with serving(tmp_path, "health", {"DRAGO_DATABASE_URL": "memory://"}) as server:
        assert run_app("healthcheck", DRAGO_PORT=str(server.port), PORT="1").returncode == 0
        assert run_app("healthcheck", PORT=str(server.port)).returncode == 0
        assert run_app("healthcheck", DRAGO_PORT="1", PORT=str(server.port)).returncode == 1
        async with httpx.AsyncClient(base_url=server.url) as client:
            assert (await client.get("/readyz")).status_code == 200
    assert run_app("healthcheck", DRAGO_PORT=str(free_port())).returncode == 1


def test_the_license_is_the_one_pyproject_names() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    text = (ROOT / "LICENSE").read_text()
    assert project["license"] == "MIT" and text.startswith("MIT License")
    assert "Permission is hereby granted, free of charge" in text


def test_the_readme_lists_every_setting_and_says_where_logs_go() -> None:
    readme = (ROOT / "README.md").read_text()
    for name, field in Settings.model_fields.items():
        assert f"`DRAGO_{name.upper()}`" in readme or f"DRAGO_{name.upper()}`" in readme, name
        default = field.default
        if isinstance(default, str | int | float) and not isinstance(default, bool) and default != "":
            row = next(line for line in readme.splitlines() if f"DRAGO_{name.upper()}" in line)
            assert str(default) in row or re.sub(r"\.0$", "", str(default)) in row, (name, default)
    assert "stdout" in readme and "stderr" not in readme


def test_the_server_keeps_idle_connections_open_as_its_setting_says(monkeypatch: pytest.MonkeyPatch) -> None:
    """uvicorn's own 5 s equals httpx's pool expiry: a client reusing a connection the server closes
    at that moment got a reset (a flake of the rated-matches test under load). The server keeps them
    `DRAGO_HTTP_KEEP_ALIVE_SECONDS` (75 s by default), so the client or the proxy lets go first."""
    given, _ = served(
        monkeypatch,
        Settings(database_url="memory://"),
        Settings(database_url="memory://", http_keep_alive_seconds=90),
    )
    assert [options["timeout_keep_alive"] for options in given] == [75, 90]
    expiry = httpx.Limits().keepalive_expiry  # what a bot's default httpx pool keeps a connection
    assert expiry is not None and expiry < Settings().http_keep_alive_seconds
    refused = run_app("healthcheck", DRAGO_HTTP_KEEP_ALIVE_SECONDS="0")
    assert refused.returncode == 2 and "DRAGO_HTTP_KEEP_ALIVE_SECONDS" in refused.stderr


def test_the_server_sets_pythons_switch_interval_as_its_setting_says(monkeypatch: pytest.MonkeyPatch) -> None:
    """`DRAGO_THREAD_SWITCH_MS` (20 by default, Python's own 5) reaches `sys.setswitchinterval` in
    seconds when the server starts; a value out of bounds stops it at start."""
    _, given = served(
        monkeypatch,
        Settings(database_url="memory://"),
        Settings(database_url="memory://", thread_switch_ms=5),
    )
    assert given == [0.02, 0.005]
    for bad in ("0", "101"):
        refused = run_app("healthcheck", DRAGO_THREAD_SWITCH_MS=bad)
        assert refused.returncode == 2 and "DRAGO_THREAD_SWITCH_MS" in refused.stderr
