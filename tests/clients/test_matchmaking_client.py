"""Matchmaking from the Python client: two bot processes, each with only its key, keep seeks open
and play matches against each other (also across a restart of one bot); the webhook signature
helper agrees with the server's signer and refuses what it must."""

from __future__ import annotations

import asyncio
import hashlib
import random

import pytest
from drago_client import AsyncClient, InvalidWebhook, verify_webhook
from drago_client.webhooks import signature

from app.service import webhooks as server_side
from tests.clients.servers import ServerProcess
from tests.clients.test_bot import BotProcess

MATCHES = 20
LONG = 900.0  # seconds: a hang guard for twenty matches on a shared machine, never a speed claim


@pytest.mark.slow
async def test_two_bots_with_keys_and_seeks_play_each_other(server: ServerProcess) -> None:
    async with AsyncClient(server.url) as api:
        keys = []
        for name in ("Seeker A", "Seeker B"):
            player = await api.create_player(name)
            await api.update_me(bot=True, token=player.key)
            keys.append(player.key)
        args = ("--seek", "yutaka", "--players", "2", "--parallel", "4", "--matches", str(MATCHES))
        # Bot A runs one match, stops (a restart), and runs again; bot B plays throughout. Each
        # process's output is drained while it runs (a full pipe would stall it).
        b = await BotProcess.start(server.url, "--key", keys[1], *args, "--seed", "b")
        b.guard = LONG
        finishing_b = asyncio.create_task(b.finish())
        first = await BotProcess.start(server.url, "--key", keys[0], *args[:-1], "1", "--seed", "a1")
        first.guard = LONG
        early = (await first.finish())["played"]
        a = await BotProcess.start(server.url, "--key", keys[0], *args, "--seed", "a2")
        a.guard = LONG
        played_a, played_b = (await a.finish())["played"], (await finishing_b)["played"]
        all_a = set(early) | set(played_a)
        assert len(early) >= 1 and len(all_a) >= MATCHES and len(played_b) >= MATCHES
        assert all_a == set(played_b)  # the two seekers met each time: nobody else seeks here
        for match_id in all_a:
            summary = await api.get_match(match_id)
            assert summary.status == "finished" and summary.winners is not None
            assert {s.name for s in summary.seats} == {"Seeker A", "Seeker B"}
        for key in keys:  # nothing left open behind them
            assert not [s for s in (await api.list_my_seeks(token=key)).items if s.status == "open"]


def test_verify_webhook_agrees_with_the_server() -> None:
    rng = random.Random(7)
    for i in range(50):
        secret = "whsec_" + hashlib.sha256(str(i).encode()).hexdigest()
        delivery, ts = f"d{rng.randrange(10**9)}", 1767268800 + rng.randrange(10**6)
        body = f'{{"id":"{delivery}","type":"your_turn","data":{{"n":{i}}}}}'.encode()
        sent = server_side.signature(secret, delivery, ts, body)
        assert signature(secret, delivery, ts, body) == sent
        headers = {
            "Drago-Webhook-Id": delivery,
            "Drago-Webhook-Timestamp": str(ts),
            "Drago-Webhook-Signature": sent,
        }
        assert verify_webhook(secret, headers, body, now=ts + 10)["id"] == delivery
        with pytest.raises(InvalidWebhook):
            verify_webhook(secret + "x", headers, body, now=ts)
        with pytest.raises(InvalidWebhook):
            verify_webhook(secret, headers, body + b" ", now=ts)
        with pytest.raises(InvalidWebhook):
            verify_webhook(secret, headers, body, now=ts + 301)
        with pytest.raises(InvalidWebhook):
            verify_webhook(secret, {k: v for k, v in headers.items() if "Id" not in k}, body, now=ts)


def test_the_documented_vector() -> None:
    assert signature("whsec_test", "d1", 1767268800, b'{"id":"d1","type":"your_turn"}') == (
        "v1=20df156de1d47b955755277f90120389f70dbc5c2e961059ea60276e03cfa8dd"
    )
