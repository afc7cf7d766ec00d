"""A/B of two source trees' live streams: the same fan-out runs taking turns on both servers.

    git worktree add /tmp/base HEAD~1        # the tree to compare with, say
    python -m bench.stream_ab /tmp/base . [--subscribers 2,100] [--rounds 10] [--actions 150]

`bench.stream` compares each run with a bare FastAPI fan-out measured a moment later, and the ratio
of two noisy ratios cannot tell a 5% change. This starts one server per tree at once (each
`python -m app` from its own checkout, both pinned to core 0, both on the memory store), then for
each round and each subscriber count runs `bench.stream`'s measurement on A and on B (A B, then B A
in the next round: each pair close together in time, the same seeded game on both). It prints each
run's frame latency p50 (from the action's POST until the last subscriber has its commit frame) and
server CPU per delivered frame, and the median over the pairs of B/A.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import resource
import statistics
from collections import defaultdict
from pathlib import Path

from bench.stream import DRAGO, Row, Server, measure, percentile


async def run(args: argparse.Namespace) -> None:
    os.sched_setaffinity(0, {1})
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    sizes = [int(s) for s in args.subscribers.split(",")]
    log_dir = Path(args.logs)
    log_dir.mkdir(parents=True, exist_ok=True)  # noqa: ASYNC240 - once, before anything runs
    env = {"DRAGO_DATABASE_URL": "memory://", "DRAGO_LOG_LEVEL": "WARNING"}
    trees = [args.a.resolve(), args.b.resolve()]
    rows: dict[tuple[int, int], list[Row]] = defaultdict(list)  # (tree, size) → its runs
    async with contextlib.AsyncExitStack() as stack:
        servers = []
        for i, tree in enumerate(trees):
            server = Server("AB"[i], DRAGO, env, log_dir, root=tree)
            stack.push_async_callback(server.stop)
            await server.ready()
            servers.append(server)
        for server in servers:  # warm both: imports, caches, the allocator
            await measure("warm", server, server, 2, 30, args.warmup, 1)
        for round_ in range(args.rounds):
            order = [0, 1] if round_ % 2 == 0 else [1, 0]
            for n in sizes:
                for i in order:
                    server = servers[i]
                    row = await measure("AB"[i], server, server, n, args.actions, args.warmup, n + round_)
                    rows[i, n].append(row)
    for n in sizes:
        print(f"-- {n} subscribers, {args.rounds} pairs of {args.actions} actions")
        for i, tree in enumerate(trees):
            runs = rows[i, n]
            p50 = [percentile(r.lat, 50) * 1e3 for r in runs]
            cpu = [r.per_frame() * 1e6 for r in runs]
            print(
                f"{'AB'[i]} {tree}: frame p50 ms {[round(x, 2) for x in p50]}"
                f" median {statistics.median(p50):.2f}; CPU µs/frame {[round(x) for x in cpu]}"
                f" median {statistics.median(cpu):.0f}"
            )
        pairs = list(zip(rows[0, n], rows[1, n], strict=True))
        p50_ratio = statistics.median(percentile(b.lat, 50) / percentile(a.lat, 50) for a, b in pairs)
        cpu_ratio = statistics.median(b.per_frame() / a.per_frame() for a, b in pairs)
        print(f"B/A, median of pairs: frame p50 ×{p50_ratio:.3f}, CPU per frame ×{cpu_ratio:.3f}")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("a", type=Path, help="tree A (the baseline)")
    parser.add_argument("b", type=Path, help="tree B (the change)")
    parser.add_argument("--subscribers", default="2,100", help="subscriber counts")
    parser.add_argument("--rounds", type=int, default=10, help="pairs of runs per subscriber count")
    parser.add_argument("--actions", type=int, default=150, help="measured actions per run")
    parser.add_argument("--warmup", type=int, default=10)
    parser.add_argument("--logs", default="/tmp/bench-stream-ab", help="server logs")
    args = parser.parse_args()
    for tree in (args.a, args.b):
        if not (tree / "app" / "__main__.py").exists():
            parser.error(f"{tree} is not a checkout of this repository")
    asyncio.run(run(args))


if __name__ == "__main__":
    main()
