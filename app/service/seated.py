"""A match created with its players already seated (matchmaking: a seek group, an accepted
challenge), through the one write path.

`seated_match` rolls the match's secret, seats the people in an order shuffled by the match's own
randomness (`chance.seeded(f"{secret}:seats")`: checkable once the secret is revealed), server bots
in the places left, and deals by drago-fair-2 (docs/fairness.md) from every seat's seed (the
server's: nobody sends one through a seek or a challenge); the first commit holds every
`seat_joined`, then the deal and `match_started`. Seats taken this way have no token: the player's
key authorizes them. `create_seated` makes that first commit with `commit(..., create=True)`, as any
creation does, but written by the caller's store call (a seek claim, a challenge update), so that
the match, the seats, the notices (the usual ones of a start plus the caller's) and the caller's
own rows are one transaction.
"""

from __future__ import annotations

import dataclasses
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

from app.games.chance import seeded
from app.games.codec import JSON, to_json
from app.games.core import Tagged
from app.matches import decide
from app.matches.events import SeatJoined
from app.matches.fairness import V2, commitment_v2, new_seat_seed, new_secret, with_deal
from app.matches.fold import Match, advance
from app.matches.settings import stored_settings
from app.service.cache import Loaded
from app.service.committing import Committed, MatchWriter, commit
from app.service.context import Context
from app.service.ports import MatchRecord, NewNotice, SeatRecord, SeatWrite, VersionConflict


@dataclass(frozen=True, slots=True)
class Person:
    """Someone to seat: `key` is how the caller finds the seat again (a seek id, a player id)."""

    key: str
    player_id: str
    name: str


@dataclass(frozen=True, slots=True)
class NewMatch:
    """A seated match before its first commit: the empty match, the commit's events and seat rows,
    and the caller's notices (each with the match id, the seat and the seq)."""

    empty: Loaded
    events: tuple[Tagged, ...]
    seats: tuple[SeatWrite, ...]
    extra: tuple[NewNotice, ...]
    seat_of: Mapping[str, int]  # person key -> seat
    at: datetime

    @property
    def match_id(self) -> str:
        return self.empty.record.id


def seated_match(
    ctx: Context,
    *,
    game: str,
    players: int,
    options: Mapping[str, JSON],
    settings: Mapping[str, JSON],
    people: Sequence[Person],
    bot_level: str,
    now: datetime,
    extra: Sequence[tuple[str, str, Mapping[str, JSON]]] = (),
) -> NewMatch:
    """The match; `players - len(people)` seats go to server bots at `bot_level`. `extra` are
    notices `(person key, type, data)` to add, each with the match id, the seat and the seq."""
    rules = ctx.games[game]
    parsed = stored_settings(settings)
    raw = dict(options)
    if parsed.drafts:  # as at creation: a drafted turn never ends by itself
        raw["explicit_end_turn"] = True
    opts = rules.parse_options(players, raw)
    secret = new_secret()
    parsed = dataclasses.replace(parsed, lifecycle=True, fairness=V2)
    record = MatchRecord(
        id=uuid.uuid4().hex, game=game, players=players, options=to_json(opts), status="waiting", seq=0,
        created_at=now, updated_at=now, secret=secret, commitment=commitment_v2(secret),
        settings=to_json(parsed), visibility=parsed.visibility,
    )  # fmt: skip
    order: list[Person | None] = [*people, *([None] * (players - len(people)))]
    seeded(f"{secret}:seats").shuffle(order)
    bots = {s: bot_level for s, p in enumerate(order) if p is None}
    seeds = {s: new_seat_seed() for s in range(players)}  # nobody sent a seed: the server's, as at a join
    empty = Loaded(
        record, ctx.loader.empty(record, ()), tuple(SeatRecord(record.id, s) for s in range(players))
    )
    events: list[Tagged] = [*decide.seat_bots(empty.match, bots, {s: seeds[s] for s in bots})]
    match: Match = advance(empty.match, events, now)
    for seat, person in enumerate(order):
        if person is not None:
            joined = decide.join(match, seat, person.name, person.player_id, seeds[seat])
            match = advance(match, joined, now)
            events.extend(joined)
    events = with_deal(empty.match, events, to_json(opts), secret)  # drago-fair-2: from every seat's seed
    rows = tuple(
        SeatWrite(e.seat, e.name, None, e.bot, now, e.player_id, e.level)
        for e in events
        if isinstance(e, SeatJoined)
    )
    seat_of = {p.key: s for s, p in enumerate(order) if p is not None}
    player_of = {p.key: p.player_id for p in people}
    seq = len(events)
    told = tuple(
        NewNotice(player_of[key], kind, {"match_id": record.id, "seat": seat_of[key], "seq": seq, **data})
        for key, kind, data in extra
    )
    return NewMatch(empty, tuple(events), rows, told, seat_of, now)


async def create_seated(ctx: Context, new: NewMatch, write: MatchWriter) -> Committed | None:
    """Make the match's first commit, written by `write` (None when it wrote nothing: the claim or
    the challenge update lost to another writer)."""
    try:
        return await commit(
            ctx,
            new.empty,
            new.events,
            seats=new.seats,
            at=new.at,
            create=True,
            write=write,
            first_told=new.extra,
        )
    except VersionConflict:
        return None
