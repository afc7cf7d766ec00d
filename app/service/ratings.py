"""The rating model: one Plackett–Luce rating (Weng–Lin, the `openskill` package) per player and game.

A rating is μ and σ (openskill's defaults: μ₀ = 25, σ₀ = 25/3, β = 25/6, τ = 25/300); the
displayed rating is the ordinal μ − 3σ (0 for a newcomer), and a player is `provisional` until it
has `PROVISIONAL_GAMES` rated games in that game. A finished rated match gives a ranking of its
seats (`ranking`): seats that resigned, forfeited on time or were taken over by a server bot rank
last together; the others by the match's result — the winners first (the game's tie-break already
decided them), then by score, equal scores sharing a rank. The built-in bots are players too, one
per level (`bot_player_id`), and rated like anyone. `rate` turns a ranking and the players' prior
ratings into the new ones. Everything here is pure: `docs/ratings.md` gives the formula and a
worked example that `tests/ratings/test_model.py` reproduces.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from openskill.models import PlackettLuce

from app.matches.fold import Match

MODEL: Final = PlackettLuce()
MU: Final = MODEL.mu
SIGMA: Final = MODEL.sigma
PROVISIONAL_GAMES: Final = 10  # a player's rating in a game is provisional below this many rated games
BOT_LEVELS: Final = ("random", "greedy", "ismcts")
BOT_PREFIX: Final = "bot-"  # a built-in bot's player id is `bot-<level>` (player ids are 32 hex digits)


def bot_player_id(level: str) -> str:
    return f"{BOT_PREFIX}{level}"


def bot_level_of(player_id: str) -> str | None:
    """The level of a built-in bot player, or None for a person's player id."""
    level = player_id.removeprefix(BOT_PREFIX)
    return level if player_id.startswith(BOT_PREFIX) and level in BOT_LEVELS else None


def ordinal(mu: float, sigma: float) -> float:
    """The displayed rating: μ − 3σ, a conservative estimate (0 for a newcomer)."""
    return mu - 3 * sigma


@dataclass(frozen=True, slots=True)
class Rating:
    mu: float = MU
    sigma: float = SIGMA
    games: int = 0
    wins: int = 0

    @property
    def ordinal(self) -> float:
        return ordinal(self.mu, self.sigma)

    @property
    def provisional(self) -> bool:
        return self.games < PROVISIONAL_GAMES


@dataclass(frozen=True, slots=True)
class Placement:
    """A seat's place in a rated match: 1 is best; equal ranks are ties."""

    seat: int
    player_id: str
    rank: int
    won: bool


@dataclass(frozen=True, slots=True)
class Change:
    """One seat's rating before and after a rated match."""

    seat: int
    player_id: str
    rank: int
    before: Rating
    after: Rating


class NotRateable(ValueError):
    """A match that gives no rating: not rated, not finished (aborted), or a seat without a player."""


def left(match: Match) -> set[int]:
    """Seats whose person left: resigned, forfeited, or taken over by a bot (they rank last)."""
    return {
        s for s, seat in enumerate(match.seats)
        if seat.resigned or (seat.player_id is not None and seat.bot)
    }  # fmt: skip


def ranks(match: Match) -> list[int]:
    """Each seat's rank in a finished match (1 best; ties share; the seats that left last)."""
    end = match.end
    if end is None or end.reason == "aborted":
        raise NotRateable("the match did not finish")
    last = left(match)
    n = len(match.seats)
    scores = end.scores or (0,) * n
    keys = {s: (s not in end.winners, -scores[s]) for s in range(n) if s not in last}
    return [
        len(keys) + 1 if s in last else 1 + sum(1 for k in keys.values() if k < keys[s]) for s in range(n)
    ]


def ranking(match: Match) -> list[Placement]:
    """The ranking of a finished rated match's seats, in seat order (`NotRateable` otherwise)."""
    if not match.settings.rated:
        raise NotRateable("the match is not rated")
    places = ranks(match)
    end = match.end
    assert end is not None
    out = []
    for s, seat in enumerate(match.seats):
        if seat.player_id is not None:
            player = seat.player_id
        elif seat.bot and seat.level in BOT_LEVELS:
            player = bot_player_id(seat.level)
        else:
            raise NotRateable(f"seat {s} has no player")
        out.append(Placement(s, player, places[s], s in end.winners and places[s] == 1))
    return out


def rate(places: Sequence[Placement], prior: Mapping[str, Rating]) -> list[Change]:
    """New ratings from a ranking: each seat is a one-player team of the Plackett–Luce model.

    A player holding several seats (only a built-in bot can) is rated from each seat's own team,
    all starting from its prior; its new rating is its best-placed seat's (the lowest seat on
    ties), and the match counts once to its games.
    """
    priors = [prior.get(p.player_id, Rating()) for p in places]
    teams = [[MODEL.create_rating([r.mu, r.sigma])] for r in priors]
    rated = MODEL.rate(teams, ranks=[float(p.rank) for p in places])
    best: dict[str, Placement] = {}
    for p in places:
        if p.player_id not in best or p.rank < best[p.player_id].rank:
            best[p.player_id] = p
    new: dict[str, Rating] = {}
    for p, [r] in zip(places, rated, strict=True):
        if best[p.player_id] is p:
            old = prior.get(p.player_id, Rating())
            won = any(q.won for q in places if q.player_id == p.player_id)
            new[p.player_id] = Rating(r.mu, r.sigma, old.games + 1, old.wins + int(won))
    return [
        Change(p.seat, p.player_id, p.rank, prior.get(p.player_id, Rating()), new[p.player_id])
        for p in places
    ]
