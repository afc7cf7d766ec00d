"""A/B of two source trees through the real server, on a machine whose speed swings within seconds.

    git worktree add /tmp/base HEAD~1        # the tree to compare with, say
    python -m bench.ab /tmp/base . [--store pg|sqlite] [--matches 16] [--actions 1600] [--rounds 10]

One run of `bench.api` beside another a minute later cannot tell a change of 5% from this shared
machine's drift (the same loop of pure Python takes 60 to 135 ms from one second to the next). So
this starts one server per tree at once (`python -m app` with that tree first on `PYTHONPATH`, both
pinned to core 0, each on its own fresh database), warms both, then alternates short runs of
`bench.api`'s load (A B, B A, A B, …: each pair close together in time) and prints each run's
actions/s and server CPU per action, and the median over the pairs of B/A. Below about 3% the
medians still move from one invocation to the next: run it twice before believing a small gain.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from bench.api import DEFAULT_PG, free_port, fresh_database, pg_database, run_load, start_server, wait_ready

WARM_ACTIONS = 800


@dataclass
class Server:
    tree: Path
    port: int
    proc: subprocess.Popen[bytes]
    workdir: tempfile.TemporaryDirectory[str]
    database: str | None  # the PostgreSQL database made for it
    rates: list[float] = field(default_factory=list)
    cpu_us: list[float] = field(default_factory=list)


def start(tree: Path, store: str, pg_url: str) -> Server:
    workdir = tempfile.TemporaryDirectory()
    url, database = fresh_database(store, pg_url, workdir.name)
    port = free_port()
    return Server(tree, port, start_server(url, port, workdir.name, tree), workdir, database)


def stop(server: Server, pg_url: str) -> None:
    server.proc.terminate()
    server.proc.wait(timeout=20)
    if server.database is not None:
        pg_database(pg_url, False, server.database)
    server.workdir.cleanup()


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("a", type=Path, help="tree A (the baseline)")
    parser.add_argument("b", type=Path, help="tree B (the change)")
    parser.add_argument("--store", choices=["pg", "sqlite"], default="pg")
    parser.add_argument("--pg-url", default=os.environ.get("TEST_DATABASE_URL", DEFAULT_PG))
    parser.add_argument("--matches", type=int, default=16)
    parser.add_argument("--actions", type=int, default=1600, help="actions per run")
    parser.add_argument("--rounds", type=int, default=10, help="pairs of runs")
    args = parser.parse_args()
    trees = [args.a.resolve(), args.b.resolve()]
    for tree in trees:
        if not (tree / "app" / "__main__.py").exists():
            parser.error(f"{tree} is not a checkout of this repository")
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {1})
    servers: list[Server] = []
    try:
        for tree in trees:
            servers.append(start(tree, args.store, args.pg_url))
        for s in servers:
            wait_ready(s.port, s.proc)
            asyncio.run(run_load(s.port, args.matches, WARM_ACTIONS, True, s.proc.pid))
        for round_ in range(args.rounds):
            for s in servers if round_ % 2 == 0 else servers[::-1]:
                r = asyncio.run(run_load(s.port, args.matches, args.actions, True, s.proc.pid))
                s.rates.append(r["actions_per_s"])
                s.cpu_us.append(r["cpu_us"])
    finally:
        for s in servers:
            stop(s, args.pg_url)
    a, b = servers
    for name, s in (("A", a), ("B", b)):
        rates, cpu_us = [round(x) for x in s.rates], [round(x) for x in s.cpu_us]
        print(
            f"{name} {s.tree}: actions/s {rates} median {statistics.median(s.rates):.0f}; "
            f"server CPU µs/action {cpu_us} median {statistics.median(s.cpu_us):.0f}"
        )
    rate = [y / x for x, y in zip(a.rates, b.rates, strict=True)]
    cpu = [y / x for x, y in zip(a.cpu_us, b.cpu_us, strict=True)]
    print(
        f"B/A over {args.rounds} pairs ({args.store}, {args.matches} matches): actions/s median "
        f"{statistics.median(rate):.3f}, server CPU per action median {statistics.median(cpu):.3f}"
    )


if __name__ == "__main__":
    main()
