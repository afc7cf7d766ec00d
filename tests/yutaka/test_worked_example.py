"""docs/rules.md §2.6: the rulebook's worked example, played as a whole rigged game to its final layout."""

from __future__ import annotations

from typing import Any

from app.games.codec import to_json
from app.games.yutaka import GAME
from app.games.yutaka.events import GameEnded
from tests.yutaka.rig import DYN, Match, c, deck, setup_json, t, types

ISLANDS = [
    [t("amphora", 4), t("crystal", 6), t("dagger", 12), t("equipment", 7)],
    [t("idol", 15), t("amphora", 8), t("crystal", 11), t("crystal", 0)],
    [t("equipment", 3), t("equipment", 0), t("amphora", 2), t("crystal", 8)],
    [t("crystal", 4), t("equipment", 8), t("idol", 5), t("dagger", 8)],
    [t("equipment", 5), t("amphora", 10), t("crystal", 1), t("dagger", 4)],
]
SET_ASIDE = [t("idol", 10), t("dagger", 6), t("amphora", 6), t("equipment", 4), t("equipment", 3)]

# (card, island index) in play order; dynamite lands on the other player's side of that island.
# Column 3 is rigged as the rulebook describes it: player 1 holds two equipment cards there
# (2 and 1, with an idol 2 and the opponent's dynamite: 2 + 0 + 1 + 2 = 5 against 8).
P1_PLAYS = [
    (c("amphora", 3), 0), (c("crystal", 4), 0), (c("idol", 4), 1), (c("equipment", 2), 2),
    (c("equipment", 4), 1), (c("idol", 2), 2), (c("equipment", 1), 2), (c("dagger", 2), 1),
    (c("dagger", 4), 3), (c("crystal", 3), 3), (c("equipment", 3), 4), (c("amphora", 2), 4),
    (c("crystal", 1), 4), (DYN, 2), (DYN, 0), (DYN, 1), (DYN, 4),
]  # fmt: skip
P2_PLAYS = [
    (c("dagger", 2), 0), (c("equipment", 2), 0), (c("amphora", 4), 1), (c("crystal", 3), 1),
    (c("equipment", 1), 1), (c("equipment", 3), 2), (c("amphora", 2), 2), (c("crystal", 2), 2),
    (c("idol", 1), 2), (c("dagger", 1), 3), (c("dagger", 3), 3), (c("idol", 3), 3),
    (DYN, 2), (DYN, 0), (DYN, 3), (DYN, 4), (c("equipment", 4), 3),
]  # fmt: skip


def play_example() -> Match:
    decks = [deck(*(card for card, _ in P1_PLAYS)), deck(*(card for card, _ in P2_PLAYS))]
    match = Match(setup_json(decks, ISLANDS, SET_ASIDE))
    match.opening()
    for p1, p2 in zip(P1_PLAYS, P2_PLAYS, strict=True):
        assert match.to_act() == 0
        match.turn(*p1)
        assert match.to_act() == 1
        match.turn(*p2)
    return match


def award(details: Any, island: int, tile_type: str) -> Any:
    (found,) = [a for a in details["islands"][island]["awards"] if a["type"] == tile_type]
    return found


def test_final_columns_are_the_rulebook_layout() -> None:
    state = play_example().state
    p1_col3 = state.columns[0][2]
    p2_col3 = state.columns[1][2]
    assert sorted(card.value for card in p1_col3) == [0, 1, 2, 2]  # 2 + 0 + 1 + 2
    assert sorted(card.value for card in p2_col3) == [0, 1, 2, 2, 3]  # 3 + 2 + 2 + 0 + 1
    assert DYN in p1_col3 and DYN in p2_col3
    # both players hold equipment there, player 1 two cards of it: the whole columns are compared
    assert [card for card in p1_col3 if card.kind.value == "equipment"] == [
        c("equipment", 2),
        c("equipment", 1),
    ]
    assert [card for card in p2_col3 if card.kind.value == "equipment"] == [c("equipment", 3)]


def test_totals_are_45_and_64() -> None:
    match = play_example()
    outcome = GAME.outcome(match.state)
    assert outcome is not None
    assert outcome.scores == (45, 64)
    assert outcome.winners == (1,)
    assert outcome.details["decided_by"] == "total"


def test_awards_per_island_match_the_rulebook() -> None:
    outcome = GAME.outcome(play_example().state)
    assert outcome is not None
    won = {
        (a["winner"], i + 1, a["type"]): a["tiles"]
        for i, island in enumerate(outcome.details["islands"])
        for a in island["awards"]
        if a["result"] == "won"
    }
    assert won == {
        (0, 1, "amphora"): [4],
        (0, 1, "crystal"): [6],
        (0, 2, "idol"): [15],
        (0, 4, "crystal"): [4],
        (0, 5, "equipment"): [5],
        (0, 5, "amphora"): [10],
        (0, 5, "crystal"): [1],
        (1, 1, "dagger"): [12],
        (1, 1, "equipment"): [7],
        (1, 2, "amphora"): [8],
        (1, 2, "crystal"): [11, 0],
        (1, 3, "equipment"): [3, 0],
        (1, 3, "amphora"): [2],
        (1, 3, "crystal"): [8],
        (1, 4, "equipment"): [8],
        (1, 4, "idol"): [5],
    }
    assert [island["points"] for island in outcome.details["islands"]] == [
        [10, 19], [15, 19], [0, 13], [4, 13], [16, 0]
    ]  # fmt: skip


def test_column_3_equipment_compares_whole_columns_5_against_8() -> None:
    outcome = GAME.outcome(play_example().state)
    assert outcome is not None
    equipment = award(outcome.details, 2, "equipment")
    assert equipment["basis"] == "column_sum"
    assert equipment["compared"] == [5, 8]
    assert equipment["winner"] == 1
    assert equipment["points"] == 3


def test_column_4_daggers_tie_at_4_and_dagger_8_is_discarded() -> None:
    outcome = GAME.outcome(play_example().state)
    assert outcome is not None
    dagger = award(outcome.details, 3, "dagger")
    assert dagger["compared"] == [4, 4]
    assert dagger["result"] == "discarded"
    assert dagger["tiles"] == [8]
    assert dagger["winner"] is None


def test_column_5_dagger_is_unclaimed() -> None:
    outcome = GAME.outcome(play_example().state)
    assert outcome is not None
    dagger = award(outcome.details, 4, "dagger")
    assert dagger["cards"] == [0, 0]
    assert dagger["result"] == "unclaimed"
    assert dagger["tiles"] == [4]


def test_the_game_ends_on_the_last_reveal_with_cards_in_hand_and_shows_the_set_aside_tiles() -> None:
    match = play_example()
    last = match.events[-2:]
    assert types(last) == ["tile_revealed", "game_ended"]  # no draw after the ending reveal
    ended = last[-1]
    assert isinstance(ended, GameEnded)
    assert ended.totals == (45, 64)
    assert list(ended.set_aside) == SET_ASIDE
    assert [len(h) for h in match.state.hands] == [6, 5]
    assert [len(d) for d in match.state.decks] == [1, 2]
    assert match.view(None)["set_aside"] == to_json(SET_ASIDE)
