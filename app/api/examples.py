"""Real payloads for the examples of the published documents: a seeded deal and its first move.

The frame schema's examples must validate against the games' exact schemas, so they are not written
by hand: `opening()` deals a 2-player match of the first registered game with a fixed seed, lets the
seat on turn make its first legal move, and returns that seat's view before the move (as `hello`
shows it) and the move's commit (as a `commit` frame carries it). Pure and deterministic: no store,
no clock (`RECORDED_AT` is a fixed time).
"""

from __future__ import annotations

import functools
import random
from dataclasses import dataclass
from typing import Final

from app.games.codec import JSON, to_json
from app.games.registry import GAMES

MATCH_ID: Final = "5f0c9a3e8b7d4e21a6c3f0b9d8e7a615"
RECORDED_AT: Final = "2026-01-01T12:00:00Z"
PLAYERS: Final = 2
STARTED_SEQ: Final = PLAYERS + 2
"""The deal (1), one `seat_joined` per seat, then `match_started`: the seq when play begins."""


@dataclass(frozen=True, slots=True)
class Opening:
    seat: int
    view: dict[str, JSON]  # the seat's view at STARTED_SEQ, envelope included
    events: list[dict[str, JSON]]  # the first move's commit, as event records


@functools.cache
def opening() -> Opening:
    name = sorted(GAMES)[0]
    game = GAMES[name]
    rng = random.Random(name)
    state = game.initial_state(game.start(PLAYERS, game.parse_options(PLAYERS, {}), rng))
    seat = game.to_act(state)[0]
    legal = game.legal_actions(state, seat)
    view: dict[str, object] = {
        **to_json(game.view(state, seat)),
        "match_id": MATCH_ID,
        "game": name,
        "seq": STARTED_SEQ,
        "status": "active",
        "seat": seat,
        "to_act": [seat],
        "legal_actions": [to_json(a) for a in legal],
        "outcome": None,
        "clock": [],
        "draft": None,
    }
    happened = game.decide(state, seat, legal[0], rng)
    last = STARTED_SEQ + len(happened)
    events = [
        {
            "seq": STARTED_SEQ + i,
            "type": event.TYPE,
            "data": to_json(game.redact(event, seat)),
            "recorded_at": RECORDED_AT,
            "commit": last,
        }
        for i, event in enumerate(happened, start=1)
    ]
    return Opening(seat, view, events)
