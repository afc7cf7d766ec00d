"""Every sample is consistent with what its seat knows.

For random games of every player count and every Yutakâ mode (stacked archipelagos included), cut
at the start, the end and random points between, every sample drawn from a seat's redacted history
must show that seat exactly its true view (hand, board, sizes, phase, legal actions), conserve every
card and tile, and be playable on to the end by the engine. Mount Drago games that reached a
reshuffle are checked for what the seat knows about the new pile as well.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import pytest

from app.games.mount_drago.cards import DECK_COUNTS, codes
from app.games.mount_drago.events import CardsDrawn, DrawPileReshuffled
from app.games.mount_drago.state import NO_CARD
from app.games.mount_drago.state import State as DragoState
from app.games.samplers import SAMPLERS, get_sampler
from app.games.yutaka.components import DECK, CardKind
from app.games.yutaka.state import State as YutakaState
from app.games.yutaka.state import other
from tests.bots.support import DRAGO_OPTIONS, YUTAKA_OPTIONS, Match, history, random_match

CASES = [
    *(pytest.param("mount_drago", n, {}, id=f"mount_drago-{n}p") for n in (2, 3, 4, 5)),
    *(
        pytest.param("mount_drago", n, o, id=f"mount_drago-{n}p-{json.dumps(o, sort_keys=True)}")
        for n, o in zip((2, 5), DRAGO_OPTIONS[1:], strict=True)
    ),
    *(pytest.param("yutaka", 2, o, id=f"yutaka-{json.dumps(o, sort_keys=True)}") for o in YUTAKA_OPTIONS),
]
SEEDS = range(8)
CUTS = 5  # random cuts per game, besides the start and the end
SAMPLES = 3  # per cut and seat


def conserved(sample: Any) -> bool:
    if isinstance(sample, DragoState):
        every = Counter(c for h in sample.hands for c in h)
        every.update(c for p in sample.piles for c in p)
        every.update(sample.draw_pile)
        every.update(sample.discard_pile)
        if sample.pending != NO_CARD:
            every[sample.pending] += 1
        return every == DECK_COUNTS
    assert isinstance(sample, YutakaState)
    for seat in (0, 1):
        cards = Counter(sample.hands[seat]) + Counter(sample.decks[seat])
        cards.update(
            c for c in (c for col in sample.columns[seat] for c in col) if c.kind is not CardKind.DYNAMITE
        )
        cards.update(c for col in sample.columns[other(seat)] for c in col if c.kind is CardKind.DYNAMITE)
        if cards != Counter(DECK):
            return False
    tiles = Counter(t for row in sample.islands for t in row) + Counter(sample.set_aside)
    return tiles == Counter(sample.options.tiles())


def cuts(match: Match, rng: random.Random) -> list[tuple[int, Any]]:
    return [match.cuts[0], match.cuts[-1], *rng.sample(match.cuts, CUTS)]


@pytest.mark.parametrize(("name", "players", "options"), CASES)
def test_every_sample_shows_the_seat_exactly_its_true_view(name: str, players: int, options: Any) -> None:
    sampler = SAMPLERS[name]
    for seed in SEEDS:
        match = random_match(name, players, seed, options)
        game = match.game
        rng = random.Random(seed)
        for k, true in cuts(match, rng):
            for seat in range(players):
                determinizer = sampler.prepare(seat, history(game, match.events[:k], seat))
                for _ in range(SAMPLES):
                    sample = determinizer.sample(rng)
                    assert game.view(sample, seat) == game.view(true, seat)
                    assert game.legal_actions(sample, seat) == game.legal_actions(true, seat)
                    assert conserved(sample)


@pytest.mark.parametrize(("name", "players", "options"), CASES)
def test_the_engine_plays_on_from_every_sample(name: str, players: int, options: Any) -> None:
    sampler = SAMPLERS[name]
    match = random_match(name, players, 100, options)
    game = match.game
    rng = random.Random(100)
    for k, _ in rng.sample(match.cuts, 6):
        seat = rng.randrange(players)
        state = sampler.sample(seat, history(game, match.events[:k], seat), rng)
        while game.outcome(state) is None:
            actor = game.to_act(state)[0]
            for event in game.decide(state, actor, rng.choice(game.legal_actions(state, actor)), rng):
                state = game.evolve(state, event)
        assert conserved(state)


def reshuffled_matches(count: int) -> list[Match]:
    """The first `count` 5-player matches (by seed) that reached a reshuffle."""
    found: list[Match] = []
    seed = 0
    while len(found) < count:
        match = random_match("mount_drago", 5, seed)
        if any(isinstance(e, DrawPileReshuffled) for e in match.events):
            found.append(match)
        seed += 1
    return found


def test_after_a_reshuffle_the_pile_holds_only_cards_of_the_new_pool() -> None:
    """The seat saw the pool that became the pile, and its own draws from it; a sampled pile must
    come out of what is left of the pool (cards held before the reshuffle cannot be in it)."""
    sampler = SAMPLERS["mount_drago"]
    rng = random.Random(7)
    checked = 0
    for match in reshuffled_matches(4):
        last = max(i for i, e in enumerate(match.events) if isinstance(e, DrawPileReshuffled))
        reshuffle = match.events[last]
        assert isinstance(reshuffle, DrawPileReshuffled)
        for k, true in match.cuts:
            if k <= last:
                continue
            for seat in range(match.players):
                pool = Counter(codes(reshuffle.draw_pile))
                for e in match.events[last:k]:
                    if isinstance(e, CardsDrawn) and e.seat == seat:
                        pool.subtract(codes(e.cards))
                determinizer = sampler.prepare(seat, history(match.game, match.events[:k], seat))
                for _ in range(SAMPLES):
                    sample = determinizer.sample(rng)
                    assert match.game.view(sample, seat) == match.game.view(true, seat)
                    assert conserved(sample)
                    assert not Counter(sample.draw_pile) - pool
                    checked += 1
    assert checked > 100


@pytest.mark.parametrize("name", sorted(SAMPLERS))
def test_a_sample_depends_only_on_the_history_and_the_rng(name: str) -> None:
    match = random_match(name, 2, 3)
    k = match.cuts[len(match.cuts) // 2][0]
    h = history(match.game, match.events[:k], 1)
    sampler = get_sampler(name)
    assert sampler is not None
    first = sampler.hidden_json(sampler.sample(1, h, random.Random(5)))
    assert first == sampler.hidden_json(sampler.prepare(1, h).sample(random.Random(5)))
    assert first != sampler.hidden_json(sampler.sample(1, h, random.Random(6)))
    assert json.loads(json.dumps(first)) == first


def test_a_history_must_start_with_the_deal() -> None:
    match = random_match("yutaka", 2, 1)
    for sampler in SAMPLERS.values():
        with pytest.raises(ValueError):
            sampler.prepare(0, history(match.game, match.events[1:5], 0))
    assert get_sampler("chess") is None
