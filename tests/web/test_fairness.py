"""The page's fairness check in a real browser (drago-fair-2, docs/fairness.md): finished matches of
every game, mode and player count, created and played over HTTP with seats' own seeds, show "deal
verified"; a reveal tampered field by field (served to the page in place of the real one) shows
what differs; a waiting match says that it is not dealt yet. `FAIR_PAGE_MATCHES` matches per
configuration (default 1)."""

from __future__ import annotations

import copy
import json
import os
import random
from collections.abc import Callable
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Route

from tests.clients.servers import ServerProcess
from tests.web.pages import open_page, page_errors

pytestmark = pytest.mark.slow

CONFIGS: list[tuple[str, int, dict[str, Any]]] = [
    *(("mount_drago", n, {}) for n in range(2, 6)),
    ("yutaka", 2, {"mode": "mysteria"}),
    ("yutaka", 2, {"mode": "tactika", "first_player": "random"}),
    ("yutaka", 2, {"mode": "mixed"}),
]
MATCHES = int(os.environ.get("FAIR_PAGE_MATCHES", "1"))


def _finished(
    http: httpx.Client, game: str, players: int, options: dict[str, Any], rng: random.Random
) -> str:
    match_id: str = http.post(
        "/v1/matches", json={"game": game, "players": players, "options": options}
    ).json()["id"]
    tokens = []
    for seat in range(players):
        body = {"name": f"p{seat}", "client_seed": f"page seed {seat} {rng.randrange(10**6)}"}
        tokens.append(http.post(f"/v1/matches/{match_id}/seats/{seat}", json=body).json()["token"])
    for _ in range(3000):
        summary = http.get(f"/v1/matches/{match_id}").json()
        if summary["status"] != "active":
            break
        token = tokens[summary["to_act"][0]]
        auth = {"Authorization": f"Bearer {token}"}
        view = http.get(f"/v1/matches/{match_id}/view", headers=auth).json()
        action = rng.choice(view["legal_actions"])
        http.post(
            f"/v1/matches/{match_id}/actions",
            json={"action": action, "expected_seq": view["seq"]},
            headers=auth,
        )
    assert http.get(f"/v1/matches/{match_id}").json()["status"] == "finished"
    return match_id


def _serving(body: str) -> Any:
    """A route handler that answers with `body` (the tampered reveal)."""

    def serve(route: Route) -> None:
        route.fulfill(status=200, content_type="application/json", body=body)

    return serve


def test_the_page_verifies_finished_matches_and_names_what_was_tampered(
    browser: Browser, web_server: ServerProcess
) -> None:
    rng = random.Random(39)
    with httpx.Client(base_url=web_server.url, timeout=30) as http:
        waiting = http.post("/v1/matches", json={"game": "yutaka", "players": 2}).json()["id"]
        page = open_page(browser, f"{web_server.url}/#/match/{waiting}")
        page.wait_for_selector("[data-undealt=yes]")
        assert "Not dealt yet" in (page.text_content("[data-undealt=yes]") or "")
        page.context.close()
        for game, players, options in CONFIGS:
            for _ in range(MATCHES):
                match_id = _finished(http, game, players, options, rng)
                page = open_page(browser, f"{web_server.url}/#/match/{match_id}")
                page.wait_for_selector("[data-fair=yes][data-algorithm=drago-fair-2]")
                assert "Deal verified" in (page.text_content(".fairness") or "")
                assert page_errors(page) == []
                page.context.close()
        reveal = http.get(f"/v1/matches/{match_id}/reveal").json()
    events = reveal["events"]
    drawn = next(i for i, e in enumerate(events) if e["type"] == "card_drawn")
    variants: dict[str, Callable[[Any], Any]] = {
        "seat_seeds[1]": lambda r: r["seat_seeds"].__setitem__(1, r["seat_seeds"][1] + "!"),
        "game_started.islands[0][0].value": lambda r: r["events"][
            next(i for i, e in enumerate(r["events"]) if e["type"] == "game_started")
        ]["data"]["islands"][0][0].update(value=99),
        f"seq {events[drawn]['seq']} card_drawn.card": lambda r: r["events"][drawn]["data"].update(
            card={"kind": "idol", "value": 1 if r["events"][drawn]["data"]["card"]["value"] != 1 else 2}
        ),
    }
    for field, change in variants.items():
        tampered = copy.deepcopy(reveal)
        change(tampered)
        page = open_page(browser, "about:blank")

        page.route("**/reveal", _serving(json.dumps(tampered)))
        page.goto(f"{web_server.url}/#/match/{match_id}")
        page.wait_for_selector("[data-fair=no]")
        text = page.text_content(".fairness") or ""
        assert field in text, (field, text)
        page.context.close()
