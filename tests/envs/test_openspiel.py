"""The OpenSpiel games: pyspiel's own consistency test, chance nodes with exact probabilities for
the deal and every draw, and the engine's rules underneath (every card still accounted for)."""

from __future__ import annotations

import random
from collections import Counter

import pyspiel
import pytest

import app.envs.openspiel  # noqa: F401  (registers the games)
from app.games.mount_drago.cards import DECK
from app.games.mount_drago.events import DrawPileReshuffled
from app.games.yutaka.components import DECK as YU_DECK


@pytest.mark.parametrize(
    ("name", "params"),
    [
        ("python_mount_drago", {"players": 3}),
        ("python_yutaka", {"mode": "tactika", "stacked": True}),
        pytest.param("python_mount_drago", {"players": 5, "explicit_end_turn": True}, marks=pytest.mark.slow),
        pytest.param("python_yutaka", {"mode": "mixed", "explicit_end_turn": True}, marks=pytest.mark.slow),
    ],
)
def test_pyspiel_random_simulation(name: str, params: dict[str, object]) -> None:
    game = pyspiel.load_game(name, params)
    assert game.get_type().chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert game.get_type().information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


def _play(name: str, params: dict[str, object], seed: int) -> tuple[pyspiel.State, int]:
    """A game by sampled chance outcomes and random actions; the number of chance nodes."""
    rng = random.Random(seed)
    state = pyspiel.load_game(name, params).new_initial_state()
    chances = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            assert abs(sum(p for _, p in outcomes) - 1) < 1e-9 and all(p > 0 for _, p in outcomes)
            actions, weights = zip(*outcomes, strict=True)
            state.apply_action(rng.choices(actions, weights)[0])
            chances += 1
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state, chances


def test_mount_drago_deals_and_draws_by_chance() -> None:
    game = pyspiel.load_game("python_mount_drago", {"players": 5})
    first = game.new_initial_state().chance_outcomes()
    assert dict(first) == {c: n / len(DECK) for c, n in Counter(DECK).items()}  # the first rider card
    reshuffles = 0
    for seed in range(4):
        state, chances = _play("python_mount_drago", {"players": 5}, seed)
        assert chances >= 5 + 5 * 6 + 1  # riders, hands, the first player, then draws
        s = state.state
        held = [c for h in s.hands for c in h] + [c for p in s.piles for c in p]
        assert Counter(held + list(s.draw_pile) + list(s.discard_pile)) == Counter(DECK)
        assert state.g.rules.outcome(s) is not None and sum(state.returns()) == pytest.approx(0)
        reshuffles += sum(isinstance(e, DrawPileReshuffled) for e in state.events)
    assert reshuffles  # draws after a reshuffle came from what it took in


def test_yutaka_deals_and_draws_by_chance() -> None:
    state, chances = _play("python_yutaka", {}, 1)
    assert chances == 2 * 6 + 20 + 36  # both hands, the island tiles, every draw
    s = state.state
    for seat in (0, 1):
        placed = [c for column in s.columns[seat] for c in column if c.kind.value != "dynamite"]
        placed += [c for column in s.columns[1 - seat] for c in column if c.kind.value == "dynamite"]
        assert Counter(placed + list(s.hands[seat]) + list(s.decks[seat])) == Counter(YU_DECK)
    assert state.returns() in ([1.0, -1.0], [-1.0, 1.0], [0.0, 0.0])


def test_information_states_hide_what_a_player_cannot_see() -> None:
    state = pyspiel.load_game("python_yutaka").new_initial_state()
    for outcome in (0, 1, 2):
        state.apply_action(state.chance_outcomes()[outcome][0])
    assert state.information_state_string(0) != state.information_state_string(1)
    other = pyspiel.load_game("python_yutaka").new_initial_state()
    for outcome in (3, 4, 5):
        other.apply_action(other.chance_outcomes()[outcome][0])
    assert state.information_state_string(1) == other.information_state_string(1)
