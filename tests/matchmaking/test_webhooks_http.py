"""`/v1/players/me/webhooks` over HTTP (the real app, its own deliverer, a loopback receiver)."""

from __future__ import annotations

import asyncio
import json

from app.service import webhooks as wh
from tests.api.conftest import started
from tests.matchmaking.receiver import Receiver
from tests.matchmaking.test_seeks_http import _error, _player


async def test_register_receive_and_inspect() -> None:
    receiver = Receiver()
    await receiver.start()
    try:
        async with started("memory://", webhook_allow_private=True, webhook_interval_seconds=0.01) as (
            _,
            client,
        ):
            ann, bob = await _player(client, "ann"), await _player(client, "bob")
            _error(
                await client.post("/v1/players/me/webhooks", json={"url": receiver.url}), 401, "unauthorized"
            )
            for body in (
                {"url": "ftp://x.org/"},
                {"url": "x" * 2001},
                {"url": receiver.url, "events": ["nope"]},
            ):
                _error(
                    await client.post("/v1/players/me/webhooks", json=body, headers=ann),
                    422,
                    "validation_error",
                )
            r = await client.post("/v1/players/me/webhooks", json={"url": receiver.url}, headers=ann)
            assert r.status_code == 201, r.text
            hook = r.json()
            listed = (await client.get("/v1/players/me/webhooks", headers=ann)).json()["items"]
            assert [w["webhook_id"] for w in listed] == [hook["webhook_id"]] and "secret" not in listed[0]
            bob_id = (await client.get("/v1/players/me", headers=bob)).json()["player_id"]
            r = await client.post("/v1/challenges", json={"to": [bob_id], "game": "yutaka"}, headers=ann)
            await client.post(f"/v1/challenges/{r.json()['challenge_id']}/accept", headers=bob)
            for _ in range(500):  # the app's own deliverer, off the request path
                if len(receiver.received) >= 2:
                    break
                await asyncio.sleep(0.01)
            got = receiver.received[0]
            delivery, ts = got.headers["drago-webhook-id"], int(got.headers["drago-webhook-timestamp"])
            assert got.headers["drago-webhook-signature"] == wh.signature(
                hook["secret"], delivery, ts, got.body
            )
            assert json.loads(got.body)["type"] == "challenge_accepted"
            path = f"/v1/players/me/webhooks/{hook['webhook_id']}/deliveries"
            items = (await client.get(path, headers=ann)).json()["items"]
            assert items and items[-1]["outcome"] == "delivered" and items[-1]["delivery_id"] == delivery
            _error(await client.get(path, headers=bob), 403, "forbidden")
            _error(await client.delete("/v1/players/me/webhooks/nope", headers=ann), 404, "not_found")
            r = await client.delete(f"/v1/players/me/webhooks/{hook['webhook_id']}", headers=ann)
            assert r.status_code == 204
            assert (await client.get("/v1/players/me/webhooks", headers=ann)).json()["items"] == []
    finally:
        await receiver.stop()


async def test_private_targets_are_refused_by_default() -> None:
    async with started("memory://") as (_, client):
        ann = await _player(client, "ann")
        r = await client.post("/v1/players/me/webhooks", json={"url": "http://127.0.0.1:8080/x"}, headers=ann)
        _error(r, 422, "validation_error")
