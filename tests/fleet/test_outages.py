"""Outages under real server processes, on a PostgreSQL and a Redis of the test's own
(`tests.fleet.instances`: the machine's shared services are never stopped).

- PostgreSQL stopped: every request that needs it is answered 503 `unavailable` with `Retry-After`
  (never 500, never a hang: each request is under a hang guard), `/readyz` is 503, a live stream
  stays open (or closes 1013, reconnect with `after`); started again, the same process serves again
  without a restart and the stream delivers the next commit.
- Redis (the broadcast and the rate-limit counters) stopped: actions keep working (the limits fail
  open), a spectator on another process keeps receiving every commit exactly once and in order (the
  broadcaster polls the store), and when Redis is back fan-out resumes.

Waits are hang guards; nothing asserts a duration.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.api.helpers import Table, eventually, new_table
from tests.fleet.instances import own_postgres, own_redis
from tests.stream.helpers import Reader
from tests.stream.servers import RealSocket, Server, serving

pytestmark = [pytest.mark.slow]

GUARD = 60.0  # per request: an answer must come well within it


def fleet_env(database_url: str, redis_url: str) -> dict[str, str]:
    return {
        "DATABASE_URL": database_url,
        "DRAGO_BROADCAST_URL": redis_url,
        "DRAGO_RATE_LIMIT_ENABLED": "1",
        "DRAGO_RATE_LIMIT_STORAGE_URL": redis_url.rsplit("/", 1)[0] + "/1",
        "DRAGO_LOG_LEVEL": "INFO",
    }


def unavailable(r: httpx.Response) -> bool:
    assert r.status_code == 503, (r.status_code, r.text)
    assert r.json()["error"]["code"] == "unavailable", r.text
    assert int(r.headers["retry-after"]) > 0
    return True


async def yutaka_move(table: Table) -> tuple[int, httpx.Response]:
    summary = await table.summary()
    seat = summary["to_act"][0]
    view = await table.view(seat)
    return seat, await table.act(seat, view["legal_actions"][0], expected_seq=summary["seq"])


async def test_a_database_outage_answers_503_with_retry_after_and_the_server_recovers(tmp_path: Path) -> None:
    with own_postgres() as pg, own_redis() as redis:
        async with (
            serving(tmp_path, "a", fleet_env(pg.url, redis.url)) as a,
            httpx.AsyncClient(base_url=a.url, timeout=GUARD) as client,
        ):
            table = await new_table(client, "yutaka", 2)
            seat = (await table.summary())["to_act"][0]
            async with RealSocket(a, table.match_id, spectate=True, after=0) as ws:
                reader = Reader(ws, "spectator")
                await reader.wait_for(lambda fs: any(f["type"] == "hello" for f in fs), "hello")
                await asyncio.to_thread(pg.stop)
                assert (await client.get("/readyz")).status_code == 503
                assert (await client.get("/healthz")).status_code == 200  # alive, just not ready
                requests: list[Any] = [
                    client.get(table.url),
                    client.get(f"{table.url}/view", headers=table.auth(seat)),
                    client.get(f"{table.url}/view"),
                    client.get(f"{table.url}/events"),
                    client.get("/v1/matches", params={"status": "active"}),
                    client.post("/v1/matches", json={"game": "yutaka", "players": 2}),
                    client.post(f"{table.url}/seats/0", json={"name": "late"}),
                    client.post(
                        f"{table.url}/actions",
                        json={"action": {"type": "nothing"}},
                        headers={**table.auth(seat), "Idempotency-Key": "outage-1"},
                    ),
                ]
                for request in requests:
                    assert unavailable(await request)
                async with RealSocket(a, table.match_id, spectate=True, after=0) as refused:
                    closed = await refused.closed()  # a new stream cannot read the match: 1013
                    assert closed.code == 1013, closed
                await asyncio.to_thread(pg.start)

                async def ready() -> bool:
                    return (await client.get("/readyz")).status_code == 200

                await eventually(ready, "readiness after the outage", GUARD)
                seq = (await table.summary())["seq"]
                _, moved = await yutaka_move(table)
                assert moved.status_code == 200, moved.text
                if reader.closed is None:  # the documented choice: the stream stayed open
                    await reader.wait_for_seq(seq + 1)
                    assert reader.seqs() == list(range(1, reader.seqs()[-1] + 1))
                else:
                    assert reader.closed.code == 1013
                await reader.stop()
        assert "unhandled error" not in a.log.read_text()  # no 500 was contained anywhere


async def test_a_redis_outage_keeps_actions_and_streams_going_and_fan_out_resumes(tmp_path: Path) -> None:
    with own_postgres() as pg, own_redis() as redis:
        env = fleet_env(pg.url, redis.url)
        async with (
            serving(tmp_path, "a", env) as a,
            serving(tmp_path, "b", env) as b,
            httpx.AsyncClient(base_url=a.url, timeout=GUARD) as on_a,
        ):
            table = await new_table(on_a, "yutaka", 2)
            async with RealSocket(b, table.match_id, spectate=True, after=0) as ws:
                reader = Reader(ws, "spectator on B")
                seq = (await table.summary())["seq"]
                await reader.wait_for_seq(seq)
                redis.stop()
                for _ in range(3):  # actions on A, while the broadcast and the rate limits are down
                    _, moved = await yutaka_move(table)
                    assert moved.status_code == 200, moved.text
                    seq = moved.json()["seq"]
                    await reader.wait_for_seq(seq)  # B read the store: the stream did not go silent
                redis.start()

                async def listening(server: Server) -> bool:
                    return "redis listener restored" in server.log.read_text()

                await eventually(lambda: listening(b), "B's listener back on Redis", GUARD)
                for _ in range(2):
                    _, moved = await yutaka_move(table)
                    assert moved.status_code == 200, moved.text
                    seq = moved.json()["seq"]
                    await reader.wait_for_seq(seq)
                assert reader.closed is None
                assert reader.seqs() == list(range(1, seq + 1))  # every commit once, in order
                await reader.stop()
        for server in (a, b):
            text = server.log.read_text()
            assert "unhandled error" not in text
        assert "rate limit" in a.log.read_text().lower()  # the limits failed open, with a warning
