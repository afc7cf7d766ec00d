"""Reading matches: summaries, the lobby, views (now and replayed), the event history, the reveal.

Reads never write. Hidden information leaves only through `app.matches.views` (`view_of`, kept per
state by `app.service.cache.Renderings`, and `record_of` for one viewer); the unredacted log only
through `reveal`, once the match is over.
"""

from __future__ import annotations

from collections.abc import Sequence

from app.games.core import Seat
from app.matches.fairness import V2, seat_seeds
from app.matches.settings import public_settings, stored_settings
from app.matches.views import SeatClock, View, clocks, full_record, records_of, timestamp
from app.service.auth import Caller, seat_in
from app.service.cache import Loaded
from app.service.context import Context
from app.service.errors import MatchNotFinished, ValidationFailed
from app.service.loading import InsideCommit
from app.service.ports import MatchFilter, MatchRecord, SeatRecord
from app.service.results import EventHistory, MatchListing, MatchReveal, MatchSummary, SeatInfo

COMMITMENT_SCHEME = (
    'sha256(canonical_json({"deal": <first event data>, "secret": <secret>})); canonical JSON: keys sorted, '
    'separators "," and ":", UTF-8, no ASCII escaping'
)
COMMITMENT_SCHEME_V2 = 'sha256(server seed bytes ‖ UTF-8 "drago-fair-2"); secret = the server seed in hex'
"""drago-fair-2 (docs/fairness.md)."""


def summary_of(loaded: Loaded) -> MatchSummary:
    """The public summary of a loaded match (its folded state is the truth, not the listing row)."""
    m, r = loaded.match, loaded.record
    seats = tuple(
        SeatInfo(i, s.name, s.taken, s.bot, s.level, s.player_id, s.resigned) for i, s in enumerate(m.seats)
    )
    scores, winners = (None, None) if m.end is None else (m.end.scores, m.end.winners)
    return _summary(r, m.status, m.seq, m.to_act, tuple(clocks(m)), scores, winners, seats)


def listed(record: MatchRecord, rows: Sequence[SeatRecord]) -> MatchSummary:
    """A lobby item from the listing row and the seat rows (no fold: one query for the page)."""
    seats = tuple(
        SeatInfo(s.seat, s.name, s.name is not None, s.bot, s.bot_level, s.player_id, False) for s in rows
    )
    clock: tuple[SeatClock, ...] = ()
    if record.deadline_at is not None and record.status == "active":
        clock = tuple(SeatClock(s, timestamp(record.deadline_at)) for s in record.to_act)
    return _summary(
        record, record.status, record.seq, record.to_act, clock, record.scores, record.winners, seats
    )


def _summary(
    r: MatchRecord,
    status: str,
    seq: int,
    to_act: tuple[int, ...],
    clock: tuple[SeatClock, ...],
    scores: tuple[int, ...] | None,
    winners: tuple[int, ...] | None,
    seats: tuple[SeatInfo, ...],
) -> MatchSummary:
    return MatchSummary(
        id=r.id, game=r.game, players=r.players, options=dict(r.options),
        settings=public_settings(stored_settings(r.settings)), status=status,  # type: ignore[arg-type]
        seq=seq, to_act=to_act, clock=clock, scores=scores, winners=winners, commitment=r.commitment,
        created_at=r.created_at, updated_at=r.updated_at, seats=seats, visibility=r.visibility,
    )  # fmt: skip


async def get_summary(ctx: Context, match_id: str) -> MatchSummary:
    return summary_of(await ctx.loader.load(match_id))


async def list_matches(ctx: Context, flt: MatchFilter) -> MatchListing:
    records, total = await ctx.store.list_matches(flt)
    items = []
    for r in records:
        items.append(listed(r, await ctx.store.get_seats(r.id)))
    return MatchListing(tuple(items), total, flt.limit, flt.offset)


def viewer_in(loaded: Loaded, caller: Caller | None) -> Seat | None:
    """The caller's seat, or None for a spectator (no credential)."""
    return None if caller is None else seat_in(loaded, caller)


async def get_view(ctx: Context, match_id: str, caller: Caller | None, at: int | None = None) -> View:
    """The caller's view now, or as it was at seq `at` (a replay)."""
    loaded = await ctx.loader.load(match_id)
    seat = viewer_in(loaded, caller)
    if at is None:
        return ctx.loader.renderings.view(loaded.match, seat)
    return await _view_at(ctx, loaded, seat, at)


async def _view_at(ctx: Context, loaded: Loaded, seat: Seat | None, at: int) -> View:
    """The viewer's view as it was at `at`, which must end a commit (a position someone saw)."""
    match = loaded.match
    if not 1 <= at <= match.seq:
        raise ValidationFailed(f"at must be a seq from 1 to {match.seq}", {"field": "at", "seq": match.seq})
    try:
        past, _ = await ctx.loader.at(loaded.record, at, since=at)
    except InsideCommit as e:
        before = e.first - 1 if e.first > 1 else None
        raise ValidationFailed(
            f"seq {at} is inside a commit; replay at a seq that ends one: {_either(before, e.last)}",
            {"field": "at", "previous": before, "next": e.last},
        ) from None
    return ctx.loader.renderings.view(past, seat)


def _either(before: int | None, after: int) -> str:
    return f"{after}" if before is None else f"{before} or {after}"


async def get_events(
    ctx: Context, match_id: str, caller: Caller | None, after: int, limit: int
) -> EventHistory:
    """Events with `seq > after` (at most `limit`), each redacted for the caller."""
    loaded = await ctx.loader.load(match_id)
    seat = viewer_in(loaded, caller)
    game = loaded.match.game
    stored = await ctx.store.read(match_id, after, limit)
    seq = max(loaded.match.seq, stored[-1].seq if stored else 0)
    return EventHistory(match_id, game.info.name, seq, records_of(game, stored, seat))


async def reveal(ctx: Context, match_id: str) -> MatchReveal:
    """The secret, the commitment and the full unredacted log: only once the match is over."""
    loaded = await ctx.loader.load(match_id)
    match = loaded.match
    end = match.end
    if end is None:
        raise MatchNotFinished()
    events = await ctx.store.read(match_id)
    record = loaded.record
    outcome = {
        "reason": end.reason,
        "winners": list(end.winners),
        "scores": None if end.scores is None else list(end.scores),
    }
    v2 = match.settings.fairness == V2
    return MatchReveal(
        match_id, record.game, record.players, dict(record.options), record.secret, record.commitment,
        COMMITMENT_SCHEME_V2 if v2 else COMMITMENT_SCHEME, outcome, tuple(full_record(e) for e in events),
        match.settings.fairness, tuple(seat_seeds(match)) if v2 else None,
    )  # fmt: skip
