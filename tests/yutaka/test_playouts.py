"""Random playouts (every mode, variant and option) checking invariants after every decision: cards
and tiles conserved, limits, who acts, legal actions agreeing with `decide`, the end by the 48th
card, and replay (also through JSON) reproducing the live state. The schema checks of the same
kind of games are in tests/games."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from app.games.codec import from_json, to_json
from app.games.core import IllegalAction, decode_event, replay
from app.games.playout import play_random
from app.games.yutaka import GAME
from app.games.yutaka.actions import Action, EndTurn, Play, Reveal
from app.games.yutaka.components import DECK, MAX_CARDS_PER_SIDE, TILE_TYPES, CardKind
from app.games.yutaka.events import GameEnded
from app.games.yutaka.game import MAX_DECISIONS, MAX_DECISIONS_EXPLICIT
from app.games.yutaka.options import parse_options
from app.games.yutaka.state import Phase, State

ALL_ACTIONS: tuple[Action, ...] = (
    *(Play(card, i) for card in dict.fromkeys(DECK) for i in range(5)),
    *(Reveal(i, s) for i in range(5) for s in range(4)),
    EndTurn(),
)


def random_options(rng: random.Random) -> dict[str, Any]:
    mode = rng.choice(["mysteria", "tactika", "mixed"])
    options: dict[str, Any] = {
        "mode": mode,
        "first_player": rng.choice([0, 1, "random"]),
        "stacked": rng.random() < 0.3,
        "explicit_end_turn": rng.random() < 0.3,
        "tie_break": rng.choice(["equipment_tiles", "equipment_points", "shared"]),
    }
    if mode == "mixed":
        options["known_types"] = [t.value for t in TILE_TYPES if rng.random() < 0.5]
    if rng.random() < 0.2:
        options["tile_values"] = {"crystal": [rng.randrange(0, 100) for _ in range(6)]}
    return options


def check_invariants(state: State, decisions: int) -> None:
    assert state.phase is not Phase.DRAW  # transient only inside one decision
    for seat in (0, 1):
        own = [card for column in state.columns[seat] for card in column]
        received = [card for column in state.columns[1 - seat] for card in column]
        placed = [card for card in own if card.kind is not CardKind.DYNAMITE]
        placed += [card for card in received if card.kind is CardKind.DYNAMITE]
        assert Counter(state.hands[seat]) + Counter(state.decks[seat]) + Counter(placed) == Counter(DECK)
        assert len(state.hands[seat]) <= 6
        assert all(len(column) <= MAX_CARDS_PER_SIDE for column in state.columns[seat])
    tiles = [*(tile for row in state.islands for tile in row), *state.set_aside]
    assert Counter(tiles) == Counter(state.options.tiles()) and len(tiles) == 25
    most = MAX_DECISIONS_EXPLICIT if state.options.explicit_end_turn else MAX_DECISIONS
    assert state.cards_played <= 48 and decisions <= most
    acting = GAME.to_act(state)
    if GAME.outcome(state) is None:
        assert len(acting) == 1
        assert GAME.legal_actions(state, acting[0])
        assert GAME.legal_actions(state, 1 - acting[0]) == ()
    else:
        assert acting == () and GAME.legal_actions(state, 0) == GAME.legal_actions(state, 1) == ()


def check_decide_agrees_with_legal_actions(state: State, rng: random.Random) -> None:
    """Every conceivable action is accepted exactly when `legal_actions` lists it."""
    for seat in (0, 1):
        legal = set(GAME.legal_actions(state, seat))
        for action in ALL_ACTIONS:
            try:
                GAME.decide(state, seat, action, rng)
            except IllegalAction:
                assert action not in legal
            else:
                assert action in legal


@pytest.mark.parametrize("seed", range(160))
def test_random_playout_invariants_and_replay(seed: int) -> None:
    rng = random.Random(seed)
    options = GAME.parse_options(2, random_options(rng))
    first = GAME.start(2, options, rng)
    state = GAME.initial_state(first)
    events = [first]
    shadow = GAME.initial_state(decode_event(GAME, to_json(first)))
    decisions = 0
    check_invariants(state, decisions)
    while GAME.outcome(state) is None:
        if seed % 8 == 0:
            check_decide_agrees_with_legal_actions(state, rng)
        seat = GAME.to_act(state)[0]
        new = GAME.decide(state, seat, rng.choice(GAME.legal_actions(state, seat)), rng)
        decisions += 1
        for event in new:
            state = GAME.evolve(state, event)
            shadow = GAME.evolve(shadow, decode_event(GAME, to_json(event)))
        events.extend(new)
        assert shadow == state
        check_invariants(state, decisions)
    assert replay(GAME, events) == state
    assert from_json(State, to_json(state)) == state  # the state itself is codec data (snapshots)
    ended = events[-1]
    assert isinstance(ended, GameEnded)
    outcome = GAME.outcome(state)
    assert outcome is not None
    assert ended.totals == outcome.scores and ended.winners == outcome.winners
    assert all(all(row) for row in state.revealed)
    assert state.options == parse_options(2, options)


@pytest.mark.parametrize("mode", ["mysteria", "tactika", "mixed"])
def test_the_shared_random_playout_finishes_every_game(mode: str) -> None:
    for seed in range(40):
        playout = play_random(GAME, 2, seed, {"mode": mode})
        assert GAME.outcome(playout.state) is not None
        assert playout.decisions <= MAX_DECISIONS
