"""Pieces shared by the broadcasters: ref-counted subscriptions, reconnect backoff, task shutdown."""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Iterator

from app.service.ports import MessageHandler

log = logging.getLogger(__name__)


class RefCounts:
    """How many times each match is subscribed. Subscriptions are ref-counted: only the first
    `add` and the last `remove` of a match change what the backend listens to, and a `remove`
    without a matching `add` does nothing."""

    def __init__(self) -> None:
        self._counts: dict[str, int] = {}

    def add(self, match_id: str) -> bool:
        """Count one more subscription; True if it is the first."""
        count = self._counts.get(match_id, 0)
        self._counts[match_id] = count + 1
        return count == 0

    def remove(self, match_id: str) -> bool:
        """Count one subscription less; True if it was the last."""
        count = self._counts.get(match_id, 0)
        if count > 1:
            self._counts[match_id] = count - 1
            return False
        return self._counts.pop(match_id, None) is not None

    def __contains__(self, match_id: object) -> bool:
        return match_id in self._counts

    def __iter__(self) -> Iterator[str]:
        return iter(list(self._counts))

    def __len__(self) -> int:
        return len(self._counts)


class Backoff:
    """Exponential delays with jitter between reconnect attempts."""

    def __init__(self, initial: float = 0.1, maximum: float = 5.0) -> None:
        self._initial = initial
        self._maximum = maximum
        self._next = initial

    def next(self) -> float:
        delay = self._next
        self._next = min(self._next * 2, self._maximum)
        return delay * random.uniform(0.5, 1.0)

    def reset(self) -> None:
        self._next = self._initial


class Listener:
    """What the network broadcasters (PostgreSQL, Redis) share: the handler given to `start` (once),
    the ref-counted subscriptions, the health interval and reconnect backoff of their listening
    connection, and the task that owns it."""

    def __init__(self, health_interval: float, backoff: Backoff | None) -> None:
        self._health_interval = health_interval
        self._backoff = backoff or Backoff()
        self._subs = RefCounts()
        self._handler: MessageHandler | None = None
        self._task: asyncio.Task[None] | None = None

    def _begin(self, handler: MessageHandler) -> None:
        if self._handler is not None:
            raise RuntimeError("broadcaster already started")
        self._handler = handler
