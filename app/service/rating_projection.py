"""Ratings as a projection of the event log: applied exactly once, rebuildable.

`project_ratings` applies every finished rated match not applied yet, one per transaction, in the
order the store lists them (their end, then id). Each application folds the match from its events
(`app.service.ratings.ranking`), reads the players' ratings, computes the new ones and writes them
together with the history rows and the projection's cursor moved from `ord - 1` to `ord`
(`RatingStore.apply_rated`); then it appends the match's public `ratings_changed` event
(`app.service.rating_events`), and before each application it makes sure the match at the cursor
has its event (the process that applied it may have died before appending it). Two processes
applying at once: one wins, the other gets `RatingConflict`, reads again and finds the match
applied. A process that dies after the match's
commit and before its rating leaves the match pending: the next commit that ends a rated match, or
any process's sweeper, applies it. So every rated `match_ended` is applied exactly once.

`rebuild_ratings` forgets the projection and applies the same matches again from their events in
the recorded order of application (then any still pending): the tables come out identical, value
for value, because the computation is deterministic and starts from the same priors in the same
order. It is how a change of the model is rolled out (`python -m app ratings rebuild`). It appends
no event: the matches' `ratings_changed` stay as they were (they agree, the computation being
deterministic), and matches still pending are left to the projection, which announces them.
"""

from __future__ import annotations

import logging
from typing import Final, cast

from app.matches.events import MatchEnded
from app.service.context import Context
from app.service.rating_events import announce, announce_last
from app.service.rating_ports import RatedMatch, RatingConflict, RatingPoint, RatingRecord, RatingStore
from app.service.ratings import NotRateable, Rating, ranking, rate

log = logging.getLogger("app.ratings")

BATCH: Final = 50
MAX_ATTEMPTS: Final = 8


def rating_store(ctx: Context) -> RatingStore:
    store = ctx.store
    if not isinstance(store, RatingStore):
        raise TypeError(f"{type(store).__name__} keeps no ratings")
    return cast(RatingStore, store)


async def project_ratings(ctx: Context, limit: int = 1000) -> int:
    """Apply pending rated matches (at most `limit`), each followed by its `ratings_changed`;
    returns how many this call applied. On return every applied match has its event, also one that
    another task applied meanwhile."""
    store = rating_store(ctx)
    # No opening `announce_last`: each application makes one first, and so does the return.
    announced: set[str] = set()  # the matches this pass found settled (`announce_last`)
    applied = 0
    while applied < limit:
        pending = await store.unrated_ends(BATCH)
        if not pending:
            break
        progress = 0
        for match_id in pending:
            if applied >= limit:
                break
            if await apply_one(ctx, store, match_id, announced=announced):
                applied += 1
                progress += 1
        if progress == 0:
            break
    # A match another task or process applied while this pass looked (it found it applied and
    # moved on) may still wait for its event: on return, the match at the cursor is announced too
    # (skipped only if this pass already saw its event there or appended it).
    await announce_last(ctx, store, announced)
    return applied


async def apply_one(
    ctx: Context,
    store: RatingStore,
    match_id: str,
    *,
    ord: int | None = None,
    announced: set[str] | None = None,
) -> bool:
    """Apply one match at the cursor (or at `ord`); False when it is applied already or unrateable.
    `announced` (a pass's set of matches settled, see `announce_last`): the match at the cursor
    gets its `ratings_changed` before, and this one after; None: no events."""
    for _ in range(MAX_ATTEMPTS):
        if announced is not None:
            await announce_last(ctx, store, announced)  # its figures hold only until the next application
        cursor = await store.rating_cursor()
        if await store.is_applied(match_id):
            return False
        rated = await _compute(ctx, store, match_id, cursor + 1 if ord is None else ord)
        if rated is None:
            return False
        try:
            await store.apply_rated(rated)
        except RatingConflict:
            continue
        if announced is not None:
            try:
                await announce(ctx, store, match_id)
                announced.add(match_id)
            except Exception:  # applied all the same: the next application or pass announces it
                log.exception("announcing the ratings of %s failed", match_id)
        return True
    return False


async def _compute(ctx: Context, store: RatingStore, match_id: str, ord: int) -> RatedMatch | None:
    loaded = await ctx.loader.load(match_id)
    try:
        places = ranking(loaded.match)
    except NotRateable:
        log.warning("match %s is listed as rated but gives no ranking", match_id)
        return None
    game = loaded.record.game
    stored = await store.get_ratings(game, [p.player_id for p in places])
    prior = {p: Rating(r.mu, r.sigma, r.games, r.wins) for p, r in stored.items()}
    changes = rate(places, prior)
    tail = await ctx.store.read(match_id, after=max(0, loaded.match.seq - 2))
    # The end: `match_ended`, the last event of a finished match but for its `ratings_changed`.
    at = next(e.recorded_at for e in reversed(tail) if e.type == MatchEnded.TYPE)
    ratings: dict[str, RatingRecord] = {}
    for c in changes:
        a = c.after
        ratings[c.player_id] = RatingRecord(c.player_id, game, a.mu, a.sigma, a.games, a.wins, at)
    points = tuple(
        RatingPoint(
            ord,
            match_id,
            game,
            c.seat,
            c.player_id,
            c.rank,
            c.before.mu,
            c.before.sigma,
            c.after.mu,
            c.after.sigma,
            at,
        )
        for c in changes
    )
    return RatedMatch(ord, match_id, game, at, tuple(ratings[p] for p in sorted(ratings)), points)


async def rebuild_ratings(ctx: Context) -> int:
    """Recompute every rating from the event log; returns how many matches were applied."""
    store = rating_store(ctx)
    order = await store.rated_order()
    await store.reset_ratings()
    n = 0
    for match_id in order:
        if await apply_one(ctx, store, match_id, ord=n + 1):
            n += 1
    return n
