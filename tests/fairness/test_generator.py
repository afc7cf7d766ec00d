"""`drago-fair-2` against its document: the committed vectors, the primitives' definitions re-derived
with `hmac` by hand, the property that every seat's seed matters, and uniformity (slow)."""

from __future__ import annotations

import hashlib
import hmac
import json
import random

import pytest

from app.games import fair2
from app.games.codec import to_json
from app.games.registry import GAMES
from tests.fairness import vectors


def test_the_committed_vectors_are_what_the_generator_makes() -> None:
    assert vectors.PATH.read_text(encoding="utf-8") == vectors.render(), (
        "docs/fairness-vectors.json is stale: a roll changed; bump the algorithm's version, then "
        "`python -m tests.fairness.vectors`"
    )


def test_the_combined_seed_and_blocks_follow_the_document_byte_by_byte() -> None:
    v = json.loads(vectors.PATH.read_text(encoding="utf-8"))
    server = bytes.fromhex(v["server_seed"])
    assert v["commitment"] == hashlib.sha256(server + b"drago-fair-2").hexdigest()

    def text(s: str) -> bytes:
        raw = s.encode()
        return len(raw).to_bytes(4, "big") + raw

    seeds = v["seat_seeds"]
    message = text(v["match_id"]) + len(seeds).to_bytes(4, "big") + b"".join(text(s) for s in seeds)
    combined = hmac.new(server, message, hashlib.sha256).digest()
    assert combined.hex() == v["combined_seed"]
    for b in v["blocks"]:
        expected = hmac.new(combined, text(b["context"]) + b["counter"].to_bytes(4, "big"), hashlib.sha256)
        assert b["block"] == expected.hexdigest()


class _Words(fair2.Stream):
    """A stream that yields the given 32-bit words, to pin rejection sampling down."""

    def __init__(self, words: list[int]) -> None:
        super().__init__(b"", "")
        self._words = b"".join(w.to_bytes(4, "big") for w in words)

    def read(self, n: int) -> bytes:
        out, self._words = self._words[:n], self._words[n:]
        return out


def test_rejection_sampling_skips_words_at_or_above_the_last_multiple() -> None:
    limit = 2**32 - 2**32 % 3  # 4294967295 → words ≥ it are rejected for n = 3
    assert _Words([limit, 2**32 - 1, 7]).randrange(3) == 1
    assert _Words([limit - 1]).randrange(3) == (limit - 1) % 3
    assert _Words([123]).randrange(1) == 0
    assert _Words([2**32 - 1]).randrange(2**32) == 2**32 - 1
    with pytest.raises(ValueError):
        _Words([]).randrange(0)


def test_shuffle_is_fisher_yates_from_the_last_index_down() -> None:
    # size 4: draws randrange(4), randrange(3), randrange(2) from the words 1, 2, 0
    items = ["a", "b", "c", "d"]
    _Words([1, 2, 0]).shuffle(items)
    # i=3, j=1: a d c b; i=2, j=2: a d c b; i=1, j=0: d a c b
    assert items == ["d", "a", "c", "b"]


def test_no_roll_comes_from_anything_but_the_two_primitives() -> None:
    s = fair2.stream(bytes(32), "m", ["x"], None)
    for name in ("random", "getrandbits", "choice", "sample", "randint", "uniform"):
        with pytest.raises(TypeError):
            getattr(s, name)(3)


@pytest.mark.parametrize(("game", "players"), [("mount_drago", n) for n in range(2, 6)] + [("yutaka", 2)])
def test_changing_any_one_seats_seed_changes_the_deal(game: str, players: int) -> None:
    rules = GAMES[game]
    options = rules.parse_options(players, {})
    rnd = random.Random(f"{game}:{players}")
    for _ in range(20):
        server = rnd.randbytes(32)
        seeds = [f"seed-{rnd.randrange(10**9)}" for _ in range(players)]
        base = to_json(rules.start(players, options, fair2.stream(server, "m1", seeds, None)))
        for seat in range(players):
            changed = list(seeds)
            changed[seat] += "!"
            other = to_json(rules.start(players, options, fair2.stream(server, "m1", changed, None)))
            assert other != base, (seat, seeds)


@pytest.mark.slow
def test_the_first_card_of_100000_deals_is_uniform() -> None:
    """Chi-square over the 110 positions the first card of the shuffled deck can take (Mount Drago
    deals shuffle the canonical deck; card 0 is the blue 1). Fixed seed: the result is reproducible;
    the bound is the 0.999 quantile of chi-square with 109 degrees of freedom (≈ 164.3)."""
    counts = [0] * 110
    server = bytes(32)
    for i in range(100_000):
        deck = list(range(110))
        fair2.stream(server, f"chi:{i}", ["a", "b"], None).shuffle(deck)
        counts[deck.index(0)] += 1
    expected = 100_000 / 110
    chi2 = sum((c - expected) ** 2 / expected for c in counts)
    assert chi2 < 164.3, chi2


def _shuffled_word_by_word(stream: fair2.Stream, items: list[int]) -> None:
    """The document's loop, one `randrange` per draw: what `Stream.shuffle` reads in bulk."""
    for i in range(len(items) - 1, 0, -1):
        j = stream.randrange(i + 1)
        items[i], items[j] = items[j], items[i]


@pytest.mark.parametrize("size", [0, 1, 2, 3, 7, 20, 110, 300])
def test_the_bulk_shuffle_reads_what_the_word_by_word_loop_reads(size: int) -> None:
    for context in range(40):
        bulk, loop = fair2.Stream(bytes(32), f"c{context}"), fair2.Stream(bytes(32), f"c{context}")
        a, b = list(range(size)), list(range(size))
        bulk.shuffle(a)
        _shuffled_word_by_word(loop, b)
        assert a == b
        assert bulk.read(8) == loop.read(8)  # and leaves the stream where the loop leaves it


def test_a_rejected_word_in_a_bulk_shuffle_is_skipped_as_in_randrange() -> None:
    # size 3: randrange(3) then randrange(2); the first word is rejected for n = 3
    items = ["a", "b", "c"]
    _Words([2**32 - 1, 4, 1, 99]).shuffle(items)  # i=2: 4 % 3 = 1 → a c b; i=1: 1 % 2 = 1 → a c b
    assert items == ["a", "c", "b"]


def test_a_deferred_stream_draws_what_its_stream_draws_and_makes_it_only_at_the_first_draw() -> None:
    made: list[int] = []

    def make() -> fair2.Stream:
        made.append(1)
        return fair2.stream(bytes(32), "m", ["a", "b"], 7)

    deferred = fair2.Deferred(make)
    assert made == []  # a decision that draws nothing computes nothing
    items, expected = list(range(30)), list(range(30))
    deferred.shuffle(items)
    reference = fair2.stream(bytes(32), "m", ["a", "b"], 7)
    reference.shuffle(expected)
    assert items == expected and deferred.randrange(1000) == reference.randrange(1000) and made == [1]
    with pytest.raises(TypeError):
        deferred.random()
