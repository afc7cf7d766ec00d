"""Random matches of every game, player count and mode, through the real app over HTTP and live
streams, with every payload checked against the served schemas, `openapi.json` and the frame schema
(`tests/contract/playout.py` says what is played and read; `checker.py` what is checked).

The fast variant plays one match per game and mode (Mount Drago at 2 and 5 players, one of them with
turn drafts); the exhaustive one, marked slow, every player count and mode with and without drafts,
with two seeds each.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from app.games.registry import GAMES
from tests.contract.playout import Case, play
from tests.contract.server import load_contract, serving

FAST = [
    Case("mount_drago", 2, drafts=True),
    Case("mount_drago", 5, {"explicit_end_turn": True}),
    Case("yutaka", 2, {"mode": "mysteria"}, drafts=True),
    Case("yutaka", 2, {"mode": "tactika", "explicit_end_turn": True}),
    Case("yutaka", 2, {"mode": "mixed", "known_types": ["crystal"], "stacked": True}),
]
YUTAKA_MODES: list[dict[str, Any]] = [
    {"mode": "mysteria"},
    {"mode": "tactika", "first_player": "random"},
    {"mode": "mixed", "explicit_end_turn": True, "tie_break": "shared"},
]
EXHAUSTIVE = [
    Case(name, players, {}, drafts, seed)
    for name in ("mount_drago",)
    for players in range(GAMES[name].info.min_players, GAMES[name].info.max_players + 1)
    for drafts in (False, True)
    for seed in (2, 3)
] + [
    Case("yutaka", 2, options, drafts, seed)
    for options in YUTAKA_MODES
    for drafts in (False, True)
    for seed in (2, 3)
]

# Events that a random match may well not have (a summit discard needs a summit dragon's card in
# hand); the examples of docs/games/ have every kind, and tests/contract/test_game_docs.py checks them.
RARE = {"mount_drago": {"turn_passed", "draw_pile_reshuffled", "cards_discarded"}, "yutaka": set()}


@pytest.mark.parametrize("case", FAST, ids=lambda c: c.id)
async def test_every_payload_of_a_random_match_fits_the_contract(case: Case) -> None:
    async with serving() as server:
        contract = await load_contract(server.client)
        await play(server, contract, case)
    seen = {kind.removeprefix("event ") for kind in contract.counts if kind.startswith("event ")}
    assert _expected(case) <= seen, _expected(case) - seen
    _report(case, contract.counts, contract.checks)


@pytest.mark.slow
@pytest.mark.parametrize("case", EXHAUSTIVE, ids=lambda c: c.id)
async def test_every_payload_fits_the_contract_in_every_mode(case: Case) -> None:
    async with serving() as server:
        contract = await load_contract(server.client)
        await play(server, contract, case)
    assert contract.counts["view"] and contract.counts["frame commit"]
    _report(case, contract.counts, contract.checks)


def _expected(case: Case) -> set[str]:
    """The event types a match of `case` must show (its options decide some)."""
    expected = set(GAMES[case.game].event_types) - RARE[case.game]
    expected |= {"seat_joined", "match_started", "match_ended"}
    if case.drafts:
        expected |= {"draft_step", "draft_changed", "draft_published"}
    if case.game == "yutaka" and not case.options.get("explicit_end_turn"):
        expected.discard("turn_confirmed")  # `end_turn` exists only with the option
    return expected


def _report(case: Case, counts: Counter[str], checks: int) -> None:
    main = ("request", "response", "view", "action", "event", "options", "frame hello", "frame commit")
    print(f"\n{case.id}: {checks} validations;", ", ".join(f"{k} {counts[k]}" for k in main))
