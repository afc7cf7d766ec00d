"""What the rate limits cost an action: limits counted in memory, then in Redis, each against the
same server with limits off.

    python -m bench.ratelimit [--store memory|sqlite|pg] [--matches 16] [--via http|ws]
                              [--actions 4000] [--rounds 6] [--redis-url URL] [--tree PATH]

`bench.api` and the other benchmarks run with rate limits off; a deployment runs with them on, a
fleet with its counters in Redis (docs/deploy.md). For each way of counting, this is `bench.ab
--together` of the same tree twice, one server with limits off and one with them on (every budget
`100000/second;6000000/minute`, so that nothing is refused: what is measured is the counting; in
Redis under a prefix of its own, removed after; `--redis-url`, default `TEST_REDIS_URL` or
redis://127.0.0.1:6379/0). It prints the medians over the pairs of on over off. `--tree`: run
that checkout's server (a `git worktree` of an older commit, say).
"""

from __future__ import annotations

import argparse
import os
import uuid
from pathlib import Path

import redis

from app.api.ratelimit import BUDGETS
from bench.ab import pairs, pin_client, ratios
from bench.api import DEFAULT_PG

HIGH = "100000/second;6000000/minute"
SETTINGS = [
    f"DRAGO_RATE_LIMIT_{budget.upper()}_PER_{who}" for budget in BUDGETS for who in ("IP", "CREDENTIAL")
] + ["DRAGO_RATE_LIMIT_FRAMES_PER_CONNECTION"]


def configurations(redis_url: str, prefix: str) -> dict[str, dict[str, str]]:
    """The settings of limits counted in memory and in Redis (every budget `HIGH`)."""
    on = {"DRAGO_RATE_LIMIT_ENABLED": "1", **dict.fromkeys(SETTINGS, HIGH)}
    return {
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
    parser.add_argument("--actions", type=int, default=4000, help="actions per run")
    parser.add_argument("--rounds", type=int, default=6, help="pairs of runs")
    parser.add_argument("--tree", type=Path, help="the checkout whose server to run")
    args = parser.parse_args()
    args.together = True
    pin_client()
    prefix = f"drago-bench-{uuid.uuid4().hex[:8]}"
    runs = f"{args.rounds} pairs of {args.actions} actions"
    print(f"{args.store}, {args.matches} matches, via {args.via}, {runs}:")
    try:
        for name, settings in configurations(args.redis_url, prefix).items():
            off, on = pairs([(args.tree, {}), (args.tree, settings)], args)
            print(f"  limits in {name} over off: {ratios(off, on)}")
    finally:
        _forget(args.redis_url, prefix)


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
