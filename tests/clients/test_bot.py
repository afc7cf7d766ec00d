"""The example bot, `python -m drago_client.bot`, as a process against real servers: seat bots and a
player-key bot finish matches, also when the server restarts in the middle of one."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from contextlib import aclosing
from typing import Any

import pytest
from drago_client import AsyncClient
from drago_client.bot import RandomBot

from tests.clients.servers import ROOT, ServerProcess
from tests.clients.support import seated

pytestmark = pytest.mark.slow
GUARD = 180.0  # seconds: a hang guard only


class BotProcess:
    """`python -m drago_client.bot …` in a subprocess; `finish()` waits for it and reads its output."""

    def __init__(self, proc: asyncio.subprocess.Process) -> None:
        self.proc = proc
        self.guard = GUARD

    @classmethod
    async def start(cls, url: str, *args: str) -> BotProcess:
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "drago_client.bot", "--url", url, *args,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE, cwd=ROOT, env=dict(os.environ),
        )  # fmt: skip
        return cls(proc)

    async def finish(self) -> Any:
        try:
            out, err = await asyncio.wait_for(self.proc.communicate(), self.guard)
        except BaseException:  # a hang, or the test failing: no process (nor its pipes) left behind
            self.proc.kill()
            await self.proc.wait()
            raise
        assert self.proc.returncode == 0, err.decode(errors="replace")[-3000:]
        return json.loads(out.decode().strip().splitlines()[-1])


@pytest.mark.parametrize("game", ["mount_drago", "yutaka"])
async def test_two_seat_bots_play_a_match_to_the_end(server: ServerProcess, game: str) -> None:
    async with AsyncClient(server.url) as api:
        match_id, tokens = await seated(api, game)
    bots = [
        await BotProcess.start(server.url, "--match", match_id, "--token", token, "--seed", f"{game}{seat}")
        for seat, token in tokens.items()
    ]
    finals = [await bot.finish() for bot in bots]
    for final in finals:
        assert final["id"] == match_id and final["status"] == "finished" and final["winners"]
    assert finals[0]["seq"] == finals[1]["seq"]


async def test_a_player_bot_plays_every_match_it_holds_a_seat_in(server: ServerProcess) -> None:
    async with AsyncClient(server.url) as api:
        player = await api.create_player("Bot")
        matches, opponents = [], []
        for i in range(3):
            match = await api.create_match("yutaka", 2)
            await api.join_seat(match.id, i % 2, "Bot", token=player.key)  # it plays first in some
            other = await api.join_seat(match.id, 1 - i % 2, f"Rival {i}")
            matches.append(match.id)
            opponents.append(asyncio.create_task(RandomBot(api, seed=i).play_seat(match.id, other.token)))
        try:
            bot = await BotProcess.start(server.url, "--key", player.key, "--until-done", "--seed", "p")
            result = await bot.finish()
            finals = await asyncio.wait_for(asyncio.gather(*opponents), GUARD)
        finally:  # on a failure, the opponents' streams close now, not when collected
            for opponent in opponents:
                opponent.cancel()
            await asyncio.gather(*opponents, return_exceptions=True)
    assert sorted(result["played"]) == sorted(matches)
    assert all(f.status == "finished" for f in finals)


async def test_bots_finish_a_match_across_a_server_restart(sqlite_server: ServerProcess) -> None:
    sqlite_server.start()
    async with AsyncClient(sqlite_server.url) as api:
        player = await api.create_player("Key bot")
        match = await api.create_match("mount_drago", 2)
        seat0 = await api.join_seat(match.id, 0, "Token bot")
        await api.join_seat(match.id, 1, "Key bot", token=player.key)
        slow = ("--delay", "0.02")
        bots = [
            await BotProcess.start(sqlite_server.url, "--match", match.id, "--token", seat0.token, *slow),
            await BotProcess.start(sqlite_server.url, "--key", player.key, "--until-done", *slow),
        ]
        async with asyncio.timeout(GUARD), aclosing(api.follow(match.id, after=0, views=False)) as commits:
            async for commit in commits:
                if commit.seq >= 12:  # well into the game: restart the server under the bots
                    break
        mid = await api.get_match(match.id)
        await asyncio.to_thread(sqlite_server.restart)
        token_bot, key_bot = [await bot.finish() for bot in bots]
        final = await api.get_match(match.id)
    assert mid.status == "active" and final.status == "finished" and final.seq > mid.seq
    assert token_bot["status"] == "finished" and token_bot["seq"] == final.seq
    assert key_bot["played"] == [match.id]
    assert sqlite_server.starts == 2


def test_the_bot_needs_a_token_or_a_key() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "drago_client.bot", "--match", "m"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2 and "--key" in done.stderr
