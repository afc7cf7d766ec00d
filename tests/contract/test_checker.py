"""Controls: the contract checker fails on planted bad payloads, by itself and inside a real match.

A checker that accepts everything would make the playouts pass too; these tests prove it can fail:
payloads broken in one place each (a member too many, a wrong value, a redacted form holding a
secret, a view of the wrong game, a frame with a bad event) are refused, valid ones accepted, and a
real match played against an app whose views leak one member more fails its playout.
"""

from __future__ import annotations

import asyncio
import copy
from typing import Any

import pytest
from jsonschema import ValidationError  # type: ignore[import-untyped]

from app.api import examples
from app.matches.views import View
from tests.contract.checker import Contract
from tests.contract.playout import Case, play
from tests.contract.server import load_contract, serving

GAME = "mount_drago"  # the game of `app.api.examples`


async def _load() -> Contract:
    async with serving() as server:
        return await load_contract(server.client)


@pytest.fixture(scope="module")
def contract() -> Contract:
    return asyncio.run(_load())


def _view() -> dict[str, Any]:
    return copy.deepcopy(examples.opening().view)


def _events() -> list[dict[str, Any]]:
    return copy.deepcopy(examples.opening().events)


def test_real_payloads_pass(contract: Contract) -> None:
    contract.view(GAME, _view())
    for record in _events():
        contract.event(GAME, record)
    contract.server_frame({"type": "commit", "seq": _events()[-1]["seq"], "events": _events()}, GAME)
    contract.client_frame({"type": "action", "id": 1, "action": _view()["legal_actions"][0]}, GAME)


def _broken_views() -> list[tuple[str, dict[str, Any]]]:
    extra, missing, wrong, other, bad_action = _view(), _view(), _view(), _view(), _view()
    extra["secret_hands"] = []
    del missing["riders"]
    wrong["scores"] = ["0"] * len(wrong["scores"])
    other["game"] = "yutaka"
    bad_action["legal_actions"] = [{"type": "play", "card": {"dragon": "red", "value": 6}}]
    return [
        ("extra member", extra),
        ("missing member", missing),
        ("wrong type", wrong),
        ("another game", other),
        ("bad action", bad_action),
    ]


@pytest.mark.parametrize(("why", "view"), _broken_views(), ids=lambda x: x if isinstance(x, str) else "")
def test_broken_views_fail(contract: Contract, why: str, view: dict[str, Any]) -> None:
    with pytest.raises((ValidationError, AssertionError)):
        contract.view(GAME, view)
    with pytest.raises(ValidationError):
        contract.component("ViewOut", view)


def test_a_redacted_event_holding_a_secret_fails(contract: Contract) -> None:
    leaked = {
        "seq": 9, "type": "cards_drawn", "recorded_at": examples.RECORDED_AT, "commit": 9,
        "data": {"type": "cards_drawn", "seat": 1, "count": 1, "cards": [{"dragon": "red", "value": 3}]},
    }  # fmt: skip
    with pytest.raises(ValidationError):
        contract.event(GAME, leaked)


def test_a_frame_with_a_bad_event_or_view_fails(contract: Contract) -> None:
    events = _events()
    events[0]["data"]["to_space"] = -1
    with pytest.raises(ValidationError):
        contract.server_frame({"type": "commit", "seq": events[-1]["seq"], "events": events}, GAME)
    view = _view()
    view["hand"] = "hidden"
    with pytest.raises(ValidationError):
        contract.frame_def("HelloFrame", {**_hello(), "view": view})


def _hello() -> dict[str, Any]:
    return {
        "type": "hello", "protocol": 2, "match_id": examples.MATCH_ID, "seat": 0, "seq": 4, "after": 3,
        "views": True, "heartbeat": 20.0, "view": _view(), "chat_seq": 0,
    }  # fmt: skip


def test_bad_requests_and_responses_fail(contract: Contract) -> None:
    with pytest.raises(ValidationError):
        contract.request("submitAction", {"action": {"type": "play", "card": {"dragon": "pink", "value": 1}}})
    with pytest.raises(ValidationError):
        contract.request("createMatch", {"game": "yutaka", "players": 2, "options": {"mode": "hard"}})
    with pytest.raises(ValidationError):
        contract.response("getView", 200, {**_view(), "extra": True})
    with pytest.raises(ValidationError):
        contract.response("submitAction", 409, {"error": {"code": "not_your_turn"}})


async def test_a_real_match_with_a_leaking_view_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    """End to end: the app is sabotaged so that every view has one member more than published."""
    honest = View.to_json
    monkeypatch.setattr(View, "to_json", lambda self: {**honest(self), "deck_order": []})
    async with serving() as server:
        contract = await load_contract(server.client)
        with pytest.raises(ValidationError, match="deck_order"):
            await play(server, contract, Case("yutaka", 2))
