"""`/v1/challenges`, `PATCH /v1/players/me` and `GET /v1/players/{id}` over HTTP (the real app)."""

from __future__ import annotations

import httpx

from tests.api.conftest import started
from tests.matchmaking.test_seeks_http import _error


async def _player(client: httpx.AsyncClient, name: str) -> tuple[str, dict[str, str]]:
    r = await client.post("/v1/players", json={"name": name})
    assert r.status_code == 201
    return r.json()["player_id"], {"Authorization": f"Bearer {r.json()['key']}"}


async def test_challenge_accept_and_play() -> None:
    async with started("memory://", matcher_interval_seconds=0) as (_, client):
        (_, ann), (bob_id, bob) = await _player(client, "ann"), await _player(client, "bob")
        r = await client.patch("/v1/players/me", json={"bot": True}, headers=bob)
        assert r.status_code == 200 and r.json() == {"player_id": bob_id, "name": "bob", "bot": True}
        assert (await client.get(f"/v1/players/{bob_id}")).json()["bot"] is True
        r = await client.post("/v1/challenges", json={"to": [bob_id], "game": "yutaka"}, headers=ann)
        assert r.status_code == 201, r.text
        c = r.json()
        assert c["players"] == 2 and c["status"] == "open" and c["bot"] is False
        assert c["to"] == [{"player_id": bob_id, "name": "bob", "bot": True, "answer": None}]
        mine = (await client.get("/v1/players/me/challenges", headers=bob)).json()["items"]
        assert [x["challenge_id"] for x in mine] == [c["challenge_id"]]
        _error(await client.post(f"/v1/challenges/{c['challenge_id']}/accept", headers=ann), 403, "forbidden")
        r = await client.post(f"/v1/challenges/{c['challenge_id']}/accept", headers=bob)
        assert r.status_code == 200 and r.json()["status"] == "accepted"
        match_id = r.json()["match_id"]
        summary = (await client.get(f"/v1/matches/{match_id}")).json()
        assert summary["status"] == "active" and summary["settings"]["rated"] is False
        view = (await client.get(f"/v1/matches/{match_id}/view", headers=bob)).json()
        assert view["seat"] in (0, 1)
        decline = f"/v1/challenges/{c['challenge_id']}/decline"
        _error(await client.post(decline, json={}, headers=bob), 409, "challenge_closed")


async def test_decline_and_bad_input() -> None:
    async with started("memory://", matcher_interval_seconds=0) as (_, client):
        (ann_id, ann), (bob_id, bob) = await _player(client, "ann"), await _player(client, "bob")
        _error(
            await client.post("/v1/challenges", json={"to": [bob_id], "game": "yutaka"}), 401, "unauthorized"
        )
        for body in (
            {"to": [ann_id], "game": "yutaka"},
            {"to": [], "game": "yutaka"},
            {"to": [bob_id], "game": "chess"},
            {"to": [bob_id], "game": "yutaka", "options": {"nope": 1}},
        ):
            _error(await client.post("/v1/challenges", json=body, headers=ann), 422, "validation_error")
        _error(
            await client.post("/v1/challenges", json={"to": ["nobody"], "game": "yutaka"}, headers=ann),
            404,
            "not_found",
        )
        _error(
            await client.patch("/v1/players/me", json={"bot": "yes"}, headers=ann), 422, "validation_error"
        )
        _error(await client.get("/v1/players/nobody"), 404, "not_found")
        r = await client.post("/v1/challenges", json={"to": [bob_id], "game": "yutaka"}, headers=ann)
        cid = r.json()["challenge_id"]
        r = await client.post(f"/v1/challenges/{cid}/decline", json={"reason": "busy"}, headers=bob)
        assert r.status_code == 200 and r.json()["status"] == "declined" and r.json()["reason"] == "busy"
        r = await client.post("/v1/challenges", json={"to": [bob_id], "game": "yutaka"}, headers=ann)
        r = await client.post(f"/v1/challenges/{r.json()['challenge_id']}/decline", headers=bob)  # no body
        assert r.status_code == 200 and r.json()["reason"] is None


async def test_a_rated_challenge() -> None:
    async with started("memory://", matcher_interval_seconds=0) as (_, client):
        (_, ann), (bob_id, bob) = await _player(client, "ann"), await _player(client, "bob")
        body = {"to": [bob_id], "game": "yutaka", "rated": True}
        r = await client.post("/v1/challenges", json=body, headers=ann)
        assert r.status_code == 201 and r.json()["settings"]["rated"] is True, r.text
        r = await client.post(f"/v1/challenges/{r.json()['challenge_id']}/accept", headers=bob)
        summary = (await client.get(f"/v1/matches/{r.json()['match_id']}")).json()
        assert summary["status"] == "active" and summary["settings"]["rated"] is True
