"""Shared by the registry-driven game tests: every game with the option sets worth playing, random
games played through the public protocol, and cached JSON Schema validators."""

from __future__ import annotations

import functools
import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from jsonschema import Draft202012Validator  # type: ignore[import-untyped]  # no stubs in the dev extras

from app.games.core import Game
from app.games.registry import GAMES

# Per game, the player counts and options that cover its variants.
VARIANTS: dict[str, list[tuple[int, dict[str, Any]]]] = {
    "mount_drago": [
        (2, {}),
        (3, {"explicit_end_turn": True, "zero_scoring_counts": False}),
        (4, {}),
        (5, {"explicit_end_turn": True, "refill_after_discard_empty": False, "negative_floor": False}),
    ],
    "yutaka": [
        (2, {"mode": "mysteria"}),
        (2, {"mode": "tactika", "explicit_end_turn": True}),
        (2, {"mode": "mixed", "known_types": ["crystal", "idol"], "stacked": True}),
        (2, {"mode": "mixed", "first_player": "random", "tie_break": "shared", "explicit_end_turn": True}),
    ],
}


def cases() -> list[tuple[str, int, dict[str, Any]]]:
    assert set(VARIANTS) == set(GAMES), "every registered game needs its variants here"
    return [(name, players, options) for name, variants in VARIANTS.items() for players, options in variants]


@functools.cache
def validator(game_name: str, kind: str) -> Draft202012Validator:
    """A validator of the published schema."""
    return Draft202012Validator(GAMES[game_name].schemas()[kind])


@functools.cache
def fast_validator(game_name: str, kind: str) -> Draft202012Validator:
    """A validator of the published schema with every `$ref` replaced by its target: the same
    constraints (the schemas are not recursive), checked about twice as fast, for the thousands of
    payloads of random games."""
    schema = GAMES[game_name].schemas()[kind]
    return Draft202012Validator(inline_refs(schema, schema.get("$defs", {}), 0))


def inline_refs(node: Any, defs: dict[str, Any], depth: int) -> Any:
    assert depth < 50, "a recursive schema cannot be inlined"
    if isinstance(node, list):
        return [inline_refs(item, defs, depth) for item in node]
    if not isinstance(node, dict):
        return node
    out = {k: inline_refs(v, defs, depth) for k, v in node.items() if k not in ("$ref", "$defs")}
    ref = node.get("$ref")
    if ref is not None:
        target = inline_refs(defs[ref.removeprefix("#/$defs/")], defs, depth + 1)
        out = {**target, **out}
    return out


@dataclass(frozen=True)
class Step:
    """One decision of a random game: the state before, who acted and how, the events and the
    states after each of them (`after[i]` follows `events[i]`)."""

    before: Any
    seat: int
    action: Any
    events: tuple[Any, ...]
    after: tuple[Any, ...]
    rng_used: bool


def random_game(
    game: Game[Any, Any, Any], players: int, options: dict[str, Any], seed: int
) -> Iterator[Step]:
    """Play one game by random legal actions, yielding every decision (the deal as seat -1)."""
    rng = random.Random(seed)
    first = game.start(players, game.parse_options(players, options), rng)
    state = game.initial_state(first)
    yield Step(None, -1, None, (first,), (state,), True)
    for _ in range(game.info.max_actions):  # a bound, not a count
        if game.outcome(state) is not None:
            return
        seat = game.to_act(state)[0]
        action = rng.choice(game.legal_actions(state, seat))
        before = rng.getstate()
        events = game.decide(state, seat, action, rng)
        used = rng.getstate() != before
        start, after = state, []
        for event in events:
            state = game.evolve(state, event)
            after.append(state)
        yield Step(start, seat, action, tuple(events), tuple(after), used)
    raise AssertionError("the game did not end")
