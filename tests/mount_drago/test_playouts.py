"""Random playouts for 2–5 players, checking invariants after every decision.

At every step: all 110 cards are somewhere exactly once; the seat to act has legal actions and
nobody else has any; the events folded live, folded again after a JSON round trip, and replayed
from scratch give the same state; `decide` uses its rng only for reshuffles; and nothing secret
reaches a viewer: a seat's view and its redacted events stay the same when the cards it may not
see (other hands, the draw-pile order) are swapped around.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import replace
from typing import Any

import pytest

from app.games.codec import to_json
from app.games.core import ENVELOPE, ErrorCode, IllegalAction, decode_action, decode_event, replay
from app.games.mount_drago import GAME
from app.games.mount_drago.actions import EndTurn, Play
from app.games.mount_drago.cards import CARDS, DECK, DECK_COUNTS, Card, cards
from app.games.mount_drago.events import (
    CardsDrawn,
    DrawPileReshuffled,
    Event,
    GameStarted,
    RiderSettled,
    TurnEnded,
)
from app.games.mount_drago.state import State
from app.games.mount_drago.track import TRACK_2_3, spaces_to_json
from tests.mount_drago.helpers import all_cards

SEEDS = range(6)


def _round_trip(event: Event) -> Event:
    return decode_event(GAME, json.loads(json.dumps(to_json(event))))


def _hide(state: State, seat: int, rng: random.Random) -> State:
    """`state` with the cards `seat` cannot see (other hands, the draw pile) dealt out anew."""
    hidden = [c for s, h in enumerate(state.hands) if s != seat for c in h] + list(state.draw_pile)
    rng.shuffle(hidden)
    hands = []
    for s, h in enumerate(state.hands):
        if s == seat:
            hands.append(h)
        else:
            hands.append(tuple(sorted(hidden[: len(h)])))
            hidden = hidden[len(h) :]
    return replace(state, hands=tuple(hands), draw_pile=tuple(hidden))


def _hide_event(event: Event, seat: int | None, rng: random.Random) -> Event:
    """`event` with what `seat` may not see replaced by other cards."""

    def other(n: int) -> tuple[Card, ...]:
        return cards([rng.choice(DECK) for _ in range(n)])

    if isinstance(event, GameStarted):
        hands = tuple(h if s == seat else other(len(h)) for s, h in enumerate(event.hands))
        return replace(event, hands=hands, draw_pile=other(len(event.draw_pile)))
    if isinstance(event, CardsDrawn) and event.seat != seat:
        return replace(event, cards=other(len(event.cards)))
    if isinstance(event, DrawPileReshuffled):
        return replace(event, draw_pile=other(len(event.draw_pile)))
    return event


def _check_secrets(state: State, new: list[Event], rng: random.Random) -> None:
    viewers: list[int | None] = [*range(state.players), None]
    for seat in viewers:
        view = GAME.view(state, seat)
        data = to_json(view)
        assert not set(ENVELOPE) & set(data)
        json.dumps(data)
        if seat is not None:
            assert data["hand"] == [to_json(CARDS[c]) for c in state.hands[seat]]
            assert GAME.view(_hide(state, seat, rng), seat) == view
        for event in new:
            redacted = GAME.redact(event, seat)
            json.dumps(to_json(redacted))
            assert GAME.redact(_hide_event(event, seat, rng), seat) == redacted


def _play(players: int, seed: int, options: dict[str, Any]) -> Counter[str]:
    """One random game with checks at every step; returns what happened, for coverage checks."""
    rng = random.Random(seed)
    spy = random.Random(seed + 1000)
    first = GAME.start(players, GAME.parse_options(players, options), rng)
    state = GAME.initial_state(first)
    mirror = GAME.initial_state(_round_trip(first))
    log: list[Event] = [first]
    seen: Counter[str] = Counter()
    _check_secrets(state, [first], spy)
    for _ in range(GAME.info.max_actions):
        if GAME.outcome(state) is not None:
            break
        assert all_cards(state) == DECK_COUNTS
        assert all(len(h) <= 6 for h in state.hands)
        (seat,) = GAME.to_act(state)
        legal = GAME.legal_actions(state, seat)
        assert legal
        for other in range(players):
            if other != seat:
                assert GAME.legal_actions(state, other) == ()
                with pytest.raises(IllegalAction) as e:
                    GAME.decide(state, other, legal[0], rng)
                assert e.value.code == ErrorCode.NOT_YOUR_TURN
        missing = next((c for c in range(50) if c not in state.hands[seat]), None)
        if state.phase == "play" and missing is not None:
            with pytest.raises(IllegalAction):
                GAME.decide(state, seat, Play(CARDS[missing]), rng)
        action = decode_action(GAME, json.loads(json.dumps(to_json(rng.choice(legal)))))
        seen[type(action).__name__] += 1
        before = rng.getstate()
        new = list(GAME.decide(state, seat, action, rng))
        if not any(isinstance(e, DrawPileReshuffled) for e in new):
            assert rng.getstate() == before  # the rng is for reshuffles only
        if state.options.explicit_end_turn and any(isinstance(e, (CardsDrawn, TurnEnded)) for e in new):
            assert isinstance(action, EndTurn)  # with the option, only end_turn draws and ends a turn
        for event in new:
            state = GAME.evolve(state, event)
            mirror = GAME.evolve(mirror, _round_trip(event))
            seen[event.TYPE] += 1
            if isinstance(event, RiderSettled):
                seen[f"{event.reason}/{event.result}"] += 1
        assert mirror == state
        log.extend(new)
        _check_secrets(state, new, spy)
    outcome = GAME.outcome(state)
    assert outcome is not None and GAME.to_act(state) == ()
    assert all(GAME.legal_actions(state, s) == () for s in range(players))
    assert replay(GAME, log) == state
    assert outcome.scores == state.scores and outcome.winners
    assert all(outcome.scores[w] == max(outcome.scores) for w in outcome.winners)
    return seen


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_random_playouts(players: int) -> None:
    seen: Counter[str] = Counter()
    for seed in SEEDS:
        seen += _play(players, seed, {})
    # the checks above ran through every kind of decision and every rider case
    for what in ("Play", "ChooseRider", "EndTurn", "Discard", "scored", "cards_drawn", "game_ended"):
        assert seen[what], what
    for case in (
        "opponent/under",
        "own/on_top",
        "unridden/switched",
        "last_place/under",
        "last_place/switched",
    ):
        assert seen[case], case


def test_random_playouts_reach_reshuffles() -> None:
    # about one 5-player game in five runs out of cards; play until two of them have been checked
    seen: Counter[str] = Counter()
    for seed in range(60):
        seen += _play(5, 100 + seed, {"negative_floor": False, "first_player": 1})
        if seen["draw_pile_reshuffled"] >= 2:
            break
    assert seen["draw_pile_reshuffled"] >= 2


@pytest.mark.parametrize("players", [2, 5])
def test_random_playouts_with_every_option_off_its_default(players: int) -> None:
    options = {
        "explicit_end_turn": True,
        "zero_scoring_counts": False,
        "refill_after_discard_empty": False,
        "negative_floor": False,
    }
    seen: Counter[str] = Counter()
    for seed in SEEDS:
        seen += _play(players, seed, options)
    assert seen["EndTurn"] and seen["turn_ended"] and seen["scored"]


def test_random_playouts_on_a_custom_track() -> None:
    short = spaces_to_json((*TRACK_2_3[:8], *TRACK_2_3[-4:]))
    for seed in SEEDS:
        _play(3, seed, {"track": short})
