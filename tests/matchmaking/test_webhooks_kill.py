"""Acceptance: a SIGKILL of the server in the middle of a run of matches loses no webhook notice.

A real `python -m app` on an SQLite file, a loopback receiver the test starts (the operator setting
allows it), matches played over HTTP (a challenge, its acceptance, a resignation); halfway the server
is killed with SIGKILL and started again on the same file. Every notice the player's stream holds
(read from the database afterwards) reaches the receiver, with a valid signature; a notice that comes
twice comes with the same id and body.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
import time
from pathlib import Path

import httpx
import pytest

from app.service import webhooks as wh
from tests.clients.servers import GUARD, ServerProcess
from tests.matchmaking.receiver import Receiver

pytestmark = pytest.mark.slow
MATCHES = 10


async def _player(http: httpx.AsyncClient, name: str) -> tuple[str, dict[str, str]]:
    r = await http.post("/v1/players", json={"name": name})
    return r.json()["player_id"], {"Authorization": f"Bearer {r.json()['key']}"}


async def _match(http: httpx.AsyncClient, ann: dict[str, str], bob_id: str, bob: dict[str, str]) -> None:
    r = await http.post("/v1/challenges", json={"to": [bob_id], "game": "yutaka"}, headers=ann)
    r = await http.post(f"/v1/challenges/{r.json()['challenge_id']}/accept", headers=bob)
    match_id = r.json()["match_id"]
    r = await http.post(f"/v1/matches/{match_id}/resign", headers=ann)
    assert r.status_code == 200, r.text


async def test_a_sigkill_mid_run_loses_no_notice(tmp_path: Path) -> None:
    receiver = Receiver()
    await receiver.start()
    db = tmp_path / "drago.db"
    server = ServerProcess(
        tmp_path,
        f"sqlite+aiosqlite:///{db}",
        DRAGO_WEBHOOK_ALLOW_PRIVATE="1",
        DRAGO_WEBHOOK_INTERVAL_SECONDS="0.05",
        DRAGO_WEBHOOK_LEASE_SECONDS="1",
    )
    try:
        await asyncio.to_thread(server.start)
        async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
            ann_id, ann = await _player(http, "ann")
            bob_id, bob = await _player(http, "bob")
            r = await http.post("/v1/players/me/webhooks", json={"url": receiver.url}, headers=ann)
            secret = r.json()["secret"]
            for i in range(MATCHES):
                if i == MATCHES // 2:
                    assert server.proc is not None
                    server.proc.kill()  # SIGKILL: no shutdown at all
                    server.proc.wait()
                    server.proc = None
                    await asyncio.to_thread(server.start)
                await _match(http, ann, bob_id, bob)
        with sqlite3.connect(db) as conn:
            cursors = [
                r[0] for r in conn.execute("SELECT cursor FROM notices WHERE player_id = ?", (ann_id,))
            ]
        expected = {wh.delivery_id(ann_id, c) for c in cursors}
        assert len(expected) >= 3 * MATCHES  # accepted, started, ended (and your_turn when first)
        deadline = time.monotonic() + GUARD
        while {r.headers["drago-webhook-id"] for r in receiver.received} < expected:
            assert time.monotonic() < deadline, "not every notice arrived"
            await asyncio.sleep(0.05)
        bodies: dict[str, bytes] = {}
        for got in receiver.received:
            delivery, ts = got.headers["drago-webhook-id"], int(got.headers["drago-webhook-timestamp"])
            assert got.headers["drago-webhook-signature"] == wh.signature(secret, delivery, ts, got.body)
            assert bodies.setdefault(delivery, got.body) == got.body
            assert json.loads(got.body)["player_id"] == ann_id
    finally:
        await asyncio.to_thread(server.stop)
        await receiver.stop()
