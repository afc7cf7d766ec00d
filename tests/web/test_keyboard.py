"""A whole match of each game played with the keyboard alone, against a server bot: the create form
(the game by arrow keys, the second seat to a bot, submit), joining a seat (type a name, Enter),
then every action by Tab (or Shift+Tab) to a control and Enter — Mount Drago's hand cards and
rider choices, Yutakâ's tile reveals and its cards picked then played on an island. The mouse is
never used. Every control reached shows a visible focus ring. Mount Drago runs with reduced motion,
where the board never animates; Yutakâ with motion.
"""

from __future__ import annotations

import re

import httpx
import pytest
from playwright.sync_api import Browser, Page

from tests.clients.servers import ServerProcess
from tests.web.pages import ENABLED, open_page, page_errors

pytestmark = pytest.mark.slow

ACTIONABLE = """() => {
  const e = document.activeElement;
  return !!e && e.getAttribute('aria-disabled') !== 'true'
    && (e.hasAttribute('data-legal') || e.hasAttribute('data-pick'));
}"""
# A focused control must show it: an outline (HTML) or a thick ring of the focus colour (SVG).
FOCUS_SHOWN = """() => {
  const e = document.activeElement;
  if (e instanceof SVGElement) {
    const ring = e.querySelector('.focus-ring, .target-area');
    return !!ring && parseFloat(getComputedStyle(ring).strokeWidth) >= 5;
  }
  const style = getComputedStyle(e);
  return style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2;
}"""
LEGAL_LEFT = f"() => !!document.querySelector('[data-legal]{ENABLED}, [data-pick]{ENABLED}')"
MAX_TABS = 250  # a hang guard: the page has far fewer stops


def tab_to(page: Page, test: str, arg: object = None, back: bool = False) -> None:
    """Press Tab (or Shift+Tab) until `test` holds for the focused element."""
    for _ in range(MAX_TABS):
        if page.evaluate(test, arg):
            return
        page.keyboard.press("Shift+Tab" if back else "Tab")
    raise AssertionError(f"Tab never reached {test}")


def focused(selector: str) -> str:
    return f"() => document.activeElement?.matches({selector!r})"


def create_by_keyboard(page: Page, game: str) -> str:
    page.wait_for_selector("form.create [id^=option-mount_drago-]", state="attached")
    tab_to(page, focused("[name=create-game]"))
    if game == "yutaka":
        page.keyboard.press("ArrowRight")  # the radio group: the next game
        page.wait_for_selector("#option-yutaka-mode")
    assert page.is_checked(f"#create-game-{game}")
    tab_to(page, focused("#create-seat-1"))
    page.keyboard.press("ArrowDown")  # a person → a bot (beginner)
    assert page.input_value("#create-seat-1") == "random"
    tab_to(page, focused("form.create button[type=submit]"))
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(r"#/match/[0-9a-f]{32}"))
    found = re.search(r"#/match/([0-9a-f]{32})", page.url)
    assert found
    return found.group(1)


def join_by_keyboard(page: Page) -> None:
    page.wait_for_selector("#join-name-0")
    tab_to(page, focused("#join-name-0"))
    page.keyboard.press("Control+A")
    page.keyboard.type("Ada")
    page.keyboard.press("Enter")
    page.wait_for_url("**as=0")
    page.wait_for_selector("[data-status=active]")


def play_by_keyboard(page: Page, http: httpx.Client, match_id: str, reduced: bool) -> int:
    """Press legal actions until the match is over; the number of actions sent."""
    sent = 0
    while True:
        page.wait_for_function(f"() => ({LEGAL_LEFT})() || document.querySelector('[data-status=finished]')")
        if not page.evaluate(LEGAL_LEFT):
            return sent
        if not page.evaluate(ACTIONABLE):
            try:
                tab_to(page, ACTIONABLE)
            except AssertionError:
                tab_to(page, ACTIONABLE, back=True)
        assert page.evaluate(FOCUS_SHOWN), page.evaluate(
            "() => document.activeElement.outerHTML.slice(0, 160)"
        )
        picking = page.evaluate("() => document.activeElement.hasAttribute('data-pick')")
        seq = http.get(f"/v1/matches/{match_id}").json()["seq"]
        page.keyboard.press("Enter")
        if picking:  # the focus moves on to the first island where the card may go
            page.wait_for_function("() => document.activeElement?.matches('g.target')")
            continue
        sent += 1
        page.wait_for_function("seq => Number(document.querySelector('.board')?.dataset.seq) > seq", arg=seq)
        if reduced:
            assert page.evaluate("() => document.getAnimations().length") == 0, (
                "motion despite reduced motion"
            )


@pytest.mark.parametrize(("game", "reduced"), [("mount_drago", True), ("yutaka", False)])
def test_a_whole_match_by_keyboard_alone(
    browser: Browser, web_server: ServerProcess, game: str, reduced: bool
) -> None:
    page = open_page(browser, web_server.url + "/", reduced_motion="reduce" if reduced else "no-preference")
    match_id = create_by_keyboard(page, game)
    join_by_keyboard(page)
    with httpx.Client(base_url=web_server.url) as http:
        sent = play_by_keyboard(page, http, match_id, reduced)
        summary = http.get(f"/v1/matches/{match_id}").json()
    assert summary["status"] == "finished"
    assert sent >= 8
    page.wait_for_selector(".result .winners")
    assert page_errors(page) == []
