"""The decider's evolved states (`decide.finished`, kept in `Match.memo`) are taken by `advance`
instead of evolving each game event twice: the folded match is the one a fresh fold gives, over
random whole games of both games, and a memo from other events is never taken."""

from __future__ import annotations

import random
from datetime import UTC, datetime
from typing import Any

import pytest

from app.games.codec import to_json
from app.games.frozen import replace
from app.games.registry import GAMES
from app.matches import decide
from app.matches.fold import EVOLVED, Match, advance, new_match
from app.matches.settings import MatchSettings

AT = datetime(2026, 1, 1, tzinfo=UTC)


def started(game_name: str, players: int, seed: int) -> Match:
    game = GAMES[game_name]
    m = new_match("m", game, players, MatchSettings(lifecycle=True))
    options = game.parse_options(players, {})
    m = advance(m, [game.start(players, options, random.Random(seed))], AT)  # the deal, at creation
    for seat in range(players):
        m = advance(m, decide.join(m, seat, f"p{seat}"), AT)
    return m


def unmemoised(m: Match) -> Match:
    copy = replace(m)  # the same match, with an empty memo (`replace` does not copy it)
    assert copy == m and not copy.memo
    return copy


@pytest.mark.parametrize(("game_name", "players"), [("mount_drago", 2), ("mount_drago", 4), ("yutaka", 2)])
@pytest.mark.parametrize("seed", range(4))
def test_advance_after_the_decider_equals_a_fresh_fold(game_name: str, players: int, seed: int) -> None:
    rng = random.Random(seed)
    m = started(game_name, players, seed)
    taken = 0
    while m.status == "active":
        seat = m.to_act[0]
        action = rng.choice(m.game.legal_actions(m.state, seat))
        events = decide.act(m, seat, to_json(action), random.Random(rng.random()))
        assert m.memo[EVOLVED], "the decider keeps the states it evolved"
        taken += len(m.memo[EVOLVED])
        after = advance(m, events, AT)
        assert after == advance(unmemoised(m), events, AT)
        m = after
    assert m.status == "finished" and taken > 0


def test_a_memo_of_other_events_is_not_taken() -> None:
    rng = random.Random(7)
    m = started("mount_drago", 2, 7)
    seat = m.to_act[0]
    action: Any = to_json(rng.choice(m.game.legal_actions(m.state, seat)))
    mine = decide.act(m, seat, action, random.Random(1))
    decide.act(m, seat, action, random.Random(2))  # another decision over the same match: its memo
    assert advance(m, mine, AT) == advance(unmemoised(m), mine, AT)
    m.memo[EVOLVED] = [(object(), mine[0], "not a state")]  # the right event, from another state
    assert advance(m, mine, AT) == advance(unmemoised(m), mine, AT)
