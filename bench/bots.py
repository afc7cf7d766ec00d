"""Bot tournaments: win rates of each level against the others, and decision times.

    python -m bench.bots [--games 100] [--seed 1] [--cpu 0] [--millis 140] [--clock wall|cpu]
                         [--iterations N] [--only yutaka:2,mount_drago:2]
                         [--pairings ismcts-random,ismcts-greedy]

For every table (game and player count) and pairing `A-B`, it plays `--games` complete games
through the real pipeline (deal, redaction of every event for each seat, `InfoSet`, the level's
`choose`, `decide`, `evolve`). With two players, A takes seat 0 in even games and seat 1 in odd
ones; with more, one seat is A (rotating through the seats) and the others are B, so A's fair share
is 1/players. A's win rate counts a shared win as the share (a half between two), with its 95 %
Wilson interval. Decision times are per `choose` call that had a real choice (two or more legal
actions), p50 and p99 per level, preparing the sampler included. `--cpu` pins the process to one
core (`os.sched_setaffinity`), so that `ismcts` runs as it would on one core; the last column is
the mean number of ismcts iterations per such decision (what a time budget bought).

`--clock` says what `--millis` and the decision times count. `wall` (the default) is wall-clock
time, as the server's bots are budgeted; on a machine shared with other work a search then gets
only part of its milliseconds, so its strength depends on the load. `cpu` counts the CPU time of
the searching thread (`time.thread_time`): `--millis 35 --clock cpu` is 35 ms of this process's
own computing per decision however busy the machine is, which makes win rates comparable between
runs and machines of one speed. With `--jobs N` each pairing's games are shared out among N
processes (game i is the same deal and seats whichever plays it); use it with `--clock cpu`, so
that processes competing for the cores do not shorten each other's searches.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import statistics
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

from app.bots import Budget, InfoSet, make_bot
from app.bots.ismcts import CLOCKS, IsmctsBot
from app.bots.levels import Bot
from app.games.codec import JSON, to_json
from app.games.registry import GAMES

TABLES = {
    "mount_drago:2": ("ismcts-random", "ismcts-greedy", "greedy-random"),
    "yutaka:2": ("ismcts-random", "ismcts-greedy", "greedy-random"),
    "mount_drago:3": ("ismcts-greedy",),
    "mount_drago:4": ("ismcts-random",),
    "mount_drago:5": ("ismcts-greedy",),
}


@dataclass
class Times:
    by_level: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))  # key: "table level"
    iterations: dict[str, list[int]] = field(default_factory=lambda: defaultdict(list))  # per ismcts choice


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """95 % Wilson score interval of a proportion (successes may be fractional: shared wins)."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    centre = p + z * z / (2 * n)
    margin = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    denominator = 1 + z * z / n
    return (centre - margin) / denominator, (centre + margin) / denominator


def play(
    name: str,
    players: int,
    bots: Sequence[tuple[str, Bot]],
    seed: int,
    times: Times,
    clock: Callable[[], float] = time.perf_counter,
) -> tuple[int, ...]:
    """One game; returns the winning seats."""
    table = f"{name}:{players}"
    game = GAMES[name]
    rng = random.Random(seed)
    first = game.start(players, game.parse_options(players, {}), rng)
    state = game.initial_state(first)
    histories: list[list[JSON]] = [[to_json(game.redact(first, s))] for s in range(players)]
    bot_rngs = [random.Random(seed * 1000 + s) for s in range(players)]
    while (result := game.outcome(state)) is None:
        seat = game.to_act(state)[0]
        legal = game.legal_actions(state, seat)
        level, bot = bots[seat]
        info = InfoSet(name, seat, tuple(histories[seat]), legal)
        t0 = clock()
        action = bot.choose(info, bot_rngs[seat])
        if len(legal) > 1:
            times.by_level[f"{table} {level}"].append(clock() - t0)
            if isinstance(bot, IsmctsBot):
                times.iterations[f"{table} {level}"].append(bot.iterations)
        for event in game.decide(state, seat, action, rng):
            state = game.evolve(state, event)
            for s in range(players):
                histories[s].append(to_json(game.redact(event, s)))
    return result.winners


def tournament(
    name: str,
    players: int,
    a: str,
    b: str,
    games: int,
    seed: int,
    budget: Budget,
    times: Times,
    jobs: int = 1,
) -> tuple[float, int]:
    """A's total win share over `games` games against B; with `jobs` > 1 the games are shared out
    among that many processes (game i is the same game whichever process plays it)."""
    if jobs > 1:
        return _in_processes(name, players, a, b, range(games), seed, budget, times, jobs)
    return _games(name, players, a, b, range(games), seed, budget, times)


def _games(
    name: str, players: int, a: str, b: str, indices: range, seed: int, budget: Budget, times: Times
) -> tuple[float, int]:
    share = 0.0
    bot_a, bot_b = make_bot(a, budget), make_bot(b, budget)
    for i in indices:
        seat_a = i % players
        bots = [(a, bot_a) if s == seat_a else (b, bot_b) for s in range(players)]
        winners = play(name, players, bots, seed + i, times, CLOCKS[budget.clock])
        share += sum(1 for w in winners if w == seat_a) / len(winners)
    return share, len(indices)


def _job(
    name: str, players: int, a: str, b: str, indices: range, seed: int, budget: Budget
) -> tuple[float, int, dict[str, list[float]], dict[str, list[int]]]:
    times = Times()
    share, n = _games(name, players, a, b, indices, seed, budget, times)
    return share, n, dict(times.by_level), dict(times.iterations)


def _in_processes(
    name: str,
    players: int,
    a: str,
    b: str,
    indices: range,
    seed: int,
    budget: Budget,
    times: Times,
    jobs: int,
) -> tuple[float, int]:
    share, n = 0.0, 0
    with ProcessPoolExecutor(jobs) as pool:
        parts = [pool.submit(_job, name, players, a, b, indices[j::jobs], seed, budget) for j in range(jobs)]
        for part in parts:
            got, count, by_level, iterations = part.result()
            share, n = share + got, n + count
            for key, values in by_level.items():
                times.by_level[key] += values
            for key, done in iterations.items():
                times.iterations[key] += done
    return share, n


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=100, help="games per pairing")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cpu", type=int, default=None, help="pin to this core")
    parser.add_argument("--iterations", type=int, default=None, help="ismcts iterations per decision")
    parser.add_argument(
        "--millis", type=float, default=Budget().millis, help="ismcts milliseconds per decision"
    )
    parser.add_argument(
        "--clock",
        choices=sorted(CLOCKS),
        default=Budget().clock,
        help="what --millis and decision times count: wall-clock or this thread's CPU time",
    )
    parser.add_argument(
        "--jobs",
        type=int,
        default=1,
        help="processes sharing out each pairing's games (use with --clock cpu)",
    )
    parser.add_argument("--only", default=None, help="tables, e.g. yutaka:2,mount_drago:2")
    parser.add_argument("--pairings", default=None, help="pairings, e.g. ismcts-greedy (default: per table)")
    args = parser.parse_args()
    if args.cpu is not None and hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {args.cpu})
    budget = Budget(iterations=args.iterations, millis=args.millis, clock=args.clock)
    tables = args.only.split(",") if args.only else list(TABLES)
    times = Times()
    print(
        f"budget: {budget}; {args.games} games per pairing; seed {args.seed}; cpu {args.cpu}; "
        f"jobs {args.jobs}"
    )
    print(f"{'table':<15} {'A-B':<15} {'games':>5} {'A wins':>7} {'95% Wilson':>15} {'fair':>5} {'min':>6}")
    for table in tables:
        name, players = table.split(":")
        pairings = args.pairings.split(",") if args.pairings else TABLES[table]
        for pairing in pairings:
            a, b = pairing.split("-")
            t0 = time.perf_counter()
            share, n = tournament(name, int(players), a, b, args.games, args.seed, budget, times, args.jobs)
            low, high = wilson(share, n)
            minutes = (time.perf_counter() - t0) / 60
            print(
                f"{table:<15} {pairing:<15} {n:>5} {share / n:>7.1%} {f'[{low:.1%}, {high:.1%}]':>15} "
                f"{1 / int(players):>5.0%} {minutes:>6.1f}",
                flush=True,
            )
    print(
        f"\ndecision times: {budget.clock} clock\n"
        f"{'table':<15} {'level':<8} {'decisions':>9} {'p50 ms':>8} {'p99 ms':>8} {'mean ms':>8} "
        f"{'iterations':>10}"
    )
    for key, values in sorted(times.by_level.items()):
        table, level = key.split()
        done = times.iterations.get(key)
        print(
            f"{table:<15} {level:<8} {len(values):>9} {percentile(values, 0.5) * 1e3:>8.2f} "
            f"{percentile(values, 0.99) * 1e3:>8.2f} {statistics.fmean(values) * 1e3:>8.2f} "
            f"{statistics.fmean(done) if done else float('nan'):>10.0f}"
        )


if __name__ == "__main__":
    main()
