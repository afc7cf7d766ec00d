"""drago-fair-2 over HTTP: seats' seeds, the deal at the last join, the reveal, and the independent
Python verifier (`drago_client.fairness`, which imports nothing of the server) over random matches
of every game, mode and player count, each then tampered field by field (docs/fairness.md). The
slow test reads the session's corpus of 200 matches per configuration (tests/fairness/corpus.py),
the same file the TypeScript verifier and the page's verifier check."""

from __future__ import annotations

import json
import os
import random
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from drago_client.fairness import verify

from tests.api.conftest import running
from tests.api.helpers import Table, create, join
from tests.fairness import corpus

MATCHES = int(os.environ.get("FAIR_MATCHES", "2"))  # per configuration; the slow test reads 200


@pytest.fixture
async def client() -> AsyncIterator[httpx.AsyncClient]:
    async with running("memory://") as c:
        yield c


def _verifies(reveal: Any, catalogue: Any, variants: list[dict[str, Any]]) -> set[str]:
    """Check that the reveal verifies and that every tampered variant fails, naming its field; the
    field classes tampered with."""
    verdict = verify(reveal, catalogue)
    assert verdict.ok, (verdict, reveal["match_id"])
    for variant in variants:
        what = variant["what"]
        bad = verify(corpus.apply(reveal, variant), catalogue)
        assert not bad.ok, what
        assert corpus.named(what, bad.field), (what, bad)
    return {corpus.kind_of(v["what"]) for v in variants}


async def test_random_matches_of_every_game_verify_and_every_tampered_field_is_named(
    client: httpx.AsyncClient,
) -> None:
    rng = random.Random(f"fair:{MATCHES}")
    tampered: set[str] = set()
    for game, players, options in corpus.CONFIGS:
        catalogue = (await client.get(f"/v1/games/{game}")).json()["catalogue"]
        for _ in range(MATCHES):
            reveal, _ = await corpus.finished(client, game, players, options, rng)
            tampered |= _verifies(reveal, catalogue, corpus.tampered(reveal, rng))
    assert {"secret", "seat_seeds", "game_started.hands", "game_started.decks"} <= tampered
    assert {"cards_drawn.cards", "card_drawn.card", "tile_revealed.tile"} <= tampered


@pytest.mark.slow
def test_200_matches_of_every_configuration_verify(fair_corpus: Path, tmp_path: Path) -> None:
    """The corpus that the TypeScript verifier and the page's verifier also check."""
    data = json.loads(fair_corpus.read_text(encoding="utf-8"))
    tampered: set[str] = set()
    for m in data["matches"]:
        tampered |= _verifies(m["reveal"], data["catalogues"][m["reveal"]["game"]], m["tampered"])
    assert len(data["matches"]) == len(corpus.CONFIGS) * corpus.size()
    assert corpus.kinds(corpus.size()) <= tampered <= corpus.KINDS
    planted = json.loads(corpus.control(fair_corpus, tmp_path / "control.json").read_text("utf-8"))
    first = planted["matches"][0]
    for variant in first["tampered"]:  # the check fails on each planted fault
        with pytest.raises(AssertionError):
            _verifies(first["reveal"], planted["catalogues"][first["reveal"]["game"]], [variant])


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
