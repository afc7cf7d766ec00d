"""Small seams the service calls out through: metrics, the default notifier, server bots' policy.

Adapters live outside (`app.api.metrics` counts into Prometheus; `app.service.live.LiveHub`
implements `Notifier`); the defaults here do nothing, so the service runs alone in tests.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Protocol

from app.games.codec import JSON


class ServiceMetrics(Protocol):
    def match_created(self, game: str) -> None: ...

    def action_appended(self, game: str, bot: bool) -> None: ...

    def version_conflict(self, game: str) -> None: ...


class NullMetrics:
    def match_created(self, game: str) -> None:
        return None

    def action_appended(self, game: str, bot: bool) -> None:
        return None

    def version_conflict(self, game: str) -> None:
        return None


class NullNotifier:
    """The notifier until a live hub is wired in (`app.main` swaps it on `app.state.notifier`)."""

    async def notify(self, match_id: str, seq: int) -> None:
        return None


class BotPolicy(Protocol):
    """A bot decides over exactly what its seat may see: its view and its legal actions."""

    def choose(self, view: JSON, legal_actions: Sequence[Any], rng: random.Random) -> Any: ...


class RandomBot:
    """Plays a uniformly random legal action."""

    def choose(self, view: JSON, legal_actions: Sequence[Any], rng: random.Random) -> Any:
        return rng.choice(legal_actions)
