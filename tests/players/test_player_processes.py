"""Players on real server processes: the personal stream announces each turn once across a
reconnect from one process to another (PostgreSQL, each broadcaster), and the Python client's
example bot, holding nothing but a player key, finishes 20 concurrent matches.
"""

from __future__ import annotations

import asyncio
import json
import random
import sys
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.api.helpers import Table, create, join
from tests.players.support import bearer, expected_turns, my_matches, new_player
from tests.players.test_players_http import play_a_turn
from tests.stream.servers import ROOT, RealSocket, Server, serving

pytestmark = [pytest.mark.slow, pytest.mark.postgres]

GUARD = 300.0  # seconds: a hang guard for a bot playing 20 matches, never an expectation of speed


@pytest.fixture(
    params=[
        pytest.param("postgres", marks=pytest.mark.postgres),
        pytest.param("redis", marks=[pytest.mark.postgres, pytest.mark.redis]),
    ]
)
def shared_env(request: pytest.FixtureRequest, postgres_url: str, channel_prefix: str) -> dict[str, str]:
    broadcast = postgres_url if request.param == "postgres" else request.getfixturevalue("redis_url")
    return {
        "DATABASE_URL": postgres_url,
        "DRAGO_BROADCAST_URL": broadcast,
        "DRAGO_BROADCAST_PREFIX": channel_prefix,
    }


async def notices(socket: RealSocket, until: int) -> list[Any]:
    frames: list[Any] = []
    while not frames or frames[-1]["cursor"] < until:
        frame = await socket.recv()
        if frame["type"] == "notice":
            frames.append(frame)
    return frames


async def head(server: Server, key: str) -> int:
    async with RealSocket(server, None, token=key) as probe:
        cursor: int = (await probe.recv())["cursor"]
    return cursor


async def test_each_turn_is_announced_once_across_a_reconnect_to_another_process(
    tmp_path: Path, shared_env: dict[str, str]
) -> None:
    rng = random.Random(12)
    async with (
        serving(tmp_path, "a", shared_env) as a,
        serving(tmp_path, "b", shared_env) as b,
        httpx.AsyncClient(base_url=a.url) as on_a,
        httpx.AsyncClient(base_url=b.url) as on_b,
    ):
        _, key = await new_player(on_a, "Ada")
        tables: list[Table] = []
        async with RealSocket(a, None, token=key, after=0) as personal:  # Ada follows on A …
            assert (await personal.recv())["type"] == "hello"
            for i in range(6):  # … while everything happens on B
                created = (await create(on_b, "mount_drago", 2, options={"first_player": i % 2})).json()
                table = Table(on_b, created["id"], 2, {0: key})
                await join(on_b, table.match_id, 0, "Ada", key=key)
                table.tokens[1] = (await join(on_b, table.match_id, 1, "Bo")).json()["token"]
                tables.append(table)
            for table in tables:
                for seat in (await table.summary())["to_act"]:
                    await play_a_turn(table, seat, rng)
            first = await notices(personal, await head(b, key))
        for table in tables[:3]:  # … away meanwhile
            for seat in (await table.summary())["to_act"]:
                await play_a_turn(table, seat, rng)
        async with RealSocket(b, None, token=key, after=first[-1]["cursor"]) as again:  # back, on B
            hello = await again.recv()
            assert hello["after"] == first[-1]["cursor"]
            rest = await notices(again, hello["cursor"])
        frames = first + rest
        assert [f["cursor"] for f in frames] == list(range(1, len(frames) + 1))  # no gap, no repeat
        turns = sorted(
            (f["notice"]["match_id"], f["notice"]["seq"])
            for f in frames
            if f["notice"]["type"] == "your_turn"
        )
        expected = []
        for table in tables:
            expected += [(table.match_id, seq) for seq in await expected_turns(on_a, table.match_id, key)]
        assert turns == sorted(expected) and len(set(turns)) == len(turns)
        assert sum(f["notice"]["type"] == "match_started" for f in frames) == len(tables)


async def test_a_bot_with_only_a_player_key_finishes_twenty_concurrent_matches(
    tmp_path: Path, postgres_url: str, channel_prefix: str
) -> None:
    env = {
        "DATABASE_URL": postgres_url,
        "DRAGO_BROADCAST_URL": postgres_url,
        "DRAGO_BROADCAST_PREFIX": channel_prefix,
    }
    async with (
        serving(tmp_path, "a", env) as a,
        serving(tmp_path, "b", env) as b,
        httpx.AsyncClient(base_url=b.url) as client,
    ):
        _, key = await new_player(client, "Bot author")
        ids = []
        for i in range(20):  # half of each game; seat 1 a server bot; either seat may start
            game = "yutaka" if i % 2 else "mount_drago"
            created = await create(client, game, 2, bots=[{"seat": 1, "level": "random"}])
            assert created.status_code == 201, created.text
            ids.append(created.json()["id"])
            assert (await join(client, ids[-1], 0, "Bot author", key=key)).status_code == 201
        command = [
            sys.executable,
            "-m",
            "drago_client.bot",
            "--url",
            a.url,
            "--key",
            key,
            "--until-done",
            "--seed",
            "1",
        ]
        log = tmp_path / "bot.log"
        with log.open("wb") as out:
            bot = await asyncio.create_subprocess_exec(
                *command, stdout=out, stderr=asyncio.subprocess.STDOUT, cwd=ROOT
            )
            try:
                code = await asyncio.wait_for(bot.wait(), GUARD)
            finally:
                if bot.returncode is None:
                    bot.kill()
                    await bot.wait()
        output = log.read_text(errors="replace")
        assert code == 0, output
        assert sorted(json.loads(output.splitlines()[-1])["played"]) == sorted(ids)
        finished = await my_matches(client, key, status="finished")
        assert sorted(i["match"]["id"] for i in finished) == sorted(ids)
        for match_id in ids:  # the bot made every decision of its seat itself, over HTTP
            events = (await client.get(f"/v1/matches/{match_id}/events", params={"limit": 1000})).json()[
                "events"
            ]
            assert "turn_timed_out" not in {e["type"] for e in events}
            summary = (await client.get(f"/v1/matches/{match_id}")).json()
            assert summary["status"] == "finished" and not summary["seats"][0]["bot"]
        assert await my_matches(client, key, status="active") == []
        assert (await client.get("/v1/players/me", headers=bearer(key))).status_code == 200
