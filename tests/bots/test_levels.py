"""The bot levels: the registry, legal and reproducible decisions, whole games, the heuristics.

Every level returns one of the legal actions it was given, the same one for the same rng, at many
points of random games of both games and every player count; bots of different levels play whole
games against each other through the real redaction. The Yutakâ heuristic's model of the scoring
agrees with the engine's, and at the end of a game both heuristics give the final scores.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from app.bots import DEFAULT_LEVEL, LEVELS, Budget, InfoSet, ismcts, make_bot, observe
from app.bots import yutaka as yutaka_heuristic
from app.bots.ismcts import IsmctsBot
from app.bots.kits import KITS
from app.games.registry import GAMES
from app.games.yutaka.components import TILE_TYPES
from app.games.yutaka.scoring import Result, score_island
from app.games.yutaka.state import State as YutakaState
from tests.bots.support import YUTAKA_OPTIONS, random_match

BUDGET = Budget(iterations=30, millis=None)
TABLES = [("mount_drago", 2, {}), ("mount_drago", 4, {}), ("yutaka", 2, {}), ("yutaka", 2, YUTAKA_OPTIONS[3])]


def test_the_registry_names_three_levels_and_a_default() -> None:
    assert set(LEVELS) == {"random", "greedy", "ismcts"}
    assert DEFAULT_LEVEL in LEVELS
    assert {make_bot(level).name for level in LEVELS} == set(LEVELS)
    with pytest.raises(KeyError):
        make_bot("grandmaster")
    with pytest.raises(ValueError):
        Budget(iterations=None, millis=None)


@pytest.mark.parametrize("level", sorted(LEVELS))
@pytest.mark.parametrize(("name", "players", "options"), TABLES)
def test_a_level_returns_a_legal_action_and_the_same_one_for_the_same_rng(
    level: str, name: str, players: int, options: Any
) -> None:
    bot = make_bot(level, BUDGET)
    match = random_match(name, players, 21, options)
    game = match.game
    rng = random.Random(21)
    for k, state in rng.sample(match.cuts[:-1], 5):
        seat = game.to_act(state)[0]
        info = observe(game, seat, match.events[:k], game.legal_actions(state, seat))
        action = bot.choose(info, random.Random(k))
        assert action in info.legal_actions
        assert bot.choose(info, random.Random(k)) == action


def test_a_single_legal_action_is_returned_without_looking_further() -> None:
    info = InfoSet("yutaka", 0, (), ("the only one",))
    for level in LEVELS:
        assert make_bot(level, BUDGET).choose(info, random.Random(0)) == "the only one"


def play(name: str, players: int, levels: list[str], seed: int) -> Any:
    game = GAMES[name]
    rng = random.Random(seed)
    state = game.initial_state(first := game.start(players, game.parse_options(players, {}), rng))
    events = [first]
    bots = [make_bot(level, BUDGET) for level in levels]
    while game.outcome(state) is None:
        seat = game.to_act(state)[0]
        info = observe(game, seat, events, game.legal_actions(state, seat))
        action = bots[seat].choose(info, rng)
        for event in game.decide(state, seat, action, rng):
            state = game.evolve(state, event)
            events.append(event)
    return game.outcome(state)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("name", "levels"),
    [("mount_drago", ["ismcts", "greedy", "random"]), ("yutaka", ["ismcts", "greedy"])],
)
def test_levels_play_whole_games_against_each_other(name: str, levels: list[str]) -> None:
    result = play(name, len(levels), levels, seed=4)
    assert result is not None and result.winners


def test_ismcts_stops_at_its_time_budget() -> None:
    match = random_match("yutaka", 2, 8)
    k, state = match.cuts[10]
    seat = match.game.to_act(state)[0]
    info = observe(match.game, seat, match.events[:k], match.game.legal_actions(state, seat))
    bot = IsmctsBot(Budget(iterations=None, millis=1))
    assert bot.choose(info, random.Random(0)) in info.legal_actions


@pytest.mark.parametrize("clock", ["wall", "cpu"])
def test_ismcts_reads_the_clock_its_budget_names(clock: str, monkeypatch: pytest.MonkeyPatch) -> None:
    match = random_match("yutaka", 2, 8)
    k, state = match.cuts[10]
    seat = match.game.to_act(state)[0]
    info = observe(match.game, seat, match.events[:k], match.game.legal_actions(state, seat))
    ticks = iter(range(1000))  # a clock that advances one millisecond each time it is read
    monkeypatch.setitem(ismcts.CLOCKS, clock, lambda: next(ticks) / 1000)
    other = "cpu" if clock == "wall" else "wall"
    monkeypatch.setitem(ismcts.CLOCKS, other, lambda: pytest.fail(f"read the {other} clock"))
    bot = IsmctsBot(Budget(iterations=None, millis=5, clock=clock))  # type: ignore[arg-type]
    assert bot.choose(info, random.Random(0)) in info.legal_actions
    assert bot.iterations == 4  # read at the start, then before each iteration: 1, 2, 3, 4, stop at 5


def test_a_budget_refuses_an_unknown_clock() -> None:
    with pytest.raises(ValueError, match="clock"):
        Budget(clock="sundial")  # type: ignore[arg-type]


def test_the_yutaka_heuristic_awards_tiles_as_the_engine_scores_them() -> None:
    rng = random.Random(3)
    for seed in range(30):
        final = random_match("yutaka", 2, seed).cuts[-1][1]
        assert isinstance(final, YutakaState)
        for i, tiles in enumerate(final.islands):
            sides = (final.columns[0][i], final.columns[1][i])
            scored = score_island(i, tiles, sides)
            for award in scored.awards:
                expected = award.winner if award.result is Result.WON else None
                assert yutaka_heuristic.winner(award.type, sides) == expected
        t = rng.choice(TILE_TYPES)
        assert yutaka_heuristic.winner(t, ((), ())) is None


@pytest.mark.parametrize(("name", "players"), [("mount_drago", 2), ("mount_drago", 5), ("yutaka", 2)])
def test_at_the_end_the_heuristics_give_the_final_scores(name: str, players: int) -> None:
    kit = KITS[name]
    for seed in range(10):
        match = random_match(name, players, seed)
        final = match.cuts[-1][1]
        outcome = match.game.outcome(final)
        assert outcome is not None
        assert kit.potential(final) == tuple(float(s) for s in outcome.scores)
        assert kit.evaluation(final) == kit.potential(final)
        rewards = kit.rewards(final)
        assert [s for s, r in enumerate(rewards) if r > 0] == list(outcome.winners)
        assert abs(sum(rewards) - 1) < 1e-9


@pytest.mark.parametrize(("name", "players"), [("mount_drago", 2), ("mount_drago", 3), ("yutaka", 2)])
def test_ismcts_seeded_with_greedys_view_and_no_iteration_plays_one_of_greedys_best(
    name: str, players: int
) -> None:
    match = random_match(name, players, 5)
    game, kit = match.game, KITS[name]
    seeded = IsmctsBot(Budget(iterations=0, millis=None), prior_visits=3)
    compared = 0
    for k, state in match.cuts[:-1]:
        seat = game.to_act(state)[0]
        legal = game.legal_actions(state, seat)
        if len(legal) < 2:
            continue
        info = observe(game, seat, match.events[:k], legal)
        # greedy's values, from the determinizations and dice the prior draws from the same rng
        rng = random.Random(k)
        determinizer = kit.sampler.prepare(seat, info.history)
        states = [determinizer.sample(rng) for _ in range(ismcts.PRIOR_SAMPLES)]
        value = {a: sum(kit.lead(kit.apply(s, seat, a, rng), seat) for s in states) for a in legal}
        chosen = seeded.choose(info, random.Random(k))
        assert value[chosen] >= max(value.values()) - 1e-9
        compared += 1
    assert compared >= 10
