"""Setup of a Mount Drago match (RULES §1.3): a random deal, or an explicit one for development.

`start` shuffles the 110 cards, deals one rider card per seat from the top with distinct dragons
(cards of a taken dragon are set aside and shuffled back into the pile), six cards per hand, and
keeps the rest as the draw pile, top first. An explicit `setup` fixes all of that instead; it is
validated exactly like user input, every problem raised as `InvalidOptions` with its path.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from typing import Any, Final

from app.games.codec import JSON
from app.games.core import InvalidOptions
from app.games.mount_drago.cards import (
    CARDS,
    DECK,
    DECK_COUNTS,
    DRAGONS,
    HAND_SIZE,
    MAX_VALUE,
    MIN_VALUE,
    Card,
    Dragon,
    cards,
    code_of,
    dragon_of,
)
from app.games.mount_drago.events import GameStarted
from app.games.mount_drago.options import MAX_PLAYERS, parse_options
from app.games.mount_drago.track import default_spaces


def start(
    players: int, options: Mapping[str, Any], rng: random.Random, setup: Mapping[str, Any] | None = None
) -> GameStarted:
    opts = parse_options(players, options)
    if setup is None:
        riders, hands, pile = _random_deal(players, rng)
        first = rng.randrange(players) if opts.first_player is None else opts.first_player
    else:
        riders, hands, pile, chosen = _parse_setup(players, setup)
        if chosen is not None and opts.first_player is not None and chosen != opts.first_player:
            raise InvalidOptions(
                "setup.first_player: conflicts with options.first_player", "setup.first_player"
            )
        if chosen is None:
            chosen = opts.first_player
        first = rng.randrange(players) if chosen is None else chosen
    return GameStarted(
        players=players,
        options=opts,
        track=opts.track or default_spaces(players),
        riders=cards(riders),
        hands=tuple(cards(h) for h in hands),
        draw_pile=cards(pile),
        first_player=first,
    )


def _random_deal(players: int, rng: random.Random) -> tuple[list[int], list[list[int]], list[int]]:
    deck = list(DECK)
    rng.shuffle(deck)
    riders: list[int] = []
    aside: list[int] = []
    taken: set[int] = set()
    i = 0
    while len(riders) < players:
        code = deck[i]
        i += 1
        if dragon_of(code) in taken:
            aside.append(code)
        else:
            taken.add(dragon_of(code))
            riders.append(code)
    rest = deck[i:] + aside
    if aside:
        rng.shuffle(rest)
    hands = [rest[k * HAND_SIZE : (k + 1) * HAND_SIZE] for k in range(players)]
    return riders, hands, rest[players * HAND_SIZE :]


_SETUP_KEYS: Final = ("riders", "hands", "draw_pile")


def _parse_setup(
    players: int, raw: Mapping[str, Any]
) -> tuple[list[int], list[list[int]], list[int], int | None]:
    if not isinstance(raw, Mapping):
        raise InvalidOptions("setup: expected an object", "setup")
    unknown = sorted(str(k) for k in raw if k not in (*_SETUP_KEYS, "first_player"))
    if unknown:
        raise InvalidOptions(f"setup: unknown member(s) {', '.join(unknown)}", f"setup.{unknown[0]}")
    for key in _SETUP_KEYS:
        if key not in raw:
            raise InvalidOptions(f"setup.{key}: required", f"setup.{key}")
    seen: list[tuple[int, str]] = []  # (code, path) of every card, to check the whole deck at the end

    riders = _card_list(raw["riders"], "setup.riders", seen, players)
    dragons: dict[int, int] = {}
    for i, code in enumerate(riders):
        if dragon_of(code) in dragons:
            other = dragons[dragon_of(code)]
            raise InvalidOptions(
                f"setup.riders[{i}]: seat {other} already rides the {DRAGONS[dragon_of(code)]} dragon",
                f"setup.riders[{i}]",
            )
        dragons[dragon_of(code)] = i
    hands_raw = raw["hands"]
    if not isinstance(hands_raw, (list, tuple)) or len(hands_raw) != players:
        raise InvalidOptions(f"setup.hands: expected an array of {players} hands", "setup.hands")
    hands = [_card_list(h, f"setup.hands[{i}]", seen, HAND_SIZE) for i, h in enumerate(hands_raw)]
    pile = _card_list(raw["draw_pile"], "setup.draw_pile", seen, None)

    counts: Counter[int] = Counter()
    for code, path in seen:
        counts[code] += 1
        if counts[code] > DECK_COUNTS[code]:
            raise InvalidOptions(f"{path}: the deck has only {DECK_COUNTS[code]} card(s) {CARDS[code]}", path)
    missing = [
        f"{CARDS[c]} ×{DECK_COUNTS[c] - counts[c]}" for c in sorted(DECK_COUNTS) if counts[c] < DECK_COUNTS[c]
    ]
    if missing:
        raise InvalidOptions(
            f"setup: every card must appear exactly once; missing: {', '.join(missing)}", "setup"
        )

    first = raw.get("first_player")
    if first is not None and (
        isinstance(first, bool) or not isinstance(first, int) or not 0 <= first < players
    ):
        raise InvalidOptions(
            f"setup.first_player: expected a seat 0…{players - 1} or null", "setup.first_player"
        )
    return riders, hands, pile, first


def _card_list(raw: Any, path: str, seen: list[tuple[int, str]], size: int | None) -> list[int]:
    if not isinstance(raw, (list, tuple)):
        raise InvalidOptions(f"{path}: expected an array of cards", path)
    if size is not None and len(raw) != size:
        raise InvalidOptions(f"{path}: expected exactly {size} cards, got {len(raw)}", path)
    out = []
    for i, item in enumerate(raw):
        code = _card(item, f"{path}[{i}]")
        seen.append((code, f"{path}[{i}]"))
        out.append(code)
    return out


def _card(item: Any, path: str) -> int:
    if not isinstance(item, Mapping) or set(item) != {"dragon", "value"}:
        raise InvalidOptions(f'{path}: expected a card {{"dragon": ..., "value": ...}}', path)
    dragon, value = item["dragon"], item["value"]
    if not isinstance(dragon, str) or dragon not in _DRAGON_NAMES:
        raise InvalidOptions(f"{path}.dragon: unknown dragon {dragon!r}", f"{path}.dragon")
    if isinstance(value, bool) or not isinstance(value, int) or not MIN_VALUE <= value <= MAX_VALUE:
        raise InvalidOptions(f"{path}.value: expected an integer {MIN_VALUE}…{MAX_VALUE}", f"{path}.value")
    return code_of(Card(Dragon(dragon), value))


_DRAGON_NAMES: Final = frozenset(d.value for d in DRAGONS)

CARD_SCHEMA: Final[JSON] = {
    "type": "object",
    "additionalProperties": False,
    "required": ["dragon", "value"],
    "properties": {
        "dragon": {"enum": [d.value for d in DRAGONS]},
        "value": {"type": "integer", "minimum": MIN_VALUE, "maximum": MAX_VALUE},
    },
}

SETUP_SCHEMA: Final[JSON] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "Mount Drago explicit setup (development)",
    "description": "Every one of the 110 cards exactly once across riders, hands and draw_pile.",
    "type": "object",
    "additionalProperties": False,
    "required": list(_SETUP_KEYS),
    "properties": {
        "riders": {
            "description": "One face-up rider card per seat; all of different dragons.",
            "type": "array",
            "items": {"$ref": "#/$defs/card"},
            "minItems": 2,
            "maxItems": MAX_PLAYERS,
        },
        "hands": {
            "description": f"Per seat, the {HAND_SIZE} cards of its hand.",
            "type": "array",
            "items": {
                "type": "array",
                "items": {"$ref": "#/$defs/card"},
                "minItems": HAND_SIZE,
                "maxItems": HAND_SIZE,
            },
            "minItems": 2,
            "maxItems": MAX_PLAYERS,
        },
        "draw_pile": {
            "description": "The draw pile, top first.",
            "type": "array",
            "items": {"$ref": "#/$defs/card"},
        },
        "first_player": {
            "description": "Seat that plays first; null or absent: options.first_player, else random.",
            "oneOf": [{"type": "null"}, {"type": "integer", "minimum": 0, "maximum": MAX_PLAYERS - 1}],
        },
    },
    "$defs": {"card": CARD_SCHEMA},
}
