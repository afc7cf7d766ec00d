"""Rated games between the server's bot levels through the whole server; prints the leaderboard.

    python -m bench.ratings [--games 300] [--iterations 60] [--at-once 4] [--game mount_drago]

An in-process server (memory store, the real app, its bot runner) gets `--games` rated 3-seat
matches, one seat per level (`random`, `greedy`, `ismcts`, rotated through the seats), played by
the server bots to the end; the ratings projection applies each as it ends. Then it prints the
game's leaderboard (the built-in bot players `bot-random`, `bot-greedy`, `bot-ismcts`), each
level's wins, and the time taken. `ismcts` searches `--iterations` per decision (not a time
budget, so the result does not depend on the machine's load). Expect ismcts > greedy > random.
"""

from __future__ import annotations

import argparse
import asyncio
import time
from typing import Any

import httpx

from app.main import create_app
from app.settings import Settings

LEVELS = ("random", "greedy", "ismcts")


async def one(client: httpx.AsyncClient, game: str, i: int, gate: asyncio.Semaphore) -> None:
    async with gate:
        levels = LEVELS[i % 3 :] + LEVELS[: i % 3]
        bots = [{"seat": s, "level": level} for s, level in enumerate(levels)]
        r = await client.post("/v1/matches", json={"game": game, "players": 3, "bots": bots, "rated": True})
        r.raise_for_status()
        match_id = r.json()["id"]
        while (await client.get(f"/v1/matches/{match_id}/ratings")).json()["applied"] is False:  # noqa: ASYNC110
            await asyncio.sleep(0.05)  # the server bots play; polling is what a client would do


async def run(args: argparse.Namespace) -> None:
    settings = Settings(
        database_url="memory://", log_level="WARNING", rate_limit_enabled=False,
        bot_workers=args.workers, bot_budget_ms=0, bot_iterations=args.iterations,
    )  # fmt: skip
    app = create_app(settings)
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://bench", timeout=600) as client:
            t0 = time.perf_counter()
            gate = asyncio.Semaphore(args.at_once)
            await asyncio.gather(*(one(client, args.game, i, gate) for i in range(args.games)))
            took = time.perf_counter() - t0
            board: Any = (await client.get(f"/v1/games/{args.game}/leaderboard")).json()
    print(f"{args.games} rated {args.game} games, 3 seats (one per level), ismcts {args.iterations} "
          f"iterations per decision, {took:.0f} s")  # fmt: skip
    print(f"{'rank':>4}  {'player':<12} {'rating':>7} {'mu':>7} {'sigma':>6} {'games':>5} {'wins':>5}")
    for e in board["entries"]:
        print(
            f"{e['rank']:>4}  {e['player_id']:<12} {e['rating']:7.2f} {e['mu']:7.2f} {e['sigma']:6.3f} "
            f"{e['games']:>5} {e['wins']:>5}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--iterations", type=int, default=60, help="ismcts iterations per decision")
    parser.add_argument("--at-once", type=int, default=4, help="matches played concurrently")
    parser.add_argument("--workers", type=int, default=0, help="bot worker processes (0: a thread)")
    parser.add_argument("--game", default="mount_drago")
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
