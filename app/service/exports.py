"""A player's finished matches as a stream of self-contained records (`GET /v1/players/{id}/matches
?format=ndjson`): for each, the public summary, the player's seat, every seat's final rank, the
rating changes (rated matches) and the revealed log (as `…/reveal` gives it: a finished match hides
nothing any more). Matches are read a page at a time and each record is handed on before the next
is built, so memory does not grow with the number of matches. Unlisted matches are exported only
to their own player (with its key); anybody may export a player's public matches.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import datetime
from typing import Final

from app.service.auth import Caller
from app.service.context import Context
from app.service.errors import NotFound, ValidationFailed
from app.service.players import player_of
from app.service.ports import PlayerMatchFilter
from app.service.rating_reads import MatchRatings, match_ratings
from app.service.ratings import ranks
from app.service.reading import reveal, summary_of
from app.service.results import MatchReveal, MatchSummary

PAGE: Final = 100  # matches read per store call


@dataclass(frozen=True, slots=True)
class ExportedMatch:
    summary: MatchSummary
    seat: int  # the exported player's seat
    ranks: tuple[int, ...]  # per seat: 1 best, ties share, seats that left last
    ratings: MatchRatings
    reveal: MatchReveal


async def export_matches(
    ctx: Context,
    player_id: str,
    caller: Caller | None,
    *,
    since: datetime | None = None,
    until: datetime | None = None,
) -> AsyncIterator[ExportedMatch]:
    """The player's finished matches that ended in `[since, until)`, newest first, one at a time.

    Checks run before the first record: an unknown player is `NotFound`; a credential that is not
    this player's valid key is refused rather than silently exporting less."""
    if since is not None and until is not None and since > until:
        raise ValidationFailed("since must not be after until", {"field": "since"})
    own = False
    if caller is not None:
        own = (await player_of(ctx, caller)).id == player_id
    if await ctx.store.get_player(player_id) is None:
        raise NotFound("no such player", {"player_id": player_id})
    return _records(ctx, player_id, own, since, until)


async def _records(
    ctx: Context, player_id: str, own: bool, since: datetime | None, until: datetime | None
) -> AsyncIterator[ExportedMatch]:
    offset = 0
    while True:
        page, _ = await ctx.store.player_matches(
            PlayerMatchFilter(player_id, "finished", limit=PAGE, offset=offset)
        )
        offset += len(page)
        for pm in page:
            ended = pm.record.updated_at
            if (until is not None and ended >= until) or (not own and pm.record.visibility != "public"):
                continue
            if since is not None and ended < since:
                return  # newest first: every later one ended earlier still
            loaded = await ctx.loader.load(pm.record.id)
            yield ExportedMatch(
                summary_of(loaded),
                pm.seat,
                tuple(ranks(loaded.match)),
                await match_ratings(ctx, pm.record.id),
                await reveal(ctx, pm.record.id),
            )
        if len(page) < PAGE:
            return
