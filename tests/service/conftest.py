"""Service fixtures: a `Context` over the memory store with the toy game, and a settable clock."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime, timedelta

import pytest

from app.service.context import Config, Context
from app.service.ports import StoredEvent
from app.store.memory import MemoryEventStore
from tests.service.toy_game import GAMES


class RecordingNotifier:
    def __init__(self) -> None:
        self.calls: list[tuple[str, int]] = []

    async def notify(self, match_id: str, seq: int, events: Sequence[StoredEvent] = ()) -> None:
        self.calls.append((match_id, seq))


class FakeClock:
    """A clock that only moves when told to."""

    def __init__(self) -> None:
        self.now = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)

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
def store() -> MemoryEventStore:
    return MemoryEventStore()


@pytest.fixture
def notifier() -> RecordingNotifier:
    return RecordingNotifier()


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def bots() -> RecordingBots:
    return RecordingBots()


@pytest.fixture
def ctx(
    store: MemoryEventStore, notifier: RecordingNotifier, clock: FakeClock, bots: RecordingBots
) -> Context:
    return Context(store, GAMES, clock, Config(dev_features=True), notifier=notifier, bots=bots)
