"""docs/rules.md §2.3–2.4 scripted: the opening reveals, plays, the 5-card limit, who reveals, drawing,
and the end of the game the moment the last face-down island tile is revealed."""

from __future__ import annotations

import pytest

from app.games.yutaka import GAME
from app.games.yutaka.actions import Play, Reveal
from app.games.yutaka.events import CardDrawn, CardPlayed, TileRevealed
from app.games.yutaka.state import Phase
from tests.yutaka.rig import DYN, NON_REVEAL, REVEAL_FIRST, Match, c, deck, rush, setup_json, types


@pytest.mark.parametrize("first", [0, 1])
def test_opening_reveals_go_p1_p2_p1_p2_then_p1_plays(first: int) -> None:
    match = Match(setup_json(), first_player=first)
    order = []
    for done in range(4):
        seat = match.to_act()
        order.append(seat)
        assert match.state.phase is Phase.OPENING
        assert GAME.legal_actions(match.state, 1 - seat) == ()
        reveals = GAME.legal_actions(match.state, seat)
        assert all(isinstance(a, Reveal) for a in reveals) and len(reveals) == 20 - done
        (event,) = match.reveal(seat)
        assert isinstance(event, TileRevealed) and event.seat == seat
    assert order == [first, 1 - first, first, 1 - first]
    assert match.state.phase is Phase.PLAY
    assert match.to_act() == first
    assert all(isinstance(a, Play) for a in GAME.legal_actions(match.state, first))


def test_an_explicit_setup_may_name_the_first_player() -> None:
    match = Match(setup_json(first_player=1))
    assert match.events[0].first_player == 1  # type: ignore[union-attr]
    assert match.to_act() == 1
    match.opening()
    assert match.to_act() == 1


def test_a_typed_card_goes_on_your_side_then_you_draw_and_the_turn_passes() -> None:
    decks = [deck(c("dagger", 3)), deck()]
    match = Match(setup_json(decks))
    match.opening()
    events = match.play(0, c("dagger", 3), 2)
    assert types(events) == ["card_played", "card_drawn"]
    played, drawn = events
    assert played == CardPlayed(0, c("dagger", 3), 2, 0)
    assert drawn == CardDrawn(0, decks[0][6])
    assert match.state.columns[0][2] == (c("dagger", 3),)
    assert len(match.state.hands[0]) == 6 and decks[0][6] in match.state.hands[0]
    assert match.to_act() == 1


def test_after_equipment_you_reveal_a_tile_of_your_choice_then_draw() -> None:
    match = Match(setup_json([deck(c("equipment", 2)), deck()]))
    match.opening()
    assert types(match.play(0, c("equipment", 2), 0)) == ["card_played"]
    assert match.state.phase is Phase.REVEAL
    assert GAME.to_act(match.state) == (0,)
    assert GAME.legal_actions(match.state, 1) == ()
    assert {type(a) for a in GAME.legal_actions(match.state, 0)} == {Reveal}
    assert len(GAME.legal_actions(match.state, 0)) == 16
    events = match.reveal(0, 4, 3)
    assert types(events) == ["tile_revealed", "card_drawn"]  # the draw closes the turn, after the reveal
    assert events[0].seat == 0 and events[1].seat == 0  # type: ignore[union-attr]
    assert match.state.revealed[4][3]
    assert match.to_act() == 1


def test_dynamite_takes_a_place_on_the_opponents_side_and_the_opponent_reveals() -> None:
    match = Match(setup_json([deck(DYN), deck()]))
    match.opening()
    assert types(match.play(0, DYN, 1)) == ["card_played"]
    assert match.state.columns[1][1] == (DYN,)
    assert match.state.columns[0][1] == ()
    assert GAME.to_act(match.state) == (1,)  # a decision owned by the player not on turn
    assert match.view(1)["turn"] == 0 and match.view(1)["phase"] == "reveal"
    assert GAME.legal_actions(match.state, 0) == ()
    events = match.reveal(1)
    assert types(events) == ["tile_revealed", "card_drawn"]
    assert events[0].seat == 1  # type: ignore[union-attr]
    assert events[1].seat == 0  # type: ignore[union-attr]  # the dynamite player draws
    assert match.to_act() == 1


def test_five_cards_per_side_per_island_counting_dynamite_received() -> None:
    p1 = [c("idol", 1), c("idol", 2), c("idol", 3), c("idol", 4)]
    p2 = [DYN, c("dagger", 1), c("dagger", 2), c("dagger", 3), c("dagger", 4)]
    match = Match(setup_json([deck(*p1, c("amphora", 1)), deck(*p2)]))
    match.opening()
    match.turn(p1[0], 0)
    match.turn(DYN, 0)  # on P1's side of island 0: P1 now has 2 of 5 places used there
    for card1, card2 in zip(p1[1:], p2[1:], strict=False):
        match.turn(card1, 0)
        match.turn(card2, 3)
    assert len(match.state.columns[0][0]) == 5
    hand_play = Play(c("amphora", 1), 0)
    assert hand_play not in GAME.legal_actions(match.state, 0)
    assert Play(c("amphora", 1), 1) in GAME.legal_actions(match.state, 0)
    refused = match.refused(0, hand_play)
    assert refused.reason == "column_full"
    assert "Your side of island 0" in refused.message


def test_dynamite_cannot_go_where_the_opponents_side_is_full() -> None:
    p1 = [c("idol", 1), c("idol", 2), c("idol", 3), c("idol", 4), c("dagger", 1)]
    p2 = [c("amphora", 1), c("amphora", 2), c("amphora", 3), c("amphora", 4), DYN]
    match = Match(setup_json([deck(*p1), deck(*p2)]))
    match.opening()
    for i, card in enumerate(p1[:4]):
        match.turn(card, 0)
        match.turn(p2[i], 1)
    match.turn(p1[4], 0)
    assert len(match.state.columns[0][0]) == 5
    assert DYN in match.state.hands[1]
    legal = GAME.legal_actions(match.state, 1)
    assert Play(DYN, 0) not in legal and Play(DYN, 1) in legal
    refused = match.refused(1, Play(DYN, 0))
    assert refused.reason == "column_full"
    assert "opponent's side" in refused.message


def test_you_draw_back_to_six_while_your_deck_lasts_then_play_down() -> None:
    order = NON_REVEAL + REVEAL_FIRST
    match = Match(setup_json([deck(*order), deck(*order)]))
    match.opening()
    hand_sizes: list[list[int]] = [[], []]
    for i, card in enumerate(order):
        island = i // 4 if i < 16 else 4
        for seat in (0, 1):
            assert match.to_act() == seat
            before = len(match.state.decks[seat])
            target = 1 - seat if card == DYN else seat
            if card == DYN:
                island = next(j for j in range(5) if len(match.state.columns[target][j]) < 5)
            events = match.turn(card, island)
            drew = [e for e in events if isinstance(e, CardDrawn)]
            assert len(drew) == (1 if before and GAME.outcome(match.state) is None else 0)
            hand_sizes[seat].append(len(match.state.hands[seat]))
    assert hand_sizes[0] == [6] * 18 + [5, 4, 3, 2, 1, 0]
    assert hand_sizes[1] == [6] * 18 + [5, 4, 3, 2, 1, 0]
    assert GAME.outcome(match.state) is not None


def test_the_game_ends_on_the_last_reveal_even_with_cards_in_hand_and_without_a_draw() -> None:
    match = rush()
    last_play = match.events[-3]
    assert isinstance(last_play, CardPlayed) and last_play.seat == 1 and last_play.card == DYN
    assert types(match.events[-2:]) == ["tile_revealed", "game_ended"]
    assert match.events[-2].seat == 0  # type: ignore[union-attr]
    assert match.state.phase is Phase.OVER
    assert [len(h) for h in match.state.hands] == [6, 5]
    assert [len(d) for d in match.state.decks] == [10, 11]
    assert GAME.to_act(match.state) == ()
    assert GAME.legal_actions(match.state, 0) == GAME.legal_actions(match.state, 1) == ()
    assert GAME.outcome(match.state) is not None
    assert match.state.cards_played == 16


def test_the_game_goes_on_while_a_face_down_tile_remains() -> None:
    match = rush()
    penultimate = match.events[:-3]  # before P2's last dynamite and its reveal
    state = GAME.initial_state(penultimate[0])
    for event in penultimate[1:]:
        state = GAME.evolve(state, event)
    assert sum(not shown for row in state.revealed for shown in row) == 1
    assert GAME.outcome(state) is None
    assert GAME.to_act(state) == (1,)


def test_legal_action_counts_from_fixed_positions() -> None:
    idols = [c("idol", v) for v in (1, 2, 3, 4)]
    match = Match(setup_json([deck(DYN, DYN, *idols), deck()]))
    assert len(GAME.legal_actions(match.state, 0)) == 20  # any tile may open
    match.opening()
    assert len(GAME.legal_actions(match.state, 0)) == 5 * 5  # two identical dynamite make one choice
    match.turn(c("idol", 1), 0)
    assert match.state.hands[0][-1] == c("dagger", 1)  # drawn
    match.turn(c("idol", 1), 0)
    assert len(GAME.legal_actions(match.state, 0)) == 5 * 5  # dynamite, idol 2–4, dagger 1
    match.play(0, DYN, 0)
    assert len(GAME.legal_actions(match.state, 1)) == 16  # every tile still face down
