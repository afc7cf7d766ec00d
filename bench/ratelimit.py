"""What the rate limits cost an action: servers with limits off, counted in memory and in Redis.

    python -m bench.ratelimit [--store memory|sqlite|pg] [--matches 16] [--via http|ws]
                              [--actions 1600] [--rounds 5] [--redis-url URL] [--tree PATH]

`bench.api` and the other benchmarks run with rate limits off; a deployment runs with them on, a
fleet with its counters in Redis (docs/deploy.md). This starts three servers at once on the same
store (pinned to core 0): limits off, limits on in memory, limits on in Redis (`--redis-url`,
default `TEST_REDIS_URL` or redis://127.0.0.1:6379/0, under a prefix of its own, removed after).
Every budget is set high enough that nothing is refused (`100000/second;6000000/minute`): what
is measured is the counting. Runs alternate between the three, round after round, and it prints
each one's medians and their ratios to the server with limits off (server CPU per action,
actions/s, p50). `--tree`: run that checkout's server (a `git worktree` of an older commit, say).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import uuid
from pathlib import Path

import redis

from bench.api import DEFAULT_PG, OurServer, run_load

WARM_ACTIONS = 400
HIGH = "100000/second;6000000/minute"
BUDGETS = [
    f"DRAGO_RATE_LIMIT_{budget}_PER_{who}"
    for budget in ("CREATE", "ACTIONS", "READS", "STREAMS")
    for who in ("IP", "CREDENTIAL")
] + ["DRAGO_RATE_LIMIT_FRAMES_PER_CONNECTION"]


def configurations(redis_url: str, prefix: str) -> dict[str, dict[str, str]]:
    on = {"DRAGO_RATE_LIMIT_ENABLED": "1", **dict.fromkeys(BUDGETS, HIGH)}
    return {
        "off": {},
        "memory": on,
        "redis": {**on, "DRAGO_RATE_LIMIT_STORAGE_URL": redis_url, "DRAGO_BROADCAST_PREFIX": prefix},
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--store", choices=["pg", "sqlite", "memory"], default="memory")
    parser.add_argument("--pg-url", default=os.environ.get("TEST_DATABASE_URL", DEFAULT_PG))
    parser.add_argument("--redis-url", default=os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/0"))
    parser.add_argument("--matches", type=int, default=16)
    parser.add_argument("--via", choices=["http", "ws"], default="http")
    parser.add_argument("--actions", type=int, default=1600, help="actions per run")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--tree", type=Path, help="the checkout whose server to run")
    args = parser.parse_args()
    prefix = f"drago-bench-{uuid.uuid4().hex[:8]}"
    servers: dict[str, OurServer] = {}
    runs: dict[str, list[dict[str, float]]] = {}
    try:
        for name, settings in configurations(args.redis_url, prefix).items():
            servers[name] = OurServer.start(args.store, args.pg_url, args.tree, settings)
            runs[name] = []
        for server in servers.values():
            asyncio.run(run_load(server.port, args.matches, WARM_ACTIONS, True, server.proc.pid, args.via))
        for round_ in range(args.rounds):
            names = list(servers) if round_ % 2 == 0 else list(servers)[::-1]
            for name in names:
                server = servers[name]
                run = asyncio.run(
                    run_load(server.port, args.matches, args.actions, True, server.proc.pid, args.via)
                )
                runs[name].append(run)
    finally:
        for server in servers.values():
            server.stop()
        _forget(args.redis_url, prefix)
    base = {
        key: statistics.median(r[key] for r in runs["off"]) for key in ("cpu_us", "actions_per_s", "p50_ms")
    }
    runs_text = f"{args.rounds} rounds of {args.actions} actions"
    print(f"{args.store}, {args.matches} matches, via {args.via}, {runs_text}:")
    for name, figures in runs.items():
        cpu = statistics.median(r["cpu_us"] for r in figures)
        rate = statistics.median(r["actions_per_s"] for r in figures)
        p50 = statistics.median(r["p50_ms"] for r in figures)
        print(
            f"  limits {name:6}: server CPU {cpu:5.0f} µs/action ({cpu / base['cpu_us']:.2f}x off), "
            f"{rate:5.0f} actions/s ({rate / base['actions_per_s']:.2f}x), "
            f"p50 {p50:.2f} ms ({p50 / base['p50_ms']:.2f}x)"
        )


def _forget(url: str, prefix: str) -> None:
    """Remove the benchmark's counters from Redis."""
    client = redis.Redis.from_url(url)
    try:
        keys = list(client.scan_iter(f"{prefix}:*"))
        if keys:
            client.delete(*keys)
    finally:
        client.close()


if __name__ == "__main__":
    main()
