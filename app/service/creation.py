"""Planning a new match: validate the request, roll its secret, deal, and lay out its seats.

Pure apart from the randomness of a fresh secret: the service stores what `plan_match` returns.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from app.games.codec import JSON, DecodeError, to_json
from app.games.core import Game, InvalidOptions
from app.matches.fairness import commitment, new_secret, rng_for
from app.matches.lifecycle import LoadedMatch, project
from app.service.errors import ValidationFailed
from app.service.ports import MatchRecord, NewEvent, SeatRecord


@dataclass(frozen=True, slots=True)
class NewMatch:
    record: MatchRecord  # seq 1: stored together with the deal
    seats: list[SeatRecord]
    deal: NewEvent
    match: LoadedMatch  # the match after the deal


def plan_match(
    name: str,
    rules: Game[Any, Any, Any],
    players: int,
    options: Mapping[str, JSON],
    bots: Sequence[int],
    seed: str | None,
    setup: Mapping[str, JSON] | None,
    now: datetime,
) -> NewMatch:
    info = rules.info
    if not info.min_players <= players <= info.max_players:
        raise ValidationFailed(
            f"{info.title} is played by {info.min_players} to {info.max_players} players",
            {"field": "players", "min": info.min_players, "max": info.max_players},
        )
    bot_seats = sorted(set(bots))
    if len(bot_seats) != len(bots) or not all(0 <= b < players for b in bot_seats):
        raise ValidationFailed(
            f"bots must be distinct seat numbers from 0 to {players - 1}", {"field": "bots"}
        )
    try:  # an engine may return its own options type; the record keeps its JSON form
        opts = rules.parse_options(players, options)
    except InvalidOptions as e:
        raise ValidationFailed(e.message, {"field": e.path}) from None
    secret = new_secret() if seed is None else seed
    try:
        deal = rules.start(players, opts, rng_for(secret, 0), setup)
    except InvalidOptions as e:
        raise ValidationFailed(e.message, {"field": e.path}) from None
    except DecodeError as e:
        raise ValidationFailed(str(e), {"field": "setup"}) from None
    deal_json = to_json(deal)
    match_id = uuid.uuid4().hex
    seats = [
        SeatRecord(match_id, s, f"bot {bot_seats.index(s) + 1}", None, True, now)
        if s in bot_seats
        else SeatRecord(match_id, s)
        for s in range(players)
    ]
    seated = len(bot_seats) == players
    match = LoadedMatch(match_id, rules, rules.initial_state(deal), 1, players, seated)
    after_deal = project(match)
    record = MatchRecord(
        match_id, name, players, to_json(opts), after_deal.status, 1, now, now, secret,
        commitment(secret, deal_json), after_deal.to_act, after_deal.scores, after_deal.winners,
    )  # fmt: skip
    return NewMatch(record, seats, NewEvent(deal.TYPE, deal_json), match)
