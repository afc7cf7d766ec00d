"""Helpers for Mount Drago tests: name cards tersely, rig deals, build positions, act and fold."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace
from typing import Any

from app.games.codec import JSON, to_json
from app.games.mount_drago import GAME
from app.games.mount_drago.actions import Action
from app.games.mount_drago.cards import CARDS, DECK, DECK_COUNTS, Card, Dragon, code_of
from app.games.mount_drago.events import Event, GameStarted
from app.games.mount_drago.state import NO_CARD, State

D = Dragon


def card(dragon: Dragon | str, value: int) -> Card:
    return Card(Dragon(dragon), value)


def cj(dragon: Dragon | str, value: int) -> JSON:
    """A card as JSON."""
    return {"dragon": Dragon(dragon).value, "value": value}


def setup_json(
    riders: list[Card],
    hands: list[list[Card]],
    top: list[Card] | None = None,
    first_player: int | None = 0,
) -> dict[str, Any]:
    """A valid explicit setup: the draw pile is `top` then every other card in canonical order."""
    used = Counter(code_of(c) for c in [*riders, *(c for h in hands for c in h), *(top or [])])
    rest = Counter(DECK) - used
    assert not used - DECK_COUNTS, "a rigged deal uses a card more often than the deck has it"
    pile = [*(top or []), *(CARDS[c] for c in sorted(rest.elements()))]
    data: dict[str, Any] = {
        "riders": [to_json(c) for c in riders],
        "hands": [[to_json(c) for c in h] for h in hands],
        "draw_pile": [to_json(c) for c in pile],
    }
    if first_player is not None:
        data["first_player"] = first_player
    return data


def rigged(
    riders: list[Card],
    hands: list[list[Card]],
    top: list[Card] | None = None,
    first_player: int = 0,
    **options: Any,
) -> tuple[GameStarted, State]:
    """Start a match from a rigged deal; returns the first event and its state."""
    players = len(riders)
    opts = GAME.parse_options(players, options)
    first = GAME.start(players, opts, random.Random(0), setup_json(riders, hands, top, first_player))
    assert isinstance(first, GameStarted)
    return first, GAME.initial_state(first)


def at(state: State, rest: int | None = None, **where: int) -> State:
    """`state` with some dragons moved, e.g. `at(s, red=10, blue=27)`; `rest` places all others."""
    positions = list(state.positions) if rest is None else [rest] * len(state.positions)
    for name, space in where.items():
        positions[list(Dragon).index(Dragon(name))] = space
    return replace(state, positions=tuple(positions))


def hands(state: State, *per_seat: list[Card]) -> State:
    """`state` with the given hands (codes sorted like the engine keeps them)."""
    return replace(state, hands=tuple(tuple(sorted(code_of(c) for c in h)) for h in per_seat))


def act(state: State, seat: int, action: Action, seed: int = 0) -> tuple[tuple[Event, ...], State]:
    events = GAME.decide(state, seat, action, random.Random(seed))
    for e in events:
        state = GAME.evolve(state, e)
    return events, state


def types(events: tuple[Event, ...]) -> list[str]:
    return [e.TYPE for e in events]


def of_type(events: tuple[Event, ...], cls: type[Any]) -> list[Any]:
    return [e for e in events if isinstance(e, cls)]


def all_cards(state: State) -> Counter[int]:
    """Every card the state holds, wherever it lies."""
    found: Counter[int] = Counter()
    for h in state.hands:
        found.update(h)
    for p in state.piles:
        found.update(p)
    found.update(state.draw_pile)
    found.update(state.discard_pile)
    if state.pending != NO_CARD:
        found[state.pending] += 1  # played, waiting for the rider choice
    return found


def two_players(hand0: list[Card], hand1: list[Card] | None = None, **options: Any) -> State:
    """Seat 0 rides red (rider card red 3) and holds `hand0`, seat 1 rides blue (blue 1); seat 0 is on turn.

    The hands replace a valid deal, so scripted tests may give any hand (card counts are not checked).
    """
    hand1 = hand1 or [card("green", 1)] * 2 + [card("gray", 1)] * 2 + [card("purple", 1)] * 2
    return hands(riders_state([card("red", 3), card("blue", 1)], **options), hand0, hand1)


def riders_state(riders: list[Card], **options: Any) -> State:
    """A match with the given rider cards, arbitrary hands (replace them with `hands`), seat 0 on turn."""
    n = len(riders)
    taken = Counter(code_of(c) for c in riders)
    pool = sorted((Counter(DECK) - taken).elements())
    dealt = [[CARDS[c] for c in pool[k * 6 : (k + 1) * 6]] for k in range(n)]
    _, state = rigged(riders, dealt, **options)
    return state
