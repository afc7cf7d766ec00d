"""Operations: health, readiness, metrics, request ids, CORS, logs without secrets, settings."""

from __future__ import annotations

import asyncio
import json
import logging
import random
import re

import pytest

from app.api.logs import JsonFormatter
from app.settings import Settings
from tests.api.conftest import running, started
from tests.api.helpers import new_table, play_to_end


async def test_health_and_readiness() -> None:
    async with started("memory://") as (app, client):
        assert (await client.get("/healthz")).json() == {"status": "ok"}
        assert (await client.get("/readyz")).json() == {"status": "ok"}

        async def down() -> None:
            raise OSError("connection refused")

        app.state.store.ping = down
        r = await client.get("/readyz")
        assert r.status_code == 503 and r.json()["error"]["code"] == "unavailable"


async def test_metrics_count_by_route_template() -> None:
    async with running("memory://") as client:
        table = await new_table(client, "yutaka", 2, bots=[1])
        await play_to_end(table, random.Random(2))
        await client.get(f"{table.url}/view")
        text = (await client.get("/metrics")).text
    assert 'drago_http_requests_total{method="GET",route="/v1/matches/{match_id}/view",status="200"}' in text
    assert 'drago_matches_created_total{game="yutaka"} 1.0' in text
    assert 'drago_actions_appended_total{bot="true",game="yutaka"}' in text
    assert 'drago_actions_appended_total{bot="false",game="yutaka"}' in text
    assert "drago_version_conflicts_total" in text and "drago_http_request_duration_seconds_bucket" in text
    assert table.match_id not in text


async def test_request_ids_in_and_out() -> None:
    async with running("memory://") as client:
        assert (await client.get("/healthz", headers={"X-Request-ID": "abc-123"})).headers[
            "x-request-id"
        ] == "abc-123"
        generated = (await client.get("/healthz")).headers["x-request-id"]
        again = (await client.get("/healthz")).headers["x-request-id"]
        # a per-process random prefix and a counter: unique across processes, cheap per request
        assert re.fullmatch(r"[0-9a-f]{16}-\d+", generated) and again != generated
        assert again.split("-")[0] == generated.split("-")[0]
        bad = (await client.get("/healthz", headers={"X-Request-ID": "no spaces; please"})).headers[
            "x-request-id"
        ]
        assert bad != "no spaces; please"
        r = await client.post("/v1/matches", content=b"x" * 100_000)
        assert r.status_code == 413 and r.headers["x-request-id"]


async def test_cors_from_settings() -> None:
    async with running("memory://", cors_origins=["http://front.example"]) as client:
        r = await client.options(
            "/v1/matches",
            headers={"Origin": "http://front.example", "Access-Control-Request-Method": "POST"},
        )
        assert r.status_code == 200 and r.headers["access-control-allow-origin"] == "http://front.example"
        r = await client.get("/v1/games", headers={"Origin": "http://elsewhere.example"})
        assert "access-control-allow-origin" not in r.headers
    async with running("memory://") as client:
        r = await client.get("/v1/games", headers={"Origin": "http://front.example"})
        assert "access-control-allow-origin" not in r.headers


async def test_logs_hold_no_tokens_or_secrets(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)
    async with running("memory://", log_level="INFO") as client:
        table = await new_table(client, "mount_drago", 2)
        await play_to_end(table, random.Random(3))
        await client.get(f"{table.url}/view", params={"token": table.tokens[0]})
        revealed = (await client.get(f"{table.url}/reveal")).json()
    formatter = JsonFormatter()
    lines = [formatter.format(r) for r in caplog.records if r.name.startswith("app")]  # not httpx
    assert any(
        (fields := json.loads(line)).get("route") == "/v1/matches/{match_id}/actions"
        and "request_id" in fields
        for line in lines
    )
    text = "\n".join(lines)
    assert table.host is not None
    for secret in [*table.tokens.values(), table.host, revealed["secret"]]:
        assert secret not in text
    assert "hand" not in text and "legal_actions" not in text


def test_settings_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("DRAGO_DATABASE_URL", "DATABASE_URL", "DRAGO_PORT", "PORT"):
        monkeypatch.delenv(name, raising=False)
    defaults = Settings()
    assert defaults.database_url == "sqlite+aiosqlite:///./drago.db" and defaults.port == 8000
    assert defaults.cors_origins == [] and defaults.max_body_bytes == 65536 and not defaults.dev_features
    monkeypatch.setenv("DATABASE_URL", "postgresql+asyncpg://db/x")
    monkeypatch.setenv("PORT", "9000")
    monkeypatch.setenv("DRAGO_CORS_ORIGINS", "http://a.example, http://b.example")
    monkeypatch.setenv("DRAGO_DEV_FEATURES", "1")
    settings = Settings()
    assert settings.database_url == "postgresql+asyncpg://db/x" and settings.port == 9000
    assert settings.cors_origins == ["http://a.example", "http://b.example"] and settings.dev_features
    monkeypatch.setenv("DRAGO_DATABASE_URL", "memory://")
    monkeypatch.setenv("DRAGO_PORT", "9100")
    monkeypatch.setenv("DRAGO_CORS_ORIGINS", '["http://c.example"]')
    settings = Settings()
    assert settings.database_url == "memory://" and settings.port == 9100
    assert settings.cors_origins == ["http://c.example"]


async def test_commits_reach_the_live_hub() -> None:
    async with started("memory://") as (app, client):
        table = await new_table(client, "yutaka", 2)
        view = await table.view(0)
        async with app.state.hub.subscribe(table.match_id, after=view["seq"]) as subscription:
            reply = (await table.act(0, view["legal_actions"][0])).json()
            seqs = [(await asyncio.wait_for(anext(subscription), 5)).seq for _ in reply["events"]]
        assert seqs == [e["seq"] for e in reply["events"]]
        assert app.state.ctx.notifier is app.state.hub
