"""Server bots play outside every request: creation returns at once, reads never write, the runner
plays when woken and appends with `expected_seq` like any client."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from app.matches.fold import decode
from app.service import acting, reading, seating
from app.service.auth import identify
from app.service.bots import BotRunner, history_for, random_chooser
from app.service.context import Config, Context
from app.service.errors import Unavailable
from app.store.memory import MemoryEventStore
from tests.service.helpers import ORDER, create, seated
from tests.service.toy_game import GAMES, TOY


async def test_creation_and_reads_never_play_bots(ctx: Context, store: MemoryEventStore) -> None:
    match_id = await create(ctx, bots={0: "random", 1: "random"})
    assert len(await store.read(match_id)) == 4  # dealt, two seats, start: no move yet
    for _ in range(3):
        await reading.get_view(ctx, match_id, None)
        await reading.get_summary(ctx, match_id)
    assert len(await store.read(match_id)) == 4
    record = await store.get_match(match_id)
    assert record is not None and record.bot_due


async def test_the_runner_plays_a_match_of_bots_to_the_end(store: MemoryEventStore) -> None:
    ctx = Context(store, GAMES, config=Config(dev_features=True))
    runner = BotRunner(ctx, random_chooser, ThreadPoolExecutor(1))
    ctx.bots = runner
    await runner.start()
    try:
        match_id = await create(ctx, bots={0: "random", 1: "random"}, options={"rounds": 4})
        for _ in range(200):
            if (await reading.get_summary(ctx, match_id)).status == "finished":
                break
            await asyncio.sleep(0.01)
        summary = await reading.get_summary(ctx, match_id)
        assert summary.status == "finished" and runner.decisions == 8
    finally:
        await runner.stop()


async def test_a_bot_sees_only_its_seat(ctx: Context, store: MemoryEventStore) -> None:
    seen: list[tuple[Any, ...]] = []

    def spy(
        level: str, game: str, seat: int, history: tuple[Any, ...], legal: tuple[Any, ...], seed: int
    ) -> Any:
        seen.append(history)
        return legal[0]

    match_id, (ann, _) = await seated(ctx, setup={"order": ORDER})
    await acting.submit_action(ctx, match_id, ann, {"type": "play", "card": 1})
    runner = BotRunner(ctx, spy)
    assert await runner.play(match_id) == 0  # no bot seat: nothing to do
    bot_match = await create(ctx, bots={1: "random"}, setup={"order": ORDER})
    grant = await seating.join_seat(ctx, bot_match, 0, "ann")
    await acting.submit_action(ctx, bot_match, await identify(ctx, grant.token), {"type": "play", "card": 1})
    assert await runner.play(bot_match) == 1
    history = seen[0]
    assert history[0] == {"type": "dealt", "hand": [4, 5, 6], "deck_size": 6, "rounds": 3}
    assert {"type": "drew", "seat": 0, "card": None} in history  # not ann's card
    stored = [e for e in await store.read(bot_match) if e.type in TOY.event_types]
    assert list(history) == list(history_for(TOY, [decode(TOY, e) for e in stored][: len(history)], 1))


async def test_a_choice_whose_append_met_an_outage_is_appended_later_without_searching_again(
    ctx: Context, store: MemoryEventStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    seeds: list[int] = []

    def counting(level: str, game: str, seat: int, history: Any, legal: Any, seed: int) -> Any:
        seeds.append(seed)
        return random_chooser(level, game, seat, history, legal, seed)

    match_id = await create(ctx, bots={0: "random", 1: "random"}, options={"rounds": 4})
    runner = BotRunner(ctx, counting)

    async def down(append: Any) -> Any:
        raise Unavailable("the database is unreachable")

    with monkeypatch.context() as patch:
        patch.setattr(store, "append", down)
        assert await runner.play(match_id) == 0 and runner.searches == 1
    assert await runner.play(match_id) == 8  # the first decision is the choice kept from before
    assert runner.searches == 8 and len(seeds) == len(set(seeds)) == 8
