"""Chat fan-out: one match's messages to many spectators' streams, on two source trees side by side.

    python -m bench.chat_fanout A B [--store pg|sqlite|memory] [--spectators 100] [--messages 40]
                                    [--rounds 5]

Starts one server per tree as `bench.ab` does (`python -m app` with that tree first on
`PYTHONPATH`, pinned to core 0, each on its own fresh database; the chat's rate limit raised so
that one author may post every message). On each server: a match, `--spectators` anonymous
streams on it (`spectate=1`), and one player key without a seat that posts `--messages`
messages to the spectators' room, one after another, each once the previous one has reached
every stream. Rounds alternate A B, B A, …; each prints the server's CPU per message (all of its
streams' reads and frames) and the median time from the `POST` to the last stream's `chat`
frame, and the last line the medians over the pairs of B/A.
"""

from __future__ import annotations

import asyncio
import os
import statistics
import time
from dataclasses import dataclass, field
from typing import Any

import orjson

from bench.ab import tree_parser, trees
from bench.api import OurServer
from bench.chat_flood import match_and_author
from bench.proc import cpu_seconds


@dataclass
class Spectator:
    """An anonymous stream that counts its `chat` frames."""

    url: str
    seen: int = 0
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    task: asyncio.Task[None] | None = None
    ws: Any = None

    async def open(self) -> None:
        import websockets

        self.ws = await websockets.connect(self.url, compression=None, max_size=None)
        first = orjson.loads(await self.ws.recv())
        assert first["type"] == "hello", first
        self.task = asyncio.create_task(self._read())

    async def _read(self) -> None:
        async for raw in self.ws:
            if orjson.loads(raw)["type"] == "chat":
                self.seen += 1
                self.changed.set()

    async def until(self, count: int) -> None:
        while self.seen < count:
            self.changed.clear()
            await asyncio.wait_for(self.changed.wait(), 30)

    async def close(self) -> None:
        await self.ws.close()
        if self.task is not None:
            await self.task


async def one_run(port: int, pid: int, spectators: int, messages: int) -> tuple[float, float]:
    """A new match with its spectators; returns CPU µs per message and the median latency (ms)."""
    lobby, match, author = await match_and_author(port, "fan")
    url = f"ws://127.0.0.1:{port}/v1/matches/{match['id']}/stream?spectate=1"
    streams = [Spectator(url) for _ in range(spectators)]
    await asyncio.gather(*(s.open() for s in streams))
    latencies: list[float] = []
    try:
        cpu0 = cpu_seconds(pid)
        for n in range(1, messages + 1):
            t0 = time.perf_counter()
            body = {"room": "spectators", "text": f"message {n}"}
            code, reply = await author.request("POST", f"/v1/matches/{match['id']}/chat", body)
            assert code == 201, reply
            await asyncio.gather(*(s.until(n) for s in streams))
            latencies.append((time.perf_counter() - t0) * 1000)
        cpu = cpu_seconds(pid) - cpu0
    finally:
        await asyncio.gather(*(s.close() for s in streams))
        await author.close()
        await lobby.close()
    return cpu / messages * 1e6, statistics.median(latencies)


def main() -> None:
    parser = tree_parser(__doc__)
    parser.add_argument("--spectators", type=int, default=100)
    parser.add_argument("--messages", type=int, default=40, help="messages per run")
    parser.add_argument("--rounds", type=int, default=5, help="pairs of runs")
    args = parser.parse_args()
    paths = trees(parser, args)
    os.environ["DRAGO_CHAT_RATE_MESSAGES"] = "10000"  # one author posts them all
    servers: list[OurServer] = []
    figures: list[list[tuple[float, float]]] = [[], []]
    try:
        for tree in paths:
            servers.append(OurServer.start(args.store, args.pg_url, tree))
        for server in servers:  # warm: the first streams and messages pay for imports and caches
            asyncio.run(one_run(server.port, server.proc.pid, min(args.spectators, 10), 5))
        for n in range(args.rounds):
            order = (0, 1) if n % 2 == 0 else (1, 0)
            for i in order:
                server = servers[i]
                cpu, p50 = asyncio.run(one_run(server.port, server.proc.pid, args.spectators, args.messages))
                figures[i].append((cpu, p50))
                line = f"round {n + 1} {'AB'[i]}: CPU {cpu:.0f} µs per message, latency p50 {p50:.2f} ms"
                print(line, flush=True)
    finally:
        for server in servers:
            server.stop()
    pairs = list(zip(*figures, strict=True))
    print(
        f"B/A over {args.rounds} pairs ({args.store}, {args.spectators} spectators): CPU per message "
        f"median {_median_ratio([(a[0], b[0]) for a, b in pairs])}, latency p50 median "
        f"{_median_ratio([(a[1], b[1]) for a, b in pairs])}"
    )


def _median_ratio(pairs: list[tuple[float, float]]) -> str:
    """The median of B/A, over the pairs where A measured anything (CPU is read in clock ticks)."""
    ratios = [b / a for a, b in pairs if a > 0]
    return f"{statistics.median(ratios):.3f}" if ratios else "n/a (too short to measure: more --messages)"


if __name__ == "__main__":
    main()
