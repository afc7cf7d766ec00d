"""Turn clocks on real server processes: two `python -m app` processes on one PostgreSQL database,
each with its own sweeper and bot runner (the broadcaster PostgreSQL or Redis); nobody sends
anything, and each deadline is fired exactly once, the bot's decision right after it. Then SIGKILL
while a deadline is due: the restarted processes fire it once.

The waits are hang guards on real time (a 1-second clock must run out); nothing asserts a duration.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
import pytest

from app.matches.events import RESERVED_TAGS
from tests.api.helpers import Table, eventually, join, new_table
from tests.lifecycle.support import commits, kinds
from tests.stream.helpers import Reader, check_server_frame
from tests.stream.servers import RealSocket, serving

pytestmark = pytest.mark.slow

GUARD = 120.0
SWEEP = {"DRAGO_SWEEP_INTERVAL_SECONDS": "0.2"}


@pytest.fixture(
    params=[
        pytest.param("postgres", marks=pytest.mark.postgres),
        pytest.param("redis", marks=[pytest.mark.postgres, pytest.mark.redis]),
    ]
)
def shared_env(request: pytest.FixtureRequest, postgres_url: str, channel_prefix: str) -> dict[str, str]:
    """One PostgreSQL database for the processes, and the broadcaster of the parameter."""
    broadcast = postgres_url if request.param == "postgres" else request.getfixturevalue("redis_url")
    return {
        "DATABASE_URL": postgres_url,
        "DRAGO_BROADCAST_URL": broadcast,
        "DRAGO_BROADCAST_PREFIX": channel_prefix,
    }


def decided_for(group: list[Any], seat: int) -> bool:
    """A commit of game events only, the decision of `seat`."""
    return not RESERVED_TAGS & set(kinds(group)) and group[0]["data"]["seat"] == seat


def check_timeouts_fired_once(log: list[Any]) -> list[list[Any]]:
    """Every timeout commit holds one `turn_timed_out` and is followed at once by the decision a bot
    made for that seat (a timeout is never fired twice, nor left without its decision); returns the
    timeout commits."""
    groups = commits(log)
    fired = []
    for i, group in enumerate(groups):
        if "turn_timed_out" not in kinds(group):
            continue
        assert kinds(group).count("turn_timed_out") == 1, group
        seat = group[0]["data"]["seat"]
        assert decided_for(groups[i + 1], seat), (group, groups[i + 1])
        fired.append(group)
    return fired


async def finished(table: Table) -> Any:
    async def check() -> Any:
        summary = await table.summary()
        return summary if summary["status"] == "finished" else None

    return await eventually(check, f"the end of match {table.match_id}", GUARD)


@contextlib.asynccontextmanager
async def two_servers(tmp_path: Path, env: dict[str, str]) -> AsyncIterator[tuple[Any, Any]]:
    # One after the other: the first runs the migrations, the second finds them done.
    async with serving(tmp_path, "a", {**env, **SWEEP}) as a, serving(tmp_path, "b", {**env, **SWEEP}) as b:
        yield a, b


async def test_one_process_on_sqlite_fires_a_deadline_once_and_the_bot_decides(tmp_path: Path) -> None:
    """Also a waiting match expires (a short `DRAGO_WAITING_EXPIRY_SECONDS`), with nobody asking."""
    env = {
        "DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path / 'clock.db'}",
        "DRAGO_WAITING_EXPIRY_SECONDS": "2",
        **SWEEP,
    }
    async with serving(tmp_path, "one", env) as server, httpx.AsyncClient(base_url=server.url) as client:
        waiting = Table(
            client,
            (await client.post("/v1/matches", json={"game": "yutaka", "players": 2})).json()["id"],
            2,
            {},
        )
        table = await new_table(
            client, "mount_drago", 2, bots=[{"seat": 1, "level": "random"}],
            options={"first_player": 0}, clock={"per_decision_s": 1}, takeover_after=2,
        )  # fmt: skip
        final = await finished(table)
        fired = check_timeouts_fired_once(await table.history(None))
        assert [kinds(g) for g in fired] == [["turn_timed_out"], ["turn_timed_out", "seat_taken_over"]]
        assert final["winners"]
        expired = await eventually(lambda: _over(waiting), "the expiry", GUARD)
        assert expired["status"] == "aborted"
        assert (await waiting.types())[-2:] == ["match_aborted", "match_ended"]
        assert (await waiting.events(None))[-2]["data"] == {"type": "match_aborted", "reason": "expired"}


async def _over(table: Table) -> Any:
    summary = await table.summary()
    return summary if summary["status"] != "waiting" else None


@pytest.mark.postgres
async def test_two_processes_fire_each_deadline_once_and_the_bot_decides(
    tmp_path: Path, shared_env: dict[str, str]
) -> None:
    async with (
        two_servers(tmp_path, shared_env) as (a, b),
        httpx.AsyncClient(base_url=a.url) as client_a,
        httpx.AsyncClient(base_url=b.url) as client_b,
    ):
        table = await new_table(
            client_a, "mount_drago", 2, bots=[{"seat": 1, "level": "random"}],
            options={"first_player": 0}, clock={"per_decision_s": 1}, takeover_after=2,
        )  # fmt: skip
        async with (
            RealSocket(a, table.match_id, spectate=True, after=0) as on_a,
            RealSocket(b, table.match_id, spectate=True, after=0) as on_b,
        ):
            readers = [Reader(on_a, "spectator on A"), Reader(on_b, "spectator on B")]
            # Seat 0's person never acts: a bot decides twice after a timeout, then takes it over.
            final = await finished(table.on(client_b))
            log = await table.history(None)
            assert [e["seq"] for e in log] == list(range(1, final["seq"] + 1))
            fired = check_timeouts_fired_once(log)
            assert [kinds(g) for g in fired] == [["turn_timed_out"], ["turn_timed_out", "seat_taken_over"]]
            assert {g[0]["data"]["seat"] for g in fired} == {0}
            for reader in readers:  # both processes streamed every commit, once, in order
                await reader.wait_for_seq(final["seq"])
                assert reader.events() == log, reader.name
                for frame in reader.frames:
                    check_server_frame(frame)
                await reader.stop()


@pytest.mark.postgres
async def test_a_deadline_due_when_a_process_is_killed_fires_once_after_the_restart(
    tmp_path: Path, postgres_url: str, channel_prefix: str
) -> None:
    env = {
        "DATABASE_URL": postgres_url,
        "DRAGO_BROADCAST_URL": postgres_url,
        "DRAGO_BROADCAST_PREFIX": channel_prefix,
    }
    once = {**env, "DRAGO_SWEEP_INTERVAL_SECONDS": "3600"}  # sweeps at its start, then not for an hour
    async with serving(tmp_path, "doomed", once) as doomed, httpx.AsyncClient(base_url=doomed.url) as client:
        created = await client.post(
            "/v1/matches",
            json={
                "game": "mount_drago", "players": 2, "options": {"first_player": 0},
                "clock": {"per_decision_s": 1}, "takeover_after": 1,
            },
        )  # fmt: skip
        match_id = created.json()["id"]
        for seat in (0, 1):
            assert (await join(client, match_id, seat)).status_code == 201
        table = Table(client, match_id, 2, {})
        summary = await table.summary()
        deadline = datetime.fromisoformat(summary["clock"][0]["deadline"])
        while datetime.now(UTC) <= deadline:  # noqa: ASYNC110  # real time must pass the deadline
            await asyncio.sleep(0.1)
        await asyncio.sleep(0.3)
        assert "turn_timed_out" not in await table.types()  # due, and not fired: nobody swept since
        doomed.proc.kill()  # SIGKILL
        await doomed.wait()
    async with (
        two_servers(tmp_path, env) as (a, _),
        httpx.AsyncClient(base_url=a.url) as client,
    ):
        table = table.on(client)
        await finished(table)  # both seats time out once each, are taken over, and the bots finish
        fired = check_timeouts_fired_once(await table.history(None))
        assert [(g[0]["data"]["seat"], kinds(g)) for g in fired] == [
            (0, ["turn_timed_out", "seat_taken_over"]),
            (1, ["turn_timed_out", "seat_taken_over"]),
        ]
        assert fired[0][0]["seq"] == summary["seq"] + 1  # the deadline due at the kill, fired first
