"""Wave 2: 64-bit seqs, commit boundaries, match settings and sweeper columns, players and their
notices, seat owners, idempotency keys as seq ranges, snapshots.

- Every seq and cursor becomes BIGINT (PostgreSQL's INTEGER refused seq 2**31).
- `events.commit_seq`, the last seq of the append an event came with. Existing events get their
  own seq: matches played before this revision read as one commit per event.
- `matches`: settings ({}), visibility ('public'), host_token_hash, invite_hash, deadline_at,
  open_seats (backfilled with the seats still free), bot_due (false); status may be 'aborted';
  indexes for the lobby filters and the sweepers replace the two old ones (none holds
  `updated_at`, so that PostgreSQL may update a match's row in place).
- `seats`: player_id (a player may hold one seat per match), bot_level (NULL for wave-1 bots).
- `idempotency_keys`: the stored reply becomes the range of seqs the request appended,
  `last_seq = response.seq` and `first_seq = last_seq - len(response.events) + 1`; a row whose
  reply has no integer `seq` or no `events` list is deleted (a retry of it then acts again).
- New tables `players`, `notices`, `snapshots`.

On SQLite, `batch_alter_table` rebuilds a table where SQLite cannot ALTER it; on PostgreSQL it
runs plain ALTER TABLE statements. Downgrading drops what wave 2 added and forgets every
idempotency key (the old stored reply cannot be rebuilt); aborted matches become finished.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-30
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0002"
down_revision: str | Sequence[str] | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

JSON = sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql")
STATUS_1 = "status IN ('waiting', 'active', 'finished')"
STATUS_2 = "status IN ('waiting', 'active', 'finished', 'aborted')"
LOBBY = (
    ("created_at", "id"),
    ("visibility", "status", "created_at", "id"),
    ("visibility", "game", "created_at", "id"),
    ("visibility", "game", "status", "created_at", "id"),
    ("deadline_at", "id"),
)


def _ix(table: str, columns: Sequence[str]) -> str:
    return op.f(f"ix_{table}_{'_'.join(columns)}")


def upgrade() -> None:
    sqlite = op.get_bind().dialect.name == "sqlite"
    op.create_table(
        "players",
        sa.Column("id", sa.String(), nullable=False),
        sa.Column("name", sa.String(), nullable=False),
        sa.Column("key_hash", sa.String(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("cursor", sa.BigInteger(), server_default="0", nullable=False),
        sa.CheckConstraint("cursor >= 0", name=op.f("ck_players_cursor")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_players")),
        sa.UniqueConstraint("key_hash", name=op.f("uq_players_key_hash")),
    )

    with op.batch_alter_table("matches") as b:
        b.alter_column("seq", type_=sa.BigInteger(), existing_type=sa.Integer(), existing_nullable=False)
        b.add_column(sa.Column("settings", JSON, server_default=sa.text("'{}'"), nullable=False))
        b.add_column(sa.Column("visibility", sa.String(), server_default="public", nullable=False))
        b.add_column(sa.Column("host_token_hash", sa.String(), nullable=True))
        b.add_column(sa.Column("invite_hash", sa.String(), nullable=True))
        b.add_column(sa.Column("deadline_at", sa.DateTime(timezone=True), nullable=True))
        b.add_column(sa.Column("open_seats", sa.Integer(), server_default="0", nullable=False))
        b.add_column(sa.Column("bot_due", sa.Boolean(), server_default=sa.false(), nullable=False))
        b.drop_constraint(op.f("ck_matches_status"), type_="check")
        b.create_check_constraint(op.f("ck_matches_status"), STATUS_2)
        b.create_check_constraint(op.f("ck_matches_visibility"), "visibility IN ('public', 'unlisted')")
        b.create_check_constraint(op.f("ck_matches_open_seats"), "open_seats >= 0")
        b.drop_index(op.f("ix_matches_status_created_at"))
        b.drop_index(op.f("ix_matches_game"))
        for columns in LOBBY:
            b.create_index(_ix("matches", columns), list(columns))
        b.create_index(
            "ix_matches_bot_due",
            ["id"],
            postgresql_where=sa.text("bot_due AND status = 'active'"),
            sqlite_where=sa.text("bot_due = 1 AND status = 'active'"),
        )
    op.execute(
        "UPDATE matches SET open_seats = "
        "(SELECT count(*) FROM seats WHERE seats.match_id = matches.id AND seats.name IS NULL)"
    )

    op.add_column("events", sa.Column("commit_seq", sa.BigInteger(), nullable=True))
    op.execute("UPDATE events SET commit_seq = seq")
    with op.batch_alter_table("events") as b:
        b.alter_column("seq", type_=sa.BigInteger(), existing_type=sa.Integer(), existing_nullable=False)
        b.alter_column("commit_seq", existing_type=sa.BigInteger(), nullable=False)
        b.create_check_constraint(op.f("ck_events_commit_seq"), "commit_seq >= seq")

    with op.batch_alter_table("seats") as b:
        b.add_column(sa.Column("player_id", sa.String(), nullable=True))
        b.add_column(sa.Column("bot_level", sa.String(), nullable=True))
        b.create_foreign_key(op.f("fk_seats_player_id_players"), "players", ["player_id"], ["id"])
        b.create_unique_constraint(op.f("uq_seats_match_id_player_id"), ["match_id", "player_id"])
        b.create_index(op.f("ix_seats_player_id"), ["player_id"])

    op.add_column("idempotency_keys", sa.Column("first_seq", sa.BigInteger(), nullable=True))
    op.add_column("idempotency_keys", sa.Column("last_seq", sa.BigInteger(), nullable=True))
    if sqlite:
        op.execute(
            "UPDATE idempotency_keys SET last_seq = json_extract(response, '$.seq'), "
            "first_seq = json_extract(response, '$.seq') - json_array_length(response, '$.events') + 1 "
            "WHERE json_valid(response) AND json_type(response, '$.seq') = 'integer' "
            "AND json_type(response, '$.events') = 'array'"
        )
    else:
        op.execute(
            "UPDATE idempotency_keys SET last_seq = (response ->> 'seq')::bigint, "
            "first_seq = (response ->> 'seq')::bigint - jsonb_array_length(response -> 'events') + 1 "
            "WHERE jsonb_typeof(response -> 'events') = 'array' AND jsonb_typeof(response -> 'seq') = 'number' "
            "AND (response ->> 'seq') ~ '^[0-9]{1,18}$'"
        )
    op.execute("DELETE FROM idempotency_keys WHERE last_seq IS NULL")
    with op.batch_alter_table("idempotency_keys") as b:
        b.alter_column("first_seq", existing_type=sa.BigInteger(), nullable=False)
        b.alter_column("last_seq", existing_type=sa.BigInteger(), nullable=False)
        b.drop_column("response")
        b.create_index(op.f("ix_idempotency_keys_created_at"), ["created_at"])

    op.create_table(
        "notices",
        sa.Column("player_id", sa.String(), nullable=False),
        sa.Column("cursor", sa.BigInteger(), nullable=False),
        sa.Column("type", sa.String(), nullable=False),
        sa.Column("data", JSON, nullable=False),
        sa.Column("recorded_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["player_id"], ["players.id"], name=op.f("fk_notices_player_id_players"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("player_id", "cursor", name=op.f("pk_notices")),
    )
    op.create_table(
        "snapshots",
        sa.Column("match_id", sa.String(), nullable=False),
        sa.Column("seq", sa.BigInteger(), nullable=False),
        sa.Column("version", sa.String(), nullable=False),
        sa.Column("data", sa.LargeBinary(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["match_id"], ["matches.id"], name=op.f("fk_snapshots_match_id_matches"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("match_id", name=op.f("pk_snapshots")),
    )


def downgrade() -> None:
    op.drop_table("snapshots")
    op.drop_table("notices")

    op.execute("DELETE FROM idempotency_keys")
    with op.batch_alter_table("idempotency_keys") as b:
        b.drop_index(op.f("ix_idempotency_keys_created_at"))
        b.drop_column("first_seq")
        b.drop_column("last_seq")
        b.add_column(sa.Column("response", JSON, nullable=False))

    with op.batch_alter_table("seats") as b:
        b.drop_index(op.f("ix_seats_player_id"))
        b.drop_constraint(op.f("uq_seats_match_id_player_id"), type_="unique")
        b.drop_constraint(op.f("fk_seats_player_id_players"), type_="foreignkey")
        b.drop_column("bot_level")
        b.drop_column("player_id")

    with op.batch_alter_table("events") as b:
        b.drop_constraint(op.f("ck_events_commit_seq"), type_="check")
        b.drop_column("commit_seq")
        b.alter_column("seq", type_=sa.Integer(), existing_type=sa.BigInteger(), existing_nullable=False)

    op.execute("UPDATE matches SET status = 'finished' WHERE status = 'aborted'")
    with op.batch_alter_table("matches") as b:
        b.drop_index("ix_matches_bot_due")
        for columns in LOBBY:
            b.drop_index(_ix("matches", columns))
        b.create_index(op.f("ix_matches_status_created_at"), ["status", "created_at"])
        b.create_index(op.f("ix_matches_game"), ["game"])
        b.drop_constraint(op.f("ck_matches_open_seats"), type_="check")
        b.drop_constraint(op.f("ck_matches_visibility"), type_="check")
        b.drop_constraint(op.f("ck_matches_status"), type_="check")
        b.create_check_constraint(op.f("ck_matches_status"), STATUS_1)
        for column in ("bot_due", "open_seats", "deadline_at", "invite_hash", "host_token_hash"):
            b.drop_column(column)
        b.drop_column("visibility")
        b.drop_column("settings")
        b.alter_column("seq", type_=sa.Integer(), existing_type=sa.BigInteger(), existing_nullable=False)

    op.drop_table("players")
