"""The Python client builds the environments' observations and action ids from the view JSON.

`drago_client.observation` reads only what the server sends a seat (its view with the match
envelope), with no import of the server; over random games of every table, at every decision and
for every seat, its observation equals the environment's, its legal ids and mask are the
environment's, and `action_for` gives the JSON of the action the environment would take.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest
from drago_client import observation

from app.envs.table import Table
from app.games.codec import to_json
from tests.envs.test_environments import IDS, TABLES


def _view_json(table: Table, seat: int) -> dict[str, Any]:
    """What the server sends `seat`: its view and the envelope members the encoder reads."""
    game = table.game
    return {
        **to_json(game.view(table.state, seat)),
        "game": table.name,
        "seat": seat,
        "to_act": list(game.to_act(table.state)),
        "legal_actions": [to_json(a) for a in game.legal_actions(table.state, seat)],
    }


@pytest.mark.parametrize(("name", "players", "options"), TABLES, ids=IDS)
def test_the_client_encodes_as_the_environment(name: str, players: int, options: dict[str, Any]) -> None:
    table = Table(name, players, options)
    assert observation.ACTIONS[name] == table.spec.actions
    assert observation.OBSERVATION[name] == table.spec.observation
    rng = random.Random(7)
    checked = 0
    for seed in range(3):
        table.reset(seed)
        while (acting := table.to_act) is not None:
            for seat in range(players):
                view = _view_json(table, seat)
                ours = np.asarray(observation.observe(view), dtype=np.float32)
                assert np.array_equal(ours, table.observe(seat)), (seed, seat)
                assert observation.legal_ids(view) == table.legal_ids(seat)
                assert observation.mask(view) == table.mask(seat).tolist()
                checked += 1
            legal = table.legal_ids(acting)
            action_id = legal[rng.randrange(len(legal))]
            sent = observation.action_for(_view_json(table, acting), action_id)
            assert sent == to_json(table.spec.action_of(table.state, acting, action_id))
            table.step(acting, action_id)
    assert checked > 100


def test_spectators_and_illegal_ids_are_refused() -> None:
    table = Table("yutaka", 2)
    table.reset(1)
    view = _view_json(table, 0)
    with pytest.raises(ValueError, match="not legal"):
        observation.action_for(view, 125)
    with pytest.raises(ValueError, match="spectator"):
        observation.observe({**view, "seat": None})
    with pytest.raises(ValueError, match="no observation layout"):
        observation.observe({**view, "game": "chess"})
