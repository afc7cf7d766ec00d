"""The ratings projection in memory (`RatingStore`'s twin), mixed into `MemoryEventStore`."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TypedDict

from app.service.ports import MatchRecord, PlayerRecord
from app.service.rating_ports import RatedMatch, RatingConflict, RatingPoint, RatingRecord


class _RatingState(TypedDict):
    ratings: dict[tuple[str, str], RatingRecord]  # by (game, player id)
    points: list[RatingPoint]
    order: list[str]  # the rated matches' ids, in rating order


def _rated(m: MatchRecord) -> bool:
    return m.status == "finished" and bool(m.settings.get("rated"))


class MemoryRatings:
    _matches: dict[str, MatchRecord]
    _players: dict[str, PlayerRecord]

    def _rating_state(self) -> _RatingState:
        state: _RatingState | None = getattr(self, "_ratings_state", None)
        if state is None:
            state = {"ratings": {}, "points": [], "order": []}
            self._ratings_state = state
        return state

    def _named(self, r: RatingRecord) -> RatingRecord:
        p = self._players.get(r.player_id)
        if p is not None:
            return replace(r, name=p.name, bot=False)
        return replace(r, name=r.player_id.removeprefix("bot-"), bot=True)

    async def rating_cursor(self) -> int:
        return len(self._rating_state()["order"])

    async def unrated_ends(self, limit: int) -> list[str]:
        done = set(self._rating_state()["order"])
        pending = [m for m in self._matches.values() if _rated(m) and m.id not in done]
        pending.sort(key=lambda m: (m.updated_at, m.id))
        return [m.id for m in pending[:limit]]

    async def is_applied(self, match_id: str) -> bool:
        return match_id in self._rating_state()["order"]

    async def last_applied(self) -> str | None:
        order = self._rating_state()["order"]
        return order[-1] if order else None

    async def rated_order(self) -> list[str]:
        return list(self._rating_state()["order"])

    async def get_ratings(self, game: str, player_ids: Sequence[str]) -> dict[str, RatingRecord]:
        ratings = self._rating_state()["ratings"]
        return {p: ratings[(game, p)] for p in player_ids if (game, p) in ratings}

    async def apply_rated(self, rated: RatedMatch) -> None:
        state = self._rating_state()
        if len(state["order"]) != rated.ord - 1 or rated.match_id in state["order"]:
            raise RatingConflict(rated.match_id)
        state["order"].append(rated.match_id)
        for r in rated.ratings:
            state["ratings"][(r.game, r.player_id)] = replace(r, name="", bot=False)
        state["points"].extend(rated.points)

    async def reset_ratings(self) -> None:
        self._ratings_state = {"ratings": {}, "points": [], "order": []}

    async def leaderboard(self, game: str, min_games: int, limit: int, offset: int) -> list[RatingRecord]:
        rows = [
            r for (g, _), r in self._rating_state()["ratings"].items() if g == game and r.games >= min_games
        ]
        rows.sort(key=lambda r: (r.mu - 3 * r.sigma, r.player_id), reverse=True)
        return [self._named(r) for r in rows[offset : offset + limit]]

    async def player_ratings(self, player_id: str) -> list[RatingRecord]:
        rows = [r for (_, p), r in self._rating_state()["ratings"].items() if p == player_id]
        return [self._named(r) for r in sorted(rows, key=lambda r: r.game)]

    async def rating_history(self, player_id: str, game: str) -> list[RatingPoint]:
        return [p for p in self._rating_state()["points"] if p.player_id == player_id and p.game == game]

    async def match_points(self, match_id: str) -> list[RatingPoint]:
        return sorted(
            (p for p in self._rating_state()["points"] if p.match_id == match_id), key=lambda p: p.seat
        )

    async def rating_tables(self) -> tuple[list[RatingRecord], list[RatingPoint]]:
        state = self._rating_state()
        ratings = [state["ratings"][k] for k in sorted(state["ratings"])]
        return ratings, sorted(state["points"], key=lambda p: (p.ord, p.seat))
