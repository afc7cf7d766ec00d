"""Loading long matches cold, and the memory a cached match takes.

    python -m bench.load [--stores sqlite,pg] [--events 10000] [--pg-url URL] [--repeat 5]

For each store it builds one Mount Drago match of about `--events` events through the service (a
turn drafted and undone again and again: `draft_step`, `draft_undone`…), then loads it with a
fresh cache (a new process's view of it) `--repeat` times: first with no snapshot (the whole
history folded), then from the snapshot that load kept. It prints the median milliseconds of each.
Then it replays that match (`GET …/view?at=`) in one process: once from the start, then at random
seqs and step by step, from the states kept for replays (`app.service.replays`).
Then it loads 200 ordinary finished matches into one cache and prints the memory per cached match
(tracemalloc, the folded state and its seats).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import tempfile
import time
import tracemalloc
import uuid

from app.service import acting, creating, reading, seating
from app.service.auth import identify
from app.service.context import Config, Context
from app.service.creating import CreateRequest
from app.store.factory import create_store
from app.store.migrate import upgrade
from bench.api import DEFAULT_PG, pg_database


async def long_match(ctx: Context, events: int) -> str:
    created = await creating.create_match(ctx, CreateRequest("mount_drago", 2, settings={"drafts": True}))
    match_id = created.match.id
    callers = [
        await identify(ctx, (await seating.join_seat(ctx, match_id, s, f"p{s}")).token) for s in (0, 1)
    ]
    view = await reading.get_view(ctx, match_id, None)
    seat = view.to_act[0]
    mine = await reading.get_view(ctx, match_id, callers[seat])
    play = dict(mine.legal_actions[0])
    while view.seq < events:
        await acting.submit_action(ctx, match_id, callers[seat], play)
        view = (await acting.submit_action(ctx, match_id, callers[seat], {"type": "undo"})).view
    return match_id


async def finished_matches(ctx: Context, count: int) -> list[str]:
    ids = []
    rng = random.Random(1)
    for _ in range(count):
        created = await creating.create_match(ctx, CreateRequest("mount_drago", 2))
        match_id = created.match.id
        callers = [
            await identify(ctx, (await seating.join_seat(ctx, match_id, s, f"p{s}")).token) for s in (0, 1)
        ]
        for _ in range(2000):
            view = await reading.get_view(ctx, match_id, None)
            if view.status != "active":
                break
            seat = view.to_act[0]
            mine = await reading.get_view(ctx, match_id, callers[seat])
            await acting.submit_action(ctx, match_id, callers[seat], dict(rng.choice(mine.legal_actions)))
        ids.append(match_id)
    return ids


async def cold_loads(url: str, match_id: str, repeat: int) -> tuple[float, float, int]:
    """Median ms of a cold load without a snapshot, then with the one the first load kept."""
    store = create_store(url)
    try:
        snapshot = await store.get_snapshot(match_id)
        assert snapshot is None, "the match was built with a warm cache: no snapshot yet"
        t0 = time.perf_counter()
        loaded = await Context(store).loader.load(match_id)
        first = (time.perf_counter() - t0) * 1e3
        await asyncio.sleep(0.5)  # the snapshot is written in the background
        times = []
        for _ in range(repeat):
            ctx = Context(store)
            t0 = time.perf_counter()
            again = await ctx.loader.load(match_id)
            times.append((time.perf_counter() - t0) * 1e3)
            assert again.match.seq == loaded.match.seq
        return first, statistics.median(times), loaded.match.seq
    finally:
        await store.close()


async def replay_times(url: str, match_id: str, samples: int = 20) -> tuple[float, float, float]:
    """Ms of replays (`GET …/view?at=`) of the long match in a process that holds it: the first,
    at a seq in its middle (folded from the start: the snapshot is after it); then the median of
    `samples` at random seqs (each from the nearest state kept for replays); then the median of
    `samples` steps forwards, one commit at a time."""
    store = create_store(url)
    try:
        ctx = Context(store)
        seq = (await ctx.loader.load(match_id)).match.seq
        ends = [e.seq for e in await store.read(match_id) if e.seq == e.commit and e.seq < seq]

        async def replay(at: int) -> float:
            t0 = time.perf_counter()
            view = await reading.get_view(ctx, match_id, None, at=at)
            assert view.seq == at
            return (time.perf_counter() - t0) * 1e3

        first = await replay(ends[len(ends) // 2])
        rng = random.Random(2)
        anywhere = [await replay(rng.choice(ends)) for _ in range(samples)]
        start = rng.randrange(len(ends) - samples)
        steps = [await replay(at) for at in ends[start : start + samples]]
        return first, statistics.median(anywhere), statistics.median(steps)
    finally:
        await store.close()


async def cached_memory(url: str, ids: list[str]) -> float:
    store = create_store(url)
    try:
        ctx = Context(store)
        await ctx.loader.load(ids[0])  # imports and first-use caches out of the measure
        tracemalloc.start()
        before = tracemalloc.take_snapshot()
        for match_id in ids[1:]:
            await ctx.loader.load(match_id)
        after = tracemalloc.take_snapshot()
        tracemalloc.stop()
        grown = sum(s.size_diff for s in after.compare_to(before, "filename"))
        return grown / (len(ids) - 1)
    finally:
        await store.close()


def run_store(name: str, url: str, args: argparse.Namespace) -> None:
    async def build() -> tuple[str, list[str]]:
        store = create_store(url)
        try:
            ctx = Context(store, config=Config())
            return await long_match(ctx, args.events), await finished_matches(ctx, args.matches)
        finally:
            await store.close()

    long_id, ids = asyncio.run(build())
    first, with_snapshot, seq = asyncio.run(cold_loads(url, long_id, args.repeat))
    print(
        f"{name:<6} cold load of a {seq}-event match: {first:7.1f} ms folded from the start, "
        f"{with_snapshot:6.1f} ms from its snapshot (median of {args.repeat})",
        flush=True,
    )
    first, anywhere, step = asyncio.run(replay_times(url, long_id))
    print(
        f"{name:<6} replays of that match: {first:7.1f} ms the first (from the start), then "
        f"{anywhere:.1f} ms at any seq, {step:.1f} ms per step forwards (medians of 20)",
        flush=True,
    )
    per_match = asyncio.run(cached_memory(url, ids))
    print(f"{name:<6} memory per cached finished 2-player match: {per_match / 1024:.1f} KiB", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--stores", default="sqlite,pg")
    parser.add_argument("--events", type=int, default=10_000)
    parser.add_argument("--matches", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--pg-url", default=os.environ.get("TEST_DATABASE_URL", DEFAULT_PG))
    args = parser.parse_args()
    for name in args.stores.split(","):
        if name == "sqlite":
            with tempfile.TemporaryDirectory() as tmp:
                url = f"sqlite:///{tmp}/load.db"
                upgrade(url)
                run_store(name, url, args)
        else:
            db = f"drago_load_{uuid.uuid4().hex[:8]}"
            url = pg_database(args.pg_url, True, db)
            try:
                upgrade(url)
                run_store(name, url, args)
            finally:
                pg_database(args.pg_url, False, db)


if __name__ == "__main__":
    main()
