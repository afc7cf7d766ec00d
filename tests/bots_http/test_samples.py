"""`POST /v1/matches/{id}/samples` over HTTP: determinizations consistent with the caller's seat,
never the real hidden state more often than chance, refused when the match forbids them (403), over
the seat's budget (429), and for callers or matches they do not fit — nothing changed.

Mid-game samples are checked against the truth revealed after the end: every sample shows the seat
its own view (its hand, the sizes it sees) and holds exactly the cards that seat cannot see, only
arranged otherwise; the overlap of a sampled opponent's hand with the real one is what a uniform
draw from the unseen cards gives (hypergeometric), far from the real hand, which a control shows
the check would catch.
"""

from __future__ import annotations

import json
import math
import random
from collections import Counter
from collections.abc import Awaitable, Callable
from typing import Any

import httpx
import pytest

from app.games.samplers import SAMPLERS
from tests.api.conftest import running, started
from tests.api.helpers import Table, create, error_of, join, new_table, play_to_end, unchanged
from tests.api.truth import Truth
from tests.players.support import bearer, new_player


def bag(cards: list[Any]) -> Counter[str]:
    return Counter(json.dumps(c, sort_keys=True) for c in cards)


def overlap(a: list[Any], b: list[Any]) -> int:
    return sum((bag(a) & bag(b)).values())


def chance_overlap(pool: Counter[str], real: Counter[str], k: int) -> float:
    """E[overlap] of a uniform k-card hand from `pool` with the real hand: per kind of card t with
    m copies in the pool, the copies drawn are hypergeometric and the overlap counts min(drawn, real)."""
    total = sum(pool.values())
    expected = 0.0
    for kind, copies in pool.items():
        for drawn in range(1, min(copies, k) + 1):
            p = math.comb(copies, drawn) * math.comb(total - copies, k - drawn) / math.comb(total, k)
            expected += p * min(drawn, real[kind])
    return expected


async def samples(table: Table, seat: int, n: int, seed: int | None = None) -> httpx.Response:
    body: dict[str, Any] = {"n": n} if seed is None else {"n": n, "seed": seed}
    return await table.client.post(f"{table.url}/samples", json=body, headers=table.auth(seat))


def asking(
    client: httpx.AsyncClient, url: str, headers: dict[str, str], n: Any = 1
) -> Callable[[], Awaitable[httpx.Response]]:
    return lambda: client.post(url, json={"n": n}, headers=headers)


async def advance(table: Table, rng: random.Random, turns: int) -> None:
    for _ in range(turns):
        summary = await table.summary()
        seat = summary["to_act"][0]
        view = await table.view(seat)
        while seat in view["to_act"]:
            r = await table.act(seat, rng.choice(view["legal_actions"]))
            assert r.status_code == 200, r.text
            view = r.json()["view"]


async def test_mount_drago_samples_fit_the_seat_and_are_no_better_than_chance(database_url: str) -> None:
    rng = random.Random(21)
    async with started(database_url) as (_, client):
        table = await new_table(client, "mount_drago", 2, seed="samples", options={"first_player": 0})
        await advance(table, rng, 4)
        views = {seat: await table.view(seat) for seat in (0, 1)}
        drawn: dict[int, list[Any]] = {}
        for seat in (0, 1):
            reply = (await samples(table, seat, 100, seed=seat)).json()
            assert (
                reply["seat"] == seat and reply["seq"] == views[seat]["seq"] and len(reply["samples"]) == 100
            )
            drawn[seat] = reply["samples"]
            again = (await samples(table, seat, 100, seed=seat)).json()["samples"]
            assert again == drawn[seat]  # the caller's seed, not the match's secret, drives them
            drawn[seat] += (await samples(table, seat, 100)).json()["samples"]  # a fresh random seed
        seq = views[0]["seq"]
        await play_to_end(table, rng)
        truth = Truth(await table.summary(), (await client.get(f"{table.url}/reveal")).json())
    real = SAMPLERS["mount_drago"].hidden_json(truth.at[seq].state)
    for seat, view in views.items():
        other = 1 - seat
        unseen = bag(real["hands"][other] + real["draw_pile"])
        for sample in drawn[seat]:
            assert bag(sample["hands"][seat]) == bag(view["hand"])  # its own hand, as it sees it
            assert [len(h) for h in sample["hands"]] == view["hand_sizes"]
            assert len(sample["draw_pile"]) == view["draw_pile_size"]
            assert bag(sample["hands"][other] + sample["draw_pile"]) == unseen  # only the unseen cards
        # Chance: a uniform hand drawn from the unseen cards; the real hand must not show up more often.
        k = len(real["hands"][other])
        overlaps = [overlap(s["hands"][other], real["hands"][other]) for s in drawn[seat]]
        n = len(overlaps)
        mean = sum(overlaps) / n
        spread = math.sqrt(sum((o - mean) ** 2 for o in overlaps) / (n - 1))
        expected = chance_overlap(unseen, bag(real["hands"][other]), k)
        assert abs(mean - expected) <= 5 * spread / math.sqrt(n) + 1e-9, (mean, expected)
        assert sum(s["hands"][other] == real["hands"][other] for s in drawn[seat]) == 0
        assert k - expected > 5 * spread / math.sqrt(n)  # control: the real hand (overlap k) would fail
        assert len({json.dumps(s, sort_keys=True) for s in drawn[seat]}) > 150  # not one state repeated


async def test_yutaka_samples_fit_the_seat(database_url: str) -> None:
    rng = random.Random(22)
    async with started(database_url) as (_, client):
        table = await new_table(
            client, "yutaka", 2, seed="samples", options={"mode": "mixed", "known_types": ["idol"]}
        )
        await advance(table, rng, 3)
        seat = (await table.summary())["to_act"][0]
        view = await table.view(seat)
        drawn = (await samples(table, seat, 50, seed=3)).json()["samples"]
        await play_to_end(table, rng)
        truth = Truth(await table.summary(), (await client.get(f"{table.url}/reveal")).json())
    real = SAMPLERS["yutaka"].hidden_json(truth.at[view["seq"]].state)
    other = 1 - seat
    for sample in drawn:
        assert bag(sample["hands"][seat]) == bag(view["hand"])
        assert [len(h) for h in sample["hands"]] == view["hand_sizes"]
        assert bag(sample["hands"][other] + sample["decks"][other]) == bag(
            real["hands"][other] + real["decks"][other]
        )
        assert len(sample["face_down"]) == len(real["face_down"])
        assert {(t["island"], t["slot"]) for t in sample["face_down"]} == {
            (t["island"], t["slot"]) for t in real["face_down"]
        }
        assert bag([t["tile"] for t in sample["face_down"]] + sample["set_aside"]) == bag(
            [t["tile"] for t in real["face_down"]] + real["set_aside"]
        )


async def test_samples_are_refused_where_they_do_not_fit(database_url: str) -> None:
    async with running(database_url, samples_per_seat=150) as client:
        table = await new_table(client, "mount_drago", 2, options={"first_player": 0})
        assert (await samples(table, 0, 100)).status_code == 200
        await unchanged(table, lambda: samples(table, 0, 51), 429, "rate_limited")  # 150 a seat, a match
        assert (await samples(table, 0, 50)).status_code == 200
        await unchanged(table, lambda: samples(table, 0, 1), 429, "rate_limited")
        assert (await samples(table, 1, 100)).status_code == 200  # the other seat's own budget
        url = f"{table.url}/samples"
        for n in (0, 101, "3"):
            await unchanged(table, asking(client, url, table.auth(1), n), 422, "validation_error")
        await unchanged(table, asking(client, url, {}), 401, "unauthorized")
        other = await new_table(client, "mount_drago", 2)
        _, key = await new_player(client, "Eve")  # a key that holds no seat here
        for stranger in (other.auth(0), bearer(key)):
            await unchanged(table, asking(client, url, stranger), 403, "forbidden")
        closed = await new_table(client, "mount_drago", 2, allow_samples=False)
        assert (await closed.summary())["settings"]["allow_samples"] is False
        await unchanged(closed, lambda: samples(closed, 0, 1), 403, "forbidden")
        created = (await create(client, "yutaka", 2)).json()
        token = (await join(client, created["id"], 0)).json()["token"]
        waiting = Table(client, created["id"], 2, {0: token})
        await unchanged(waiting, lambda: samples(waiting, 0, 1), 409, "match_not_started")
        assert (await table.resign(1)).status_code == 200
        await unchanged(table, lambda: samples(table, 0, 1), 409, "match_over")


@pytest.mark.parametrize("seat_by", ["token", "key"])
async def test_a_player_key_gets_its_seats_samples(seat_by: str) -> None:
    async with running("memory://") as client:
        _, key = await new_player(client, "Ada")
        created = (await create(client, "mount_drago", 2)).json()
        token = (await join(client, created["id"], 0, key=key)).json()["token"]
        await join(client, created["id"], 1)
        headers = bearer(key if seat_by == "key" else token)
        r = await client.post(f"/v1/matches/{created['id']}/samples", json={"n": 2}, headers=headers)
        assert r.status_code == 200 and r.json()["seat"] == 0
        error_of(
            await client.post(f"/v1/matches/{created['id']}/samples", json={"n": 2}), 401, "unauthorized"
        )
