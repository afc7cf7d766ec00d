"""The SQL schema of the event store, as SQLAlchemy Core tables on one `MetaData`.

Alembic owns the schema in a database (`migrations/`); these definitions are what the store's
queries are written against and what `alembic check` compares the migrated database with. Strings
are unbounded (`String()`) so SQLite and PostgreSQL accept the same values; limits belong at the
edge. Times are stored in UTC and always read back timezone-aware, on SQLite too.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import orjson
from sqlalchemy import (
    JSON,
    Boolean,
    CheckConstraint,
    Column,
    DateTime,
    Dialect,
    ForeignKey,
    ForeignKeyConstraint,
    Index,
    Integer,
    MetaData,
    String,
    Table,
)
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.types import TypeDecorator

NAMING_CONVENTION = {
    "ix": "ix_%(table_name)s_%(column_0_N_name)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_N_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

metadata = MetaData(naming_convention=NAMING_CONVENTION)


def json_text(value: Any) -> str:
    """How the store writes JSON columns: compact text (orjson; `null` for None)."""
    return orjson.dumps(value).decode()


def require_aware(at: datetime) -> datetime:
    """The store keeps timezone-aware times only; a naive one is a bug in the caller."""
    if at.utcoffset() is None:
        raise ValueError(f"naive datetime {at!r}: the store keeps timezone-aware times only")
    return at


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

    def process_result_value(self, value: Any, dialect: Dialect) -> datetime | None:
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
    Column("seq", Integer(), nullable=False),
    Column("created_at", UTCDateTime(), nullable=False),
    Column("updated_at", UTCDateTime(), nullable=False),
    Column("secret", String(), nullable=False),
    Column("commitment", String(), nullable=False),
    Column("to_act", Json, nullable=False),
    Column("scores", Json, nullable=True),
    Column("winners", Json, nullable=True),
    CheckConstraint("status IN ('waiting', 'active', 'finished')", name="status"),
    CheckConstraint("seq >= 0", name="seq"),
    Index(None, "status", "created_at"),
    Index(None, "game"),
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
)

events = Table(
    "events",
    metadata,
    Column("match_id", String(), ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True),
    Column("seq", Integer(), primary_key=True),
    Column("type", String(), nullable=False),
    Column("data", Json, nullable=False),
    Column("recorded_at", UTCDateTime(), nullable=False),
    CheckConstraint("seq >= 1", name="seq"),
)

idempotency_keys = Table(
    "idempotency_keys",
    metadata,
    Column("match_id", String(), primary_key=True),
    Column("seat", Integer(), primary_key=True),
    Column("key", String(), primary_key=True),
    Column("request_hash", String(), nullable=False),
    Column("response", Json, nullable=False),
    Column("created_at", UTCDateTime(), nullable=False),  # lets old keys be pruned
    ForeignKeyConstraint(["match_id", "seat"], ["seats.match_id", "seats.seat"], ondelete="CASCADE"),
)
