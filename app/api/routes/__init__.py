"""One router per resource; `ROUTERS` lists them in the order `app.main` mounts them."""

from __future__ import annotations

from app.api.routes import (
    challenges,
    chat,
    exports,
    games,
    health,
    matches,
    play,
    players,
    ratings,
    seats,
    seeks,
    stream,
    webhooks,
)

ROUTERS = (
    games.router,
    matches.router,
    seats.router,
    play.router,
    players.router,
    seeks.router,
    challenges.router,
    chat.router,
    webhooks.router,
    ratings.router,
    exports.router,
    stream.router,
    health.router,
)
