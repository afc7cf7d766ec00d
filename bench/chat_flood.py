"""Chat flood beside play: does one author flooding a room delay the game's actions?

    python -m bench.chat_flood [--store sqlite|pg|memory] [--matches 1] [--actions 3000] [--rounds 3]
                               [--continuous]

Starts the real server as `bench.api` does (`python -m app` pinned to core 0, the general rate
limits off, the chat's own limit on as deployed), then measures the action p50 of `bench.api`'s
load (Mount Drago 2-player matches played over HTTP, each seat following its match's stream with
`views=1`) alone, and again with a flood beside it: one player key without a seat posting 1,000
messages to one match's spectators' room as fast as it can (issue 43's flood; `--continuous`:
bursts of 1,000 repeated until the load ends, the worst case), while two spectators follow that
match's stream (so every accepted message is also fanned out). The chat's limit answers most of
the flood with 429 `rate_limited`. Rounds alternate (without, with) on one server; the last line
is the median of the rounds' p50 ratios (with / without; issue 43 asks for at most 1.10). The flood
runs in this process, on the load client's core: its own client work is part of what the load's
latency sees, so the figure is an upper bound.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import statistics
import uuid
from collections.abc import AsyncIterator
from typing import Any

from bench.api import DEFAULT_PG, PEER_MOVES, Http, OurServer, Stream, run_load

FLOOD_BURST = 1000


async def match_and_author(port: int, prefix: str) -> tuple[Http, dict[str, Any], Http]:
    """A new 2-player Mount Drago match and a player key without a seat in it (its author): the
    lobby's connection, the match's summary and the author's connection."""
    lobby = Http(port)
    status, match = await lobby.request("POST", "/v1/matches", {"game": "mount_drago", "players": 2})
    assert status == 201, match
    status, player = await lobby.request("POST", "/v1/players", {"name": f"{prefix}-{uuid.uuid4().hex[:8]}"})
    assert status == 201, player
    return lobby, match, Http(port, player["key"])


@contextlib.asynccontextmanager
async def flooding(port: int, continuous: bool) -> AsyncIterator[dict[str, int]]:
    """A flood of one author into one room, with two spectators' streams on that match, until left."""
    lobby, match, author = await match_and_author(port, "flood")
    assert author.token is not None
    watchers = [Stream(port, match["id"], author.token) for _ in range(2)]
    for w in watchers:
        w.url = w.url.replace("views=1&", "views=0&")
        await w.open_raw()
    counts = {"sent": 0, "accepted": 0, "refused_429": 0}
    stop = asyncio.Event()

    async def flood() -> None:
        while not stop.is_set():
            for i in range(FLOOD_BURST):
                if stop.is_set():
                    return
                body = {"room": "spectators", "text": f"flood {counts['sent']} {i}"}
                code, _ = await author.request("POST", f"/v1/matches/{match['id']}/chat", body)
                counts["sent"] += 1
                if code == 201:
                    counts["accepted"] += 1
                elif code == 429:
                    counts["refused_429"] += 1
                else:
                    raise AssertionError(f"flood message answered {code}")
            if not continuous:
                return

    task = asyncio.create_task(flood())
    try:
        yield counts
    finally:
        stop.set()
        await task
        for w in watchers:
            await w.close()
        await author.close()
        await lobby.close()


async def one_round(
    port: int, pid: int, matches: int, actions: int, continuous: bool
) -> tuple[float, float, dict[str, int]]:
    quiet = await run_load(port, matches, actions, True, pid)
    async with flooding(port, continuous) as counts:
        loud = await run_load(port, matches, actions, True, pid)
    return quiet["p50_ms"], loud["p50_ms"], counts


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--store", default="sqlite", choices=["sqlite", "pg", "memory"])
    parser.add_argument("--matches", type=int, default=1)
    parser.add_argument("--actions", type=int, default=PEER_MOVES[1])
    parser.add_argument("--continuous", action="store_true", help="flood until the load ends")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--pg-url", default=DEFAULT_PG)
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {1})
    server = OurServer.start(args.store, args.pg_url)
    ratios = []
    try:
        for n in range(args.rounds):
            quiet, loud, counts = asyncio.run(
                one_round(server.port, server.proc.pid, args.matches, args.actions, args.continuous)
            )
            ratios.append(loud / quiet)
            print(
                f"round {n + 1}: action p50 {quiet:.2f} ms without the flood, {loud:.2f} ms beside it "
                f"({loud / quiet:.3f}x); flood: {counts['sent']} messages sent, "
                f"{counts['accepted']} accepted, {counts['refused_429']} refused with 429",
                flush=True,
            )
    finally:
        server.stop()
    median = statistics.median(ratios)
    print(f"median p50 ratio (with flood / without), {args.store}, {args.matches} match(es): {median:.3f}x")


if __name__ == "__main__":
    main()
