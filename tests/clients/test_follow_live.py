"""`follow` and `follow_player` against real server processes: every commit (notice) exactly once,
in order, while clients play — and across a restart of the server (SIGTERM, then a new process on
the same SQLite file), which closes every stream with 1001."""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import AsyncGenerator
from contextlib import aclosing

import pytest
from drago_client import AsyncClient, decode, models
from drago_client.games import common, mount_drago
from websockets.asyncio.client import connect

from tests.clients.servers import ServerProcess
from tests.clients.support import play_out, seated

pytestmark = pytest.mark.slow
GUARD = 120.0  # seconds: a hang guard only


async def collect(stream: AsyncGenerator[models.CommitFrame, None]) -> list[models.CommitFrame]:
    async with aclosing(stream) as frames:  # its socket closes here, also when cancelled: not at GC
        return [frame async for frame in frames]


def seqs(commits: list[models.CommitFrame]) -> list[int]:
    return [event.seq for commit in commits for event in commit.events]


async def play_steps(
    api: AsyncClient, match_id: str, tokens: dict[int, str], rng: random.Random, n: int
) -> int:
    """`n` random legal actions (or fewer, if the match ends); the match's seq after them."""
    summary = await api.get_match(match_id)
    for _ in range(n):
        if summary.status != "active":
            break
        seat = summary.to_act[0]
        view = await api.get_view(match_id, token=tokens[seat])
        await api.submit_action(
            match_id, rng.choice(view.legal_actions), expected_seq=view.seq, token=tokens[seat]
        )
        summary = await api.get_match(match_id)
    return summary.seq


async def test_followers_see_every_commit_once_while_a_match_is_played(server: ServerProcess) -> None:
    async with AsyncClient(server.url) as api:
        match_id, tokens = await seated(api, "mount_drago", 3)
        seat0 = asyncio.create_task(collect(api.follow(match_id, tokens[0])))
        spectator = asyncio.create_task(collect(api.follow(match_id, after=0)))
        await asyncio.sleep(0.2)  # let the seat's follower connect before the first action
        final = await play_out(api, match_id, tokens, random.Random(3))
        seen0, seen_spectator = await asyncio.wait_for(asyncio.gather(seat0, spectator), GUARD)
    assert seqs(seen_spectator) == list(range(1, final.seq + 1))
    assert seqs(seen0) == list(range(seqs(seen0)[0], final.seq + 1))
    assert all(e.seq <= c.seq and e.commit == c.seq for c in seen0 for e in c.events)
    last = seen0[-1]
    assert isinstance(last.view, mount_drago.View) and last.view.status == "finished" and last.view.seat == 0
    assert isinstance(last.events[-1].data, common.MatchEnded)
    started = next(e.data for c in seen_spectator for e in c.events if e.type == "game_started")
    assert isinstance(started, mount_drago.GameStartedRedacted) and all(h is None for h in started.hands)


async def test_a_follower_survives_a_restart_with_no_gap_and_no_repeat(sqlite_server: ServerProcess) -> None:
    sqlite_server.start()
    rng = random.Random("restart")
    async with AsyncClient(sqlite_server.url) as api:
        match_id, tokens = await seated(api, "yutaka")
        seat1 = asyncio.create_task(collect(api.follow(match_id, tokens[1], after=0)))
        spectator = asyncio.create_task(collect(api.follow(match_id, after=0, views=False)))
        before = await play_steps(api, match_id, tokens, rng, 12)
        await asyncio.to_thread(sqlite_server.restart)  # both streams close with 1001, then resume
        final = await play_out(api, match_id, tokens, rng)
        followed = await asyncio.wait_for(asyncio.gather(seat1, spectator), GUARD)
        history = await api.list_events(match_id, token=tokens[1], limit=1000)
    assert sqlite_server.starts == 2 and 1 < before < final.seq
    for commits in followed:
        assert seqs(commits) == list(range(1, final.seq + 1))
    assert [e.data for c in followed[0] for e in c.events] == [e.data for e in history.events]


async def test_a_player_follower_survives_a_restart(sqlite_server: ServerProcess) -> None:
    sqlite_server.start()
    rng = random.Random("player")
    async with AsyncClient(sqlite_server.url) as api:
        player = await api.create_player("Ada")
        matches: list[tuple[str, dict[int, str]]] = []
        for _ in range(2):
            match = await api.create_match("yutaka", 2)
            await api.join_seat(match.id, 0, "Ada", token=player.key)
            other = await api.join_seat(match.id, 1, "Bo")
            matches.append((match.id, {0: player.key, 1: other.token}))
        notices: list[models.NoticeFrame] = []
        all_ended = asyncio.Event()

        async def listen() -> None:
            async with aclosing(api.follow_player(player.key, after=0)) as frames:
                async for frame in frames:
                    notices.append(frame)
                    if sum(n.notice.type == "match_ended" for n in notices) == len(matches):
                        all_ended.set()

        listener = asyncio.create_task(listen())
        for match_id, tokens in matches:
            await play_steps(api, match_id, tokens, rng, 8)
        await asyncio.to_thread(sqlite_server.restart)
        for match_id, tokens in matches:
            await play_out(api, match_id, tokens, rng)
        await asyncio.wait_for(all_ended.wait(), GUARD)
        await asyncio.sleep(0.2)  # a notice too many would arrive now
        listener.cancel()
        await asyncio.gather(listener, return_exceptions=True)  # its socket closes now, not at GC
        cursor = await _cursor_now(api, player.key)
    assert [n.cursor for n in notices] == list(range(1, cursor + 1))
    assert {n.notice.match_id for n in notices} == {m for m, _ in matches}


async def _cursor_now(api: AsyncClient, key: str) -> int:
    async with aclosing(api.follow_player(key, hellos=True)) as frames:  # closed on return, not at GC
        async for hello in frames:
            assert isinstance(hello, models.PlayerHelloFrame)
            return hello.cursor
    raise AssertionError("no hello")


async def test_every_frame_decodes_strictly(server: ServerProcess) -> None:
    """Frames as the server sends them (read raw) match the generated types member for member."""
    async with AsyncClient(server.url) as api:
        player = await api.create_player("Ada")
        match = await api.create_match("mount_drago", 2)
        await api.join_seat(match.id, 0, "Ada", token=player.key)
        other = await api.join_seat(match.id, 1, "Bo")
        tokens = {0: player.key, 1: other.token}
        await play_out(api, match.id, tokens, random.Random(9))
        base = server.url.replace("http", "ws")
        headers = {"Authorization": f"Bearer {player.key}"}
        # max_queue=None: this test reads only the first frames, and a full queue would make the
        # close wait for its timeout (the server cannot send its close behind unread frames).
        async with connect(
            f"{base}/v1/matches/{match.id}/stream?after=0&views=1", additional_headers=headers, max_queue=None
        ) as ws:
            frames = [json.loads(await ws.recv()) for _ in range(2)]
        async with connect(
            f"{base}/v1/players/me/stream?after=0", additional_headers=headers, max_queue=None
        ) as ws:
            notices = [json.loads(await ws.recv()) for _ in range(3)]
    assert [f["type"] for f in frames] == ["hello", "commit"] and notices[0]["type"] == "hello"
    for frame in frames:
        decode(models.ServerFrame, frame, strict=True)
    for frame in notices:
        decode(models.PlayerServerFrame, frame, strict=True)
