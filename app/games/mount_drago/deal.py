"""Setup of a Mount Drago match (docs/rules.md §1.3): a random deal, or an explicit one for development.

`start` shuffles the 110 cards, deals one rider card per seat from the top with distinct dragons
(cards of a taken dragon are set aside and shuffled back into the pile), six cards per hand, and
keeps the rest as the draw pile, top first. An explicit `setup` fixes all of that instead: the
codec decodes it into `Setup` (whose declaration is also the published schema), then the deck is
checked card by card; every problem is an `InvalidOptions` with its path.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Annotated

from app.games.codec import DecodeError, Doc, from_json
from app.games.core import InvalidOptions
from app.games.mount_drago.cards import (
    CARDS,
    DECK,
    DECK_COUNTS,
    DRAGONS,
    HAND_SIZE,
    Card,
    cards,
    code_of,
    dragon_of,
)
from app.games.mount_drago.events import GameStarted
from app.games.mount_drago.options import MAX_PLAYERS, MIN_PLAYERS, FirstPlayer, parse_options
from app.games.mount_drago.track import default_spaces


def start(
    players: int, options: Mapping[str, object], rng: random.Random, setup: Mapping[str, object] | None = None
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


PerSeat = Doc(minItems=MIN_PLAYERS, maxItems=MAX_PLAYERS)


@dataclass(frozen=True, slots=True)
class Setup:
    """An explicit deal: every one of the 110 cards exactly once across riders, hands and draw_pile."""

    riders: Annotated[
        tuple[Card, ...], PerSeat, Doc("One face-up rider card per seat, all of different dragons.")
    ]
    hands: Annotated[
        tuple[Annotated[tuple[Card, ...], Doc(minItems=HAND_SIZE, maxItems=HAND_SIZE)], ...],
        PerSeat,
        Doc(f"Per seat, the {HAND_SIZE} cards of its hand."),
    ]
    draw_pile: Annotated[tuple[Card, ...], Doc("The draw pile, top first.")]
    first_player: Annotated[
        FirstPlayer | None,
        Doc("Seat that plays first; null or absent: options.first_player, else drawn at random."),
    ] = None


def _parse_setup(
    players: int, raw: Mapping[str, object]
) -> tuple[list[int], list[list[int]], list[int], int | None]:
    try:
        setup = from_json(Setup, raw, "setup")
    except DecodeError as e:
        raise InvalidOptions(str(e), e.path) from None
    for name, items in (("riders", setup.riders), ("hands", setup.hands)):
        if len(items) != players:
            raise InvalidOptions(
                f"setup.{name}: expected one per seat ({players}), got {len(items)}", f"setup.{name}"
            )
    seen: list[tuple[int, str]] = []  # (code, path) of every card, to check the whole deck at the end
    riders = _codes(setup.riders, "setup.riders", seen)
    dragons: dict[int, int] = {}
    for i, code in enumerate(riders):
        if dragon_of(code) in dragons:
            other = dragons[dragon_of(code)]
            raise InvalidOptions(
                f"setup.riders[{i}]: seat {other} already rides the {DRAGONS[dragon_of(code)]} dragon",
                f"setup.riders[{i}]",
            )
        dragons[dragon_of(code)] = i
    hands = [_codes(h, f"setup.hands[{i}]", seen) for i, h in enumerate(setup.hands)]
    pile = _codes(setup.draw_pile, "setup.draw_pile", seen)

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
    first = setup.first_player
    if first is not None and first >= players:
        raise InvalidOptions(
            f"setup.first_player: expected a seat 0…{players - 1} or null", "setup.first_player"
        )
    return riders, hands, pile, first


def _codes(cs: tuple[Card, ...], path: str, seen: list[tuple[int, str]]) -> list[int]:
    out = [code_of(c) for c in cs]
    seen.extend((code, f"{path}[{i}]") for i, code in enumerate(out))
    return out
