"""The options that settle unclear points change play as documented (docs/rules.md):
`explicit_end_turn`, `tie_break` and `first_player: "random"`, each against its default; plus
`is_barrier` and `finish_action` for the match layer's turn drafts."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from app.games.yutaka import GAME
from app.games.yutaka.actions import EndTurn, Play, Reveal
from app.games.yutaka.components import Card
from app.games.yutaka.events import EVENT_TYPES, CardPlayed, GameStarted, TurnConfirmed
from app.games.yutaka.options import parse_options
from app.games.yutaka.scoring import TieBreak, score_game
from app.games.yutaka.state import Phase, State
from tests.yutaka.rig import DYN, Match, c, deck, rush, setup_json, t, types

# --- explicit_end_turn ----------------------------------------------------------------------------


def phase(match: Match) -> Phase:
    return match.state.phase


def _explicit(*first: Card) -> Match:
    match = Match(setup_json([deck(*first), deck()]), explicit_end_turn=True)
    match.opening()
    return match


def test_a_treasure_card_waits_for_end_turn_which_draws() -> None:
    match = _explicit(c("dagger", 3))
    assert types(match.play(0, c("dagger", 3), 2)) == ["card_played"]
    assert phase(match) is Phase.CONFIRM and match.to_act() == 0
    assert GAME.legal_actions(match.state, 0) == (EndTurn(),)
    assert GAME.finish_action(match.state, 0) == EndTurn() and GAME.finish_action(match.state, 1) is None
    events = match.act(0, EndTurn())
    assert types(events) == ["turn_confirmed", "card_drawn"]
    assert events[0] == TurnConfirmed(0) and match.to_act() == 1


def test_dynamite_waits_for_end_turn_which_hands_the_reveal_to_the_opponent() -> None:
    match = _explicit(DYN)
    assert types(match.play(0, DYN, 1)) == ["card_played"]
    assert phase(match) is Phase.CONFIRM and match.to_act() == 0  # still the player's decision
    assert types(match.act(0, EndTurn())) == ["turn_confirmed"]
    assert phase(match) is Phase.REVEAL and match.to_act() == 1
    events = match.reveal(1)
    assert types(events) == ["tile_revealed", "card_drawn"] and events[1].seat == 0  # type: ignore[union-attr]
    assert match.to_act() == 1


def test_equipment_is_closed_by_the_players_own_reveal_as_without_the_option() -> None:
    match = _explicit(c("equipment", 2))
    assert types(match.play(0, c("equipment", 2), 0)) == ["card_played"]
    assert phase(match) is Phase.REVEAL and GAME.finish_action(match.state, 0) is None
    assert types(match.reveal(0)) == ["tile_revealed", "card_drawn"]
    assert match.to_act() == 1


def test_with_an_empty_deck_end_turn_passes_the_turn() -> None:
    match = _explicit(c("dagger", 3))
    state = replace(match.state, decks=((), match.state.decks[1]))
    events = GAME.decide(state, 0, Play(c("dagger", 3), 2), random.Random(0))
    for event in events:
        state = GAME.evolve(state, event)
    events = GAME.decide(state, 0, EndTurn(), random.Random(0))
    assert types(events) == ["turn_confirmed"]
    assert GAME.to_act(GAME.evolve(state, events[0])) == (1,)


@pytest.mark.parametrize(("explicit", "reason"), [(False, "no_explicit_end_turn"), (True, "play_expected")])
def test_end_turn_is_refused_without_the_option_or_before_the_play(explicit: bool, reason: str) -> None:
    match = Match(setup_json(), explicit_end_turn=explicit)
    match.opening()
    assert match.refused(0, EndTurn()).reason == reason


def test_in_the_confirm_phase_only_end_turn_is_accepted() -> None:
    match = _explicit(c("dagger", 3), c("idol", 4))
    match.play(0, c("dagger", 3), 2)
    assert match.refused(0, Play(c("idol", 4), 1)).reason == "end_turn_expected"
    assert match.refused(0, Reveal(0, 0)).reason == "end_turn_expected"


def test_a_whole_game_with_explicit_end_turn() -> None:
    match = rush()
    plain = [e.TYPE for e in match.events]
    explicit = Match(setup_json([deck(*_reveal_first()), deck(*_reveal_first())]), explicit_end_turn=True)
    explicit.opening()
    for i, card in enumerate(_reveal_first()):
        for _seat in (0, 1):
            seat = explicit.to_act()
            explicit.play(seat, card, i % 4)
            if phase(explicit) is Phase.CONFIRM:
                explicit.act(seat, EndTurn())
            if phase(explicit) is Phase.REVEAL:
                explicit.reveal(explicit.to_act())
    assert [e.TYPE for e in explicit.events if e.TYPE != "turn_confirmed"] == plain
    assert GAME.outcome(explicit.state) == GAME.outcome(match.state)


def _reveal_first() -> list[Card]:
    return [c("equipment", v) for v in (1, 2, 3, 4)] + [DYN] * 4


# --- barriers -------------------------------------------------------------------------------------


def test_barriers_are_declared_per_event_and_card_played_depends() -> None:
    declared = {name: cls.BARRIER for name, cls in EVENT_TYPES.items()}
    assert declared == {
        "game_started": True, "tile_revealed": True, "card_played": None, "turn_confirmed": True,
        "card_drawn": True, "game_ended": True,
    }  # fmt: skip


@pytest.mark.parametrize(
    ("explicit", "card", "empty_deck", "barrier"),
    [
        (False, c("dagger", 3), False, False),  # the draw that follows is the barrier
        (False, c("dagger", 3), True, True),  # no draw: the turn passes with the play
        (False, DYN, False, True),  # the opponent reveals next
        (False, c("equipment", 1), False, False),  # the player's own reveal follows
        (True, c("dagger", 3), True, False),  # end_turn hands over
        (True, DYN, False, False),
        (True, c("equipment", 1), False, False),
    ],
)
def test_a_play_is_a_barrier_only_when_it_ends_the_decision(
    explicit: bool, card: Card, empty_deck: bool, barrier: bool
) -> None:
    match = Match(setup_json([deck(card), deck()]), explicit_end_turn=explicit)
    match.opening()
    state: State = match.state
    if empty_deck:
        state = replace(state, decks=((), state.decks[1]))
    (played, *_rest) = GAME.decide(state, 0, Play(card, 0), random.Random(0))
    assert isinstance(played, CardPlayed)
    assert GAME.is_barrier(state, played) is barrier


# --- tie_break ------------------------------------------------------------------------------------

# Equal totals 6 : 6; seat 0 won one equipment tile worth 4, seat 1 two worth 3 + 0.
TIED_COLUMNS = [
    [[c("equipment", 1)], [c("crystal", 1)], [], []],
    [[], [], [c("equipment", 1)], [c("idol", 1)]],
]
TIED_ISLANDS = [
    [t("equipment", 4)],
    [t("crystal", 2)],
    [t("equipment", 3), t("equipment", 0)],
    [t("idol", 3)],
]


@pytest.mark.parametrize(
    ("tie_break", "winners", "decided_by"),
    [
        (TieBreak.EQUIPMENT_TILES, (1,), "equipment_tiles"),  # 2 tiles against 1
        (TieBreak.EQUIPMENT_POINTS, (0,), "equipment_points"),  # 4 points against 3
        (TieBreak.SHARED, (0, 1), "shared"),
    ],
)
def test_each_tie_break_decides_equal_totals_its_own_way(
    tie_break: TieBreak, winners: tuple[int, ...], decided_by: str
) -> None:
    scored = score_game(TIED_COLUMNS, TIED_ISLANDS, tie_break)
    assert scored.totals == (6, 6) and scored.equipment_tiles == (1, 2) and scored.equipment_value == (4, 3)
    assert (scored.winners, scored.decided_by) == (winners, decided_by)
    # the engine scores with the match's option
    state = rush().state
    columns = tuple((*(tuple(col) for col in side), ()) for side in TIED_COLUMNS)
    state = replace(
        state,
        options=parse_options(2, {"tie_break": tie_break.value}),
        columns=columns,
        islands=(*(tuple(row) for row in TIED_ISLANDS), ()),
    )
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winners == winners
    assert outcome.details["decided_by"] == decided_by


def test_each_chain_falls_back_to_the_other_criterion_then_shares() -> None:
    columns = [[[c("equipment", 1)], []], [[], [c("equipment", 1)]]]
    # equal points (3 : 3), more tiles for seat 1 (1 : 2)
    points_tie = [[t("equipment", 3)], [t("equipment", 3), t("equipment", 0)]]
    assert score_game(columns, points_tie, TieBreak.EQUIPMENT_POINTS).decided_by == "equipment_tiles"
    assert score_game(columns, points_tie, TieBreak.EQUIPMENT_POINTS).winners == (1,)
    everything_equal = [[t("equipment", 3)], [t("equipment", 3)]]
    for tie_break in TieBreak:
        assert score_game(columns, everything_equal, tie_break).winners == (0, 1)


# --- first_player: "random" -----------------------------------------------------------------------


def test_a_random_first_player_is_drawn_at_setup_and_recorded() -> None:
    options = GAME.parse_options(2, {"first_player": "random"})
    assert options["first_player"] == "random"
    firsts = set()
    for seed in range(20):
        started = GAME.start(2, options, random.Random(seed))
        assert isinstance(started, GameStarted) and started.options.first_player == "random"
        firsts.add(started.first_player)
        state = GAME.initial_state(started)
        assert GAME.to_act(state) == (started.first_player,)
        fixed = GAME.start(2, GAME.parse_options(2, {}), random.Random(seed))
        assert isinstance(fixed, GameStarted)
        assert (fixed.decks, fixed.islands) == (started.decks, started.islands)  # drawn after the deal
    assert firsts == {0, 1}


def test_an_explicit_setup_overrides_a_random_first_player() -> None:
    options = GAME.parse_options(2, {"first_player": "random"})
    for seed in range(6):
        started = GAME.start(2, options, random.Random(seed), setup_json(first_player=1))
        assert isinstance(started, GameStarted) and started.first_player == 1
