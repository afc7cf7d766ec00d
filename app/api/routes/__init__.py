"""One router per resource; `ROUTERS` lists them in the order `app.main` mounts them."""

from __future__ import annotations

from app.api.routes import games, health, matches, play, players, ratings, seats, stream

ROUTERS = (
    games.router,
    matches.router,
    seats.router,
    play.router,
    players.router,
    ratings.router,
    stream.router,
    health.router,
)
