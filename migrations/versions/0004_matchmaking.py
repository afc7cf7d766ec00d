"""Matchmaking: the seeks, challenges, webhooks and webhook_attempts tables, and `players.bot`
(`app.store.tables`).

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-05
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0004"
down_revision: str | Sequence[str] | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

Json = sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql")


def upgrade() -> None:
    op.create_table(
        "seeks",
        sa.Column("id", sa.String(), nullable=False),
        sa.Column("player_id", sa.String(), nullable=False),
        sa.Column("name", sa.String(), nullable=False),
        sa.Column("game", sa.String(), nullable=False),
        sa.Column("counts", Json, nullable=False),
        sa.Column("options", Json, nullable=False),
        sa.Column("settings", Json, nullable=False),
        sa.Column("key", sa.String(), nullable=False),
        sa.Column("opponents", sa.String(), nullable=False),
        sa.Column("bot", sa.Boolean(create_constraint=False), nullable=False),
        sa.Column("bots_after_s", sa.Float(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("status", sa.String(), nullable=False),
        sa.Column("match_id", sa.String(), nullable=True),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.CheckConstraint("status IN ('open', 'matched', 'cancelled', 'expired')", name="status"),
        sa.CheckConstraint("opponents IN ('humans', 'bots', 'any')", name="opponents"),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["match_id"], ["matches.id"], ondelete="SET NULL"),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_seeks_status_created_at_id", "seeks", ["status", "created_at", "id"])
    op.create_index("ix_seeks_player_id_status", "seeks", ["player_id", "status"])
    with op.batch_alter_table("players") as b:
        b.add_column(sa.Column("bot", sa.Boolean(create_constraint=False), nullable=False, server_default=sa.false()))
    op.create_table(
        "challenges",
        sa.Column("id", sa.String(), nullable=False),
        sa.Column("from_id", sa.String(), nullable=False),
        sa.Column("from_name", sa.String(), nullable=False),
        sa.Column("to_ids", Json, nullable=False),
        sa.Column("to_names", Json, nullable=False),
        sa.Column("game", sa.String(), nullable=False),
        sa.Column("players", sa.Integer(), nullable=False),
        sa.Column("options", Json, nullable=False),
        sa.Column("settings", Json, nullable=False),
        sa.Column("status", sa.String(), nullable=False),
        sa.Column("answers", Json, nullable=False),
        sa.Column("reason", sa.String(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("match_id", sa.String(), nullable=True),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.CheckConstraint("status IN ('open', 'accepted', 'declined', 'expired')", name="status"),
        sa.ForeignKeyConstraint(["from_id"], ["players.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["match_id"], ["matches.id"], ondelete="SET NULL"),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_challenges_from_id_created_at", "challenges", ["from_id", "created_at"])
    op.create_index("ix_challenges_status_expires_at", "challenges", ["status", "expires_at"])
    op.create_table(
        "webhooks",
        sa.Column("id", sa.String(), nullable=False),
        sa.Column("player_id", sa.String(), nullable=False),
        sa.Column("url", sa.String(), nullable=False),
        sa.Column("events", Json, nullable=False),
        sa.Column("secret", sa.String(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("cursor", sa.BigInteger(), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("failing_since", sa.DateTime(timezone=True), nullable=True),
        sa.Column("next_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("lease_until", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_webhooks_player_id", "webhooks", ["player_id"])
    op.create_table(
        "webhook_attempts",
        sa.Column("webhook_id", sa.String(), nullable=False),
        sa.Column("seq", sa.BigInteger(), nullable=False),
        sa.Column("delivery_id", sa.String(), nullable=False),
        sa.Column("cursor", sa.BigInteger(), nullable=False),
        sa.Column("type", sa.String(), nullable=False),
        sa.Column("attempt", sa.Integer(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("outcome", sa.String(), nullable=False),
        sa.Column("status_code", sa.Integer(), nullable=True),
        sa.Column("error", sa.String(), nullable=True),
        sa.CheckConstraint("outcome IN ('delivered', 'retry', 'failed')", name="outcome"),
        sa.ForeignKeyConstraint(["webhook_id"], ["webhooks.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("webhook_id", "seq"),
    )


def downgrade() -> None:
    op.drop_table("webhook_attempts")
    op.drop_index("ix_webhooks_player_id", table_name="webhooks")
    op.drop_table("webhooks")
    op.drop_index("ix_challenges_status_expires_at", table_name="challenges")
    op.drop_index("ix_challenges_from_id_created_at", table_name="challenges")
    op.drop_table("challenges")
    with op.batch_alter_table("players") as b:
        b.drop_column("bot")
    op.drop_index("ix_seeks_player_id_status", table_name="seeks")
    op.drop_index("ix_seeks_status_created_at_id", table_name="seeks")
    op.drop_table("seeks")
