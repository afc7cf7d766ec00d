"""A view's JSON (`View.to_json`, and `json_bytes`, what the server sends) is the generic encoding of
its members: the game's view, then the envelope's members in `ENVELOPE_FIELDS` order, each through
`to_json`. `View.to_json` writes the envelope member by member (its legal actions are JSON already);
this holds it to that definition, byte for byte, over random whole games of every registered game,
with turn drafts and both kinds of clock, for every seat and a spectator, the end included."""

from __future__ import annotations

import random
from typing import Any

import orjson
import pytest

from app.games.codec import to_json
from app.matches import decide
from app.matches.fold import Match, advance
from app.matches.settings import Bank, MatchSettings, PerDecision
from app.matches.views import ENVELOPE_FIELDS, ENVELOPE_MEMBERS, View, view_of
from tests.service.test_evolve_once import AT, LIFECYCLE, SIZES, started

SETTINGS = {
    "plain": LIFECYCLE,
    "drafts, per decision": MatchSettings(lifecycle=True, drafts=True, clock=PerDecision(30)),
    "bank": MatchSettings(lifecycle=True, clock=Bank(60, 5)),
}


def generic(view: View) -> dict[str, Any]:
    game_view: Any = {} if view.state is None else to_json(view.state)
    envelope = {name: to_json(getattr(view, name)) for name in ENVELOPE_FIELDS}
    return {**{k: v for k, v in game_view.items() if k not in ENVELOPE_MEMBERS}, **envelope}


def assert_views_encode_generically(m: Match) -> bool:
    """Whether a clock ran (a view showed a deadline)."""
    clocked = False
    for viewer in (*range(m.players), None):
        view = view_of(m, viewer)
        expected = orjson.dumps(generic(view))
        assert orjson.dumps(view.to_json()) == expected, (m.seq, viewer)
        assert view.json_bytes() == expected
        clocked |= bool(view.clock)
    return clocked


@pytest.mark.parametrize(("game_name", "players"), SIZES)
@pytest.mark.parametrize("settings", sorted(SETTINGS))
def test_a_views_json_is_the_generic_encoding_of_its_members(
    game_name: str, players: int, settings: str
) -> None:
    rng = random.Random(f"{game_name}/{players}/{settings}")
    m = started(game_name, players, rng.randrange(1 << 30), SETTINGS[settings])
    assert_views_encode_generically(m)
    drafted = clocked = False
    while m.status == "active":
        seat = m.to_act[0]
        action = rng.choice(view_of(m, seat).legal_actions)  # with drafts: undo and finish_turn too
        drafted |= m.draft is not None
        m = advance(m, decide.act(m, seat, dict(action), random.Random(rng.random())).events, AT)
        clocked |= assert_views_encode_generically(m)
    assert m.status == "finished"
    assert_views_encode_generically(m)  # with its outcome
    assert (drafted, clocked) == (SETTINGS[settings].drafts, SETTINGS[settings].clock is not None)
