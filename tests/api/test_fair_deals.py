"""drago-fair-2 over HTTP: seats' seeds, the deal at the last join, the reveal, and the independent
Python verifier (`drago_client.fairness`, which imports nothing of the server) over random matches
of every game, mode and player count, each then tampered field by field (docs/fairness.md)."""

from __future__ import annotations

import copy
import os
import random
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
from drago_client.fairness import verify

from tests.api.conftest import running
from tests.api.helpers import Table, create, join, play_to_end

CONFIGS: list[tuple[str, int, dict[str, Any]]] = [
    *(("mount_drago", n, {}) for n in range(2, 6)),
    ("yutaka", 2, {"mode": "mysteria"}),
    ("yutaka", 2, {"mode": "tactika", "first_player": "random"}),
    ("yutaka", 2, {"mode": "mixed"}),
]
MATCHES = int(os.environ.get("FAIR_MATCHES", "2"))  # per configuration; the slow test plays 200


@pytest.fixture
async def client() -> AsyncIterator[httpx.AsyncClient]:
    async with running("memory://") as c:
        yield c


async def _finished(
    client: httpx.AsyncClient, game: str, players: int, options: dict[str, Any], rng: random.Random
) -> Any:
    created = (await create(client, game, players, options=options)).json()
    match_id = created["id"]
    tokens = {}
    for seat in range(players):
        body = {"client_seed": f"seat {seat} 🎲 {rng.randrange(10**6)}"} if rng.random() < 0.7 else {}
        r = await join(client, match_id, seat, **body)
        assert r.status_code == 201, r.text
        tokens[seat] = r.json()["token"]
        if "client_seed" in body:
            assert r.json()["client_seed"] == body["client_seed"]
        else:
            assert len(r.json()["client_seed"]) == 32
    table = Table(client, match_id, players, tokens, lambda *_: None, created["host_token"], None)
    final = await play_to_end(table, rng)
    assert final["status"] == "finished"
    reveal = (await client.get(f"/v1/matches/{match_id}/reveal")).json()
    catalogue = (await client.get(f"/v1/games/{game}")).json()["catalogue"]
    return reveal, catalogue


def _tampered(reveal: Any, rng: random.Random) -> list[tuple[str, Any]]:
    """(what was changed, the changed reveal): one variant per field class the log has."""
    out: list[tuple[str, Any]] = []

    def variant(what: str, change: Any) -> None:
        r = copy.deepcopy(reveal)
        change(r)
        out.append((what, r))

    seat = rng.randrange(reveal["players"])
    variant("secret", lambda r: r.update(secret=("0" if r["secret"][0] != "0" else "1") + r["secret"][1:]))
    variant(f"seat_seeds[{seat}]", lambda r: r["seat_seeds"].__setitem__(seat, r["seat_seeds"][seat] + "x"))
    events = reveal["events"]
    start = next(i for i, e in enumerate(events) if e["type"] == "game_started")
    deal = events[start]["data"]
    if reveal["game"] == "mount_drago":

        def swap_hand(r: Any) -> None:
            d = r["events"][start]["data"]
            d["hands"][0][0], d["draw_pile"][0] = d["draw_pile"][0], d["hands"][0][0]

        if deal["hands"][0][0] != deal["draw_pile"][0]:
            variant("game_started.hands[0][0]", swap_hand)
        reshuffles = [i for i, e in enumerate(events) if e["type"] == "draw_pile_reshuffled"]
        if reshuffles:
            i = rng.choice(reshuffles)
            pile = events[i]["data"]["draw_pile"]
            j = next((k for k in range(1, len(pile)) if pile[k] != pile[0]), None)
            if j is not None:

                def reorder(r: Any, i: int = i, j: int = j) -> None:
                    p = r["events"][i]["data"]["draw_pile"]
                    p[0], p[j] = p[j], p[0]

                variant(f"seq {events[i]['seq']} draw_pile_reshuffled.draw_pile", reorder)
        draws = [i for i, e in enumerate(events) if e["type"] == "cards_drawn"]
        i = rng.choice(draws)

        def redraw(r: Any, i: int = i) -> None:
            c = r["events"][i]["data"]["cards"][0]
            c["value"] = 1 if c["value"] != 1 else 2

        variant(f"seq {events[i]['seq']} cards_drawn.cards[0]", redraw)
    else:

        def swap_deck(r: Any) -> None:
            d = r["events"][start]["data"]["decks"][0]
            k = next(k for k in range(1, len(d)) if d[k] != d[0])
            d[0], d[k] = d[k], d[0]

        variant("game_started.decks[0]", swap_deck)
        draws = [i for i, e in enumerate(events) if e["type"] == "card_drawn"]
        i = rng.choice(draws)

        def redraw(r: Any, i: int = i) -> None:
            c = r["events"][i]["data"]["card"]
            c["value"] = 1 if c["value"] != 1 else 2
            c["kind"] = "idol"

        variant(f"seq {events[i]['seq']} card_drawn.card", redraw)
        reveals = [i for i, e in enumerate(events) if e["type"] == "tile_revealed"]
        i = rng.choice(reveals)

        def retile(r: Any, i: int = i) -> None:
            t = r["events"][i]["data"]["tile"]
            t["value"] += 1

        variant(f"seq {events[i]['seq']} tile_revealed.tile", retile)
    return out


async def _check(client: httpx.AsyncClient, n: int) -> dict[str, int]:
    rng = random.Random(f"fair:{n}")
    tampered: dict[str, int] = {}
    for game, players, options in CONFIGS:
        for _ in range(n):
            reveal, catalogue = await _finished(client, game, players, options, rng)
            assert reveal["algorithm"] == "drago-fair-2" and len(reveal["seat_seeds"]) == players
            verdict = verify(reveal, catalogue)
            assert verdict.ok, (verdict, reveal["match_id"])
            for what, changed in _tampered(reveal, rng):
                bad = verify(changed, catalogue)
                assert not bad.ok, what
                assert bad.field is not None and bad.field.startswith(what.split("[")[0]), (what, bad)
                kind = what.split(" ")[-1].split("[")[0]
                tampered[kind] = tampered.get(kind, 0) + 1
    return tampered


async def test_random_matches_of_every_game_verify_and_every_tampered_field_is_named(
    client: httpx.AsyncClient,
) -> None:
    tampered = await _check(client, MATCHES)
    assert {"secret", "seat_seeds", "game_started.hands", "game_started.decks"} <= set(tampered)
    assert {"cards_drawn.cards", "card_drawn.card", "tile_revealed.tile"} <= set(tampered)


@pytest.mark.slow
async def test_200_matches_of_every_configuration_verify(client: httpx.AsyncClient) -> None:
    tampered = await _check(client, 200)
    assert tampered.get("draw_pile_reshuffled.draw_pile", 0) > 0  # some matches reshuffle


async def test_the_deal_comes_after_the_last_seat_and_seeds_stay_private(client: httpx.AsyncClient) -> None:
    created = (await create(client, "mount_drago", 3)).json()
    url = f"/v1/matches/{created['id']}"
    assert created["status"] == "waiting" and created["seq"] == 0
    a = (await join(client, created["id"], 0, client_seed="ada's own seed")).json()
    waiting = (await client.get(f"{url}/view")).json()
    assert waiting["status"] == "waiting" and "hands" not in waiting and "riders" not in waiting
    b = (await join(client, created["id"], 1)).json()
    c = (await join(client, created["id"], 2, client_seed="c")).json()
    types = [e["type"] for e in (await client.get(f"{url}/events")).json()["events"]]
    assert types == ["seat_joined"] * 3 + ["game_started", "match_started"]
    for seat, grant in enumerate((a, b, c)):
        mine = (
            await client.get(f"{url}/events", headers={"Authorization": f"Bearer {grant['token']}"})
        ).json()
        seeds = {e["data"]["seat"]: e["data"]["seed"] for e in mine["events"] if e["type"] == "seat_joined"}
        assert seeds == {s: grant["client_seed"] if s == seat else None for s in range(3)}
    spectator = (await client.get(f"{url}/events")).json()["events"]
    assert all(e["data"]["seed"] is None for e in spectator if e["type"] == "seat_joined")
    summary = (await client.get(url)).json()
    assert "ada's own seed" not in str(summary) and b["client_seed"] not in str(summary)
    assert (await client.get(f"{url}/reveal")).status_code == 409


@pytest.mark.parametrize("seed", ["", "x" * 65, "tab\there", "new\nline", "\x00", "\u200b"])
async def test_a_bad_client_seed_is_refused_and_changes_nothing(client: httpx.AsyncClient, seed: str) -> None:
    created = (await create(client, "yutaka", 2)).json()
    r = await join(client, created["id"], 0, client_seed=seed)
    assert r.status_code == 422, r.text
    assert r.json()["error"]["code"] == "validation_error"
    assert (await client.get(f"/v1/matches/{created['id']}")).json()["seq"] == 0


async def test_bots_get_server_seeds_and_an_all_bot_match_is_dealt_at_creation(
    client: httpx.AsyncClient,
) -> None:
    r = (await create(client, "yutaka", 2, bots=[0, 1])).json()
    assert r["status"] == "active"
    table = Table(client, r["id"], 2, {}, lambda *_: None, r["host_token"], None)
    assert (await table.settled())["status"] == "finished"
    reveal = (await client.get(f"/v1/matches/{r['id']}/reveal")).json()
    assert [e["type"] for e in reveal["events"][:4]] == [
        "seat_joined",
        "seat_joined",
        "game_started",
        "match_started",
    ]
    assert all(len(s) == 32 for s in reveal["seat_seeds"])
    catalogue = (await client.get("/v1/games/yutaka")).json()["catalogue"]
    assert verify(reveal, catalogue).ok
