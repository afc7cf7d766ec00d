"""A match created with its players already seated (matchmaking: a seek group, an accepted
challenge), and what a process does after the store committed it.

`seated_match` rolls the match's secret, seats the people in an order shuffled by the match's own
randomness (`chance.seeded(f"{secret}:seats")`: checkable once the secret is revealed), server bots
in the places left, and deals by drago-fair-2 (docs/fairness.md) from every seat's seed (the
server's: nobody sends one through a seek or a challenge); the first commit holds every
`seat_joined`, then the deal and `match_started`. Seats taken this way have no token: the player's
key authorizes them. The notices are the usual ones of a start (`match_started`, `your_turn`) plus
whatever the caller adds.
"""

from __future__ import annotations

import contextlib
import dataclasses
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

from app.games.chance import seeded
from app.games.codec import JSON, to_json
from app.games.core import Tagged
from app.matches import decide
from app.matches.fairness import V2, commitment_v2, new_seat_seed, new_secret, with_deal
from app.matches.fold import Match, advance
from app.matches.settings import stored_settings
from app.service.cache import Loaded
from app.service.committing import notices, projection
from app.service.context import Context
from app.service.ports import MatchRecord, NewEvent, NewNotice, SeatRecord, StoredNotice, player_channel
from app.service.seek_ports import MatchWrite


@dataclass(frozen=True, slots=True)
class Person:
    """Someone to seat: `key` is how the caller finds the seat again (a seek id, a player id)."""

    key: str
    player_id: str
    name: str


@dataclass(frozen=True, slots=True)
class NewMatch:
    write: MatchWrite
    loaded: Loaded
    seat_of: Mapping[str, int]  # person key -> seat


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
    empty = ctx.loader.empty(record, ())
    events: list[Tagged] = [*decide.seat_bots(empty, bots, {s: seeds[s] for s in bots})]
    match: Match = advance(empty, events, now)
    for seat, person in enumerate(order):
        if person is not None:
            joined = decide.join(match, seat, person.name, person.player_id, seeds[seat])
            match = advance(match, joined, now)
            events.extend(joined)
    events = with_deal(empty, events, to_json(opts), secret)  # drago-fair-2: dealt from every seat's seed
    match = advance(empty, events, now)
    update = projection(ctx, record, match)
    record = dataclasses.replace(
        record, seq=match.seq, status=update.status, to_act=update.to_act, deadline_at=update.deadline_at,
        open_seats=update.open_seats, bot_due=update.bot_due,
    )  # fmt: skip
    seats = tuple(
        SeatRecord(record.id, s, match.seats[s].name, None, True, now, None, bots[s])
        if p is None
        else SeatRecord(record.id, s, p.name, None, False, now, p.player_id, None)
        for s, p in enumerate(order)
    )
    seat_of = {p.key: s for s, p in enumerate(order) if p is not None}
    player_of = {p.key: p.player_id for p in people}
    told = [
        NewNotice(
            player_of[key], kind, {"match_id": record.id, "seat": seat_of[key], "seq": match.seq, **data}
        )
        for key, kind, data in extra
    ]
    told += notices(empty, match, None, match.seq)
    write = MatchWrite(record, seats, tuple(NewEvent(e.TYPE, to_json(e)) for e in events), tuple(told))
    return NewMatch(write, Loaded(record, match, seats), seat_of)


async def announce(ctx: Context, new: NewMatch, written: Sequence[StoredNotice]) -> None:
    """After the store committed `new`: remember it, tell the match's and the players' channels,
    wake the bots if one acts first."""
    loaded = new.loaded
    ctx.loader.remember(loaded)
    ctx.metrics.match_created(loaded.record.game)
    match_id = loaded.record.id
    with contextlib.suppress(Exception):  # the match stands; readers catch up on their next read
        await ctx.notifier.notify(match_id, loaded.match.seq)
        for player in dict.fromkeys(n.player_id for n in written):
            cursor = max(n.cursor for n in written if n.player_id == player)
            await ctx.notifier.notify(player_channel(player), cursor)
    if loaded.match.bots_to_act:
        ctx.bots.wake(match_id)
