"""docs/rules.md §2.5 scored directly: every per-island case, totals and the tie-break Decision chain."""

from __future__ import annotations

from collections.abc import Sequence

from app.games.yutaka.components import Card, Tile, TileType
from app.games.yutaka.scoring import TIE_BREAKS, Award, Basis, Result, TieBreak, score_game, score_island
from tests.yutaka.rig import DYN, c, t


def only(tiles: Sequence[Tile], p1: Sequence[Card], p2: Sequence[Card], tile_type: str) -> Award:
    (found,) = [a for a in score_island(0, tiles, [p1, p2]).awards if a.type is TileType(tile_type)]
    return found


def test_the_higher_sum_of_that_types_cards_wins_all_its_tiles_on_the_island() -> None:
    tiles = [t("amphora", 2), t("amphora", 10), t("crystal", 4)]
    award = only(tiles, [c("amphora", 4)], [c("amphora", 1), c("amphora", 2), c("crystal", 4)], "amphora")
    assert (award.result, award.winner, award.compared, award.points) == (Result.WON, 0, (4, 3), 12)
    assert award.tiles == (2, 10)


def test_several_small_cards_can_beat_one_big_card() -> None:
    award = only([t("dagger", 8)], [c("dagger", 4)], [c("dagger", 2), c("dagger", 3)], "dagger")
    assert (award.winner, award.compared) == (1, (4, 5))


def test_the_only_player_with_cards_of_the_type_wins() -> None:
    award = only([t("idol", 5)], [c("dagger", 4), c("crystal", 4)], [c("idol", 1)], "idol")
    assert (award.result, award.winner, award.cards) == (Result.WON, 1, (0, 1))


def test_equal_sums_discard_the_tiles() -> None:
    award = only([t("idol", 15)], [c("idol", 3)], [c("idol", 1), c("idol", 2)], "idol")
    assert (award.result, award.winner, award.points) == (Result.DISCARDED, None, 0)
    assert award.compared == (3, 3)


def test_nobody_with_cards_of_the_type_leaves_the_tiles_unclaimed() -> None:
    award = only([t("crystal", 11)], [c("idol", 3)], [c("dagger", 1)], "crystal")
    assert (award.result, award.winner, award.cards) == (Result.UNCLAIMED, None, (0, 0))


def test_cards_of_other_types_and_types_without_tiles_do_not_matter() -> None:
    scored = score_island(0, [t("crystal", 6)], [[c("crystal", 1), c("idol", 4)], [c("amphora", 4)]])
    assert [a.type for a in scored.awards] == [TileType.CRYSTAL]
    assert scored.points == (6, 0)


def test_equipment_held_by_one_side_only_wins_whatever_the_columns_hold() -> None:
    p2 = [c("idol", 4), c("dagger", 4), c("crystal", 4)]
    award = only([t("equipment", 7), t("equipment", 0)], [c("equipment", 1)], p2, "equipment")
    assert (award.result, award.winner, award.basis, award.points) == (Result.WON, 0, Basis.TYPE_SUM, 7)


def test_equipment_on_both_sides_compares_all_cards_of_each_column_dynamite_zero() -> None:
    p1 = [c("equipment", 4), DYN]
    p2 = [c("equipment", 1), c("idol", 2), c("amphora", 2)]
    award = only([t("equipment", 8)], p1, p2, "equipment")
    assert (award.basis, award.compared, award.winner) == (Basis.COLUMN_SUM, (4, 5), 1)


def test_equipment_on_both_sides_with_equal_columns_is_discarded() -> None:
    p1 = [c("equipment", 3), DYN, c("idol", 1)]
    p2 = [c("equipment", 4), DYN]
    award = only([t("equipment", 5)], p1, p2, "equipment")
    assert (award.basis, award.compared, award.result, award.winner) == (
        Basis.COLUMN_SUM, (4, 4), Result.DISCARDED, None
    )  # fmt: skip


def test_equipment_without_equipment_cards_is_unclaimed() -> None:
    award = only([t("equipment", 5)], [c("idol", 4)], [DYN], "equipment")
    assert award.result is Result.UNCLAIMED


def test_a_zero_tile_still_counts_as_won() -> None:
    scored = score_game([[[c("equipment", 1)]], [[]]], [[t("equipment", 0)]])
    assert scored.totals == (0, 0)
    assert scored.equipment_tiles == (1, 0)
    assert (scored.winners, scored.decided_by) == ((0,), "equipment_tiles")


def game(p1_wins: Sequence[Tile], p2_wins: Sequence[Tile]) -> tuple[tuple[int, ...], str, tuple[int, ...]]:
    """Score a game where each listed tile sits alone on its own island, won by that player."""
    islands = [[tile] for tile in (*p1_wins, *p2_wins)]
    winner_of = [0] * len(p1_wins) + [1] * len(p2_wins)
    columns = [
        [[c(tile[0].type.value, 1)] if winner_of[i] == seat else [] for i, tile in enumerate(islands)]
        for seat in (0, 1)
    ]
    scored = score_game(columns, islands)
    return scored.winners, scored.decided_by, scored.totals


def test_the_higher_total_wins() -> None:
    assert game([t("idol", 15)], [t("dagger", 12)]) == ((0,), "total", (15, 12))


def test_the_tie_break_chain_is_the_declared_decision() -> None:
    assert TIE_BREAKS == (TieBreak.EQUIPMENT_TILES, TieBreak.EQUIPMENT_POINTS)


def test_on_equal_totals_more_equipment_tiles_win() -> None:
    result = game([t("idol", 6)], [t("equipment", 3), t("equipment", 3)])
    assert result == ((1,), "equipment_tiles", (6, 6))


def test_then_the_higher_equipment_value_wins() -> None:
    result = game([t("equipment", 4), t("crystal", 2)], [t("equipment", 5), t("crystal", 1)])
    assert result == ((1,), "equipment_points", (6, 6))


def test_then_the_win_is_shared() -> None:
    result = game([t("equipment", 4), t("crystal", 2)], [t("equipment", 4), t("amphora", 2)])
    assert result == ((0, 1), "shared", (6, 6))
    assert game([], []) == ((0, 1), "shared", (0, 0))  # nobody won anything
