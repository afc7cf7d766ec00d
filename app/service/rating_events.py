"""The `ratings_changed` event: a rated match's rating changes, appended to its own log once.

The ratings projection (`app.service.rating_projection`) first applies a finished rated match (its
transaction writes the ratings, the history rows and moves the cursor), then `announce` appends a
public `RatingsChanged` after the match's `match_ended` through the one write path, `commit`. The
figures are derived from the projection alone — the match's history rows (μ and σ before and
after) and the number of rated games of each player — so whoever appends them, and whenever,
appends the same event, recorded at the time of the `match_ended` it follows (so the match's end
time in listings and exports does not move).

Exactly once: the event goes at the seq right after `match_ended`, and `(match_id, seq)` is the
event store's key, so of two processes appending at once one commits and the other gets a
`VersionConflict`, reloads and finds the event there. A process that dies between the application
and the event leaves only the match at the projection's cursor unannounced: the projection
announces the match at its cursor before it applies the next one (`announce_last`), and the sweeper
runs the projection every few seconds; so at most that one match waits, and only until the next
pass of any process. The games counts come from the current ratings while the match is the last
applied (nothing changed them since), else from the players' histories — the same number.
"""

from __future__ import annotations

import logging
from typing import Final

from app.matches.events import MatchEnded, RatingChange, RatingsChanged, SeatRating
from app.service.committing import commit
from app.service.context import Context
from app.service.ports import VersionConflict
from app.service.rating_ports import RatingPoint, RatingStore
from app.service.ratings import PROVISIONAL_GAMES, ordinal

log = logging.getLogger("app.ratings")

ATTEMPTS: Final = 4


async def announce_last(ctx: Context, store: RatingStore, known: set[str] | None = None) -> None:
    """Announce the match at the projection's cursor if it is not yet (a process died in between).
    `known`: a pass's matches already settled — announced by it, or found with their event (or
    with none due); they are not read again, and the match announced here joins them. The cursor
    itself is read every time: another task may have applied a match since."""
    match_id = await store.last_applied()
    if match_id is None or (known is not None and match_id in known):
        return
    await announce(ctx, store, match_id)
    if known is not None:
        known.add(match_id)


async def announce(ctx: Context, store: RatingStore, match_id: str) -> bool:
    """Append the applied match's `ratings_changed` unless it is there; True when this call did.
    Raises the last `VersionConflict` when other writers kept winning (the next pass retries)."""
    conflict: VersionConflict | None = None
    for _ in range(ATTEMPTS):
        record = await ctx.store.get_match(match_id)
        tail = [] if record is None else await ctx.store.read(match_id, after=max(0, record.seq - 2))
        if any(e.type == RatingsChanged.TYPE for e in tail):
            return False
        if record is None or not tail or tail[-1].type != MatchEnded.TYPE:
            log.warning("match %s does not end with match_ended: no ratings_changed", match_id)
            return False
        loaded = await ctx.loader.load(match_id)
        if loaded.match.seq != tail[-1].seq:  # the log moved on since it was read: read again
            conflict = VersionConflict(match_id, tail[-1].seq, loaded.match.seq)
            continue
        event = await ratings_changed(store, match_id, loaded.record.game)
        if event is None:
            return False
        try:  # recorded at the end's time: the listing's end time (`updated_at`) stays the end
            await commit(ctx, loaded, [event], at=tail[-1].recorded_at)
        except VersionConflict as e:
            conflict = e  # another process appended first: the next round finds its event
            continue
        return True
    assert conflict is not None
    raise conflict


async def ratings_changed(store: RatingStore, match_id: str, game: str) -> RatingsChanged | None:
    """The event of an applied match, from the projection (None when it is not applied)."""
    points = await store.match_points(match_id)
    if not points:
        return None
    players = sorted({p.player_id for p in points})
    if await store.last_applied() == match_id:
        current = await store.get_ratings(game, players)
        after = {p: current[p].games for p in players}
    else:  # a later match changed the counts since: count this one and the earlier ones
        after = {p: await _games_until(store, p, game, points[0].ord) for p in players}
    return RatingsChanged(tuple(_change(p, after[p.player_id]) for p in points))


async def _games_until(store: RatingStore, player_id: str, game: str, ord: int) -> int:
    return len({p.ord for p in await store.rating_history(player_id, game) if p.ord <= ord})


def _rating(mu: float, sigma: float, games: int) -> SeatRating:
    return SeatRating(mu, sigma, ordinal(mu, sigma), games < PROVISIONAL_GAMES)


def _change(p: RatingPoint, games_after: int) -> RatingChange:
    before = _rating(p.mu_before, p.sigma_before, games_after - 1)
    return RatingChange(p.seat, p.player_id, before, _rating(p.mu_after, p.sigma_after, games_after))
