"""Matchmaking fixtures: a `Matchmaking` over each backend (memory, SQLite, PostgreSQL), a settable
clock, players with keys."""

from __future__ import annotations

import itertools
import uuid
from collections.abc import AsyncIterator, Mapping
from datetime import UTC, datetime, timedelta

import pytest

from app.service.auth import Caller, identify
from app.service.context import Config, Context
from app.service.errors import NameTaken
from app.service.players import create_player
from app.service.ports import MatchRecord
from app.service.rating_ports import RatedMatch, RatingRecord
from app.service.rating_projection import rating_store
from app.service.seeks import Matchmaking
from app.store.factory import create_store
from app.store.memory import MemoryEventStore
from app.store.seeks_factory import seek_store_for
from tests.store.conftest import migrated_postgres_url, migrated_sqlite_url, store_url

__all__ = ["migrated_postgres_url", "migrated_sqlite_url", "store_url"]

SIGMA = 2.0  # every planted rating's σ: displayed rating = μ − 6

_EPOCHS = itertools.count()


class FakeClock:
    """A clock that only moves when told to. Each starts 30 days after the one before, so that on
    the PostgreSQL database a run shares, every earlier test's seeks have expired (they last at most
    seven days) and a matcher pass sees only its own test's seeks."""

    def __init__(self) -> None:
        self.now = datetime(2026, 1, 1, 12, 0, tzinfo=UTC) + timedelta(days=30 * next(_EPOCHS))

    def __call__(self) -> datetime:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)


class RecordingBots:
    def __init__(self) -> None:
        self.woken: list[str] = []

    def wake(self, match_id: str) -> None:
        self.woken.append(match_id)


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


def matchmaking(url: str | None, clock: FakeClock, **kw: object) -> Matchmaking:
    store = MemoryEventStore() if url is None else create_store(url)
    ctx = Context(store, clock=clock, config=Config(), bots=RecordingBots())
    return Matchmaking(ctx, seek_store_for(store), **kw)  # type: ignore[arg-type]


@pytest.fixture
async def mm(store_url: str | None, clock: FakeClock) -> AsyncIterator[Matchmaking]:
    m = matchmaking(store_url, clock)
    try:
        yield m
    finally:
        await m.ctx.store.close()


async def new_player(mm: Matchmaking, name: str = "ann") -> Caller:
    """A new player named `name`, or `name#n` when it is taken (names are unique in a deployment, and
    the PostgreSQL tests share one database)."""
    taken = 1
    while True:
        try:
            key = await create_player(mm.ctx, name if taken == 1 else f"{name}#{taken}")
        except NameTaken:
            taken += 1
            continue
        return await identify(mm.ctx, key.key)


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def sql_url(request: pytest.FixtureRequest) -> str:
    """A migrated SQL database (synchronous: migrating runs its own event loop)."""
    url: str = request.getfixturevalue(f"migrated_{request.param}_url")
    return url


async def plant(mm: Matchmaking, game: str, displayed: Mapping[str, float]) -> None:
    """Give players (or built-in bots) these displayed ratings in `game`, as one applied match."""
    store = rating_store(mm.ctx)
    now = mm.ctx.clock()
    match = MatchRecord(uuid.uuid4().hex, game, 2, {}, "finished", 0, now, now, "s", "c")
    await mm.ctx.store.create_match(match, ())
    planted = sorted(displayed.items())
    # One game each: provisional, so off the leaderboard of the database other tests share.
    rows = tuple(RatingRecord(p, game, r + 3 * SIGMA, SIGMA, 1, 0, now) for p, r in planted)
    await store.apply_rated(RatedMatch(await store.rating_cursor() + 1, match.id, game, now, rows, ()))
