"""Rules-engine benchmark: random full games per second and microseconds per action.

    python -m bench.engine [--games 300] [--seed 1] [--cpu 0]

For every registered game and the player counts that matter (Mount Drago 2 and 5, Yutakâ 2) it
plays complete games by uniformly random legal actions through the public protocol (deal,
legal_actions, decide, evolve, outcome; the random choice included) and prints the median and
p90 milliseconds per game, games per second and microseconds per decision. `--cpu` pins the
process to one core so figures compare across runs.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from typing import Any

from app.games.core import Game
from app.games.playout import play_random
from app.games.registry import GAMES

PLAYER_COUNTS = {"mount_drago": (2, 5), "yutaka": (2,)}


def bench_game(game: Game[Any, Any, Any], players: int, games: int, seed: int) -> dict[str, float]:
    durations: list[float] = []
    decisions = 0
    for i in range(games):
        t0 = time.perf_counter()
        playout = play_random(game, players, seed + i)
        durations.append(time.perf_counter() - t0)
        decisions += playout.decisions
    total = sum(durations)
    durations.sort()
    return {
        "median_ms": statistics.median(durations) * 1e3,
        "p90_ms": durations[int(0.9 * (len(durations) - 1))] * 1e3,
        "games_per_s": games / total,
        "us_per_action": total / max(decisions, 1) * 1e6,
        "actions_per_game": decisions / games,
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cpu", type=int, default=None, help="pin to this core")
    args = parser.parse_args()
    if args.cpu is not None and hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {args.cpu})
    print(
        f"{'game':<12} {'players':>7} {'median ms':>10} {'p90 ms':>8} "
        f"{'games/s':>9} {'µs/action':>10} {'actions':>8}"
    )
    for name, game in GAMES.items():
        for players in PLAYER_COUNTS.get(name, (game.info.min_players,)):
            play_random(game, players, 0)  # warm caches
            r = bench_game(game, players, args.games, args.seed)
            print(
                f"{name:<12} {players:>7} {r['median_ms']:>10.2f} {r['p90_ms']:>8.2f} "
                f"{r['games_per_s']:>9.0f} {r['us_per_action']:>10.1f} {r['actions_per_game']:>8.0f}"
            )


if __name__ == "__main__":
    main()
