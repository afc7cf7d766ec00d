"""The Python client's ratings methods against the real app in-process: a rated match resigned by
a player (so it ends at once), its rating changes, the profiles, the history, the leaderboard, and
the refusals `PlayerKeyRequired` and `NameTaken`."""

from __future__ import annotations

import pytest
from drago_client import AsyncClient, NameTaken, NotFound, PlayerKeyRequired, models

from tests.api.helpers import eventually


async def test_ratings_through_the_client(api: AsyncClient) -> None:
    player = await api.create_player("Ada")
    with pytest.raises(NameTaken):
        await api.create_player("ADA")
    match = await api.create_match("yutaka", 2, bots=[models.BotSeat(seat=1, level="greedy")], rated=True)
    assert match.settings["rated"] is True
    with pytest.raises(PlayerKeyRequired):
        await api.join_seat(match.id, 0, "Anonymous")
    await api.join_seat(match.id, 0, "Ada", token=player.key)
    await api.resign(match.id, token=player.key)

    async def applied() -> models.MatchRatings | None:
        ratings = await api.get_match_ratings(match.id)
        return ratings if ratings.applied else None

    ratings = await eventually(applied, "the ratings")
    assert [(c.seat, c.player_id, c.rank) for c in ratings.changes] == [
        (0, player.player_id, 2),
        (1, "bot-greedy", 1),
    ]
    assert ratings.changes[0].delta < 0 < ratings.changes[1].delta
    profile = await api.get_player_profile(player.player_id)
    assert isinstance(profile, models.Profile) and profile.name == "Ada" and not profile.bot
    assert [(r.game, r.games, r.wins, r.provisional) for r in profile.ratings] == [("yutaka", 1, 0, True)]
    bot = await api.get_player_profile("bot-greedy")
    assert bot.bot and bot.name == "greedy" and bot.ratings[0].wins == 1
    history = await api.get_rating_history(player.player_id, "yutaka")
    assert [p.match_id for p in history.points] == [match.id]
    assert history.points[0].rating_after == pytest.approx(ratings.changes[0].rating_after)
    board = await api.get_leaderboard("yutaka", limit=500)
    assert list(board.entries) == [] and board.limit == 100  # provisional players are not listed; capped
    with pytest.raises(NotFound):
        await api.get_player_profile("nobody")
