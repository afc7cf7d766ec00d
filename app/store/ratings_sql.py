"""The ratings projection's SQL, shared by SQLite and PostgreSQL (written with `?` placeholders;
`numbered` turns them into asyncpg's `$n`), and the row conversions both stores use."""

from __future__ import annotations

import re
from datetime import datetime
from typing import Final

from app.service.rating_ports import RatingPoint, RatingRecord
from app.store.rows import Row

BOT_PREFIX: Final = "bot-"

CURSOR = "SELECT COALESCE(MAX(ord), 0) FROM rated_matches"
IS_APPLIED = "SELECT 1 FROM rated_matches WHERE match_id = ?"
ORDER = "SELECT match_id FROM rated_matches ORDER BY ord"
LAST = "SELECT match_id FROM rated_matches ORDER BY ord DESC LIMIT 1"
_PENDING = (
    "SELECT m.id FROM matches m WHERE {rated} "
    "AND NOT EXISTS (SELECT 1 FROM rated_matches r WHERE r.match_id = m.id) "
    "ORDER BY m.updated_at, m.id LIMIT ?"
)
PENDING_SQLITE = _PENDING.format(rated="m.status = 'finished' AND json_extract(m.settings, '$.rated') = 1")
PENDING_POSTGRES = _PENDING.format(rated="m.status = 'finished' AND (m.settings ->> 'rated') = 'true'")
_RATING_COLUMNS = "r.player_id, r.game, r.mu, r.sigma, r.games, r.wins, r.last_played"
_NAMED = f"SELECT {_RATING_COLUMNS}, p.name FROM ratings r LEFT JOIN players p ON p.id = r.player_id"
RATINGS_OF_GAME = f"SELECT {_RATING_COLUMNS} FROM ratings r WHERE r.game = ? AND r.player_id = ?"
# PostgreSQL reads a whole group's in one round trip (the matcher asks for every open seeker's).
RATINGS_OF_PLAYERS_POSTGRES = (
    f"SELECT {_RATING_COLUMNS} FROM ratings r WHERE r.game = ? AND r.player_id = ANY(?::text[])"
)
# The page is found in the partial index alone (an index-only scan: the rows an offset skips are
# never read), then its rows and names are joined: 50 from offset 50,000 of 100,000 went from
# 419 ms (the offset's rows all fetched and joined) to the figure `bench/leaderboard.py` prints.
LEADERBOARD = (
    f"SELECT {_RATING_COLUMNS}, p.name FROM (SELECT player_id, ordinal FROM ratings WHERE game = ? "
    "AND games >= ? ORDER BY ordinal DESC, player_id DESC LIMIT ? OFFSET ?) AS page "
    "JOIN ratings r ON r.player_id = page.player_id AND r.game = ? "
    "LEFT JOIN players p ON p.id = r.player_id ORDER BY page.ordinal DESC, page.player_id DESC"
)
PLAYER_RATINGS = f"{_NAMED} WHERE r.player_id = ? ORDER BY r.game"
_POINT_COLUMNS = (
    "ord, match_id, game, seat, player_id, rank, mu_before, sigma_before, mu_after, sigma_after, at"
)
HISTORY = f"SELECT {_POINT_COLUMNS} FROM rating_history WHERE player_id = ? AND game = ? ORDER BY ord, seat"
MATCH_POINTS = f"SELECT {_POINT_COLUMNS} FROM rating_history WHERE match_id = ? ORDER BY seat"
ALL_RATINGS = f"SELECT {_RATING_COLUMNS} FROM ratings r ORDER BY r.game, r.player_id"
ALL_POINTS = f"SELECT {_POINT_COLUMNS} FROM rating_history ORDER BY ord, seat"
INSERT_RATED = "INSERT INTO rated_matches (match_id, ord, game, ended_at) VALUES (?, ?, ?, ?)"
UPSERT_RATING = (
    "INSERT INTO ratings (player_id, game, mu, sigma, ordinal, games, wins, last_played) "
    "VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (player_id, game) DO UPDATE SET "
    "mu = excluded.mu, sigma = excluded.sigma, ordinal = excluded.ordinal, games = excluded.games, "
    "wins = excluded.wins, last_played = excluded.last_played"
)
INSERT_POINT = f"INSERT INTO rating_history ({_POINT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
RESET = ("DELETE FROM rating_history", "DELETE FROM rated_matches", "DELETE FROM ratings")


def numbered(query: str) -> str:
    """`?` placeholders as PostgreSQL's `$1, $2, …`."""
    counter = iter(range(1, 1000))
    return re.sub(r"\?", lambda _: f"${next(counter)}", query)


def rating_args(r: RatingRecord, at: object) -> tuple[object, ...]:
    return (r.player_id, r.game, r.mu, r.sigma, r.mu - 3 * r.sigma, r.games, r.wins, at)


def point_args(p: RatingPoint, at: object) -> tuple[object, ...]:
    return (
        p.ord, p.match_id, p.game, p.seat, p.player_id, p.rank,
        p.mu_before, p.sigma_before, p.mu_after, p.sigma_after, at,
    )  # fmt: skip


def rating_of(row: Row, at: datetime, name: str | None = None) -> RatingRecord:
    player_id, game, mu, sigma, games, wins = row[:6]
    bot = name is None and player_id.startswith(BOT_PREFIX)
    shown = player_id.removeprefix(BOT_PREFIX) if bot else (name or "")
    return RatingRecord(player_id, game, float(mu), float(sigma), games, wins, at, shown, bot)


def point_of(row: Row, at: datetime) -> RatingPoint:
    ord_, match_id, game, seat, player_id, rank, mu_b, sigma_b, mu_a, sigma_a = row[:10]
    return RatingPoint(
        ord_,
        match_id,
        game,
        seat,
        player_id,
        rank,
        float(mu_b),
        float(sigma_b),
        float(mu_a),
        float(sigma_a),
        at,
    )
