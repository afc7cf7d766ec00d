"""Server bots play outside the request path, over HTTP, on every store.

Whether a request waits for the bots is shown by events, not by timing: the bot runner's chooser is
held at a gate (it blocks the runner's worker thread), so a request that waited for a bot move
could never answer. The create request answers while the first decision is held — with the match
at the deal, the seats and the start, and nothing after — then the gate opens and the worker plays
the match to its end. Reads never write: every GET route, many times over, leaves a match that owes
a bot decision exactly as it was.
"""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import httpx

from app.service.bots import Chooser
from tests.api.bots import chooser
from tests.api.conftest import running, started
from tests.api.helpers import GUARD, Table, create, join
from tests.players.support import bearer, new_player

LEVELS = ("random", "greedy", "random", "greedy", "random")


class Gate:
    """A chooser that waits (on the runner's worker thread) until the test opens the gate."""

    def __init__(self, inner: Chooser) -> None:
        self.inner = inner
        self.called = threading.Event()
        self.open = threading.Event()
        self.calls = 0

    def __call__(self, *args: Any) -> Any:
        self.calls += 1
        self.called.set()
        if not self.open.wait(GUARD):
            raise TimeoutError("the gate was never opened")
        return self.inner(*args)


async def test_a_five_bot_match_is_created_at_once_and_played_by_the_worker(database_url: str) -> None:
    async with started(database_url) as (app, client):
        gate = Gate(chooser())
        app.state.runner.choose = gate
        try:
            bots = [{"seat": s, "level": level} for s, level in enumerate(LEVELS)]
            r = await asyncio.wait_for(create(client, "mount_drago", 5, bots=bots), GUARD)
            assert r.status_code == 201, r.text
            created = r.json()
            # The reply: five seat_joined, the deal and match_started — no bot move yet.
            assert created["status"] == "active" and created["seq"] == 7
            assert [(s["bot"], s["level"]) for s in created["seats"]] == [(True, level) for level in LEVELS]
            await asyncio.to_thread(gate.called.wait, GUARD)  # the runner is deciding, held at the gate
            table = Table(client, created["id"], 5, {})
            assert await table.types() == [*["seat_joined"] * 5, "game_started", "match_started"]
        finally:
            gate.open.set()
        final = await table.settled()  # the worker plays every decision to the end
        assert final["status"] == "finished" and final["winners"]
        log = await table.history(None)
        decisions = len({e["commit"] for e in log if e["seq"] > 7 and e["type"] != "match_ended"})
        assert gate.calls == app.state.runner.decisions == decisions
        assert log[-1]["type"] == "match_ended" and log[-1]["data"]["reason"] == "finished"


async def test_a_person_s_move_is_answered_before_the_bot_replies(database_url: str) -> None:
    async with started(database_url) as (app, client):
        gate = Gate(chooser())
        app.state.runner.choose = gate
        try:
            created = (
                await create(client, "yutaka", 2, bots=[{"seat": 1, "level": "random"}], seed="order")
            ).json()
            token = (await join(client, created["id"], 0)).json()["token"]
            table = Table(client, created["id"], 2, {0: token})
            while 0 not in (summary := await table.summary())["to_act"]:
                gate.open.set()  # seat 1 (the bot) begins: let it move, then hold it again
                await table.settled()
                gate.open.clear()
            gate.called.clear()
            view = await table.view(0)
            while 0 in view["to_act"]:
                r = await asyncio.wait_for(table.act(0, view["legal_actions"][0]), GUARD)
                assert r.status_code == 200, r.text
                view = r.json()["view"]
            assert view["to_act"] == [1] and view["seq"] == (await table.summary())["seq"]
            await asyncio.to_thread(gate.called.wait, GUARD)
            assert (await table.summary())["seq"] == view["seq"]  # held: nothing appended for the bot
            assert summary["seq"] < view["seq"]
        finally:
            gate.open.set()
        assert (await table.settled())["seq"] > view["seq"]


async def reads(client: httpx.AsyncClient, table: Table, key: str) -> None:
    """Every GET route, as every kind of caller."""
    url = table.url
    seq = (await client.get(url)).json()["seq"]
    for headers in ({}, table.auth(0), bearer(key)):
        for path, params in (
            ("", {}),
            ("/view", {}),
            ("/view", {"at": seq}),
            ("/events", {}),
            ("/events", {"after": 3, "limit": 2}),
            ("/reveal", {}),
        ):
            r = await client.get(url + path, params=params, headers=headers)
            assert r.status_code in (200, 409), r.text  # the reveal: 409 match_not_finished
    for path, params in (
        ("/v1/matches", {}),
        ("/v1/matches", {"open": "true"}),
        ("/v1/matches", {"status": "active"}),
        ("/v1/games", {}),
        ("/v1/games/yutaka", {}),
        ("/healthz", {}),
        ("/readyz", {}),
        ("/metrics", {}),
    ):
        assert (await client.get(path, params=params)).status_code == 200
    for path, params in (("/v1/players/me", {}), ("/v1/players/me/matches", {"to_act": "me"})):
        assert (await client.get(path, params=params, headers=bearer(key))).status_code == 200


async def test_get_routes_never_write(database_url: str) -> None:
    """A match whose bot owes a decision (no bot runs in this process): reads leave it as it was."""
    async with running(database_url, bots_enabled=False) as client:
        _, key = await new_player(client, "Ada")
        created = (await create(client, "yutaka", 2, bots=[1], options={"first_player": 1})).json()
        token = (await join(client, created["id"], 0, "Ada", key=key)).json()["token"]
        table = Table(client, created["id"], 2, {0: token})
        before = await table.summary()
        assert before["to_act"] == [1] and before["seats"][1]["bot"]
        events = await table.history(None)
        for _ in range(5):
            await reads(client, table, key)
        assert await table.summary() == before  # seq, updated_at, to_act: all as they were
        assert await table.history(None) == events
