"""No leak: what a viewer receives depends only on what that viewer may know.

For a random game cut at a random decision, build another deal that agrees with everything the
viewer knows and differs in what they may not: their own undrawn cards reordered, the opponent's
deck (both decks for a spectator) reshuffled while keeping every card they played playable, and the
face-down tiles (set-aside ones included) exchanged among places that show the same thing in this
mode. Replaying the same decisions on that deal must give the viewer identical views and redacted
events at every step. A control shows the check catches deliberately leaky views.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

import pytest

from app.games.codec import JSON, to_json
from app.games.yutaka import GAME
from app.games.yutaka.actions import Action, Play
from app.games.yutaka.components import HAND_SIZE, Card, Tile
from app.games.yutaka.events import CardDrawn, Event, GameStarted
from app.games.yutaka.state import State, face_down

Decision = tuple[int, Action]
ViewFn = Callable[[State, int | None], object]
RedactFn = Callable[[Event, int | None], object]
VIEWERS = (0, 1, None)
SWAPS = 150


@dataclass
class Step:
    events: tuple[Event, ...]
    state: State


def random_game(seed: int, options: dict[str, Any]) -> tuple[GameStarted, list[Decision]]:
    rng = random.Random(seed)
    started = GAME.start(2, GAME.parse_options(2, options), rng)
    assert isinstance(started, GameStarted)
    state = GAME.initial_state(started)
    decisions: list[Decision] = []
    while GAME.outcome(state) is None:
        seat = GAME.to_act(state)[0]
        action = rng.choice(GAME.legal_actions(state, seat))
        for event in GAME.decide(state, seat, action, rng):
            state = GAME.evolve(state, event)
        decisions.append((seat, action))
    return started, decisions


def run(started: GameStarted, decisions: Sequence[Decision]) -> list[Step]:
    state = GAME.initial_state(started)
    steps = [Step((started,), state)]
    rng = random.Random(0)
    for seat, action in decisions:
        events = GAME.decide(state, seat, action, rng)
        for event in events:
            state = GAME.evolve(state, event)
        steps.append(Step(events, state))
    return steps


def observe(steps: list[Step], viewer: int | None, view: ViewFn, redact: RedactFn) -> list[Any]:
    """What the viewer receives at every step, as JSON."""
    return [
        ([to_json(redact(e, viewer)) for e in step.events], to_json(view(step.state, viewer)))
        for step in steps
    ]


def still_playable(deck: Sequence[Card], plays: Sequence[Card]) -> bool:
    """Could a player with this deck order have played `plays` in turn (drawing after each)?"""
    hand = Counter(deck[:HAND_SIZE])
    drawn = HAND_SIZE
    for card in plays:
        if hand[card] <= 0:
            return False
        hand[card] -= 1
        if drawn < len(deck):
            hand[deck[drawn]] += 1
            drawn += 1
    return True


def alternative_deal(
    started: GameStarted,
    decisions: Sequence[Decision],
    steps: list[Step],
    viewer: int | None,
    rng: random.Random,
) -> GameStarted:
    state = steps[-1].state
    decks = [list(d) for d in started.decks]
    for seat in (0, 1):
        if seat == viewer:  # only the cards still undrawn at the cut are unknown to their owner
            draws = [e for step in steps for e in step.events if isinstance(e, CardDrawn) and e.seat == seat]
            drawn = HAND_SIZE + len(draws)
            tail = decks[seat][drawn:]
            rng.shuffle(tail)
            decks[seat][drawn:] = tail
            continue
        plays = [a.card for s, a in decisions if s == seat and isinstance(a, Play)]
        for _ in range(SWAPS):
            i, j = rng.randrange(len(decks[seat])), rng.randrange(len(decks[seat]))
            decks[seat][i], decks[seat][j] = decks[seat][j], decks[seat][i]
            if not still_playable(decks[seat], plays):
                decks[seat][i], decks[seat][j] = decks[seat][j], decks[seat][i]
    islands = [list(row) for row in started.islands]
    aside = list(started.set_aside)
    public = set(started.options.known_types or ())
    places: list[tuple[list[Tile], int, bool]] = [(islands[i], s, True) for i, s in face_down(state)]
    if not state.set_aside_public:
        places += [(aside, k, False) for k in range(len(aside))]

    def fits(tile: Tile, place: tuple[list[Tile], int, bool]) -> bool:
        row, slot, on_island = place
        if not on_island:
            return True  # a set-aside tile shows nothing, whatever the mode
        shown = row[slot].type
        return tile.type is shown if shown in public else tile.type not in public

    for _ in range(SWAPS if places else 0):
        a, b = rng.choice(places), rng.choice(places)
        tile_a, tile_b = a[0][a[1]], b[0][b[1]]
        if fits(tile_b, a) and fits(tile_a, b):
            a[0][a[1]], b[0][b[1]] = tile_b, tile_a
    return replace(
        started,
        decks=tuple(tuple(d) for d in decks),
        islands=tuple(tuple(row) for row in islands),
        set_aside=tuple(aside),
    )


def trials(count: int) -> list[tuple[int, dict[str, Any], int | None]]:
    modes: list[dict[str, Any]] = [
        {"mode": "mysteria"},
        {"mode": "tactika"},
        {"mode": "mixed", "known_types": ["idol", "dagger"]},
        {"mode": "mixed", "known_types": ["crystal", "equipment"], "stacked": True},
    ]
    return [(seed, modes[seed % len(modes)], VIEWERS[seed % 3]) for seed in range(count)]


def differences(
    seed: int, options: dict[str, Any], viewer: int | None, view: ViewFn, redact: RedactFn
) -> tuple[bool, bool]:
    """(the alternative deal differs in hidden data, the viewer's observations differ)."""
    rng = random.Random(seed * 7919)
    started, decisions = random_game(seed, options)
    cut = rng.randint(1, len(decisions))
    steps = run(started, decisions[:cut])
    other = alternative_deal(started, decisions[:cut], steps, viewer, rng)
    other_steps = run(other, decisions[:cut])  # the same decisions stay legal on the other deal
    seen = observe(steps, viewer, view, redact)
    other_seen = observe(other_steps, viewer, view, redact)
    return other != started, seen != other_seen


@pytest.mark.parametrize(("seed", "options", "viewer"), trials(48))
def test_views_and_events_depend_only_on_what_the_viewer_may_know(
    seed: int, options: dict[str, Any], viewer: int | None
) -> None:
    hidden_changed, seen_changed = differences(seed, options, viewer, GAME.view, GAME.redact)
    assert hidden_changed  # the check is not vacuous: something hidden really was different
    assert not seen_changed


def leaky_hand(state: State, viewer: int | None) -> JSON:
    return {**to_json(GAME.view(state, viewer)), "other": to_json(state.hands[1 - (viewer or 0)])}


def leaky_tiles(state: State, viewer: int | None) -> JSON:
    view = to_json(GAME.view(state, viewer))
    return {**view, "tiles": to_json(state.islands), "aside": to_json(state.set_aside)}


def leaky_draws(event: Event, viewer: int | None) -> JSON:
    return to_json(event) if isinstance(event, CardDrawn) else GAME.redact(event, viewer)


@pytest.mark.parametrize(
    ("view", "redact"),
    [(leaky_hand, GAME.redact), (leaky_tiles, GAME.redact), (GAME.view, leaky_draws)],
)
def test_control_the_check_catches_a_leak(view: ViewFn, redact: RedactFn) -> None:
    caught = sum(differences(seed, options, viewer, view, redact)[1] for seed, options, viewer in trials(12))
    assert caught >= 10
