"""No leaks over random games: every response a seat or a spectator gets shows only what it may know.

Each match is created with a dev seed and played to the end by random legal actions (server bots
play their seats meanwhile), while the test also pokes the API: out-of-turn and broken actions,
replays (also at seqs inside a commit, refused with the nearest valid ones), history pages,
spectator views. With turn drafts on, seats draft, undo and finish their turns; in the lifecycle
cases a fake clock runs seats out of time (a bot decides), the host reissues tokens (the old one is
refused at once) and seats resign (a bot plays on). After the end the revealed log is the hidden
truth (`tests.api.truth`): every view and event a viewer received must be exactly what the server's
fold shows that viewer at that seq, and must hold no other seat's hand (committed or drafted), no
deck order, no face-down value, no credential, and nothing of another seat's open draft.
"""

from __future__ import annotations

import random
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from tests.api.conftest import started
from tests.api.helpers import FakeClock, Table, eventually, few_undos, new_table, play_to_end, uniform
from tests.api.truth import Record, Truth, check_draft_privacy, verify

CLOCK_S = 60


async def replay(table: Table, viewer: int | None, at: int) -> None:
    """`view?at=`: a seq inside a commit is refused with the nearest seqs that end one."""
    r = await table.client.get(f"{table.url}/view", params={"at": at}, headers=table.auth(viewer))
    if r.status_code == 200:
        table.observe(viewer, "view", r.json())
        return
    assert r.status_code == 422, r.text
    details = r.json()["error"]["details"]
    assert details["field"] == "at" and details["next"] > at
    assert details["previous"] is None or details["previous"] < at
    await table.view(viewer, at=details["next"])


async def poke(table: Table, seat: int, view: Any, rng: random.Random) -> None:
    """Side requests whose responses the observer records too."""
    roll = rng.random()
    viewers: list[int | None] = [None, *table.tokens]
    if roll < 0.15:
        others = [o for o in table.tokens if o != seat]
        if others:
            r = await table.act(rng.choice(others), rng.choice(view["legal_actions"]))
            assert r.status_code == 409, r.text
    elif roll < 0.25:
        broken = dict(rng.choice(view["legal_actions"]))
        key = rng.choice(sorted(broken))
        broken[key] = {"type": "nonsense"} if key == "type" else 99
        r = await table.act(seat, broken)
        assert r.status_code in (409, 422), r.text
    elif roll < 0.4:
        await replay(table, rng.choice(viewers), rng.randint(1, view["seq"]))
    elif roll < 0.55:
        await table.events(rng.choice(viewers), after=rng.randint(0, view["seq"]), limit=rng.randint(1, 20))
    elif roll < 0.65:
        await table.view(None)


async def lifecycle(app: FastAPI, clock: FakeClock, table: Table, seat: int, decision: int) -> bool:
    """On a fixed schedule of decisions: a timeout, a reissued token, once a resignation; True if the
    match moved meanwhile."""
    if decision % 20 == 3:  # the seat to act runs out of time: `turn_timed_out`, then a bot decides for it
        seq = (await table.summary())["seq"]
        clock.advance(CLOCK_S)
        assert await app.state.sweeper.sweep_once() == 1
        await eventually(lambda: _moved_past(table, seq + 1), "the bot's decision after the timeout")
        return True
    if decision % 20 == 11:  # the host reissues a seat's token: the old one is refused at once
        people = [s["seat"] for s in (await table.summary())["seats"] if not s["bot"]]
        victim = people[decision % len(people)]
        r = await table.client.post(f"{table.url}/seats/{victim}/token", headers=table.as_host())
        assert r.status_code == 201, r.text
        old, table.tokens[victim] = table.tokens[victim], r.json()["token"]
        refused = await table.client.get(f"{table.url}/view", headers={"Authorization": f"Bearer {old}"})
        assert refused.status_code == 401, refused.text
        table.observe(victim, "error", refused.json())
        return False
    if decision == 30 and table.players > 2:  # a seat resigns; a bot plays it on
        r = await table.resign(seat)
        assert r.status_code == 200, r.text
        assert [e["type"] for e in r.json()["events"]] == ["seat_resigned", "seat_taken_over"]
        return True
    return False


async def _moved_past(table: Table, seq: int) -> bool:
    return bool((await table.summary())["seq"] > seq)


async def play_and_verify(
    app: FastAPI, client: httpx.AsyncClient, game: str, players: int, seed: str, **body: Any
) -> Truth:
    records: list[Record] = []
    rng = random.Random(seed)
    clock: FakeClock | None = body.pop("fake_clock", None)
    table = await new_table(
        client, game, players, observe=lambda v, k, b: records.append((v, k, b)), seed=seed, **body
    )

    decisions = 0

    async def hook(t: Table, seat: int, view: Any) -> bool:
        nonlocal decisions
        decisions += 1
        await poke(t, seat, view, rng)
        return clock is not None and await lifecycle(app, clock, t, seat, decisions)

    choose = few_undos if body.get("drafts") else uniform
    final = await play_to_end(table, rng, hook, choose=choose)
    for viewer in [None, *table.tokens]:  # whole histories, and the view at the end
        await table.history(viewer)
        await table.view(viewer)
    revealed = (await client.get(f"{table.url}/reveal")).json()
    truth = Truth(final, revealed)
    assert truth.seq == final["seq"]
    assert verify(truth, records) > final["seq"]
    return truth


MEMORY_CASES = [
    ("mount_drago", 2, {}),
    ("mount_drago", 5, {"bots": [3]}),
    ("yutaka", 2, {"options": {"mode": "mysteria"}}),
    ("yutaka", 2, {"options": {"mode": "tactika"}}),
    ("yutaka", 2, {"options": {"mode": "mixed", "known_types": ["idol", "crystal"]}}),
]

DRAFT_CASES = [
    ("mount_drago", 2, {}),
    ("mount_drago", 4, {"bots": [1]}),
    ("yutaka", 2, {"options": {"mode": "tactika"}}),
    ("yutaka", 2, {"options": {"mode": "mixed", "known_types": ["idol", "crystal"]}}),
]


@pytest.mark.parametrize(("game", "players", "body"), MEMORY_CASES)
async def test_no_leaks_in_memory(game: str, players: int, body: dict[str, Any]) -> None:
    async with started("memory://") as (app, client):
        await play_and_verify(app, client, game, players, f"leaks-{game}-{players}", **body)


@pytest.mark.parametrize(("game", "players", "body"), DRAFT_CASES)
async def test_no_draft_reaches_another_viewer(game: str, players: int, body: dict[str, Any]) -> None:
    async with started("memory://") as (app, client):
        seed = f"drafts-{game}-{players}"
        truth = await play_and_verify(app, client, game, players, seed, drafts=True, **body)
    kinds = {e.type for e in truth.envelopes}
    assert {"draft_step", "draft_undone", "draft_published"} <= kinds  # the drafts were really used


LIFECYCLE_CASES = [
    ("mount_drago", 3, {"drafts": True}),
    ("mount_drago", 4, {"bots": [2]}),
    ("yutaka", 2, {"drafts": True}),
]
DATABASE_CASES = [("mount_drago", 3, {"drafts": True}), ("yutaka", 2, {})]


@pytest.mark.parametrize(("game", "players", "body"), LIFECYCLE_CASES)
async def test_no_leaks_through_lifecycle_events(game: str, players: int, body: dict[str, Any]) -> None:
    clock = FakeClock()
    async with started("memory://", clock=clock) as (app, client):
        truth = await play_and_verify(
            app, client, game, players, f"lifecycle-{game}-{players}",
            clock={"per_decision_s": CLOCK_S}, fake_clock=clock, **body,
        )  # fmt: skip
    kinds = {e.type for e in truth.envelopes}
    assert {"turn_timed_out", "seat_token_reissued"} <= kinds, kinds
    if players > 2:
        assert "seat_resigned" in kinds


@pytest.mark.parametrize(("game", "players", "body"), DATABASE_CASES)
async def test_no_leaks_on_a_database(
    sql_database_url: str, game: str, players: int, body: dict[str, Any]
) -> None:
    async with started(sql_database_url) as (app, client):
        await play_and_verify(app, client, game, players, f"db-leaks-{game}", **body)


async def test_the_checks_catch_a_planted_draft_leak() -> None:
    """Control: the checker fails when another seat's draft reaches a viewer (an event or a view)."""
    records: list[Record] = []
    async with started("memory://") as (_, client):
        table = await new_table(
            client, "mount_drago", 2, observe=lambda v, k, b: records.append((v, k, b)), seed="control",
            drafts=True,
        )  # fmt: skip
        owner = (await table.summary())["to_act"][0]
        legal = (await table.view(owner))["legal_actions"]
        step = (await table.act(owner, next(a for a in legal if a["type"] == "play"))).json()
        spectator = await table.view(None)
        changed = (await table.events(None, after=step["seq"] - 1))[0]
        await play_to_end(table, random.Random(1), choose=few_undos)
        truth = Truth(await table.summary(), (await client.get(f"{table.url}/reveal")).json())
    assert verify(truth, records) > 0
    leaked_event = {**changed, "data": step["events"][0]["data"]}
    drafted = step["view"]
    leaked_view = {**spectator, "hand_sizes": drafted["hand_sizes"], "positions": drafted["positions"]}
    for record in [(None, "events", {"events": [leaked_event]}), (None, "view", leaked_view)]:
        with pytest.raises(AssertionError):
            verify(truth, [record])
    with pytest.raises(AssertionError):  # the privacy check alone, without the oracle
        check_draft_privacy(truth, None, leaked_view)
