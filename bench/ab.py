"""A/B of two source trees through the real server, on a machine whose speed swings within seconds.

    git worktree add /tmp/base HEAD~1        # the tree to compare with, say
    python -m bench.ab /tmp/base . [--store pg|sqlite|memory] [--matches 16] [--actions 1600] [--rounds 10]
                                   [--via http|ws] [--keys] [--set-a NAME=VALUE …] [--set-b NAME=VALUE …]

One run of `bench.api` beside another a minute later cannot tell a change of 5% from this shared
machine's drift (the same loop of pure Python takes 60 to 135 ms from one second to the next). So
this starts one server per tree at once (`python -m app` with that tree first on `PYTHONPATH`, both
pinned to core 0, each on its own fresh database), warms both, then alternates short runs of
`bench.api`'s load (A B, B A, A B, …: each pair close together in time) and prints each run's
actions/s and server CPU per action, and the median over the pairs of B/A. Below about 3% the
medians still move from one invocation to the next: run it twice before believing a small gain.

`--together` runs each pair's two loads at the same time instead (each from its own client
process, both pinned to core 1; both servers share core 0), so both see the same speed of the
machine over the same seconds: its pairs' CPU ratios spread ±3% where alternating ones spread
±30% (2026-12-06, PostgreSQL, 4,000 actions a run). Use it for the CPU per action (actions/s is
then each server's with half a core) and longer runs (`--actions 4000`): the CPU clock ticks in
10 ms.

On PostgreSQL, alternating runs also print what the database's processes spent per action
(utime+stime of every PostgreSQL process on this machine over the run, so only runs taken alone
tell whose it is: not with `--together`).

`--set-a` / `--set-b NAME=VALUE` (repeatable) start that tree's server with a setting over the
benchmark's own (`DRAGO_LOG_LEVEL=WARNING`, rate limits off): the same tree twice with a setting
on one side measures what the setting costs, `--set-a X --set-b X` compares two trees under it.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import statistics
from dataclasses import dataclass, field
from pathlib import Path

from bench.api import DEFAULT_PG, OurServer, run_load
from bench.proc import postgres_cpu_seconds

WARM_ACTIONS = 800
CLIENT_CORE = 1  # --together: where both load clients run (the servers are on core 0)


@dataclass
class Tree:
    """One tree's server and its runs' figures."""

    path: Path | None  # None: the installed tree
    server: OurServer
    rates: list[float] = field(default_factory=list)
    cpu_us: list[float] = field(default_factory=list)
    p50_ms: list[float] = field(default_factory=list)
    p99_ms: list[float] = field(default_factory=list)
    db_cpu_us: list[float] = field(default_factory=list)  # PostgreSQL's, in alternating runs


def tree_parser(description: str | None) -> argparse.ArgumentParser:
    """The command line of an A/B run: the two trees and the store (read back by `trees`)."""
    parser = argparse.ArgumentParser(
        description=description, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("a", type=Path, help="tree A (the baseline)")
    parser.add_argument("b", type=Path, help="tree B (the change)")
    parser.add_argument("--store", choices=["pg", "sqlite", "memory"], default="pg")
    parser.add_argument("--pg-url", default=os.environ.get("TEST_DATABASE_URL", DEFAULT_PG))
    return parser


def trees(parser: argparse.ArgumentParser, args: argparse.Namespace) -> list[Path]:
    """The two trees of `tree_parser`, each checked to be a checkout; pins this process (the load
    client) to `CLIENT_CORE`, the servers being on core 0."""
    found = [args.a.resolve(), args.b.resolve()]
    for tree in found:
        if not (tree / "app" / "__main__.py").exists():
            parser.error(f"{tree} is not a checkout of this repository")
    pin_client()
    return found


def pin_client() -> None:
    """Pin this process (the load client) to `CLIENT_CORE`, the servers being on core 0."""
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {CLIENT_CORE})


def main() -> None:
    parser = tree_parser(__doc__)
    parser.add_argument("--matches", type=int, default=16)
    parser.add_argument("--actions", type=int, default=1600, help="actions per run")
    parser.add_argument("--rounds", type=int, default=10, help="pairs of runs")
    parser.add_argument("--via", choices=["http", "ws"], default="http", help="how actions travel")
    parser.add_argument("--keys", action="store_true", help="each action carries an idempotency key")
    parser.add_argument("--together", action="store_true", help="a pair's two runs at the same time")
    for side in ("a", "b"):
        parser.add_argument(
            f"--set-{side}",
            action="append",
            default=[],
            metavar="NAME=VALUE",
            help=f"a setting of {side.upper()}'s server",
        )
    args = parser.parse_args()
    settings = [_settings(parser, args.set_a), _settings(parser, args.set_b)]
    a, b = pairs(list(zip(trees(parser, args), settings, strict=True)), args)
    for name, t in (("A", a), ("B", b)):
        rates, cpu_us = [round(x) for x in t.rates], [round(x) for x in t.cpu_us]
        print(
            f"{name} {t.path}: actions/s {rates} median {statistics.median(t.rates):.0f}; "
            f"server CPU µs/action {cpu_us} median {statistics.median(t.cpu_us):.0f}; "
            f"p50 ms median {statistics.median(t.p50_ms):.2f}, "
            f"p99 ms median {statistics.median(t.p99_ms):.2f}"
            + (f"; PostgreSQL CPU µs/action {statistics.median(t.db_cpu_us):.0f}" if t.db_cpu_us else "")
        )
    print(f"B/A over {args.rounds} pairs ({args.store}, {args.matches} matches): {ratios(a, b)}")


def pairs(sides: list[tuple[Path | None, dict[str, str]]], args: argparse.Namespace) -> list[Tree]:
    """Start one server per side (its tree, None for the installed one, and its settings), warm
    them, run `args.rounds` pairs taking turns (`args.together`: each pair's runs at once), stop
    them; each side's figures. `args`: store, pg_url, matches, actions, rounds, via, together."""
    servers: list[Tree] = []
    try:
        for tree, extra in sides:
            servers.append(Tree(tree, OurServer.start(args.store, args.pg_url, tree, extra)))
        for t in servers:
            server = t.server
            asyncio.run(
                run_load(server.port, args.matches, WARM_ACTIONS, True, server.proc.pid, args.via, args.keys)
            )
        for round_ in range(args.rounds):
            order = servers if round_ % 2 == 0 else servers[::-1]
            runs = _together(order, args) if args.together else [_alone(t, args) for t in order]
            for t, r in zip(order, runs, strict=True):
                t.rates.append(r["actions_per_s"])
                t.cpu_us.append(r["cpu_us"])
                t.p50_ms.append(r["p50_ms"])
                t.p99_ms.append(r["p99_ms"])
                if "db_cpu_us" in r:
                    t.db_cpu_us.append(r["db_cpu_us"])
    finally:
        for t in servers:
            t.server.stop()
    return servers


def ratios(a: Tree, b: Tree) -> str:
    """The medians over the pairs of B's figures over A's, as a line of text."""
    return (
        f"actions/s median {ratio(a.rates, b.rates):.3f}, server CPU per action median "
        f"{ratio(a.cpu_us, b.cpu_us):.3f}, p50 median {ratio(a.p50_ms, b.p50_ms):.3f}, "
        f"p99 median {ratio(a.p99_ms, b.p99_ms):.3f}"
        + (f", PostgreSQL CPU per action median {ratio(a.db_cpu_us, b.db_cpu_us):.3f}" if b.db_cpu_us else "")
    )


def _settings(parser: argparse.ArgumentParser, pairs: list[str]) -> dict[str, str]:
    """`NAME=VALUE` pairs as a dict of environment variables."""
    found = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name:
            parser.error(f"a setting is NAME=VALUE, not {pair!r}")
        found[name] = value
    return found


def ratio(a: list[float], b: list[float]) -> float:
    """The median over the pairs of B's figure over A's."""
    return statistics.median(y / x for x, y in zip(a, b, strict=True))


def _alone(t: Tree, args: argparse.Namespace) -> dict[str, float]:
    """One run of `t`'s load, from this process; on PostgreSQL with what the database's processes
    spent meanwhile per action (`db_cpu_us`: every PostgreSQL process of this machine, so a run
    alone is needed to tell whose it is)."""
    db = postgres_cpu_seconds() if args.store == "pg" else None
    r = asyncio.run(
        run_load(t.server.port, args.matches, args.actions, True, t.server.proc.pid, args.via, args.keys)
    )
    if db is not None:
        r["db_cpu_us"] = (postgres_cpu_seconds() - db) / r["actions"] * 1e6
    return r


def _together(servers: list[Tree], args: argparse.Namespace) -> list[dict[str, float]]:
    """One run of each tree's load at the same time, each from its own client process."""
    context = multiprocessing.get_context("spawn")
    results = context.Queue()
    clients = [
        context.Process(
            target=_client_run,
            args=(
                i,
                t.server.port,
                args.matches,
                args.actions,
                t.server.proc.pid,
                args.via,
                args.keys,
                results,
            ),
        )
        for i, t in enumerate(servers)
    ]
    for client in clients:
        client.start()
    by_tree = dict(results.get(timeout=600) for _ in clients)  # a client that failed: no wait forever
    for client in clients:
        client.join()
    return [by_tree[i] for i in range(len(servers))]


def _client_run(
    i: int,
    port: int,
    matches: int,
    actions: int,
    pid: int,
    via: str,
    keys: bool,
    results: multiprocessing.Queue[object],
) -> None:
    os.sched_setaffinity(0, {CLIENT_CORE})
    results.put((i, asyncio.run(run_load(port, matches, actions, True, pid, via, keys))))


if __name__ == "__main__":
    main()
