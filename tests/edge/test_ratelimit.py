"""Rate limits: per address and per credential, one budget per kind of work, over HTTP (429 with
`Retry-After` and `RateLimit-*`) and over streams (close 4429, or an error frame for an action),
in memory and in Redis shared by several processes; credentials kept only as digests."""

from __future__ import annotations

import logging
from contextlib import AbstractAsyncContextManager
from datetime import UTC, datetime
from typing import Any

import httpx
import pydantic
import pytest
from fastapi import FastAPI

from app.api.closes import Close
from app.api.ratelimit import BUDGETS, credential_key
from app.settings import Settings
from tests.api.conftest import started
from tests.api.helpers import create, new_table
from tests.stream.helpers import open_stream

OFF = {  # every budget unlimited but the one a test sets
    f"rate_limit_{budget}_per_{who}": "" for budget in BUDGETS for who in ("ip", "credential")
} | {"rate_limit_frames_per_connection": ""}


def limited(**budgets: str) -> dict[str, Any]:
    return {**OFF, "rate_limit_enabled": True, **budgets}


HALF_PAST = datetime(2026, 1, 1, 12, 0, 30, tzinfo=UTC)


def still() -> datetime:
    """The app's clock stopped half-way through a minute: no window slides while a test counts (on
    the wall clock a test that crosses a minute would see the previous minute's requests weigh less)."""
    return HALF_PAST


def limited_app(**settings: Any) -> AbstractAsyncContextManager[tuple[FastAPI, httpx.AsyncClient]]:
    """An app with rate limits on, every budget off but those given, on the stopped clock."""
    return started("memory://", clock=still, **limited(**settings))


def refused(r: httpx.Response, window: int = 60) -> bool:
    """A 429 `rate_limited` with its headers, to retry within the budget's `window` (seconds)."""
    if r.status_code != 429:
        return False
    assert r.json()["error"]["code"] == "rate_limited"
    retry = int(r.headers["retry-after"])
    assert 1 <= retry <= window and r.headers["ratelimit-reset"] == str(retry)
    assert r.headers["ratelimit-remaining"] == "0" and int(r.headers["ratelimit-limit"]) > 0
    return True


async def test_with_the_defaults_a_burst_of_creations_meets_429s() -> None:
    defaults = Settings(database_url="memory://")
    assert defaults.rate_limit_enabled
    async with started("memory://", clock=still, rate_limit_enabled=True) as (_, client):
        statuses = [(await create(client, "yutaka", 2)) for _ in range(300)]
    assert all(r.status_code == 201 for r in statuses[:60])  # 60 a minute
    assert all(refused(r) for r in statuses[60:])


async def test_the_counters_in_memory_go_by_the_apps_clock() -> None:
    now = [HALF_PAST]
    options = limited(rate_limit_create_per_ip="1/minute")
    async with started("memory://", clock=lambda: now[0], **options) as (_, client):
        assert (await create(client, "yutaka", 2)).status_code == 201
        now[0] = now[0].replace(second=59)
        reply = await create(client, "yutaka", 2)
        assert refused(reply) and reply.headers["retry-after"] == "1"
        now[0] = now[0].replace(minute=1, second=1)  # the first minute's request weighs 59/60 of one
        assert (await create(client, "yutaka", 2)).status_code == 201


async def test_actions_are_limited_per_credential_and_reads_per_address() -> None:
    async with limited_app(rate_limit_actions_per_credential="1/minute") as (_, client):
        table = await new_table(client, "yutaka", 2)
        seat = (await table.view(None))["to_act"][0]
        action = (await table.view(seat))["legal_actions"][0]
        assert (await table.act(seat, action)).status_code == 200
        assert refused(await table.act(seat, action))  # the same token: refused before anything else
        other = 1 - seat
        assert (await table.act(other, {"type": "nothing"})).status_code != 429  # another token
    async with limited_app(rate_limit_reads_per_ip="5/minute") as (_, client):
        table = await new_table(client, "yutaka", 2)
        replies = [await client.get(table.url, headers=table.auth(i % 2)) for i in range(8)]
        assert [r.status_code for r in replies[:5]] == [200] * 5 and all(refused(r) for r in replies[5:])
        assert (await client.get("/healthz")).status_code == 200  # operations are not limited
        assert (await client.get("/readyz")).status_code == 200
    async with limited_app(rate_limit_reads_per_credential="2/minute") as (_, client):
        table = await new_table(client, "yutaka", 2)
        replies = [await client.get(f"{table.url}/view", headers=table.auth(0)) for _ in range(3)]
        assert [r.status_code for r in replies[:2]] == [200, 200] and refused(replies[2])
        assert (await client.get(f"{table.url}/view", headers=table.auth(1))).status_code == 200
        assert (await client.get(f"{table.url}/view")).status_code == 200  # a spectator: the address only


async def test_limits_can_be_switched_off() -> None:
    async with started("memory://", rate_limit_enabled=False, rate_limit_create_per_ip="1/minute") as (
        app,
        client,
    ):
        assert app.state.limiter is None
        assert all([(await create(client, "yutaka", 2)).status_code == 201 for _ in range(5)])


async def test_stream_connections_and_frames_close_with_4429() -> None:
    options = {"rate_limit_streams_per_ip": "2/minute", "rate_limit_frames_per_connection": "3/minute"}
    async with limited_app(**options) as (app, client):
        table = await new_table(client, "yutaka", 2)
        async with open_stream(app, table.match_id, spectate=True) as first:
            assert (await first.recv())["type"] == "hello"
            for _ in range(3):
                await first.send({"type": "ping"})
                assert (await first.recv())["type"] == "pong"
            await first.send({"type": "ping"})  # the fourth frame
            frame = await first.recv()
            assert frame["type"] == "error" and frame["error"]["code"] == "rate_limited"
            assert (await first.closed()).code == Close.RATE_LIMITED
        async with open_stream(app, table.match_id, spectate=True) as second:
            assert (await second.recv())["type"] == "hello"
        async with open_stream(app, table.match_id, spectate=True) as third:
            frame = await third.recv()
            assert (
                frame["error"]["code"] == "rate_limited" and frame["error"]["details"]["budget"] == "streams"
            )
            assert (await third.closed()).code == Close.RATE_LIMITED


async def test_actions_over_a_stream_spend_the_actions_budget() -> None:
    async with limited_app(rate_limit_actions_per_credential="1/minute") as (app, client):
        table = await new_table(client, "yutaka", 2)
        seat = (await table.view(None))["to_act"][0]
        action = (await table.view(seat))["legal_actions"][0]
        async with open_stream(app, table.match_id, token=table.tokens[seat]) as ws:
            assert (await ws.recv())["type"] == "hello"
            for frame_id in ("a1", "a2"):
                await ws.send({"type": "action", "id": frame_id, "action": action})
                frame = await ws.recv()
                while frame.get("id") != frame_id:
                    frame = await ws.recv()
                if frame_id == "a1":
                    assert frame["type"] == "ack", frame
                else:
                    assert frame["type"] == "error" and frame["error"]["code"] == "rate_limited", frame
            await ws.send({"type": "ping"})  # the connection lives on
            while (await ws.recv())["type"] != "pong":
                pass
        assert refused(await table.act(seat, action))  # HTTP shares the budget


async def test_credentials_are_counted_as_digests_only() -> None:
    async with limited_app(rate_limit_reads_per_credential="100/minute") as (app, client):
        table = await new_table(client, "yutaka", 2)
        await table.view(0)
        keys = " ".join(app.state.limiter.memory_keys())
        assert credential_key(table.tokens[0]) in keys
        assert table.tokens[0] not in keys and table.tokens[1] not in keys


@pytest.mark.redis
async def test_processes_share_budgets_in_redis(redis_url: str, channel_prefix: str) -> None:
    # Counters in Redis go by Redis's clock, which no test can stop: a day's window, so that the
    # four requests cannot straddle the end of a window (after it the earlier three weigh less than 3).
    options = limited(rate_limit_create_per_ip="3/day", rate_limit_storage_url=redis_url)
    options["broadcast_prefix"] = channel_prefix
    async with started("memory://", **options) as (_, a), started("memory://", **options) as (_, b):
        replies = [await create(a, "yutaka", 2), await create(b, "yutaka", 2), await create(a, "yutaka", 2)]
        assert [r.status_code for r in replies] == [201, 201, 201]
        assert refused(await create(b, "yutaka", 2), window=86_400)


async def test_an_unreachable_counter_store_lets_requests_pass(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING, "app.ratelimit")
    options = limited(rate_limit_create_per_ip="1/minute", rate_limit_storage_url="redis://127.0.0.1:1/0")
    async with started("memory://", **options) as (_, client):
        assert all([(await create(client, "yutaka", 2)).status_code == 201 for _ in range(3)])
    warnings = [r for r in caplog.records if r.name == "app.ratelimit"]
    assert len(warnings) == 1 and "unavailable" in warnings[0].getMessage()


def test_malformed_limits_are_refused_at_start() -> None:
    with pytest.raises(pydantic.ValidationError):
        Settings(rate_limit_create_per_ip="lots")
    assert Settings(rate_limit_create_per_ip="none").rate_limit_create_per_ip == "none"
