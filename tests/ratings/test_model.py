"""The rating model: the worked example of docs/ratings.md to its printed digits, and the ranking
policies (winners and scores, resigned and taken-over seats last, built-in bots, aborted matches)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from app.service.ratings import Placement, Rating, rate

DOC = Path(__file__).resolve().parents[2] / "docs" / "ratings.md"


def test_the_worked_example_is_reproduced_to_the_printed_digits() -> None:
    places = [
        Placement(0, "ada", 1, True),
        Placement(1, "bo", 2, False),
        Placement(2, "cy", 2, False),
        Placement(3, "di", 4, False),
    ]
    prior = {"bo": Rating(30.0, 5.0, 12, 6), "cy": Rating(20.0, 6.0, 3, 1), "di": Rating(25.0, 4.0, 40, 9)}
    row = r"^\| (\d) \| (\w+) \| (\d) \|" + r" ([\d.-]+) \|" * 6 + "$"
    printed = re.findall(row, DOC.read_text(), re.MULTILINE)
    assert len(printed) == 4
    for c, row in zip(rate(places, prior), printed, strict=True):
        got = (
            str(c.seat), c.player_id, str(c.rank),
            f"{c.before.mu:.4f}", f"{c.before.sigma:.4f}", f"{c.after.mu:.4f}", f"{c.after.sigma:.4f}",
            f"{c.before.ordinal:.2f}", f"{c.after.ordinal:.2f}",
        )  # fmt: skip
        assert got == row


def test_a_bot_in_two_seats_counts_once_from_its_best_seat() -> None:
    places = [
        Placement(0, "bot-greedy", 2, False),
        Placement(1, "ada", 1, True),
        Placement(2, "bot-greedy", 3, False),
    ]
    changes = rate(places, {})
    bot = [c for c in changes if c.player_id == "bot-greedy"]
    assert bot[0].after == bot[1].after and bot[0].after.games == 1 and bot[0].after.wins == 0
    assert changes[1].after.mu > bot[0].after.mu and bot[0].rank == 2


@pytest.mark.parametrize("ranks", [[1, 2], [1, 1], [2, 1, 3, 3, 5]])
def test_better_ranks_never_gain_less(ranks: list[int]) -> None:
    places = [Placement(s, f"p{s}", r, r == 1) for s, r in enumerate(ranks)]
    after = {c.seat: c.after.mu for c in rate(places, {})}
    for a in places:
        for b in places:
            if a.rank < b.rank:
                assert after[a.seat] > after[b.seat]
            if a.rank == b.rank:
                assert after[a.seat] == pytest.approx(after[b.seat])
