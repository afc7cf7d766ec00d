"""The page at phone width (390×844, a touch screen): the lobby and its create form with every
option unfolded, and a match of each game, never scroll sideways; a match is created, joined and a
move played by tapping — a Mount Drago card, a Yutakâ card then its island; the community pages
(quick play, my matches, a profile, the leaderboard) fit too.
"""

from __future__ import annotations

import re

import httpx
import pytest
from playwright.sync_api import Browser, Page

from tests.clients.servers import ServerProcess
from tests.web.pages import (
    ENABLED,
    LEGAL_SELECTOR,
    new_player,
    no_horizontal_scroll,
    open_page,
    page_errors,
    page_player,
    pick_after_the_opening,
    rated_player,
    shown_seq,
)  # fmt: skip

pytestmark = pytest.mark.slow

PHONE = {
    "viewport": {"width": 390, "height": 844},
    "is_mobile": True,
    "has_touch": True,
    "device_scale_factor": 2,
}


def create_and_join(page: Page, game: str) -> None:
    page.wait_for_selector("form.create [id^=option-mount_drago-]", state="attached")
    page.tap(f"label:has(#create-game-{game})")
    page.wait_for_selector(f"[id^=option-{game}-]", state="attached")
    page.tap("details.more summary")
    assert no_horizontal_scroll(page), f"the {game} create form scrolls sideways"
    page.select_option("#create-seat-1", "random")
    page.tap("form.create button[type=submit]")
    page.wait_for_url(re.compile(r"#/match/[0-9a-f]{32}"))
    page.fill("#join-name-0", "Ada")
    page.tap("#join-0")
    page.wait_for_selector("[data-status=active]")


@pytest.mark.parametrize("game", ["mount_drago", "yutaka"])
def test_a_move_at_phone_width(browser: Browser, web_server: ServerProcess, game: str) -> None:
    page = open_page(browser, web_server.url + "/", **PHONE)
    page.wait_for_selector("form.create")
    assert no_horizontal_scroll(page), "the lobby scrolls sideways"
    create_and_join(page, game)
    page.wait_for_selector(f"{LEGAL_SELECTOR}, [data-pick]{ENABLED}")
    assert page.evaluate("() => document.querySelector('svg').getBoundingClientRect().width") <= 390
    assert no_horizontal_scroll(page), f"the {game} match scrolls sideways"
    before = shown_seq(page)
    if game == "yutaka":
        pick_after_the_opening(page, tap=True)  # the opening reveals first
        before = shown_seq(page)
        page.locator("g.target").first.tap()
    else:
        page.locator(LEGAL_SELECTOR).first.tap()
    page.wait_for_function("seq => Number(document.querySelector('.board').dataset.seq) > seq", arg=before)
    assert no_horizontal_scroll(page), f"the {game} match scrolls sideways after a move"
    if game == "mount_drago":
        page.tap("details.dragons summary")  # the dragons' table, unfolded
        assert no_horizontal_scroll(page)
    assert page_errors(page) == []


def test_the_community_pages_fit_a_phone(browser: Browser, web_server: ServerProcess) -> None:
    """Quick play with a seek waiting, my matches with a challenge, a profile and its chart, the
    leaderboard: none scrolls sideways at 390 px."""
    with httpx.Client(base_url=web_server.url) as http:
        rated = rated_player(http, "yutaka", 10)
        _, key = new_player(http, "phone-challenger")
        page = open_page(browser, web_server.url + "/#/play?game=yutaka&bots_after=", **PHONE)
        page_player(page, "phone")
        page.tap("[data-key=seek-submit]")
        page.wait_for_selector("[data-seek]")
        assert no_horizontal_scroll(page), "quick play scrolls sideways"
        me = page.get_attribute("[data-player]", "data-player")
        sent = http.post(
            "/v1/challenges", json={"to": [me], "game": "yutaka"}, headers={"Authorization": f"Bearer {key}"}
        )
        assert sent.status_code == 201, sent.text
        page.locator("[data-seek] button").tap()
        page.goto(f"{web_server.url}/#/me")
        page.wait_for_selector("[data-challenge]")
        assert no_horizontal_scroll(page), "my matches scroll sideways"
        page.goto(f"{web_server.url}/#/player/{rated}")
        page.wait_for_selector("svg.rating-chart")
        assert no_horizontal_scroll(page), "a profile scrolls sideways"
        page.goto(f"{web_server.url}/#/leaderboard/yutaka")
        page.wait_for_selector(f"tr[data-player='{rated}']")
        assert no_horizontal_scroll(page), "the leaderboard scrolls sideways"
    assert page_errors(page) == []
