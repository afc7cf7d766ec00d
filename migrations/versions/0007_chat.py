"""Chat: `chat_messages` (a per-match `chat_seq` shared by both rooms), `chat_reports` and
`player_blocks` (docs/chat.md).

Revision ID: 0007_chat
Revises: 0006_bans
Create Date: 2026-12-05
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007_chat"
down_revision: str | Sequence[str] | None = "0006_bans"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "chat_messages",
        sa.Column("match_id", sa.String(), nullable=False),
        sa.Column("chat_seq", sa.BigInteger(), nullable=False),
        sa.Column("id", sa.String(), nullable=False),
        sa.Column("room", sa.String(), nullable=False),
        sa.Column("author_key", sa.String(), nullable=False),
        sa.Column("author_seat", sa.Integer(), nullable=True),
        sa.Column("author_player_id", sa.String(), nullable=True),
        sa.Column("author_name", sa.String(), nullable=True),
        sa.Column("text", sa.String(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint("chat_seq >= 1", name="ck_chat_messages_chat_seq"),
        sa.CheckConstraint("room IN ('players', 'spectators')", name="ck_chat_messages_room"),
        sa.ForeignKeyConstraint(
            ["match_id"], ["matches.id"], name="fk_chat_messages_match_id_matches", ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("match_id", "chat_seq", name="pk_chat_messages"),
        sa.UniqueConstraint("id", name="uq_chat_messages_id"),
    )
    op.create_index("ix_chat_messages_author_key_created_at", "chat_messages", ["author_key", "created_at"])
    op.create_index("ix_chat_messages_created_at", "chat_messages", ["created_at"])
    op.create_table(
        "chat_reports",
        sa.Column("id", sa.String(), nullable=False),
        sa.Column("match_id", sa.String(), nullable=False),
        sa.Column("message_id", sa.String(), nullable=False),
        sa.Column("reporter_id", sa.String(), nullable=False),
        sa.Column("reason", sa.String(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("resolved", sa.Boolean(create_constraint=False), server_default=sa.false(), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_chat_reports"),
    )
    op.create_index("ix_chat_reports_resolved_created_at", "chat_reports", ["resolved", "created_at"])
    op.create_table(
        "player_blocks",
        sa.Column("blocker_id", sa.String(), nullable=False),
        sa.Column("blocked_id", sa.String(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["blocker_id"], ["players.id"], name="fk_player_blocks_blocker_id_players", ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["blocked_id"], ["players.id"], name="fk_player_blocks_blocked_id_players", ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("blocker_id", "blocked_id", name="pk_player_blocks"),
    )


def downgrade() -> None:
    op.drop_table("player_blocks")
    op.drop_index("ix_chat_reports_resolved_created_at", table_name="chat_reports")
    op.drop_table("chat_reports")
    op.drop_index("ix_chat_messages_created_at", table_name="chat_messages")
    op.drop_index("ix_chat_messages_author_key_created_at", table_name="chat_messages")
    op.drop_table("chat_messages")
