"""The training environments: PettingZoo's and Gymnasium's own API checkers for every game, player
count and mode; determinism under a seed; observations that see only the seat's view; clear errors
for bad input; rewards from the final ranking."""

from __future__ import annotations

import random
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test

from app.bots import Budget
from app.envs import mount_drago as md_env
from app.envs.gymnasium import DragoEnv
from app.envs.pettingzoo import IllegalMove, env
from app.envs.table import Table, ranking_rewards
from app.games.core import InvalidOptions, Outcome
from app.games.mount_drago.track import TRACK_2_3, spaces_to_json
from app.games.registry import GAMES
from tests.bots.worlds import twin

# Every player count of Mount Drago (both board sides: 2–3 and 4–5 players, and a custom track)
# with its options, and every mode of Yutakâ with its variants.
TABLES: list[tuple[str, int, dict[str, Any]]] = [
    ("mount_drago", 2, {}),
    ("mount_drago", 3, {"explicit_end_turn": True, "zero_scoring_counts": False}),
    ("mount_drago", 4, {"negative_floor": False, "refill_after_discard_empty": False}),
    ("mount_drago", 5, {"first_player": 4}),
    ("mount_drago", 3, {"track": spaces_to_json((*TRACK_2_3[:9], *TRACK_2_3[-4:]))}),
    ("yutaka", 2, {"mode": "mysteria"}),
    ("yutaka", 2, {"mode": "tactika", "stacked": True}),
    ("yutaka", 2, {"mode": "mixed", "known_types": ["crystal"], "explicit_end_turn": True}),
    ("yutaka", 2, {"first_player": "random", "tie_break": "shared"}),
]
IDS = [f"{name}-{players}-{'-'.join(options) or 'default'}" for name, players, options in TABLES]
# PettingZoo's checker prefers flat observations; masked games (its own classic ones too) use a dict.
DICT_OBSERVATIONS = pytest.mark.filterwarnings("ignore:Observation:UserWarning")


@DICT_OBSERVATIONS
@pytest.mark.parametrize(("name", "players", "options"), TABLES, ids=IDS)
def test_pettingzoo_api(name: str, players: int, options: dict[str, Any]) -> None:
    api_test(env(name, players, options), num_cycles=300)


@pytest.mark.parametrize(("name", "players", "options"), TABLES, ids=IDS)
def test_gymnasium_checker(name: str, players: int, options: dict[str, Any]) -> None:
    ids = {"mount_drago": "drago/MountDrago-v0", "yutaka": "drago/Yutaka-v0"}
    made = gymnasium.make(ids[name], players=players, options=options, seat=players - 1, render_mode="ansi")
    check_env(made.unwrapped)
    made.reset(seed=1)
    assert "seat" in str(made.render())


def test_gymnasium_against_each_bot_level() -> None:
    for opponent in ("random", "greedy", "ismcts"):
        for made in (
            gymnasium.make("drago/MountDrago-v0", players=3, opponent=opponent, budget=Budget(iterations=8)),
            gymnasium.make("drago/Yutaka-v0", opponent=opponent, budget=Budget(iterations=8)),
        ):
            check_env(made.unwrapped)


def _random_episode(e: Any, seed: int) -> tuple[list[Any], list[int], dict[str, float]]:
    """Observations, actions and final rewards of one PettingZoo episode played at random."""
    e.reset(seed=seed)
    rng = random.Random(seed)
    seen, actions = [], []
    for agent in e.agent_iter():
        observation, _, termination, truncation, _ = e.last()
        seen.append((agent, observation["observation"].tobytes(), observation["action_mask"].tobytes()))
        if termination or truncation:
            e.step(None)
            continue
        legal = np.flatnonzero(observation["action_mask"])
        action = int(legal[rng.randrange(len(legal))])
        actions.append(action)
        e.step(action)
    return seen, actions, dict(e._cumulative_rewards)


@pytest.mark.parametrize(("name", "players"), [("mount_drago", 4), ("yutaka", 2)])
def test_deterministic_under_a_seed(name: str, players: int) -> None:
    first = _random_episode(env(name, players), 11)
    assert first == _random_episode(env(name, players), 11)
    assert first[1] != _random_episode(env(name, players), 12)[1]
    g = DragoEnv(name, players, opponent="greedy")
    a = [g.reset(seed=5)[0]["observation"].tobytes(), g.step(int(np.flatnonzero(g.action_masks())[0]))]
    b = [g.reset(seed=5)[0]["observation"].tobytes(), g.step(int(np.flatnonzero(g.action_masks())[0]))]
    assert a[0] == b[0] and a[1][0]["observation"].tobytes() == b[1][0]["observation"].tobytes()


def test_a_secret_rolls_the_same_dice_as_a_server_match() -> None:
    e = env("yutaka", keep_log=True)
    e.reset(options={"secret": "abc"})
    assert e.table.log is not None
    game = GAMES["yutaka"]
    from app.games.chance import rng_for

    assert e.table.log[0] == game.start(2, e.table.options, rng_for("abc", 0))


@pytest.mark.parametrize(("name", "players"), [("mount_drago", 2), ("mount_drago", 5), ("yutaka", 2)])
def test_an_observation_does_not_change_with_what_the_seat_cannot_see(name: str, players: int) -> None:
    game = GAMES[name]
    table = Table(name, players)
    encode = table.spec.encode
    for seed in range(6):
        seat, world, other = twin(name, players, table.options, seed, cut=0.3 + 0.1 * seed)
        assert world.events != other.events  # the hidden pieces differ between the two worlds
        mine = encode(game.view(world.state, seat), seat, True)
        assert np.array_equal(mine, encode(game.view(other.state, seat), seat, True))
        assert table.spec.legal_ids(world.state, seat) == table.spec.legal_ids(other.state, seat)


def test_illegal_actions_and_bad_construction_are_refused_clearly() -> None:
    e = env("mount_drago", 2)
    e.reset(seed=1)
    agent = e.agent_selection
    mask = e.observe(agent)["action_mask"]
    wrong = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(IllegalMove, match="not legal"):
        e.step(wrong)
    with pytest.raises(IllegalMove, match="to act"):
        e.step(None)
    lose = env("mount_drago", 2, illegal="lose")
    lose.reset(seed=1)
    offender = lose.agent_selection
    lose.step(wrong)
    assert lose.terminations[offender] and lose.infos[offender] == {"illegal_action": True}
    assert lose.rewards[offender] == -1.0 and sum(lose.rewards.values()) == -1.0
    g = DragoEnv("yutaka")
    g.reset(seed=2)
    _, reward, terminated, _, info = g.step(int(np.flatnonzero(g.action_masks() == 0)[0]))
    assert (reward, terminated, info) == (-1.0, True, {"illegal_action": True})
    with pytest.raises(IllegalMove, match="over"):
        g.step(0)
    with pytest.raises(ValueError, match="unknown game"):
        env("chess")
    with pytest.raises(ValueError, match="2 to 5 players, not 6"):
        env("mount_drago", 6)
    with pytest.raises(ValueError, match="2 to 2 players, not 3"):
        DragoEnv("yutaka", 3)
    with pytest.raises(InvalidOptions, match="options"):
        env("yutaka", options={"mode": "chaos"})
    with pytest.raises(InvalidOptions, match="colour"):
        env("mount_drago", options={"colour": "red"})
    with pytest.raises(ValueError, match="opponent"):
        DragoEnv("yutaka", opponent="grandmaster")
    with pytest.raises(ValueError, match="seat"):
        DragoEnv("yutaka", seat=2)
    with pytest.raises(ValueError, match="render_mode"):
        env("yutaka", render_mode="human")


def test_multi_card_discards_have_one_id_each() -> None:
    # two copies of a summit card and a third summit card: every set of them, leftmost copies only
    hand = (md_env.CARD_CODES - 1, md_env.CARD_CODES - 1, 3, 40)  # orange 5 ×2, blue 4, purple 1
    positions = [0] * 10
    positions[9] = positions[0] = 30  # orange and blue on the summit (of a 30-space track)
    ids = md_env._discard_ids(tuple(sorted(hand)), tuple(positions), 27)
    masks = sorted(i - md_env.DISCARD_BASE for i in ids)
    # sorted hand: blue 4 (slot 0), purple 1 (slot 1), orange 5 (slots 2, 3)
    assert masks == [0b0001, 0b0100, 0b0101, 0b1100, 0b1101]


def test_ranking_rewards() -> None:
    assert ranking_rewards(Outcome((5, 9), (1,)), 2) == (-1.0, 1.0)
    assert ranking_rewards(Outcome((7, 7), (0, 1)), 2) == (0.0, 0.0)
    assert ranking_rewards(Outcome((7, 7), (0,)), 2) == (1.0, -1.0)  # a tie-break decided it
    assert ranking_rewards(Outcome((3, 9, 1, 9, 5), (1, 3)), 5) == (-0.5, 0.75, -1.0, 0.75, 0.0)
