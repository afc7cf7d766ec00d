"""One search per bot decision across processes: two bot runners (two "processes": each its own
store, pool and claims connection) on one PostgreSQL database, woken for the same matches at the
same moment. Every decision is searched exactly once (`BotRunner.searches`); the control without
shared claims searches the first decision twice, so the count can fail. A claim dies with its
holder's connection (a SIGKILLed process), so another process may take the decision at once."""

from __future__ import annotations

import asyncio
import threading
from collections import Counter
from collections.abc import AsyncIterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import AsyncExitStack, asynccontextmanager
from typing import Any

import pytest

from app.service import reading
from app.service.bots import BotRunner, random_chooser
from app.service.context import Config, Context
from app.service.leases import BotClaims, LocalClaims
from app.store.claims import PostgresClaims
from app.store.factory import create_store, parse_url
from app.store.migrate import upgrade_async
from tests.api.helpers import eventually
from tests.service.helpers import create
from tests.service.toy_game import GAMES

pytestmark = pytest.mark.postgres

DECISIONS = 8  # two bots, four rounds of the toy game


async def test_a_claim_is_exclusive_and_dies_with_its_holder(postgres_url: str) -> None:
    dsn = parse_url(postgres_url).target
    a, b = PostgresClaims(dsn), PostgresClaims(dsn)
    try:
        async with a.claim("m1") as mine:
            assert mine
            async with b.claim("m1") as theirs, b.claim("m2") as other:
                assert not theirs and other  # per match
            async with a.claim("m1") as again:
                assert not again  # held by this process already (another task of it)
        async with b.claim("m1") as theirs:
            assert theirs  # released at the end of the block
        async with a.claim("m1") as mine:
            assert mine
            a._conn.terminate()  # the process dies: its connection goes, the claim with it

            async def taken_over() -> bool:  # once the server has seen the connection end
                async with b.claim("m1") as theirs:
                    return theirs

            assert await eventually(taken_over, "the claim freed by the dead holder")
        async with a.claim("m1") as mine:
            assert mine  # a fresh connection after the broken one
    finally:
        await a.close()
        await b.close()


@asynccontextmanager
async def two_processes(url: str, claims: list[BotClaims], chooser: Any) -> AsyncIterator[list[BotRunner]]:
    async with AsyncExitStack() as stack:
        runners = []
        for c in claims:
            store = create_store(url, pool_size=2)
            stack.push_async_callback(store.close)
            stack.push_async_callback(c.close)
            executor = ThreadPoolExecutor(1)
            stack.callback(executor.shutdown)
            ctx = Context(store, GAMES, config=Config(dev_features=True))
            runners.append(BotRunner(ctx, chooser, executor, claims=c))
        yield runners


async def play_out(runners: list[BotRunner], match_id: str) -> None:
    ctx = runners[0].ctx
    for _ in range(100):
        if (await reading.get_summary(ctx, match_id)).status == "finished":
            return
        await asyncio.gather(*(r.play(match_id) for r in runners))  # woken together, as by sweepers
    raise AssertionError("the match did not finish")


async def test_two_processes_woken_together_search_each_decision_once(postgres_url: str) -> None:
    await upgrade_async(postgres_url)
    dsn = parse_url(postgres_url).target
    searched: Counter[tuple[str, int]] = Counter()
    lock = threading.Lock()

    def chooser(level: str, game: str, seat: int, history: Any, legal: Any, seed: int) -> Any:
        with lock:
            searched[(game, seed)] += 1
        threading.Event().wait(0.02)  # a search takes a while: long enough for the other to try
        return random_chooser(level, game, seat, history, legal, seed)

    async with two_processes(postgres_url, [PostgresClaims(dsn), PostgresClaims(dsn)], chooser) as runners:
        matches = [
            await create(runners[0].ctx, bots={0: "random", 1: "random"}, options={"rounds": 4})
            for _ in range(3)
        ]
        await asyncio.gather(*(play_out(runners, m) for m in matches))
        made = sum(r.decisions for r in runners)
        assert made == DECISIONS * len(matches)
        assert sum(r.searches for r in runners) == made  # every search led to its decision
        assert max(searched.values()) == 1 and sum(searched.values()) == made
        assert all(r.searches > 0 for r in runners) or sum(r.declined for r in runners) > 0


async def test_the_control_without_shared_claims_searches_a_decision_twice(postgres_url: str) -> None:
    await upgrade_async(postgres_url)
    both_in = threading.Barrier(2, timeout=30)
    first: set[int] = set()

    def chooser(level: str, game: str, seat: int, history: Any, legal: Any, seed: int) -> Any:
        if not first or seed in first:
            first.add(seed)
            both_in.wait()  # both processes search the first decision: nothing stops them
        return random_chooser(level, game, seat, history, legal, seed)

    async with two_processes(postgres_url, [LocalClaims(), LocalClaims()], chooser) as runners:
        match_id = await create(runners[0].ctx, bots={0: "random", 1: "random"}, options={"rounds": 4})
        await asyncio.gather(*(r.play(match_id) for r in runners))
        assert sum(r.searches for r in runners) > sum(r.decisions for r in runners)
