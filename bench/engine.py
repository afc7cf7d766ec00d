"""Rules-engine benchmark: random full games per second and microseconds per action.

    python -m bench.engine [--games 300] [--seed 1] [--cpu 0]
    python -m bench.engine --base /path/to/other/tree [--rounds 5] [--games 200] [--cpu 0]
    python -m bench.engine --envs [--rounds 5] [--games 100] [--cpu 0]

For every registered game and the player counts that matter (Mount Drago 2 and 5, Yutakâ 2) it
plays complete games by uniformly random legal actions with `app.games.playout.play_random` (deal,
legal actions, decisions, folding, outcome; the random choice included) and prints the median and
p90 milliseconds per game, games per second and microseconds per decision. Times are the process's
CPU time (`time.process_time`), so the waits of a machine shared with other work count less;
`--cpu` pins the process to one core so figures compare across runs.

With `--base`, each tree (the base given and this one) runs in its own subprocess that imports
that tree's `app` (this file is run as a script with the tree first on `PYTHONPATH`), round after
round, alternating which goes first, so both see the same machine load; every round plays the same
seeds in both. It prints both trees' figures over all rounds and this tree's speed-up in games per
second: the median over rounds of each round's ratio (a shared machine's load drifts between
rounds, less within one), with the smallest and largest. The base tree needs only
`app.games.playout.play_random` and `app.games.registry.GAMES`, so any earlier commit checked out
with `git worktree add` will do. Where this tree's `play_random` takes `log`, the plain rows play
without keeping the event log (as searches and training do) and the `+log` rows keep it; both are
compared with the base's only mode, which always kept it.

With `--envs` (the `envs` extra installed) it compares, per decision, the bare engine with the
PettingZoo environment (`app.envs.pettingzoo`) playing the same random games: `ids` is the step
path (the legal ids, `step`), `mask` reads the action mask as an array instead, `observe` builds
each acting seat's full observation (its view, encoded) as `env.last()` does.
"""

from __future__ import annotations

import argparse
import inspect
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

PLAYER_COUNTS = {"mount_drago": (2, 5), "yutaka": (2,)}
HERE = Path(__file__).resolve().parents[1]


def bench_game(game: Any, players: int, games: int, seed: int, **kwargs: Any) -> dict[str, Any]:
    from app.games.playout import play_random

    durations: list[float] = []
    decisions = 0
    for i in range(games):
        t0 = time.process_time()
        playout = play_random(game, players, seed + i, **kwargs)
        durations.append(time.process_time() - t0)
        decisions += playout.decisions
    return {"durations": durations, "decisions": decisions}


def measure(games: int, seed: int) -> dict[str, dict[str, Any]]:
    """Every table's raw figures in this process (whatever `app` it imports): playouts that keep no
    event log where `play_random` can (`log=False`), and, marked `+log`, playouts that keep it."""
    from app.games.playout import play_random
    from app.games.registry import GAMES

    modes: dict[str, dict[str, Any]] = {"": {}}
    if "log" in inspect.signature(play_random).parameters:
        modes = {"": {"log": False}, " +log": {"log": True}}
    out = {}
    for name, game in GAMES.items():
        for players in PLAYER_COUNTS.get(name, (game.info.min_players,)):
            for mark, kwargs in modes.items():
                play_random(game, players, 0, **kwargs)  # warm caches
                out[f"{name} {players}{mark}"] = bench_game(game, players, games, seed, **kwargs)
    return out


def summary(durations: list[float], decisions: int) -> dict[str, float]:
    ordered = sorted(durations)
    total = sum(ordered)
    return {
        "median_ms": statistics.median(ordered) * 1e3,
        "p90_ms": ordered[int(0.9 * (len(ordered) - 1))] * 1e3,
        "games_per_s": len(ordered) / total,
        "us_per_action": total / max(decisions, 1) * 1e6,
        "actions_per_game": decisions / len(ordered),
    }


HEADER = (
    f"{'game':<12} {'players':>7} {'median ms':>10} {'p90 ms':>8} "
    f"{'games/s':>9} {'µs/action':>10} {'actions':>8}"
)


def row(table: str, r: dict[str, float]) -> str:
    name, players = table.split(maxsplit=1)
    return (
        f"{name:<12} {players:>7} {r['median_ms']:>10.2f} {r['p90_ms']:>8.2f} "
        f"{r['games_per_s']:>9.0f} {r['us_per_action']:>10.1f} {r['actions_per_game']:>8.0f}"
    )


def in_tree(tree: Path, games: int, seed: int, cpu: int | None) -> dict[str, dict[str, Any]]:
    """`measure` in a subprocess importing the `app` of `tree`."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    args = [sys.executable, str(Path(__file__).resolve()), "--worker"]
    args += ["--games", str(games), "--seed", str(seed)]
    if cpu is not None:
        args += ["--cpu", str(cpu)]
    done = subprocess.run(args, env=env, cwd=tree, check=True, capture_output=True, text=True)
    result: dict[str, dict[str, Any]] = json.loads(done.stdout)
    found = result.pop("__app__")["path"]
    if not Path(found).resolve().is_relative_to(tree.resolve()):
        raise RuntimeError(f"the worker for {tree} imported app from {found}")
    return result


def compare(base: Path, rounds: int, games: int, seed: int, cpu: int | None) -> None:
    trees = {"base": base, "this": HERE}
    totals: dict[str, dict[str, dict[str, Any]]] = {k: {} for k in trees}
    ratios: dict[str, list[float]] = {}
    for r in range(rounds):
        order = list(trees) if r % 2 == 0 else list(reversed(trees))  # neither always runs first
        found = {label: in_tree(trees[label], games, seed, cpu) for label in order}
        for label, result in found.items():
            for table, raw in result.items():
                acc = totals[label].setdefault(table, {"durations": [], "decisions": 0})
                acc["durations"] += raw["durations"]
                acc["decisions"] += raw["decisions"]
        for table, raw in found["this"].items():
            that = found["base"][table.removesuffix(" +log")]
            ratios.setdefault(table, []).append(sum(that["durations"]) / sum(raw["durations"]))
        print(f"round {r + 1}/{rounds} done", file=sys.stderr, flush=True)
    print(f"{rounds} rounds × {games} games per table, alternating base and this tree; cpu {cpu}")
    for label, tree in trees.items():
        print(f"\n{label}: {tree}\n{HEADER}")
        for table, acc in totals[label].items():
            print(row(table, summary(acc["durations"], acc["decisions"])))
    print("\nspeed-up in games/s, this / base, per round (same seeds): median [min, max]")
    for table, acc in totals["this"].items():
        if acc["decisions"] != totals["base"][table.removesuffix(" +log")]["decisions"]:
            print(f"warning: {table} played other games than the base ({acc['decisions']} decisions)")
        values = sorted(ratios[table])
        name, players = table.split(maxsplit=1)
        print(
            f"{name:<12} {players:>7} {statistics.median(values):>7.2f}x [{values[0]:.2f}, {values[-1]:.2f}]"
        )


def env_paths(rounds: int, games: int, seed: int) -> None:
    """Per decision: the bare engine (`play_random` without a log) against the PettingZoo
    environment's step path, in this process, round after round (see the module docstring)."""
    import random

    import numpy as np

    from app.envs.pettingzoo import env
    from app.games.playout import play_random
    from app.games.registry import GAMES

    def bare(name: str, players: int) -> tuple[float, int]:
        t0, decisions = time.process_time(), 0
        for i in range(games):
            decisions += play_random(GAMES[name], players, seed + i, log=False).decisions
        return time.process_time() - t0, decisions

    def stepped(name: str, players: int, path: str) -> tuple[float, int]:
        e = env(name, players)
        t0, decisions = time.process_time(), 0
        for i in range(games):
            e.reset(seed=seed + i)
            rng = random.Random(seed + i)
            while not e.terminations[agent := e.agent_selection]:
                if path == "ids":
                    legal = e.legal_ids(agent)
                elif path == "mask":
                    legal = np.flatnonzero(e.action_mask(agent)).tolist()
                else:
                    legal = np.flatnonzero(e.observe(agent)["action_mask"]).tolist()
                e.step(legal[rng.randrange(len(legal))])
                decisions += 1
        return time.process_time() - t0, decisions

    paths = ("ids", "mask", "observe")
    print(f"{rounds} rounds × {games} games per table; µs per decision, ratio to the bare engine (median)")
    print(f"{'game':<12} {'players':>7} {'bare':>7} " + " ".join(f"{p:>16}" for p in paths))
    for name, counts in PLAYER_COUNTS.items():
        for players in counts:
            per: dict[str, list[float]] = {p: [] for p in ("bare", *paths)}
            for _ in range(rounds):
                spent, decisions = bare(name, players)
                per["bare"].append(spent / decisions * 1e6)
                for path in paths:
                    spent, decisions = stepped(name, players, path)
                    per[path].append(spent / decisions * 1e6)
            base = statistics.median(per["bare"])
            cells = []
            for path in paths:
                ratio = statistics.median(p / b for p, b in zip(per[path], per["bare"], strict=True))
                cells.append(f"{statistics.median(per[path]):>7.1f} ({ratio:.2f}x)")
            print(f"{name:<12} {players:>7} {base:>7.1f} " + " ".join(f"{c:>16}" for c in cells))


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cpu", type=int, default=None, help="pin to this core")
    parser.add_argument("--base", type=Path, default=None, help="another tree to compare with, side by side")
    parser.add_argument("--rounds", type=int, default=5, help="alternations with --base")
    parser.add_argument(
        "--envs", action="store_true", help="the environments' step path (needs the envs extra)"
    )
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.cpu is not None and hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {args.cpu})
    if args.envs:
        env_paths(args.rounds, args.games, args.seed)
        return
    if args.base is not None:
        compare(args.base, args.rounds, args.games, args.seed, args.cpu)
        return
    result = measure(args.games, args.seed)
    if args.worker:
        import app

        print(json.dumps({**result, "__app__": {"path": app.__file__}}))
        return
    print(HEADER)
    for table, raw in result.items():
        print(row(table, summary(raw["durations"], raw["decisions"])))


if __name__ == "__main__":
    main()
