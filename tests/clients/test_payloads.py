"""Every payload the server sends decodes strictly into the generated types (no unknown member, no
`Unknown` fallback): views of every seat and of a spectator, action replies and the history, over
random matches of both games, every player count and mode, with and without turn drafts."""

from __future__ import annotations

import random
from typing import Any

import httpx
import pytest
from drago_client import decode, games, models
from drago_client.games import mount_drago, yutaka

from tests.clients.conftest import InProcess

CASES = [
    ("mount_drago", 2, {}, False),
    ("mount_drago", 3, {}, True),
    ("mount_drago", 5, {}, False),
    ("yutaka", 2, {"mode": "mysteria"}, False),
    ("yutaka", 2, {"mode": "tactika", "explicit_end_turn": True}, True),
    ("yutaka", 2, {"mode": "mixed", "stacked": True}, False),
]
MAX_STEPS = 3000


async def _json(http: httpx.AsyncClient, method: str, url: str, token: str | None = None, **kw: Any) -> Any:
    headers = {} if token is None else {"Authorization": f"Bearer {token}"}
    response = await http.request(method, url, headers=headers, **kw)
    assert response.status_code < 300, response.text
    return response.json()


@pytest.mark.parametrize(("game", "players", "options", "drafts"), CASES)
async def test_every_payload_decodes_strictly(
    inproc: InProcess, game: str, players: int, options: dict[str, Any], drafts: bool
) -> None:
    http, rng = inproc.http, random.Random(f"{game}{players}{options}")
    created = await _json(
        http,
        "POST",
        "/v1/matches",
        json={"game": game, "players": players, "options": options, "drafts": drafts},
    )
    decode(models.CreatedMatch, created, strict=True)
    match_id = created["id"]
    tokens = [
        (await _json(http, "POST", f"/v1/matches/{match_id}/seats/{s}", json={"name": f"p{s}"}))["token"]
        for s in range(players)
    ]
    view_class = mount_drago.View if game == "mount_drago" else yutaka.View
    for _ in range(MAX_STEPS):
        summary = decode(models.Match, await _json(http, "GET", f"/v1/matches/{match_id}"), strict=True)
        for viewer in [None, *tokens]:
            raw = await _json(http, "GET", f"/v1/matches/{match_id}/view", viewer)
            assert isinstance(decode(games.View, raw, strict=True), view_class)
        if summary.status != "active":
            break
        seat = summary.to_act[0]
        view = await _json(http, "GET", f"/v1/matches/{match_id}/view", tokens[seat])
        action = rng.choice(view["legal_actions"])
        if action["type"] == "undo" and rng.random() < 0.8:  # drafts: mostly go forward
            action = next((a for a in view["legal_actions"] if a["type"] != "undo"), action)
        decode(games.Action, action, strict=True)
        body = {"action": action, "expected_seq": view["seq"]}
        reply = await _json(http, "POST", f"/v1/matches/{match_id}/actions", tokens[seat], json=body)
        decode(models.ActionReply, reply, strict=True)
    else:
        raise AssertionError("the match did not finish")
    for viewer in [None, *tokens]:
        page = await _json(http, "GET", f"/v1/matches/{match_id}/events", viewer, params={"limit": 1000})
        decoded = decode(models.EventPage, page, strict=True)
        assert len(decoded.events) == summary.seq
