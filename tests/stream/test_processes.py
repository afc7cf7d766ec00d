"""Real uvicorn processes: streams across two processes (PostgreSQL and Redis broadcasters), and
graceful shutdown (SIGTERM → every stream closes with 1001, then resumes elsewhere with `after`)."""

from __future__ import annotations

import random
from pathlib import Path

import httpx
import pytest

from app.api.closes import Close
from tests.api.helpers import Table, new_table
from tests.stream.helpers import Reader, check_server_frame
from tests.stream.servers import RealSocket, serving
from tests.stream.test_protocol import step

pytestmark = pytest.mark.slow


@pytest.fixture(
    params=[
        pytest.param("postgres", marks=pytest.mark.postgres),
        pytest.param("redis", marks=[pytest.mark.postgres, pytest.mark.redis]),
    ]
)
def shared_env(request: pytest.FixtureRequest, postgres_url: str, channel_prefix: str) -> dict[str, str]:
    """One PostgreSQL database for both processes, and the broadcaster of the parameter."""
    broadcast = postgres_url if request.param == "postgres" else request.getfixturevalue("redis_url")
    return {
        "DATABASE_URL": postgres_url,
        "DRAGO_BROADCAST_URL": broadcast,
        "DRAGO_BROADCAST_PREFIX": channel_prefix,
    }


async def test_streams_on_one_process_see_actions_on_another(
    tmp_path: Path, shared_env: dict[str, str]
) -> None:
    # One after the other: the first runs the migrations, the second finds them done.
    async with (
        serving(tmp_path, "a", shared_env, uvicorn_cli=True) as a,
        serving(tmp_path, "b", shared_env, uvicorn_cli=True) as b,
        httpx.AsyncClient(base_url=b.url) as client_b,
    ):
        table = await new_table(client_b, "mount_drago", 3, seed="two-processes")
        rng = random.Random(7)
        async with (
            RealSocket(a, table.match_id, token=table.tokens[0], after=0, views=True) as seat_on_a,
            RealSocket(a, table.match_id, spectate=True, after=0) as spectator_on_a,
            RealSocket(b, table.match_id, token=table.tokens[1]) as seat1_on_b,
        ):
            readers = [Reader(seat_on_a, "seat 0 on A"), Reader(spectator_on_a, "spectator on A")]
            actor = Reader(seat1_on_b, "seat 1 on B")
            await actor.wait_for(lambda fs: bool(fs), "hello")
            final = await play_some(table, actor, rng, steps=40)
            for reader in readers:
                await reader.wait_for_seq(final)
            for reader, seat in zip(readers, (0, None), strict=True):
                assert reader.seqs() == list(range(1, final + 1)), reader.name
                assert reader.events() == (await table.events(seat, limit=1000))[:final]
                for frame in reader.frames:
                    check_server_frame(frame)
                    if frame["type"] == "commit":  # one frame per commit, on the other process too
                        assert {e["commit"] for e in frame["events"]} == {frame["seq"]}
            for reader in [*readers, actor]:
                await reader.stop()


async def play_some(table: Table, actor: Reader, rng: random.Random, steps: int) -> int:
    """Random legal actions (seat 1's over its socket, the others over HTTP); returns the seq."""
    sent = 0
    seq = 0
    for _ in range(steps):
        summary = await table.summary()
        if summary["status"] == "finished":
            break
        seat = rng.choice(summary["to_act"])
        if seat == 1:
            view = await table.view(1)
            sent += 1
            await actor.ws.send({"type": "action", "id": sent, "action": rng.choice(view["legal_actions"])})
            await actor.wait_for(lambda fs, n=sent: any(f.get("id") == n for f in fs), "ack")  # type: ignore[misc]
            (reply,) = [f for f in actor.frames if f.get("id") == sent]
            assert reply["type"] == "ack", reply
            seq = reply["seq"]
        else:
            seq = await step(table, rng)
    return seq


async def test_sigterm_closes_streams_with_going_away_and_they_resume_elsewhere(
    tmp_path: Path, shared_env: dict[str, str]
) -> None:
    async with (
        serving(tmp_path, "b", shared_env) as b,
        httpx.AsyncClient(base_url=b.url) as client_b,
    ):
        table = await new_table(client_b, "yutaka", 2, seed="going-away")
        rng = random.Random(8)
        for _ in range(3):
            await step(table, rng)
        async with serving(tmp_path, "a", shared_env) as a:
            async with RealSocket(a, table.match_id, token="not a token") as bad:
                assert (await bad.recv())["error"]["code"] == "unauthorized"
                assert (await bad.closed()).code == Close.UNAUTHORIZED
            async with RealSocket(a, "0" * 32, spectate=True) as unknown:
                assert (await unknown.closed()).code == Close.NOT_FOUND
            streaming = RealSocket(a, table.match_id, token=table.tokens[0], after=0)
            handshaking = RealSocket(a, table.match_id)  # has not sent its auth frame
            async with streaming, handshaking:
                reader = Reader(streaming, "seat 0 on A")
                seen = (await table.summary())["seq"]
                await reader.wait_for_seq(seen)
                a.terminate()  # SIGTERM, as a container platform stops the process
                assert (await reader.wait_for_close()).code == Close.GOING_AWAY
                assert (await handshaking.closed()).code == Close.GOING_AWAY
                await reader.stop()
            await a.wait()
            last = reader.seqs()[-1]
        for _ in range(3):
            await step(table, rng)
        head = (await table.summary())["seq"]
        async with RealSocket(b, table.match_id, token=table.tokens[0], after=last) as again:
            hello = await again.recv()
            assert hello["after"] == last and hello["seq"] == head
            rest: list[int] = []
            while not rest or rest[-1] < head:
                frame = await again.recv()
                if frame["type"] == "commit":
                    rest.extend(e["seq"] for e in frame["events"])
        assert reader.seqs() + rest == list(range(1, head + 1))
