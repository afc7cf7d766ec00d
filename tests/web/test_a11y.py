"""Accessibility, checked by axe-core (its npm package, injected into Debian's Chromium): no serious
or critical violation on the lobby (its create form with every option unfolded, in English and
German) nor on a match of each game — as a player in the middle of a turn (a Mount Drago hand, a
Yutakâ card picked with its islands to play on, tiles to reveal), and as a spectator of a finished
match (the result, the fairness check, the whole history); nor on the community pages (quick play,
my matches with a challenge, a profile with its chart, the leaderboard). Every board element has a
name.
"""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, Page

from tests.clients.servers import ServerProcess
from tests.web.pages import (
    LEGAL_SELECTOR,
    axe_violations,
    click_legal,
    new_match,
    new_player,
    open_page,
    page_player,
    pick_after_the_opening,
    rated_player,
    seat_url,
    unnamed_controls,
    wait_finished,
)  # fmt: skip

pytestmark = pytest.mark.slow

BOARD_PARTS = """() => [...document.querySelectorAll(
  '[data-space], [data-dragon], [data-island][data-slot], .col-card, [data-zone=hand],'
  + '[data-zone=set-aside]')]
  .filter((e) => !(e.getAttribute('aria-label') || e.closest('[aria-label]') && e.closest('button')
    || e.closest('button')?.getAttribute('aria-label')))
  .map((e) => e.outerHTML.slice(0, 100))"""


def clean(page: Page, axe: Path, where: str) -> None:
    violations = axe_violations(page, axe)
    assert violations == [], f"{where}: {violations}"
    assert unnamed_controls(page) == [], where
    assert page.evaluate(BOARD_PARTS) == [], f"{where}: board parts without a name"


def test_the_lobby(browser: Browser, web_server: ServerProcess, axe: Path) -> None:
    for locale in ("en-US", "de-DE"):
        page = open_page(browser, web_server.url + "/", bypass_csp=True, locale=locale)
        page.wait_for_selector("form.create [id^=option-mount_drago-]", state="attached")
        page.click("details.more summary")
        clean(page, axe, f"lobby, Mount Drago form ({locale})")
        page.check("#create-game-yutaka")
        page.wait_for_selector("#option-yutaka-mode")
        page.select_option("#option-yutaka-mode", index=2)  # mixed: the known types appear
        page.select_option("#create-clock", index=2)  # a bank: its time, increment and timeout rules
        clean(page, axe, f"lobby, Yutakâ form ({locale})")
        page.context.close()


def test_the_check_finds_a_planted_violation(browser: Browser, web_server: ServerProcess, axe: Path) -> None:
    page = open_page(browser, web_server.url + "/", bypass_csp=True)
    page.wait_for_selector("form.create")
    page.evaluate("() => document.querySelector('main').append(document.createElement('button'))")
    assert any(v.startswith("button-name") for v in axe_violations(page, axe))
    assert unnamed_controls(page)


def test_a_mount_drago_match(browser: Browser, web_server: ServerProcess, axe: Path) -> None:
    with httpx.Client(base_url=web_server.url) as http:
        match_id = new_match(http, "mount_drago", bots=[1], options={"first_player": 0})
        page = open_page(browser, seat_url(web_server.url, http, match_id, 0, "Ada"), bypass_csp=True)
        page.wait_for_selector(LEGAL_SELECTOR)
        clean(page, axe, "Mount Drago, the player's turn")
        for _ in range(8):  # a few turns: rider choices, scorings, the history grows
            page.wait_for_selector(LEGAL_SELECTOR)
            click_legal(page, 0)
        page.wait_for_selector(LEGAL_SELECTOR)
        clean(page, axe, "Mount Drago, later")
        finished = new_match(http, "mount_drago", bots=[0, 1])
        wait_finished(http, finished)
        watcher = open_page(browser, f"{web_server.url}/#/match/{finished}?as=spectator", bypass_csp=True)
        watcher.wait_for_selector("[data-fair=yes]")
        watcher.click("details.dragons summary")
        clean(watcher, axe, "Mount Drago, finished, as a spectator")


def test_a_yutaka_match(browser: Browser, web_server: ServerProcess, axe: Path) -> None:
    with httpx.Client(base_url=web_server.url) as http:
        match_id = new_match(http, "yutaka", bots=[1], options={"mode": "tactika"})
        page = open_page(browser, seat_url(web_server.url, http, match_id, 0, "Ada"), bypass_csp=True)
        page.wait_for_selector("g[data-legal]")  # the opening: a tile to reveal
        clean(page, axe, "Yutakâ, a tile to reveal")
        pick_after_the_opening(page)
        clean(page, axe, "Yutakâ, a card picked")
        finished = new_match(http, "yutaka", bots=[0, 1])
        wait_finished(http, finished)
        watcher = open_page(browser, f"{web_server.url}/#/match/{finished}?as=spectator", bypass_csp=True)
        watcher.wait_for_selector("[data-fair=yes]")
        clean(watcher, axe, "Yutakâ, finished, as a spectator")


def test_the_community_pages(browser: Browser, web_server: ServerProcess, axe: Path) -> None:
    """Quick play (before and after the player is created, a seek waiting), my matches with a
    challenge received and a match, a profile with its rating chart and a challenge form, and the
    leaderboard: in English and German."""
    with httpx.Client(base_url=web_server.url) as http:
        rated = rated_player(http, "yutaka", 10)
        _, key = new_player(http, "challenger")
        for locale in ("en-US", "de-DE"):
            page = open_page(
                browser, web_server.url + "/#/play?game=yutaka&bots_after=", bypass_csp=True, locale=locale
            )
            page.wait_for_selector("#player-name")
            page.click(".identity details summary")
            clean(page, axe, f"quick play, no player yet ({locale})")
            page_player(page, "a11y")
            page.click("[data-key=seek-submit]")
            page.wait_for_selector("[data-seek]")
            clean(page, axe, f"quick play, a seek waiting ({locale})")
            page.locator("[data-seek] button").click()
            me = page.get_attribute("[data-player]", "data-player")
            auth = {"Authorization": f"Bearer {key}"}
            for _ in range(2):
                sent = http.post("/v1/challenges", json={"to": [me], "game": "yutaka"}, headers=auth)
                assert sent.status_code == 201, sent.text
            page.goto(f"{web_server.url}/#/me")
            page.locator("[data-key^=accept-]").first.click()
            page.wait_for_selector("[data-match]")
            page.click("details.decline summary")
            clean(page, axe, f"my matches ({locale})")
            page.goto(f"{web_server.url}/#/player/{rated}")
            page.wait_for_selector("svg.rating-chart")
            page.wait_for_selector("#challenge-game")
            clean(page, axe, f"a profile ({locale})")
            page.goto(f"{web_server.url}/#/leaderboard/yutaka")
            page.wait_for_selector(f"tr[data-player='{rated}']")
            clean(page, axe, f"the leaderboard ({locale})")
            page.context.close()
