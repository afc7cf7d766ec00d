"""Both games played to the end in a real browser with the mouse: two contexts create (through the
lobby's form), join and play a match by clicking legal actions, a third watches it; a reload and a
dropped WebSocket mid-game resume exactly; the spectator's page is checked at every commit against
the revealed log (no hand card, no hidden tile); the board animates the others' moves; the replay
slider then steps through every commit, each shown as the spectator saw it; the fairness check runs
after the end. Mid-game the player's page switches to German and to phone width and back, and the
screenshots of each (desktop and phone, English and German) are written to `docs/screenshots/`
with `DRAGO_WRITE_SCREENSHOTS=1` (to a temporary directory otherwise, so a run leaves the tree clean).
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page, WebSocketRoute

from tests.clients.servers import ServerProcess
from tests.web.pages import (
    ENABLED,
    LEGAL_SELECTOR,
    click_legal,
    foreign_requests,
    join,
    legal,
    new_match,
    open_page,
    page_errors,
    picks,
    snapshot,
    unnamed_controls,
    wait_history,
    wait_seq,
)  # fmt: skip
from tests.web.truth import Truth, check_spectator

pytestmark = pytest.mark.slow
SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
MAX_STEPS = 600  # a hang guard: these strategies end a game in far fewer clicks
ANIMATED = "() => document.getAnimations().length > 0 || document.querySelectorAll('.float').length > 0"

Strategy = Callable[[Page, httpx.Client, str], None]


def drago_turn(page: Page, http: httpx.Client, match_id: str) -> None:
    """Rush the leading dragons to the summit: keep the rider, discard when allowed, then end."""
    actions = legal(page)
    positions = http.get(f"/v1/matches/{match_id}/view").json()["positions"]

    def rank(action: dict[str, Any]) -> tuple[int, ...]:
        kind = ["choose_rider", "discard", "play", "end_turn"].index(action["type"])
        card = action.get("card", {"dragon": "blue", "value": 0})
        keep = action.get("choice") == "keep"
        return (kind, -keep, -positions[card["dragon"]], -card["value"])

    best = min(range(len(actions)), key=lambda i: rank(actions[i]))
    click_legal(page, best)


def yutaka_turn(page: Page, http: httpx.Client, match_id: str) -> None:
    """Reveal when asked; play equipment or dynamite first (they reveal tiles, which ends the game)."""
    actions = legal(page)
    if actions:
        click_legal(page, 0)
        return
    cards = picks(page)
    order = ["equipment", "dynamite", "idol", "dagger", "amphora", "crystal"]
    best = min(range(len(cards)), key=lambda i: order.index(cards[i].split("-")[0]))
    page.locator(f"[data-pick]{ENABLED}").nth(best).click()
    page.wait_for_selector(LEGAL_SELECTOR)
    click_legal(page, sum(map(ord, "".join(cards))) % len(legal(page)))  # spread over the islands


def create(page: Page, game: str, options: dict[str, str]) -> str:
    """Create through the form; `options`: option name → the label of the choice."""
    page.wait_for_selector("form.create")
    page.check(f"#create-game-{game}")
    for name, label in options.items():
        page.select_option(f"#option-{game}-{name}", label=label)
    page.click("form.create button[type=submit]")
    page.wait_for_url(re.compile(r"#/match/[0-9a-f]{32}"))
    match = re.search(r"#/match/([0-9a-f]{32})", page.url)
    assert match
    return match.group(1)


def screenshots(page: Page, game: str, tmp: Path) -> None:
    """The player's page in English and German, at desktop and at phone width; the language switch
    and the narrow layout redraw the same match, and switching back restores the page."""
    target = SCREENSHOTS if os.environ.get("DRAGO_WRITE_SCREENSHOTS") == "1" else tmp
    target.mkdir(parents=True, exist_ok=True)
    before = snapshot(page)
    for lang in ("en", "de"):
        page.select_option("#lang", lang)
        page.wait_for_function("lang => document.documentElement.lang === lang", arg=lang)
        page.set_viewport_size({"width": 1280, "height": 1000})
        page.wait_for_timeout(900)  # let the last motion settle for the picture
        page.screenshot(path=str(target / f"{game}-desktop-{lang}.png"), full_page=True)
        page.set_viewport_size({"width": 390, "height": 844})
        page.wait_for_function("() => document.documentElement.scrollWidth <= 390")
        page.evaluate("document.querySelector('.turn-banner').scrollIntoView()")
        page.screenshot(path=str(target / f"{game}-phone-{lang}.png"))
    page.select_option("#lang", "en")
    page.set_viewport_size({"width": 1280, "height": 1000})
    after = snapshot(page)
    assert {k: v for k, v in after.items() if k != "log"} == {k: v for k, v in before.items() if k != "log"}


def reload_resumes_exactly(page: Page) -> None:
    wait_history(page)  # compare once the history has caught up with the board
    before = snapshot(page)
    page.reload()
    page.wait_for_selector("[data-connection=live]")
    wait_seq(page, before["seq"])
    assert snapshot(page) == before


def play(
    browser: Browser, server: ServerProcess, game: str, options: dict[str, str], turn: Strategy, tmp: Path
) -> None:
    ada = open_page(browser, server.url + "/")
    match_id = create(ada, game, options)
    join(ada, 0, "Ada")
    bo = open_page(browser, f"{server.url}/#/match/{match_id}")
    join(bo, 1, "Bo")
    sockets: list[WebSocketRoute] = []

    def route(ws: WebSocketRoute) -> None:
        ws.connect_to_server()
        sockets.append(ws)

    watcher = open_page(browser, "about:blank")
    watcher.context.route_web_socket(re.compile(r"/stream"), route)
    watcher.goto(f"{server.url}/#/match/{match_id}?as=spectator")
    seats, shots, steps, moved = {0: ada, 1: bo}, [], 0, 0
    with httpx.Client(base_url=server.url) as http:
        while True:
            summary = http.get(f"/v1/matches/{match_id}").json()
            for page in (ada, bo, watcher):
                wait_seq(page, summary["seq"])
            shots.append(snapshot(watcher))
            if summary["status"] != "active":
                break
            actor = summary["to_act"][0]
            page = seats[actor]
            turn(page, http, match_id)
            page.wait_for_function(
                "seq => Number(document.querySelector('.board')?.dataset.seq) > seq", arg=summary["seq"]
            )
            other = seats[1 - actor]
            other.wait_for_function(
                "seq => Number(document.querySelector('.board')?.dataset.seq) > seq", arg=summary["seq"]
            )
            moved += other.evaluate(ANIMATED)
            steps += 1
            assert steps < MAX_STEPS
            if steps == 12:
                screenshots(ada, game, tmp)
                for each in (ada, watcher):
                    assert unnamed_controls(each) == []
            if steps == 15:
                reload_resumes_exactly(ada)
            if steps == 20:
                assert sockets, "the spectator's stream did not go through the route"
                for ws in sockets:
                    ws.close(code=1011, reason="dropped by the test")
                sockets.clear()
        reveal = http.get(f"/v1/matches/{match_id}/reveal").json()
    assert summary["status"] == "finished"
    assert moved >= steps // 4, f"the others' moves animated {moved} times in {steps} steps"
    assert sockets, "the spectator did not reconnect after its stream was dropped"
    final = summary["seq"]
    truth = Truth(reveal)
    for shot in shots:
        check_spectator(truth, shot)
    announced = watcher.text_content("[aria-live=polite].visually-hidden") or ""
    assert "Game over" in announced, f"the end was not announced to screen readers: {announced!r}"
    for page in (ada, bo, watcher):
        page.wait_for_selector("[data-fair=yes]")
        assert page.locator(".result .winners").count() == 1
        seqs = [entry["seq"] for entry in snapshot(page)["log"]]
        assert seqs == list(range(final, 0, -1)), "the history lost or repeated a commit"
        assert page_errors(page) == []
        assert foreign_requests(page, server.url) == []
    check_replay(watcher, truth, commits(reveal))
    for kind in ("desktop", "phone"):
        for lang in ("en", "de"):
            picture = SCREENSHOTS / f"{game}-{kind}-{lang}.png"
            assert picture.exists(), f"commit {picture.name} (DRAGO_WRITE_SCREENSHOTS=1)"


def test_a_reconnected_page_shows_no_view_ahead_of_its_history(
    browser: Browser, web_server: ServerProcess
) -> None:
    """A stream that reconnects gets a `hello` with the view at the head, then the commits it
    missed as frames: the board waits for them, so the last card played and the history are never
    older than the board (the spectator's check at every commit above once caught that gap)."""
    held: list[tuple[WebSocketRoute, str | bytes]] = []
    holding = [False]
    routes: list[WebSocketRoute] = []

    def route(ws: WebSocketRoute) -> None:
        def from_server(message: str | bytes) -> None:
            if holding[0] and json.loads(message)["type"] == "commit":
                held.append((ws, message))  # commit frames wait; the rest goes on
            else:
                ws.send(message)

        ws.connect_to_server().on_message(from_server)
        routes.append(ws)

    with httpx.Client(base_url=web_server.url) as http:
        match_id = new_match(http, "mount_drago")
        joined = [http.post(f"/v1/matches/{match_id}/seats/{seat}", json={"name": "p"}) for seat in (0, 1)]
        tokens = [reply.json()["token"] for reply in joined]

        def act() -> int:
            seat = http.get(f"/v1/matches/{match_id}").json()["to_act"][0]
            auth = {"Authorization": f"Bearer {tokens[seat]}"}
            view = http.get(f"/v1/matches/{match_id}/view", headers=auth).json()
            body = {"action": view["legal_actions"][0], "expected_seq": view["seq"]}
            acted = http.post(f"/v1/matches/{match_id}/actions", json=body, headers=auth)
            assert acted.status_code == 200, acted.text
            return int(acted.json()["seq"])

        watcher = open_page(browser, "about:blank")
        watcher.context.route_web_socket(re.compile(r"/stream"), route)
        watcher.goto(f"{web_server.url}/#/match/{match_id}?as=spectator")
        seen = act()
        wait_seq(watcher, seen)
        holding[0] = True
        head = max(act() for _ in range(3))  # unseen: their frames are held
        with watcher.expect_request(re.compile(r"/chat")):  # the page's answer to its next hello
            routes[-1].close(code=1011, reason="dropped by the test")  # it reconnects after a backoff
        assert len(routes) == 2
        shown = snapshot(watcher)
        assert shown["seq"] == seen, f"the board shows seq {shown['seq']} with its history at {seen}"
        assert max(entry["seq"] for entry in shown["log"]) == seen
        holding[0] = False
        for ws, message in held:
            if ws is routes[-1]:  # the backlog of the new connection (the old one's went with it)
                ws.send(message)
        wait_seq(watcher, head)
    history = [entry["seq"] for entry in snapshot(watcher)["log"]]
    assert history == list(range(head, 0, -1)), "the history lost or repeated a commit"
    assert page_errors(watcher) == []


def commits(reveal: dict[str, Any]) -> list[int]:
    """The seqs that end a commit, in order: every position the replay slider stops at."""
    return sorted({event["commit"] for event in reveal["events"]})


def check_replay(page: Page, truth: Truth, stops: list[int]) -> None:
    """The replay slider, by keyboard, steps through every commit: each shows the board as the
    spectator saw it then."""
    page.focus("#replay")
    page.keyboard.press("Home")
    wait_replay(page, stops[0])
    moved = 0
    for seq in stops[1:]:
        page.keyboard.press("ArrowRight")
        wait_replay(page, seq)
        moved += page.evaluate(ANIMATED)
        check_spectator(truth, snapshot(page))
    assert moved >= len(stops) // 4, f"the replay moved the board {moved} times in {len(stops)} steps"
    page.click("text=Back to live")
    wait_seq(page, max(truth.states))


def wait_replay(page: Page, seq: int) -> None:
    page.wait_for_function(
        "seq => document.querySelector('.replay-note:not([data-loading])')"
        " && Number(document.querySelector('.board')?.dataset.seq) === seq",
        arg=seq,
    )


def test_mount_drago_is_played_to_the_end_in_the_browser(
    browser: Browser, web_server: ServerProcess, tmp_path: Path
) -> None:
    play(browser, web_server, "mount_drago", {}, drago_turn, tmp_path)


def test_yutaka_is_played_to_the_end_in_the_browser(
    browser: Browser, web_server: ServerProcess, tmp_path: Path
) -> None:
    play(browser, web_server, "yutaka", {"mode": "Mixed"}, yutaka_turn, tmp_path)
