"""Ports the services need from the outside world, and the records that cross them.

`EventStore` is the truth of every match: an append-only stream per match keyed `(match_id, seq)`,
plus projections written in the same transaction as each append (the matches listing, the seats,
players' personal notices). `Broadcaster` carries only "channel C is at N" between processes. Each
port has an in-memory twin (`app.store.memory`, `app.broadcast.memory`) and one contract test suite
that runs against every implementation.

Seqs and cursors are 64-bit: every method may assume `0 <= seq < 2**63`; the edge refuses larger.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Final, Literal, Protocol, get_args

from app.games import frozen
from app.games.codec import JSON
from app.matches.fold import Status as MatchStatus  # one definition: the fold's

Visibility = Literal["public", "unlisted"]

MAX_SEQ = 2**63 - 1
"""The largest seq or cursor any store keeps (BIGINT)."""


class VersionConflict(Exception):
    """An append at `expected_seq` lost: another writer got there first (nothing was written)."""

    def __init__(self, match_id: str, expected_seq: int, actual_seq: int | None = None) -> None:
        super().__init__(f"match {match_id}: expected seq {expected_seq}, store is at {actual_seq}")
        self.match_id = match_id
        self.expected_seq = expected_seq
        self.actual_seq = actual_seq


@dataclass(frozen=True, slots=True)
class NewEvent:
    """An event to append: its type tag and full (unredacted) JSON payload."""

    type: str
    data: Mapping[str, JSON]


@dataclass(frozen=True, slots=True)
class StoredEvent:
    """An event as stored: the envelope (match, seq, time, commit) around its payload.

    `commit` is the seq of the last event of the commit (the append) this event belongs to: the
    events of one append share it, and the match was at `commit` once that append was applied.
    """

    match_id: str
    seq: int  # 1-based, gap-free within a match
    type: str
    data: Mapping[str, JSON]
    recorded_at: datetime
    commit: int
    # The event decoded, when the process that committed it hands it on (never stored, never
    # compared): saves every local reader decoding it again.
    decoded: object = field(default=None, compare=False, repr=False)


@dataclass(frozen=True, slots=True)
class MatchRecord:
    """The listing projection of a match; `seq` is the last appended event (0 = none yet).

    `secret` is the seed the match's dice are rolled from; it never leaves the server while the
    match runs. `commitment` is SHA-256 over it and the deal, published at creation. `settings`
    holds the match-level settings given at creation (clock, on_timeout, visibility, drafts…);
    `options` the game's options. `deadline_at` is the next moment a sweeper must look at the
    match (a turn clock running out, a waiting match expiring); `bot_due` says a server bot owes
    a decision; `open_seats` counts seats nobody has taken.
    """

    id: str
    game: str
    players: int
    options: Mapping[str, JSON]
    status: MatchStatus
    seq: int
    created_at: datetime
    updated_at: datetime
    secret: str
    commitment: str
    to_act: tuple[int, ...] = ()
    scores: tuple[int, ...] | None = None
    winners: tuple[int, ...] | None = None
    settings: Mapping[str, JSON] = field(default_factory=dict)
    visibility: Visibility = "public"
    host_token_hash: str | None = None
    invite_hash: str | None = None
    deadline_at: datetime | None = None
    open_seats: int = 0
    bot_due: bool = False


@dataclass(frozen=True, slots=True)
class SeatRecord:
    """A seat row: who holds it (a name while taken), how they authenticate, whether a bot plays."""

    match_id: str
    seat: int
    name: str | None = None  # None while the seat is free
    token_hash: str | None = None
    bot: bool = False
    joined_at: datetime | None = None
    player_id: str | None = None  # the player key that holds this seat, if any
    bot_level: str | None = None  # the server bot's level when `bot`


@dataclass(frozen=True, slots=True)
class MatchUpdate:
    """The listing projection as it stands after an append (written in the same transaction)."""

    status: MatchStatus
    to_act: tuple[int, ...]
    scores: tuple[int, ...] | None = None
    winners: tuple[int, ...] | None = None
    deadline_at: datetime | None = None
    open_seats: int = 0
    bot_due: bool = False

    def applied(self, record: MatchRecord, seq: int, at: datetime) -> MatchRecord:
        """`record` as its listing row stands once this update is written at `seq`, `at`."""
        return frozen.replace(  # once per append: the compiled copy, not `dataclasses.replace`'s field walk
            record,
            seq=seq,
            status=self.status,
            to_act=self.to_act,
            scores=self.scores,
            winners=self.winners,
            deadline_at=self.deadline_at,
            open_seats=self.open_seats,
            bot_due=self.bot_due,
            updated_at=at,
        )


@dataclass(frozen=True, slots=True)
class SeatWrite:
    """A seat row's new contents, written with an append (joining, a reissued token, a takeover)."""

    seat: int
    name: str | None
    token_hash: str | None
    bot: bool
    joined_at: datetime | None
    player_id: str | None = None
    bot_level: str | None = None


@dataclass(frozen=True, slots=True)
class IdempotencyRecord:
    """A request that carried an `Idempotency-Key`, kept per (match, seat, key).

    The reply is not stored: a retry rebuilds it from the events `first_seq … last_seq` that the
    first request appended (so a stored reply can never go stale across a deploy).
    """

    match_id: str
    seat: int
    key: str
    request_hash: str  # a different body under the same key is refused, not replayed
    first_seq: int
    last_seq: int


NoticeType = Literal[
    "match_started",
    "your_turn",
    "seat_taken_over",
    "match_ended",
    "seek_matched",
    "challenge_received",
    "challenge_accepted",
    "challenge_declined",
]
"""The kinds of notice a player's personal stream (and its webhooks) carries."""
NOTICE_TYPES: Final[tuple[str, ...]] = get_args(NoticeType)


@dataclass(frozen=True, slots=True)
class NewNotice:
    """A public fact for one player's personal stream (never hidden information)."""

    player_id: str
    type: str
    data: Mapping[str, JSON]


@dataclass(frozen=True, slots=True)
class StoredNotice:
    """A notice as stored: `cursor` is 1-based and gap-free per player."""

    player_id: str
    cursor: int
    type: str
    data: Mapping[str, JSON]
    recorded_at: datetime

    @property
    def seq(self) -> int:
        """The position in the player's stream (what live readers resume after)."""
        return self.cursor


@dataclass(frozen=True, slots=True)
class Append:
    """One commit: events appended as seqs `expected_seq + 1 …` and everything written with them."""

    match_id: str
    expected_seq: int
    events: tuple[NewEvent, ...]
    update: MatchUpdate
    at: datetime
    idempotency: IdempotencyRecord | None = None
    seats: tuple[SeatWrite, ...] = ()
    notices: tuple[NewNotice, ...] = ()


@dataclass(frozen=True, slots=True)
class AppendResult:
    seq: int  # the match's seq after the append
    notices: tuple[StoredNotice, ...] = ()  # the notices written, with their cursors


@dataclass(frozen=True, slots=True)
class MatchFilter:
    """A lobby page: public matches only unless `include_unlisted`; `open`: waiting with free seats."""

    status: MatchStatus | None = None
    game: str | None = None
    open: bool | None = None
    include_unlisted: bool = False
    limit: int = 50
    offset: int = 0


@dataclass(frozen=True, slots=True)
class PlayerRecord:
    id: str
    name: str
    key_hash: str
    created_at: datetime
    cursor: int = 0  # the last notice's cursor
    banned_at: datetime | None = None  # an operator's ban (`app.service.bans`): every request refused
    ban_reason: str | None = None  # for operators only: never shown to the banned player


@dataclass(frozen=True, slots=True)
class PlayerMatchFilter:
    """A page of one player's matches, newest activity (`updated_at`) first."""

    player_id: str
    status: MatchStatus | None = None
    game: str | None = None
    to_act: bool = False  # only matches where a seat this player holds is to act
    limit: int = 50
    offset: int = 0


@dataclass(frozen=True, slots=True)
class PlayerMatch:
    record: MatchRecord
    seat: int


@dataclass(frozen=True, slots=True)
class Snapshot:
    """A folded match state at `seq`, opaque to the store; `version` names the code that made it."""

    match_id: str
    seq: int
    version: str
    data: bytes


class EventStore(Protocol):
    appends_remotely: bool
    """Whether an append's wait is another process's work (a database server's): this process's
    event loop and interpreter are free meanwhile, and a commit renders its reply then
    (`app.service.committing`). Not SQLite's (its writer thread needs this interpreter) nor the
    memory store's (an append does not wait)."""

    async def create_match(
        self, match: MatchRecord, seats: Sequence[SeatRecord], events: Sequence[NewEvent] = ()
    ) -> None:
        """Insert a match, its seats and its first events (seq 1…, one commit) in one transaction.

        `match.seq` must equal `len(events)`; the events are recorded at `match.created_at`. A
        match that exists already raises `ValueError` and nothing is written.
        """
        ...

    async def get_match(self, match_id: str) -> MatchRecord | None: ...

    async def list_matches(self, flt: MatchFilter) -> tuple[list[MatchRecord], int]:
        """A page of matches (newest first) and the total count for the filter."""
        ...

    async def get_seats(self, match_id: str) -> list[SeatRecord]: ...

    async def seat_by_token(self, token_hash: str) -> SeatRecord | None: ...

    async def append(self, append: Append) -> AppendResult:
        """Append one commit and apply everything it carries, atomically.

        Raises `VersionConflict` if the match is not at `expected_seq`, or when a unique key is
        violated (the same seq, the same idempotency key, a player's second seat in a match, a
        token hash in use): then nothing of it is written. `KeyError` for an unknown match.
        """
        ...

    async def read(self, match_id: str, after: int = 0, limit: int | None = None) -> list[StoredEvent]:
        """Events with `seq > after`, in order, at most `limit`."""
        ...

    async def get_idempotent(self, match_id: str, seat: int, key: str) -> IdempotencyRecord | None: ...

    async def prune_idempotency(self, before: datetime) -> int:
        """Forget idempotency keys recorded before `before`; returns how many."""
        ...

    async def due_matches(self, now: datetime, limit: int) -> list[str]:
        """Ids of waiting or active matches whose `deadline_at` is at or before `now`, earliest first."""
        ...

    async def stalled_bots(self, before: datetime, limit: int) -> list[str]:
        """Ids of active matches with `bot_due` whose last update is at or before `before`."""
        ...

    async def create_player(self, player: PlayerRecord) -> None:
        """Insert a player; `ValueError` if the id or the key hash exists."""
        ...

    async def get_player(self, player_id: str) -> PlayerRecord | None: ...

    async def player_by_key(self, key_hash: str) -> PlayerRecord | None: ...

    async def set_player_key(self, player_id: str, key_hash: str) -> bool:
        """Replace a player's key hash (the old key stops working); False for an unknown player."""
        ...

    async def set_ban(self, player_id: str, banned_at: datetime | None, reason: str | None) -> bool:
        """Ban a player (`banned_at` set) or lift its ban (`None`, the reason too); False for an
        unknown player."""
        ...

    async def banned_among(self, player_ids: Collection[str]) -> set[str]:
        """Those of `player_ids` that are banned (unknown ids are not)."""
        ...

    async def player_matches(self, flt: PlayerMatchFilter) -> tuple[list[PlayerMatch], int]: ...

    async def read_notices(
        self, player_id: str, after: int = 0, limit: int | None = None
    ) -> list[StoredNotice]:
        """Notices with `cursor > after`, in order, at most `limit`."""
        ...

    async def get_snapshot(self, match_id: str) -> Snapshot | None: ...

    async def put_snapshot(self, snapshot: Snapshot) -> None:
        """Keep `snapshot` as the match's snapshot unless a newer one (higher seq) is kept already."""
        ...

    async def ping(self) -> None:
        """Raise if the store is unreachable (readiness)."""
        ...

    async def close(self) -> None: ...


MessageHandler = Callable[[str, int], None]


class Broadcaster(Protocol):
    """Carries "channel C is at N" to every process; never any content.

    Channels are match ids, and `player:<player id>` for personal streams. A process calls
    `start` once with its handler, `subscribe`/`unsubscribe` per channel it serves, and `publish`
    (or `publish_many`) after commits. Delivery is best effort and may repeat or reorder; readers
    always read the store after their own cursor, so nothing is lost or doubled.
    """

    async def start(self, handler: MessageHandler) -> None: ...

    async def stop(self) -> None: ...

    async def publish(self, match_id: str, seq: int) -> None: ...

    async def publish_many(self, items: Sequence[tuple[str, int]]) -> None:
        """`publish` each (channel, seq) of `items`, in order: one round trip for a network
        broadcaster, however many there are."""
        ...

    async def subscribe(self, match_id: str) -> None: ...

    async def unsubscribe(self, match_id: str) -> None: ...


Clock = Callable[[], datetime]
"""Injected time source, so services and tests agree on `now` (`app.service.ports.utcnow`)."""


def utcnow() -> datetime:
    return datetime.now(UTC)


class Notifier(Protocol):
    """Told after every commit that channel C is now at N (the live hub implements it).

    `events` are the committed events when the caller has them: readers in this process then need
    not read them back from the store (other processes still do, on the broadcast)."""

    async def notify(self, match_id: str, seq: int, events: Sequence[StoredEvent] = ()) -> None: ...


def player_channel(player_id: str) -> str:
    """The broadcaster channel of a player's personal stream."""
    return f"player:{player_id}"


__all__ = [
    "MAX_SEQ",
    "Append",
    "AppendResult",
    "Broadcaster",
    "Clock",
    "EventStore",
    "IdempotencyRecord",
    "MatchFilter",
    "MatchRecord",
    "MatchStatus",
    "MatchUpdate",
    "MessageHandler",
    "NewEvent",
    "NewNotice",
    "Notifier",
    "PlayerMatch",
    "PlayerMatchFilter",
    "PlayerRecord",
    "SeatRecord",
    "SeatWrite",
    "Snapshot",
    "StoredEvent",
    "StoredNotice",
    "VersionConflict",
    "Visibility",
    "utcnow",
]
