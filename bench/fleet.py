"""Capacity of one process, and of two against one, run by hand (the figures in docs/deploy.md).

- idle: one server (`python -m app`, pinned to core 0) with `--idle` spectator streams (10,000)
  spread over 100 waiting matches: its resident memory before and after they connected, and its
  CPU share over `--seconds` of silence (heartbeats only, every 20 s).
- active: the same server with `--active` (1,000) all-bot Mount Drago matches being played at once
  (random-level bots in the server's bot runner), each followed by one spectator stream: commit
  frames delivered per second, CPU share and memory over `--seconds`.
- fleet: `--clients` (40) HTTP clients each playing a Yutakâ match seat by seat (view, then action)
  for `--seconds`, against one server, then against two (the clients split between them, both on
  the same database and Redis broadcast, each server pinned to its own core): actions per second.

PostgreSQL from `--database` (a throwaway database is created in it), Redis from `--redis`.
This client pins itself to core 1. The machine is shared: quote the load average printed with it.

    python -m bench.fleet --database postgresql://postgres@127.0.0.1:5432/test --redis redis://127.0.0.1:6379/0
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import resource
import signal
import socket
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from pathlib import Path
from tempfile import TemporaryDirectory

import httpx

from bench.proc import cpu_seconds, rss_bytes
from bench.stream import close_all, create_match, subscribe, throwaway_database, view_to_act

ROOT = Path(__file__).resolve().parent.parent
GUARD = 120.0


class Server:
    def __init__(self, name: str, core: int, env: dict[str, str], log_dir: Path) -> None:
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            self.port: int = sock.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        base = {k: v for k, v in os.environ.items() if not k.startswith("DRAGO_") and k != "DATABASE_URL"}
        settings = {
            "DRAGO_HOST": "127.0.0.1",
            "DRAGO_PORT": str(self.port),
            "DRAGO_RATE_LIMIT_ENABLED": "0",
            "DRAGO_LOG_LEVEL": "WARNING",
            "DRAGO_BOT_WORKERS": "0",
            "DRAGO_DEV_FEATURES": "1",
        }
        self.log = log_dir / f"{name}.log"
        with self.log.open("wb") as out:
            self.proc = subprocess.Popen(
                ["taskset", "-c", str(core), sys.executable, "-m", "app"],
                env={**base, **settings, **env},
                stdout=out,
                stderr=subprocess.STDOUT,
                cwd=ROOT,
            )

    async def ready(self) -> None:
        async with httpx.AsyncClient(base_url=self.url) as client:
            deadline = time.monotonic() + GUARD
            while time.monotonic() < deadline:
                if self.proc.poll() is not None:
                    raise RuntimeError(self.log.read_text()[-3000:])
                with contextlib.suppress(httpx.TransportError):
                    if (await client.get("/readyz")).status_code == 200:
                        return
                await asyncio.sleep(0.1)
        raise RuntimeError("server did not start")

    async def stop(self) -> None:
        self.proc.send_signal(signal.SIGTERM)
        await asyncio.to_thread(self.proc.wait, GUARD)


@contextlib.asynccontextmanager
async def servers(n: int, env: dict[str, str], log_dir: Path) -> AsyncIterator[list[Server]]:
    started = []
    try:
        for i in range(n):
            server = Server(f"s{i}", i % (os.cpu_count() or 1), env, log_dir)
            started.append(server)
            await server.ready()  # one after the other: the first migrates
        yield started
    finally:
        for server in started:
            await server.stop()


async def window(server: Server, seconds: float) -> tuple[float, int]:
    """CPU share (of one core) of `server` over `seconds`, and its RSS at the end."""
    before = cpu_seconds(server.proc.pid)
    await asyncio.sleep(seconds)
    return (cpu_seconds(server.proc.pid) - before) / seconds, rss_bytes(server.proc.pid)


async def idle(server: Server, subscribers: int, seconds: float) -> None:
    async with httpx.AsyncClient(base_url=server.url, timeout=GUARD) as client:
        ids = [(await create_match(client, {"game": "yutaka", "players": 2}, ()))[0] for _ in range(100)]
    paths = [f"/v1/matches/{ids[i % len(ids)]}/stream?spectate=1" for i in range(subscribers)]
    await asyncio.sleep(1)
    rss0 = rss_bytes(server.proc.pid)
    subs = await subscribe(server.port, paths, None)
    cpu, rss1 = await window(server, seconds)
    close_all(subs)
    print(
        f"idle: {subscribers} spectator streams on 100 matches: RSS {rss0 / 2**20:.0f} MiB → "
        f"{rss1 / 2**20:.0f} MiB ({(rss1 - rss0) / subscribers / 1024:.1f} KiB per stream); "
        f"CPU {cpu * 100:.1f}% of a core over {seconds:.0f} s"
    )


async def active(server: Server, matches: int, seconds: float) -> None:
    body = {
        "game": "mount_drago",
        "players": 2,
        "bots": [{"seat": 0, "level": "random"}, {"seat": 1, "level": "random"}],
    }
    async with httpx.AsyncClient(base_url=server.url, timeout=GUARD) as client:
        ids = [(await create_match(client, body, ()))[0] for _ in range(matches)]
    subs = await subscribe(server.port, [f"/v1/matches/{m}/stream?spectate=1" for m in ids], None)
    frames0 = sum(len(s.events) for s in subs)
    cpu, rss = await window(server, seconds)
    frames = sum(len(s.events) for s in subs) - frames0
    close_all(subs)
    print(
        f"active: {matches} all-bot matches, one stream each: {frames / seconds:.0f} commit frames/s, "
        f"CPU {cpu * 100:.0f}% of a core, RSS {rss / 2**20:.0f} MiB"
    )


async def player(url: str, seconds: float, rng: random.Random, counts: list[int]) -> None:
    async with httpx.AsyncClient(base_url=url, timeout=GUARD) as client:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            match_id, tokens = await create_match(client, {"game": "yutaka", "players": 2}, (0, 1))
            while time.monotonic() < deadline:
                view = await view_to_act(client, match_id, tokens)
                if view is None:
                    break
                r = await client.post(
                    f"/v1/matches/{match_id}/actions",
                    json={"action": rng.choice(view["legal_actions"]), "expected_seq": view["seq"]},
                    headers={"Authorization": f"Bearer {tokens[view['seat']]}"},
                )
                counts[0] += r.status_code == 200


async def fleet(env: dict[str, str], log_dir: Path, n: int, clients: int, seconds: float) -> float:
    async with servers(n, env, log_dir) as running:
        counts = [0]
        rng = random.Random(n)
        await asyncio.gather(
            *(
                player(running[i % n].url, seconds, random.Random(rng.random()), counts)
                for i in range(clients)
            )
        )
        return counts[0] / seconds


async def run(args: argparse.Namespace) -> None:
    with contextlib.suppress(OSError):
        os.sched_setaffinity(0, {1})
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    print(f"cores {os.cpu_count()}, load average {os.getloadavg()[0]:.1f} (a shared machine)")
    with TemporaryDirectory() as tmp:
        log_dir = Path(tmp)
        async with throwaway_database(args.database) as url:
            env = {"DATABASE_URL": url, "DRAGO_BROADCAST_URL": args.redis}
            if args.idle:
                async with servers(1, env, log_dir) as (server,):
                    await idle(server, args.idle, args.seconds)
            if args.active:
                async with servers(1, env, log_dir) as (server,):
                    await active(server, args.active, args.seconds)
        if args.clients:
            async with throwaway_database(args.database) as url:
                env = {"DATABASE_URL": url, "DRAGO_BROADCAST_URL": args.redis}
                one = await fleet(env, log_dir, 1, args.clients, args.seconds)
                two = await fleet(env, log_dir, 2, args.clients, args.seconds)
            print(
                f"fleet: {args.clients} HTTP players: one process {one:.0f} actions/s, two processes "
                f"{two:.0f} actions/s ({two / one:.2f}×), load average {os.getloadavg()[0]:.1f}"
            )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--database", default=os.environ.get("TEST_DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/test")
    )
    parser.add_argument("--redis", default=os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/0"))
    parser.add_argument("--idle", type=int, default=10_000, help="idle streams (0: skip)")
    parser.add_argument("--active", type=int, default=1_000, help="active all-bot matches (0: skip)")
    parser.add_argument(
        "--clients", type=int, default=40, help="HTTP players for one vs two processes (0: skip)"
    )
    parser.add_argument("--seconds", type=float, default=20.0, help="each measurement window")
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
