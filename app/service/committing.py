"""The one way a match changes: append a commit, then (only then) tell whoever must know.

`commit` folds the decided events onto the loaded match, appends them at its `seq` with the
listing projection, seat rows, idempotency record and players' notices in one `Append` (a new
match's first commit creates it with its seats and listing row instead — or hands all of it, with
the notices, as one `MatchWrite` to the caller's store call, which writes its own rows in the same
transaction: a seek claim, a challenge's acceptance), remembers the new state,
and after the store has committed notifies the match's channel and every player channel that got a
notice, and wakes the bot runner when a server bot owes a decision. A `VersionConflict` leaves
everything as it was.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from app.games.codec import to_json
from app.games.core import Seat
from app.games.frozen import constructor
from app.matches.fold import Evolved, Match, advance
from app.service import eager
from app.service.cache import Loaded
from app.service.context import Context
from app.service.ports import (
    Append,
    AppendResult,
    IdempotencyRecord,
    MatchRecord,
    MatchUpdate,
    NewEvent,
    NewNotice,
    SeatRecord,
    SeatWrite,
    StoredEvent,
    StoredNotice,
    VersionConflict,
    player_channel,
)
from app.service.seek_ports import MatchWrite

log = logging.getLogger("app.service")


@dataclass(frozen=True, slots=True)
class Idempotency:
    seat: Seat
    key: str
    request_hash: str


# `NewEvent(…)` and `StoredEvent(…)` with every field in order: built per event of every commit.
_new_event = constructor(NewEvent)
_stored_event = constructor(StoredEvent)


MatchWriter = Callable[[MatchWrite], Awaitable[Sequence[StoredNotice] | None]]
"""Writes a new match with the caller's own rows in one transaction; the notices written, or None
when it wrote nothing (another writer was first)."""


@dataclass(frozen=True, slots=True)
class Committed:
    loaded: Loaded  # the match after the commit
    stored: tuple[StoredEvent, ...]  # the events appended, as the store keeps them (`decoded` set)


async def commit(
    ctx: Context,
    loaded: Loaded,
    events: Sequence[Any],
    *,
    by: Seat | None = None,
    seats: Sequence[SeatWrite] = (),
    idempotency: Idempotency | None = None,
    bot: bool = False,
    evolved: Sequence[Evolved] = (),
    at: datetime | None = None,
    create: bool = False,
    write: MatchWriter | None = None,
    first_told: Sequence[NewNotice] = (),
    meanwhile: Callable[[Match, tuple[StoredEvent, ...]], None] | None = None,
) -> Committed:
    """Append `events` (decoded) at `loaded.match.seq`; raises `VersionConflict` if another writer won.
    The first commit of a match (`create`, at seq 0) creates it: its row, its seats and its first
    events (none for a drago-fair-2 match nobody has joined yet: it is dealt at its last seat);
    with `write`, that store call writes it, with the start's notices after `first_told`, and
    a `VersionConflict` is raised when it wrote nothing.

    `by` is the seat whose request this is (None: the server), for notices and logs; `evolved`: the
    game states the decider evolved on the way (`app.matches.decide.Decision`).

    `meanwhile(after, stored)`: work on the new state that the caller needs next (its reply),
    called once. Where the store appends remotely (`EventStore.appends_remotely`: the database
    server commits while this process waits), it runs while the append is in flight, so that the
    commit's wait hides it; elsewhere after the append. It must publish and keep nothing: the state
    is not committed while it runs, and may never be (`VersionConflict`).
    """
    before = loaded.match
    at = ctx.clock() if at is None else at
    after = advance(before, events, at, evolved)
    first, last = before.seq + 1, after.seq
    new_events = tuple(_new_event(e.TYPE, to_json(e)) for e in events)
    stored = tuple(
        _stored_event(before.match_id, first + i, e.type, e.data, at, last, d)
        for i, (e, d) in enumerate(zip(new_events, events, strict=True))
    )
    seats = _seat_rows(loaded, after, seats)
    game = loaded.record.game
    if create:  # the first commit creates the match, its seats and its listing row at once
        record = projection(ctx, loaded.record, after).applied(
            loaded.record, after.seq, loaded.record.updated_at
        )
        rows = _with_seats(loaded.seats, record.id, seats)
        if write is None:
            await ctx.store.create_match(record, rows, new_events)
            told: Sequence[StoredNotice] = ()
        else:
            started = (*first_told, *notices(before, after, by, last))
            written = await write(MatchWrite(record, rows, new_events, started))
            if written is None:
                raise VersionConflict(record.id, 0)
            told = written
        new = Loaded(record, after, rows)
        ctx.metrics.match_created(game)
    else:
        idem = None
        if idempotency is not None:
            i = idempotency
            idem = IdempotencyRecord(before.match_id, i.seat, i.key, i.request_hash, first, last)
        append = Append(
            match_id=before.match_id,
            expected_seq=before.seq,
            events=new_events,
            update=projection(ctx, loaded.record, after),
            at=at,
            idempotency=idem,
            seats=tuple(seats),
            notices=tuple(notices(before, after, by, last)),
        )
        try:
            if meanwhile is not None and ctx.store.appends_remotely:
                told = (await _append_while(ctx, append, functools.partial(meanwhile, after, stored))).notices
                meanwhile = None  # done: not again below
            else:
                told = (await ctx.store.append(append)).notices
        except VersionConflict:
            ctx.metrics.version_conflict(game)
            raise
        new = Loaded(loaded.record, after, _with_seats(loaded.seats, loaded.record.id, seats))
        ctx.metrics.action_appended(game, bot)
        level = logging.DEBUG if bot else logging.INFO
        if log.isEnabledFor(level):  # its record is built only when written
            extra = {"match_id": before.match_id, "seat": by, "seq": last, "events": len(events), "bot": bot}
            log.log(level, "commit appended", extra=extra)
    ctx.loader.remember(new)
    _remember_tokens(ctx, loaded.seats, seats, before.match_id)
    if meanwhile is not None:  # not run while the append was in flight: now, once committed
        meanwhile(after, stored)
    await _notify(ctx, before.match_id, last, stored)
    for player in dict.fromkeys(n.player_id for n in told):
        await _notify(ctx, player_channel(player), max(n.cursor for n in told if n.player_id == player))
    if after.bots_to_act:
        ctx.bots.wake(before.match_id)
    if (
        after.settings.rated
        and after.status == "finished"
        and before.end is None
        and ctx.config.ratings_on_commit
    ):
        await _project(ctx)
    return Committed(new, stored)


async def _append_while(ctx: Context, append: Append, work: Callable[[], None]) -> AppendResult:
    """`ctx.store.append(append)`, with `work` run while the database server commits it.

    The append runs at once up to its first wait (`app.service.eager`): it has handed its commit to
    the store's group commit (`app.store.postgres_commit`), whose task, ready now, sends it at the
    loop's next turn. `work` is queued behind that task, so the commit is on its way when it runs.
    This task waits for the append as it would have (no extra turn of the loop: under load each
    turn waits behind every other ready task). Cancelled, the append is cancelled with it, as an
    awaited append is, and `work` if it has not run."""
    stepped = eager.step(ctx.store.append(append))
    if isinstance(stepped, eager.Done):
        work()
        return stepped.value
    queued = asyncio.get_running_loop().call_soon(work)
    try:
        return await stepped
    except BaseException:
        queued.cancel()
        raise


async def _project(ctx: Context) -> None:
    """Apply the ratings of the match that just ended (and any other pending): after the commit,
    so a failure here leaves the match pending for the next commit or the sweeper."""
    # Imported here: the projection appends its `ratings_changed` events through `commit`.
    from app.service.rating_projection import project_ratings

    try:
        await project_ratings(ctx)
    except Exception:  # the commit stands; the sweeper applies the ratings on its next pass
        log.exception("applying ratings failed")


def projection(ctx: Context, record: MatchRecord, match: Match) -> MatchUpdate:
    """The listing row of `match`: what the lobby, "my matches" and the sweepers query."""
    outcome = match.end
    return MatchUpdate(
        status=match.status,
        to_act=match.to_act,
        scores=None if outcome is None else outcome.scores,
        winners=None if outcome is None else outcome.winners,
        deadline_at=next_deadline(ctx, record, match),
        open_seats=match.open_seats if match.status == "waiting" else 0,
        bot_due=bool(match.bots_to_act),
    )


def next_deadline(ctx: Context, record: MatchRecord, match: Match) -> datetime | None:
    """When a sweeper must next look at the match: its expiry while waiting, a clock while active."""
    if match.status == "waiting":
        expiry = ctx.config.waiting_expiry_s
        return None if expiry is None else record.created_at + timedelta(seconds=expiry)
    if match.status == "active":
        deadlines = match.deadlines().values()
        return min(deadlines) if deadlines else None
    return None


def notices(before: Match, after: Match, by: Seat | None, seq: int) -> list[NewNotice]:
    """Public facts for the players holding seats: the start, their turn, a takeover, the end."""
    out: list[NewNotice] = []
    deadlines = after.deadlines()
    for s, seat in enumerate(after.seats):
        player = seat.player_id
        if player is None:
            continue
        base = {"match_id": after.match_id, "seat": s, "seq": seq}
        if after.started and not before.started:
            out.append(NewNotice(player, "match_started", base))
        if seat.bot and not before.seats[s].bot:
            out.append(NewNotice(player, "seat_taken_over", base))
        mine = s in after.to_act and not after.bot_plays(s)
        if mine and (s not in before.to_act or before.bot_plays(s) or by != s):
            deadline = deadlines.get(s)
            at = None if deadline is None else deadline.isoformat().replace("+00:00", "Z")
            out.append(NewNotice(player, "your_turn", {**base, "deadline": at}))
        end = after.end
        if end is not None and before.end is None:
            data = {**base, "reason": end.reason, "winners": list(end.winners)}
            out.append(NewNotice(player, "match_ended", data))
    return out


async def announce(ctx: Context, match_id: str, seq: int) -> None:
    """Tell the live readers again that `match_id` is at `seq` or later, for a retry of a request
    committed already (`app.service.acting`): the process that committed it may have died, or met
    the database going away, before telling them, and nothing else would until the match's next
    commit (none after its last one). A reader at or past `seq` ignores it (`LiveHub._wake`)."""
    await _notify(ctx, match_id, seq)


async def _notify(ctx: Context, channel: str, seq: int, events: Sequence[StoredEvent] = ()) -> None:
    try:
        await ctx.notifier.notify(channel, seq, events)
    except Exception:  # the commit stands; live readers catch up on their next read
        log.exception("notify failed", extra={"channel": channel, "seq": seq})


def _seat_rows(loaded: Loaded, after: Match, writes: Sequence[SeatWrite]) -> tuple[SeatWrite, ...]:
    """`writes`, plus the rows of seats a bot took over in this commit (the rows mirror the fold)."""
    out = {w.seat: w for w in writes}
    for s, seat in enumerate(after.seats):
        row = loaded.seats[s] if s < len(loaded.seats) else None
        if s in out or row is None or (row.bot == seat.bot and (not seat.bot or row.bot_level == seat.level)):
            continue
        out[s] = SeatWrite(s, row.name, row.token_hash, seat.bot, row.joined_at, row.player_id, seat.level)
    return tuple(out[s] for s in sorted(out))


def _remember_tokens(
    ctx: Context, rows: tuple[SeatRecord, ...], writes: Sequence[SeatWrite], match_id: str
) -> None:
    """The token hints follow the rows just written: a new token (a join, a reissue) is known at
    its first use without a store lookup, a replaced one is forgotten (`seat_in` refuses it anyway)."""
    for w in writes:
        old = rows[w.seat].token_hash if w.seat < len(rows) else None
        if old is not None and old != w.token_hash:
            ctx.tokens.drop(old)
        if w.token_hash is not None:
            ctx.tokens.put(w.token_hash, (match_id, w.seat, w.player_id))


def _with_seats(
    rows: tuple[SeatRecord, ...], match_id: str, writes: Sequence[SeatWrite]
) -> tuple[SeatRecord, ...]:
    if not writes:
        return rows
    seats = list(rows)
    for w in writes:
        seats[w.seat] = SeatRecord(
            match_id, w.seat, w.name, w.token_hash, w.bot, w.joined_at, w.player_id, w.bot_level
        )
    return tuple(seats)
