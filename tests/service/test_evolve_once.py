"""The decider's evolved states (`decide.act` returns them in its `Decision`) are taken by `advance`
instead of evolving each game event twice: the folded match is the one a fresh fold gives, over
random whole games of every registered game, and states evolved from other events are never taken."""

from __future__ import annotations

import random
from datetime import UTC, datetime
from typing import Any

import pytest

from app.games.codec import to_json
from app.games.registry import GAMES
from app.matches import decide
from app.matches.fold import Evolved, Match, advance, new_match
from app.matches.settings import MatchSettings

AT = datetime(2026, 1, 1, tzinfo=UTC)

SIZES = [
    (name, players)
    for name, game in sorted(GAMES.items())
    for players in sorted({game.info.min_players, game.info.max_players - 1, game.info.max_players})
    if players >= game.info.min_players
]


LIFECYCLE = MatchSettings(lifecycle=True)  # what a new match is created with


def started(game_name: str, players: int, seed: int, settings: MatchSettings = LIFECYCLE) -> Match:
    game = GAMES[game_name]
    m = new_match("m", game, players, settings)
    options = game.parse_options(players, {})
    m = advance(m, [game.start(players, options, random.Random(seed))], AT)  # the deal, at creation
    for seat in range(players):
        m = advance(m, decide.join(m, seat, f"p{seat}"), AT)
    return m


@pytest.mark.parametrize(("game_name", "players"), SIZES)
@pytest.mark.parametrize("seed", range(4))
def test_advance_after_the_decider_equals_a_fresh_fold(game_name: str, players: int, seed: int) -> None:
    rng = random.Random(seed)
    m = started(game_name, players, seed)
    taken = 0
    while m.status == "active":
        seat = m.to_act[0]
        action = rng.choice(m.game.legal_actions(m.state, seat))
        decision = decide.act(m, seat, to_json(action), random.Random(rng.random()))
        assert decision.evolved, "the decider returns the states it evolved"
        taken += len(decision.evolved)
        after = advance(m, decision.events, AT, decision.evolved)
        assert after == advance(m, decision.events, AT)
        m = after
    assert m.status == "finished" and taken > 0


def test_states_evolved_from_other_events_are_not_taken() -> None:
    rng = random.Random(7)
    m = started("mount_drago", 2, 7)
    seat = m.to_act[0]
    action: Any = to_json(rng.choice(m.game.legal_actions(m.state, seat)))
    mine = decide.act(m, seat, action, random.Random(1))
    other = decide.act(m, seat, action, random.Random(2))  # another decision over the same match
    assert advance(m, mine.events, AT, other.evolved) == advance(m, mine.events, AT)
    wrong = (Evolved(object(), mine.events[0], "not a state"),)  # the right event, from another state
    assert advance(m, mine.events, AT, wrong) == advance(m, mine.events, AT)
