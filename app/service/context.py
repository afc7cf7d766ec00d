"""What every use case runs against: the ports, the games, the clock, the configuration, the caches.

The use cases are plain functions (`app.service.creating`, `seating`, `acting`, `reading`,
`players`, `sampling`) taking a `Context` first; the edges hold one per process (`app.main` builds
it). Nothing here knows HTTP or SQL.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Protocol

from app.games.core import AnyGame
from app.games.registry import GAMES
from app.service.cache import BanCache, MatchLocks, StateCache, TokenCache
from app.service.loading import Loader
from app.service.ports import Clock, EventStore, Notifier, StoredEvent, utcnow

DEFAULT_BOT_LEVELS = ("random", "greedy", "ismcts")


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
    """The notifier until a live hub is wired in (`app.main` sets `Context.notifier`)."""

    async def notify(self, match_id: str, seq: int, events: Sequence[StoredEvent] = ()) -> None:
        return None


class ChatNotifier(Protocol):
    """Told after a chat message is stored (the live hub's `ChatWatchers`)."""

    async def notify(self, match_id: str, chat_seq: int) -> None: ...


class NullChatNotifier:
    async def notify(self, match_id: str, chat_seq: int) -> None:
        return None


class BotWaker(Protocol):
    """Told after a commit that a server bot owes a decision in a match (the bot runner)."""

    def wake(self, match_id: str) -> None: ...


class NoBots:
    """Bots are not run in this process (tests of the service alone; the sweeper picks them up)."""

    def wake(self, match_id: str) -> None:
        return None


@dataclass(frozen=True, slots=True)
class Config:
    dev_features: bool = False  # allow `seed` and an explicit `setup` at creation
    bot_levels: tuple[str, ...] = DEFAULT_BOT_LEVELS
    default_bot_level: str = "greedy"  # `"bots": [1]` without a level
    takeover_bot_level: str = "ismcts"  # timeouts, resignations, host takeovers
    waiting_expiry_s: float | None = 7 * 86_400.0  # a match nobody completes is aborted after this
    idempotency_ttl_s: float = 86_400.0
    samples_per_request: int = 100
    samples_per_seat: int = 10_000  # per match: a budget, so the endpoint cannot be a free CPU
    require_player_key: bool = False  # creating a match needs a player key
    ratings_on_commit: bool = True  # a rated match's end applies its ratings at once (else the sweeper)
    history_page: int = 1000  # events read per store call when folding or redacting history
    chat_rate_messages: int = 5  # per author in any `chat_rate_s` (docs/chat.md)
    chat_rate_s: float = 10.0
    chat_keep_last: int = 100  # per room, never pruned
    chat_retention_s: float = 30 * 86_400.0  # older messages beyond the newest `chat_keep_last` are pruned


@dataclass
class Context:
    store: EventStore
    games: Mapping[str, AnyGame] = field(default_factory=lambda: dict(GAMES))
    clock: Clock = utcnow
    config: Config = field(default_factory=Config)
    metrics: ServiceMetrics = field(default_factory=NullMetrics)
    notifier: Notifier = field(default_factory=NullNotifier)
    chat: ChatNotifier = field(default_factory=NullChatNotifier)
    bots: BotWaker = field(default_factory=NoBots)
    cache_size: int = 1024
    loader: Loader = field(init=False)
    locks: MatchLocks = field(init=False, default_factory=MatchLocks)
    tokens: TokenCache = field(init=False, default_factory=TokenCache)
    chat_refusals: dict[str, datetime] = field(init=False, default_factory=dict)  # chat author -> until
    bans: BanCache = field(init=False, default_factory=BanCache)

    def __post_init__(self) -> None:
        self.loader = Loader(self.store, self.games, StateCache(self.cache_size))
