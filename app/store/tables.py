"""The SQL schema of the event store, as SQLAlchemy Core tables on one `MetaData`.

Alembic owns the schema in a database (`migrations/`); these definitions are what autogenerate
and `alembic check` compare the migrated database with, and the reference the stores' hand-written
SQL (`app.store.sqlite_*`, `app.store.postgres_*`) is written against: the stores do not import
this module, so SQLAlchemy stays out of the running server. Strings are unbounded (`String()`) so
SQLite and PostgreSQL accept the same values; limits belong at the edge. Seqs and cursors are
64-bit (`BigInteger`). Times are stored in UTC and read back timezone-aware, on SQLite too.

The lobby indexes are ascending: `ORDER BY created_at DESC, id DESC` is the same index scanned
backwards, on both databases.
"""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    CheckConstraint,
    Column,
    DateTime,
    Dialect,
    Double,
    Float,
    ForeignKey,
    ForeignKeyConstraint,
    Index,
    Integer,
    LargeBinary,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
    false,
    text,
)
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.types import TypeDecorator

from app.store.rows import require_aware

NAMING_CONVENTION = {
    "ix": "ix_%(table_name)s_%(column_0_N_name)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_N_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

metadata = MetaData(naming_convention=NAMING_CONVENTION)


class UTCDateTime(TypeDecorator[datetime]):
    """`TIMESTAMP WITH TIME ZONE` that refuses naive datetimes and always returns UTC-aware ones.

    SQLite has no time zones: the value is stored as naive UTC text and tagged UTC on the way out.
    """

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        value = require_aware(value).astimezone(UTC)
        return value.replace(tzinfo=None) if dialect.name == "sqlite" else value

    def process_result_value(self, value: object, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        assert isinstance(value, datetime)
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value


# JSON text on SQLite, JSONB on PostgreSQL.
Json = JSON().with_variant(JSONB(), "postgresql")

matches = Table(
    "matches",
    metadata,
    Column("id", String(), primary_key=True),
    Column("game", String(), nullable=False),
    Column("players", Integer(), nullable=False),
    Column("options", Json, nullable=False),
    Column("status", String(), nullable=False),
    Column("seq", BigInteger(), nullable=False),
    Column("created_at", UTCDateTime(), nullable=False),
    Column("updated_at", UTCDateTime(), nullable=False),
    Column("secret", String(), nullable=False),
    Column("commitment", String(), nullable=False),
    Column("to_act", Json, nullable=False),
    Column("scores", Json, nullable=True),
    Column("winners", Json, nullable=True),
    Column("settings", Json, nullable=False, server_default=text("'{}'")),
    Column("visibility", String(), nullable=False, server_default="public"),
    Column("host_token_hash", String(), nullable=True),
    Column("invite_hash", String(), nullable=True),
    Column("deadline_at", UTCDateTime(), nullable=True),
    Column("open_seats", Integer(), nullable=False, server_default="0"),
    Column("bot_due", Boolean(create_constraint=False), nullable=False, server_default=false()),
    CheckConstraint("status IN ('waiting', 'active', 'finished', 'aborted')", name="status"),
    CheckConstraint("visibility IN ('public', 'unlisted')", name="visibility"),
    CheckConstraint("seq >= 0", name="seq"),
    CheckConstraint("open_seats >= 0", name="open_seats"),
    # The lobby: a page filters on visibility (unless unlisted matches are included), then maybe on
    # status (`open` is status 'waiting' with free seats) and game, ordered by (created_at, id).
    Index(None, "created_at", "id"),
    Index(None, "visibility", "status", "created_at", "id"),
    Index(None, "visibility", "game", "created_at", "id"),
    Index(None, "visibility", "game", "status", "created_at", "id"),
    # A page's total over public matches (every lobby query but the operators' `include_unlisted`):
    # a count read from this narrow index alone, never from the wide rows. Counting the 95,000 public
    # matches of a 100,000-match lobby on PostgreSQL went from 38 ms (a sequential scan) to 15 ms,
    # a finished game's 42,000 from 18 to 9 (`python -m bench.store_append --pg …`). Its columns
    # change only when a match's status or free seats do, so an action's update stays HOT.
    Index(
        "ix_matches_public_counts",
        "game",
        "status",
        "open_seats",
        postgresql_where=text("visibility = 'public'"),
        sqlite_where=text("visibility = 'public'"),
    ),
    # The sweepers: deadlines due, and bots that owe a decision. No index holds `updated_at`, which
    # every append changes, so PostgreSQL can update a match's row in place (HOT) whenever no
    # indexed column changed: measured with 16 writers, 99.9% of the appends' updates were HOT and
    # appends/s rose 12% against an index on (bot_due, updated_at, id), which made none HOT.
    # The stalled bots are few: read through a partial index, then sorted.
    Index(None, "deadline_at", "id"),
    Index(
        "ix_matches_bot_due",
        "id",
        postgresql_where=text("bot_due AND status = 'active'"),
        sqlite_where=text("bot_due = 1 AND status = 'active'"),
    ),
)

players = Table(
    "players",
    metadata,
    Column("id", String(), primary_key=True),
    Column("name", String(), nullable=False),
    Column("key_hash", String(), nullable=False, unique=True),
    Column("created_at", UTCDateTime(), nullable=False),
    Column("cursor", BigInteger(), nullable=False, server_default="0"),  # the last notice's
    # Whether the player says it is a bot (`PATCH /v1/players/me`); seeks and challenges show it.
    Column("bot", Boolean(create_constraint=False), nullable=False, server_default=false()),
    # The name case-folded (`app.service.names.name_key`): names are unique regardless of case.
    # Null only in rows a migration could not fill, which 0005 leaves none of.
    Column("name_key", String(), nullable=True),
    # A ban (`python -m app admin ban`, docs/moderation.md): when and why; both null when not banned.
    Column("banned_at", UTCDateTime(), nullable=True),
    Column("ban_reason", Text(), nullable=True),
    CheckConstraint("cursor >= 0", name="cursor"),
    Index("ix_players_name_key", "name_key", unique=True),
)

seats = Table(
    "seats",
    metadata,
    Column("match_id", String(), ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer(), primary_key=True),
    Column("name", String(), nullable=True),
    Column("token_hash", String(), nullable=True, unique=True),
    Column("bot", Boolean(create_constraint=False), nullable=False),
    Column("joined_at", UTCDateTime(), nullable=True),
    Column("player_id", String(), ForeignKey("players.id"), nullable=True),
    Column("bot_level", String(), nullable=True),
    UniqueConstraint("match_id", "player_id"),  # one seat per player in a match
    Index(None, "player_id"),  # a player's matches
)

events = Table(
    "events",
    metadata,
    Column("match_id", String(), ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True),
    Column("seq", BigInteger(), primary_key=True),
    Column("commit_seq", BigInteger(), nullable=False),  # the last seq of the append it came with
    Column("type", String(), nullable=False),
    Column("data", Json, nullable=False),
    Column("recorded_at", UTCDateTime(), nullable=False),
    CheckConstraint("seq >= 1", name="seq"),
    CheckConstraint("commit_seq >= seq", name="commit_seq"),
)

idempotency_keys = Table(
    "idempotency_keys",
    metadata,
    Column("match_id", String(), primary_key=True),
    Column("seat", Integer(), primary_key=True),
    Column("key", String(), primary_key=True),
    Column("request_hash", String(), nullable=False),
    Column("first_seq", BigInteger(), nullable=False),
    Column("last_seq", BigInteger(), nullable=False),
    Column("created_at", UTCDateTime(), nullable=False),
    ForeignKeyConstraint(["match_id", "seat"], ["seats.match_id", "seats.seat"], ondelete="CASCADE"),
    Index(None, "created_at"),  # pruning
)

notices = Table(
    "notices",
    metadata,
    Column("player_id", String(), ForeignKey("players.id", ondelete="CASCADE"), primary_key=True),
    Column("cursor", BigInteger(), primary_key=True),
    Column("type", String(), nullable=False),
    Column("data", Json, nullable=False),
    Column("recorded_at", UTCDateTime(), nullable=False),
)

snapshots = Table(
    "snapshots",
    metadata,
    Column("match_id", String(), ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True),
    Column("seq", BigInteger(), nullable=False),
    Column("version", String(), nullable=False),
    Column("data", LargeBinary(), nullable=False),
    Column("created_at", UTCDateTime(), nullable=False),
)

# Matchmaking (`app.service.seek_ports`): seeks live here, not in a connection. `key` is a digest of
# game, options and settings; `counts` the acceptable player counts (a JSON list). The matcher reads
# the open seeks oldest first; a player's open seeks are counted for the cap.
seeks = Table(
    "seeks",
    metadata,
    Column("id", String(), primary_key=True),
    Column("player_id", String(), ForeignKey("players.id", ondelete="CASCADE"), nullable=False),
    Column("name", String(), nullable=False),
    Column("game", String(), nullable=False),
    Column("counts", Json, nullable=False),
    Column("options", Json, nullable=False),
    Column("settings", Json, nullable=False),
    Column("key", String(), nullable=False),
    Column("opponents", String(), nullable=False),
    Column("bot", Boolean(create_constraint=False), nullable=False),
    Column("bots_after_s", Float(), nullable=True),
    Column("created_at", UTCDateTime(), nullable=False),
    Column("expires_at", UTCDateTime(), nullable=False),
    Column("status", String(), nullable=False),
    Column("match_id", String(), ForeignKey("matches.id", ondelete="SET NULL"), nullable=True),
    Column("seat", Integer(), nullable=True),
    CheckConstraint("status IN ('open', 'matched', 'cancelled', 'expired')", name="status"),
    CheckConstraint("opponents IN ('humans', 'bots', 'any')", name="opponents"),
    Index(None, "status", "created_at", "id"),
    Index(None, "player_id", "status"),
)

# Challenges: a player invites named players (`to_ids`, a JSON list) to a match; `answers` maps each
# invited player who answered to "accepted" or "declined"; `version` orders the writes (each update
# is conditional on the version it read). The match is created when the last one accepts.
challenges = Table(
    "challenges",
    metadata,
    Column("id", String(), primary_key=True),
    Column("from_id", String(), ForeignKey("players.id", ondelete="CASCADE"), nullable=False),
    Column("from_name", String(), nullable=False),
    Column("to_ids", Json, nullable=False),
    Column("to_names", Json, nullable=False),
    Column("game", String(), nullable=False),
    Column("players", Integer(), nullable=False),
    Column("options", Json, nullable=False),
    Column("settings", Json, nullable=False),
    Column("status", String(), nullable=False),
    Column("answers", Json, nullable=False),
    Column("reason", String(), nullable=True),
    Column("created_at", UTCDateTime(), nullable=False),
    Column("expires_at", UTCDateTime(), nullable=False),
    Column("match_id", String(), ForeignKey("matches.id", ondelete="SET NULL"), nullable=True),
    Column("version", Integer(), nullable=False),
    CheckConstraint("status IN ('open', 'accepted', 'declined', 'expired')", name="status"),
    Index(None, "from_id", "created_at"),
    Index(None, "status", "expires_at"),
)

# Webhooks: a player's notices POSTed to a URL. The notices table is the outbox (each notice is
# written in the same commit as the event that caused it); `cursor` is the last notice handled for
# this webhook, `attempts` the failed tries of the next one (since `failing_since`), `next_at` when
# to try again, `lease_until` while a process delivers (any process may take over after it).
webhooks = Table(
    "webhooks",
    metadata,
    Column("id", String(), primary_key=True),
    Column("player_id", String(), ForeignKey("players.id", ondelete="CASCADE"), nullable=False),
    Column("url", String(), nullable=False),
    Column("events", Json, nullable=False),
    Column("secret", String(), nullable=False),
    Column("created_at", UTCDateTime(), nullable=False),
    Column("cursor", BigInteger(), nullable=False),
    Column("attempts", Integer(), nullable=False, server_default="0"),
    Column("failing_since", UTCDateTime(), nullable=True),
    Column("next_at", UTCDateTime(), nullable=True),
    Column("lease_until", UTCDateTime(), nullable=True),
    Index(None, "player_id"),
)

# The last attempts of each webhook (`GET /v1/players/me/webhooks/{id}/deliveries`).
webhook_attempts = Table(
    "webhook_attempts",
    metadata,
    Column("webhook_id", String(), ForeignKey("webhooks.id", ondelete="CASCADE"), primary_key=True),
    Column("seq", BigInteger(), primary_key=True),
    Column("delivery_id", String(), nullable=False),
    Column("cursor", BigInteger(), nullable=False),
    Column("type", String(), nullable=False),
    Column("attempt", Integer(), nullable=False),
    Column("at", UTCDateTime(), nullable=False),
    Column("outcome", String(), nullable=False),
    Column("status_code", Integer(), nullable=True),
    Column("error", String(), nullable=True),
    CheckConstraint("outcome IN ('delivered', 'retry', 'failed')", name="outcome"),
)

# The ratings projection (`app.service.rating_projection`, docs/ratings.md). A finished rated match
# is pending while it has no `rated_matches` row: the partial index holds exactly the finished
# rated matches (columns that never change once a match is finished, so it costs an action's
# update nothing). `rated_matches.ord` is gap-free and unique: an application inserts `max + 1`,
# so of two processes applying at once exactly one commits (the other's insert conflicts).
RATED = "status = 'finished' AND (settings ->> 'rated') = 'true'"
SQLITE_RATED = "status = 'finished' AND json_extract(settings, '$.rated') = 1"
PROVISIONAL_GAMES = 10  # `app.service.ratings.PROVISIONAL_GAMES`: the leaderboard's partial index
RANKED = f"games >= {PROVISIONAL_GAMES}"

Index("ix_matches_rated_ends", matches.c.id, postgresql_where=text(RATED), sqlite_where=text(SQLITE_RATED))

ratings = Table(
    "ratings",
    metadata,
    Column("player_id", String(), primary_key=True),  # a player's id, or a built-in bot's `bot-<level>`
    Column("game", String(), primary_key=True),
    Column("mu", Double(), nullable=False),
    Column("sigma", Double(), nullable=False),
    Column("ordinal", Double(), nullable=False),  # mu - 3 sigma, the displayed rating
    Column("games", Integer(), nullable=False),
    Column("wins", Integer(), nullable=False),
    Column("last_played", UTCDateTime(), nullable=False),
    # The leaderboard: non-provisional players of a game by ordinal (scanned backwards: best first,
    # ties by player id, descending), read from the index, never a sequential scan.
    Index(
        "ix_ratings_leaderboard",
        "game",
        "ordinal",
        "player_id",
        postgresql_where=text(RANKED),
        sqlite_where=text(RANKED),
    ),
)

rated_matches = Table(
    "rated_matches",
    metadata,
    Column("match_id", String(), ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True),
    Column("ord", BigInteger(), nullable=False, unique=True),
    Column("game", String(), nullable=False),
    Column("ended_at", UTCDateTime(), nullable=False),
    CheckConstraint("ord >= 1", name="ord"),
)

rating_history = Table(
    "rating_history",
    metadata,
    Column("ord", BigInteger(), ForeignKey("rated_matches.ord", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer(), primary_key=True),
    Column("match_id", String(), nullable=False),
    Column("game", String(), nullable=False),
    Column("player_id", String(), nullable=False),
    Column("rank", Integer(), nullable=False),
    Column("mu_before", Double(), nullable=False),
    Column("sigma_before", Double(), nullable=False),
    Column("mu_after", Double(), nullable=False),
    Column("sigma_after", Double(), nullable=False),
    Column("at", UTCDateTime(), nullable=False),
    Index(None, "player_id", "game", "ord"),  # a player's history
    Index(None, "match_id"),  # a match's changes
)

# Chat (`app.service.chat`): beside the event log, never in it. `chat_seq` is a per-match cursor
# shared by both rooms; `author_key` is what the rate limit counts (a player, or a seat without one).
chat_messages = Table(
    "chat_messages",
    metadata,
    Column("match_id", String(), ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True),
    Column("chat_seq", BigInteger(), primary_key=True),
    Column("id", String(), nullable=False, unique=True),
    Column("room", String(), nullable=False),
    Column("author_key", String(), nullable=False),
    Column("author_seat", Integer(), nullable=True),
    Column("author_player_id", String(), nullable=True),
    Column("author_name", String(), nullable=True),
    Column("text", String(), nullable=False),
    Column("created_at", UTCDateTime(), nullable=False),
    CheckConstraint("chat_seq >= 1", name="chat_seq"),
    CheckConstraint("room IN ('players', 'spectators')", name="room"),
    Index(None, "author_key", "created_at"),  # the rate limit
    Index(None, "created_at"),  # pruning
)

chat_reports = Table(
    "chat_reports",
    metadata,
    Column("id", String(), primary_key=True),
    Column("match_id", String(), nullable=False),
    Column("message_id", String(), nullable=False),
    Column("reporter_id", String(), nullable=False),
    Column("reason", String(), nullable=False),
    Column("created_at", UTCDateTime(), nullable=False),
    Column("resolved", Boolean(create_constraint=False), nullable=False, server_default=false()),
    Index(None, "resolved", "created_at"),
)

player_blocks = Table(
    "player_blocks",
    metadata,
    Column("blocker_id", String(), ForeignKey("players.id", ondelete="CASCADE"), primary_key=True),
    Column("blocked_id", String(), ForeignKey("players.id", ondelete="CASCADE"), primary_key=True),
    Column("created_at", UTCDateTime(), nullable=False),
)
