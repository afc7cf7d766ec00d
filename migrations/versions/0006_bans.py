"""Bans: `players.banned_at` (when an operator banned the player, null when not banned) and
`players.ban_reason` (the operator's free text, null when none was given).

`python -m app admin ban` sets both, `python -m app admin unban` clears both (docs/moderation.md).

Revision ID: 0006_bans
Revises: 0005
Create Date: 2026-12-05
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006_bans"
down_revision: str | Sequence[str] | None = "0005"  # 0005_ratings.py
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("players", sa.Column("banned_at", sa.DateTime(timezone=True), nullable=True))
    op.add_column("players", sa.Column("ban_reason", sa.Text(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("players") as batch:  # SQLite drops a column by copying the table
        batch.drop_column("ban_reason")
        batch.drop_column("banned_at")
