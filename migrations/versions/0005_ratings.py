"""Ratings: the projection's tables (`ratings`, `rated_matches`, `rating_history`) and the partial
index of finished rated matches the projection looks for; player names unique regardless of case.

`players.name_key` is the name case-folded, under a unique index. Existing players whose names
collide (regardless of case, or with a built-in bot's name: `random`, `greedy`, `ismcts`) are
renamed deterministically: by creation time, then id, the first keeps its name and each later one
becomes `name-2`, `name-3`, … (the first suffix free; the name cut so that it fits 32 characters).

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-05
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

# Written out (not imported from app.store.tables) so that this migration never changes.
RATED = "status = 'finished' AND (settings ->> 'rated') = 'true'"
SQLITE_RATED = "status = 'finished' AND json_extract(settings, '$.rated') = 1"
RANKED = "games >= 10"

revision: str = "0005"
down_revision: str | Sequence[str] | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


RESERVED = ("random", "greedy", "ismcts")
MAX_NAME = 32


def renamed(players: list[tuple[str, str]]) -> dict[str, tuple[str, str]]:
    """(id, name) in creation order → {id: (name, name key)}, duplicates renamed `name-N`."""
    taken = set(RESERVED)
    out = {}
    for id_, name in players:
        new, n = name, 1
        while new.casefold() in taken:
            n += 1
            suffix = f"-{n}"
            new = name[: MAX_NAME - len(suffix)] + suffix
        taken.add(new.casefold())
        out[id_] = (new, new.casefold())
    return out


def upgrade() -> None:
    op.add_column("players", sa.Column("name_key", sa.String(), nullable=True))
    conn = op.get_bind()
    rows = conn.execute(sa.text("SELECT id, name FROM players ORDER BY created_at, id")).fetchall()
    for id_, (name, key) in renamed([(r[0], r[1]) for r in rows]).items():
        conn.execute(
            sa.text("UPDATE players SET name = :name, name_key = :key WHERE id = :id"),
            {"name": name, "key": key, "id": id_},
        )
    op.create_index("ix_players_name_key", "players", ["name_key"], unique=True)
    op.create_index(
        "ix_matches_rated_ends",
        "matches",
        ["id"],
        postgresql_where=sa.text(RATED),
        sqlite_where=sa.text(SQLITE_RATED),
    )
    op.create_table(
        "ratings",
        sa.Column("player_id", sa.String(), nullable=False),
        sa.Column("game", sa.String(), nullable=False),
        sa.Column("mu", sa.Double(), nullable=False),
        sa.Column("sigma", sa.Double(), nullable=False),
        sa.Column("ordinal", sa.Double(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("wins", sa.Integer(), nullable=False),
        sa.Column("last_played", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("player_id", "game", name="pk_ratings"),
    )
    op.create_index(
        "ix_ratings_leaderboard",
        "ratings",
        ["game", "ordinal", "player_id"],
        postgresql_where=sa.text(RANKED),
        sqlite_where=sa.text(RANKED),
    )
    op.create_table(
        "rated_matches",
        sa.Column("match_id", sa.String(), nullable=False),
        sa.Column("ord", sa.BigInteger(), nullable=False),
        sa.Column("game", sa.String(), nullable=False),
        sa.Column("ended_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint("ord >= 1", name="ck_rated_matches_ord"),
        sa.ForeignKeyConstraint(
            ["match_id"], ["matches.id"], name="fk_rated_matches_match_id_matches", ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("match_id", name="pk_rated_matches"),
        sa.UniqueConstraint("ord", name="uq_rated_matches_ord"),
    )
    op.create_table(
        "rating_history",
        sa.Column("ord", sa.BigInteger(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("match_id", sa.String(), nullable=False),
        sa.Column("game", sa.String(), nullable=False),
        sa.Column("player_id", sa.String(), nullable=False),
        sa.Column("rank", sa.Integer(), nullable=False),
        sa.Column("mu_before", sa.Double(), nullable=False),
        sa.Column("sigma_before", sa.Double(), nullable=False),
        sa.Column("mu_after", sa.Double(), nullable=False),
        sa.Column("sigma_after", sa.Double(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["ord"], ["rated_matches.ord"], name="fk_rating_history_ord_rated_matches", ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("ord", "seat", name="pk_rating_history"),
    )
    op.create_index("ix_rating_history_player_id_game_ord", "rating_history", ["player_id", "game", "ord"])
    op.create_index("ix_rating_history_match_id", "rating_history", ["match_id"])


def downgrade() -> None:
    op.drop_table("rating_history")
    op.drop_table("rated_matches")
    op.drop_index("ix_ratings_leaderboard", table_name="ratings")
    op.drop_table("ratings")
    op.drop_index("ix_matches_rated_ends", table_name="matches")
    op.drop_index("ix_players_name_key", table_name="players")
    with op.batch_alter_table("players") as batch:  # SQLite drops a column by copying the table
        batch.drop_column("name_key")
