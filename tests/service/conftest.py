"""Service fixtures: a `MatchService` over the memory store with the toy game."""

from __future__ import annotations

import pytest

from app.service.matches import MatchService
from app.store.memory import MemoryEventStore
from tests.service.toy_game import GAMES


class RecordingNotifier:
    def __init__(self) -> None:
        self.calls: list[tuple[str, int]] = []

    async def notify(self, match_id: str, seq: int) -> None:
        self.calls.append((match_id, seq))


@pytest.fixture
def store() -> MemoryEventStore:
    return MemoryEventStore()


@pytest.fixture
def notifier() -> RecordingNotifier:
    return RecordingNotifier()


@pytest.fixture
def service(store: MemoryEventStore, notifier: RecordingNotifier) -> MatchService:
    return MatchService(store, notifier, games=GAMES, dev_features=True)
