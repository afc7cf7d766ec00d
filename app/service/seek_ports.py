"""The port of matchmaking's store: seeks, and the claim that turns a group of them into a match.

A seek lives in the database, not in a connection: `SeekStore` keeps them beside the event store
(the same database, the same transactions). `claim` is the one write that matters: it takes a group
of open seeks, creates the match with the seekers seated (match row, seats, first commit) and writes
the players' notices, all in ONE transaction, or writes nothing when any of the seeks is no longer
open (another process claimed, cancelled or expired it first). So any number of processes may match
at once with no leader and no double match: PostgreSQL locks the seeks `FOR UPDATE SKIP LOCKED`,
SQLite has one writer at a time. Each implementation (`app.store.seeks_memory`, `seeks_sqlite`,
`seeks_postgres`) runs the same contract tests.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Literal, Protocol

from app.games.codec import JSON
from app.service.ports import MatchRecord, NewEvent, NewNotice, SeatRecord, StoredNotice

SeekStatus = Literal["open", "matched", "cancelled", "expired"]
ChallengeStatus = Literal["open", "accepted", "declined", "expired"]
Opponents = Literal["humans", "bots", "any"]


@dataclass(frozen=True, slots=True)
class SeekRecord:
    """A seek as stored.

    `counts` are the acceptable player counts (ascending); `options` the game options as the seeker
    sent them and `settings` the match settings normalized, both as canonical JSON; `key` is a digest
    of game, options and settings (seeks can only match within one key). `bot` says whether the
    seeking player is a bot; `opponents` which seekers it accepts (`humans`, `bots`, `any`);
    `bots_after_s` after how long server bots may fill the missing seats (None: never). `match_id`
    and `seat` are set once the seek is matched. `rating_range` bounds (inclusive) the displayed
    ratings of the other seekers it accepts (None: any). `rating` is not stored: it is the seeker's
    displayed rating in the game, which the matcher looks up before planning (0 until then).
    """

    id: str
    player_id: str
    name: str
    game: str
    counts: tuple[int, ...]
    options: Mapping[str, JSON]
    settings: Mapping[str, JSON]
    key: str
    opponents: Opponents
    bot: bool
    bots_after_s: float | None
    created_at: datetime
    expires_at: datetime
    status: SeekStatus = "open"
    match_id: str | None = None
    seat: int | None = None
    rating_range: tuple[float, float] | None = None
    rating: float = 0.0


@dataclass(frozen=True, slots=True)
class MatchWrite:
    """A match created with its players seated: the match, its seats and its first commit, written
    as `EventStore.create_match` writes them, and the notices, written as an append's."""

    match: MatchRecord
    seat_rows: tuple[SeatRecord, ...]
    events: tuple[NewEvent, ...]
    notices: tuple[NewNotice, ...]


@dataclass(frozen=True, slots=True)
class SeekClaim:
    """A group of open seeks becoming one match: `seats` maps each seek id to its seat."""

    seats: Mapping[str, int]
    write: MatchWrite


@dataclass(frozen=True, slots=True)
class ChallengeRecord:
    """A challenge as stored: `from_id` invites `to_ids` to a match of `players` seats. `answers`
    maps each invited player who answered to `accepted` or `declined`; `version` counts the writes
    (an update is conditional on the version it read)."""

    id: str
    from_id: str
    from_name: str
    to_ids: tuple[str, ...]
    to_names: tuple[str, ...]
    game: str
    players: int
    options: Mapping[str, JSON]
    settings: Mapping[str, JSON]
    created_at: datetime
    expires_at: datetime
    status: ChallengeStatus = "open"
    answers: Mapping[str, str] = field(default_factory=dict)
    reason: str | None = None
    match_id: str | None = None
    version: int = 1


@dataclass(frozen=True, slots=True)
class WebhookRecord:
    """A player's webhook: its notices of the types `events` are POSTed to `url`, signed with
    `secret`. `cursor` is the last notice handled (delivered, skipped or given up); `attempts` the
    failed tries of the next one, failing since `failing_since`; `next_at` the next try; a process
    holds `lease_until` while it delivers."""

    id: str
    player_id: str
    url: str
    events: tuple[str, ...]
    secret: str
    created_at: datetime
    cursor: int
    attempts: int = 0
    failing_since: datetime | None = None
    next_at: datetime | None = None
    lease_until: datetime | None = None


@dataclass(frozen=True, slots=True)
class AttemptRecord:
    """One delivery attempt: the notice at `cursor` (its delivery id), how it went."""

    webhook_id: str
    delivery_id: str
    cursor: int
    type: str
    attempt: int
    at: datetime
    outcome: Literal["delivered", "retry", "failed"]
    status_code: int | None = None
    error: str | None = None


@dataclass(frozen=True, slots=True)
class WebhookProgress:
    """A webhook's state after a delivery attempt (written with the attempt, the lease released)."""

    cursor: int
    attempts: int
    failing_since: datetime | None
    next_at: datetime | None


class SeekStore(Protocol):
    async def add_seek(self, seek: SeekRecord, max_open: int, now: datetime) -> bool:
        """Insert `seek` unless its player holds `max_open` open, unexpired seeks already (False)."""
        ...

    async def get_seek(self, seek_id: str) -> SeekRecord | None: ...

    async def open_seeks(self, now: datetime, limit: int, game: str | None = None) -> list[SeekRecord]:
        """Open seeks not expired at `now`, oldest first (`created_at`, then id)."""
        ...

    async def player_seeks(self, player_id: str, limit: int) -> list[SeekRecord]:
        """A player's seeks in every status, newest first."""
        ...

    async def cancel_seek(self, seek_id: str) -> bool:
        """Mark an open seek cancelled; False when it is not open (any more)."""
        ...

    async def expire_seeks(self, now: datetime) -> int:
        """Mark every open seek whose `expires_at` is at or before `now` expired; returns how many."""
        ...

    async def claim(self, claim: SeekClaim) -> tuple[StoredNotice, ...] | None:
        """Claim the seeks and create the match in one transaction (see the module docstring).

        Returns the notices written, or None when a seek was not open: then nothing is written."""
        ...

    # Challenges and the players' bot flag live beside the seeks.

    async def add_challenge(
        self, challenge: ChallengeRecord, notices: Sequence[NewNotice]
    ) -> tuple[StoredNotice, ...]:
        """Insert a challenge and write its notices in one transaction (`KeyError`: a player unknown)."""
        ...

    async def get_challenge(self, challenge_id: str) -> ChallengeRecord | None: ...

    async def player_challenges(self, player_id: str, limit: int) -> list[ChallengeRecord]:
        """Challenges the player sent or received, newest first."""
        ...

    async def update_challenge(
        self, challenge: ChallengeRecord, write: MatchWrite | None, notices: Sequence[NewNotice], at: datetime
    ) -> tuple[StoredNotice, ...] | None:
        """Replace the challenge by `challenge` if the stored one is at `challenge.version - 1`, create
        the match of `write` and write the notices (recorded at `at`), in one transaction; None
        (nothing written) when another write came first."""
        ...

    async def expire_challenges(self, now: datetime) -> int:
        """Mark open challenges whose `expires_at` is at or before `now` expired; how many."""
        ...

    async def player_bot(self, player_id: str) -> bool | None:
        """Whether the player says it is a bot; None for an unknown player."""
        ...

    async def set_player_bot(self, player_id: str, bot: bool) -> bool:
        """Set the player's bot flag; False for an unknown player."""
        ...

    # Webhooks: the notices table is their outbox.

    async def add_webhook(self, webhook: WebhookRecord) -> None: ...

    async def get_webhook(self, webhook_id: str) -> WebhookRecord | None: ...

    async def player_webhooks(self, player_id: str) -> list[WebhookRecord]: ...

    async def delete_webhook(self, webhook_id: str) -> bool: ...

    async def due_webhooks(self, now: datetime, limit: int) -> list[str]:
        """Webhooks with notices after their cursor, due (`next_at`) and not leased at `now`."""
        ...

    async def lease_webhook(self, webhook_id: str, now: datetime, until: datetime) -> WebhookRecord | None:
        """Take the webhook's lease unless another process holds it at `now`; its record, or None."""
        ...

    async def webhook_progress(
        self, webhook_id: str, progress: WebhookProgress, attempt: AttemptRecord | None
    ) -> None:
        """Write the webhook's new state and the attempt (if any) in one transaction; keeps the lease."""
        ...

    async def release_webhook(self, webhook_id: str) -> None: ...

    async def webhook_attempts(self, webhook_id: str, limit: int) -> list[AttemptRecord]:
        """The last attempts, newest first."""
        ...


__all__ = [
    "AttemptRecord",
    "ChallengeRecord",
    "ChallengeStatus",
    "MatchWrite",
    "Opponents",
    "SeekClaim",
    "SeekRecord",
    "SeekStatus",
    "SeekStore",
    "WebhookProgress",
    "WebhookRecord",
]
