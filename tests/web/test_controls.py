"""The controls around the boards, in a real browser: an unlisted match joined through its invite
link, the turn clock, the host's token reissue (the old token stops working, the new link works)
and abort, resigning in two clicks, turn drafts (undo, finish turn), the lobby's filters, and a
four-player Mount Drago drawn on its side of the board; every control has an accessible name and
stays within the keyboard's reach.
"""

from __future__ import annotations

import re

import httpx
import pytest
from playwright.sync_api import Browser, Page

from tests.clients.servers import ServerProcess
from tests.web.pages import (
    LEGAL_SELECTOR,
    click_legal,
    join,
    legal,
    new_match,
    open_page,
    page_errors,
    seat_url,
    shown_seq,
    snapshot,
    unnamed_controls,
)  # fmt: skip

pytestmark = pytest.mark.slow


def create(page: Page, game: str, **choices: str) -> str:
    """Fill the create form (`choices`: element id → the label of a choice, a number, or "on" for a
    checkbox or radio) and create; the match's id. Choices under "more options" open it first."""
    page.wait_for_selector("form.create")
    page.check(f"#create-game-{game}")
    page.wait_for_selector(f"[id^=option-{game}-]", state="attached")
    for element, value in choices.items():
        if page.locator(f"details.more:not([open]) #{element}").count():
            page.click("details.more summary")
        kind = page.get_attribute(f"#{element}", "type")
        if kind in ("checkbox", "radio"):
            page.check(f"#{element}")
        elif kind == "number":
            page.fill(f"#{element}", value)
            page.dispatch_event(f"#{element}", "change")
        else:
            page.select_option(f"#{element}", label=value)
    page.click("form.create button[type=submit]")
    page.wait_for_url(re.compile(r"#/match/[0-9a-f]{32}"))
    found = re.search(r"#/match/([0-9a-f]{32})", page.url)
    assert found
    return found.group(1)


def test_invite_link_clock_reissue_resign_and_abort(browser: Browser, web_server: ServerProcess) -> None:
    host = open_page(browser, web_server.url + "/")
    assert unnamed_controls(host) == []
    match_id = create(
        host,
        "mount_drago",
        **{
            "create-visibility-unlisted": "on",
            "create-clock": "Time for each move",
            "option-mount_drago-first_player": "Seat 1",
        },
    )
    invite = host.input_value("#invite-link")
    assert invite and "invite=iv_" in invite
    lobby = open_page(browser, web_server.url + "/")
    lobby.wait_for_function(
        "() => document.querySelector('ul.matches') || document.querySelector('.match-list .empty')"
    )
    assert lobby.locator(f"[data-match='{match_id}']").count() == 0, "an unlisted match is in the lobby"

    friend = open_page(browser, invite)
    join(friend, 1, "Bo")
    join(host, 0, "Ada")
    host.wait_for_selector("[data-status=active]")
    shown = host.inner_text("[data-deadline]")
    assert re.fullmatch(r"(\d+ d )?\d\d:\d\d:\d\d", shown)
    host.wait_for_function(
        "shown => document.querySelector('[data-deadline]').textContent !== shown", arg=shown
    )
    assert unnamed_controls(host) == []

    host.click("[data-key='host-reissue-1']")
    link = host.input_value("#new-link-1")
    assert link and "token=" in link
    friend.wait_for_selector("text=no longer works")
    friend.goto(link)
    friend.wait_for_url("**as=1")
    friend.wait_for_selector("[data-connection=live]")
    assert "token=" not in friend.url, "the token stays in the browser, not in the address"

    friend.click("text=Resign")
    friend.click("text=Yes, resign")
    for page in (host, friend):  # two players: the other one wins
        page.wait_for_selector("text=Winner: Ada (resignation)")
        page.wait_for_selector("[data-fair=yes]")
    with httpx.Client(base_url=web_server.url) as http:
        assert http.get(f"/v1/matches/{match_id}").json()["seats"][1]["resigned"] is True

    host.goto(web_server.url + "/")
    waiting = create(host, "yutaka", **{"create-seat-1": "Bot: greedy (the best move right now)"})
    host.wait_for_selector("text=Seat 2: bot 1 (bot, greedy)")
    host.click("text=Abort the match")
    host.wait_for_selector("[data-status=aborted]")
    host.wait_for_selector("[data-fair=yes]")
    lobby.select_option("#filter-status", "aborted")
    lobby.wait_for_selector(f"[data-match='{waiting}']")
    lobby.select_option("#filter-game", "mount_drago")
    lobby.wait_for_selector(f"[data-match='{waiting}']", state="detached")
    for page in (host, friend, lobby):
        assert page_errors(page) == []


def test_turn_drafts_undo_and_finish_turn(browser: Browser, web_server: ServerProcess) -> None:
    ada = open_page(browser, web_server.url + "/")
    match_id = create(
        ada, "mount_drago", **{"create-drafts": "on", "option-mount_drago-first_player": "Seat 1"}
    )
    join(ada, 0, "Ada")
    bo = open_page(browser, f"{web_server.url}/#/match/{match_id}")
    join(bo, 1, "Bo")
    ada.wait_for_selector(LEGAL_SELECTOR)
    before = snapshot(ada)
    hand = [card for zone, card, *_ in before["board"] if zone == "hand"]
    ada.locator(LEGAL_SELECTOR).first.focus()  # by keyboard: a card, the first step of a private draft
    ada.keyboard.press("Enter")
    ada.wait_for_selector("[aria-label='Undo the last step']")
    assert "Draft: 1 step" in ada.inner_text(".draft")
    assert len([c for z, c, *_ in snapshot(ada)["board"] if z == "hand"]) == len(hand) - 1
    ada.click("[aria-label='Undo the last step']")
    ada.wait_for_function("n => document.querySelectorAll('[data-zone=hand]').length === n", arg=len(hand))
    assert [c for z, c, *_ in snapshot(ada)["board"] if z == "hand"] == hand
    ada.locator(LEGAL_SELECTOR).first.click()
    for _ in range(12):  # the rider choice and discards, if any, then finish the turn
        ada.wait_for_selector(LEGAL_SELECTOR)
        actions = legal(ada)
        finish = [i for i, a in enumerate(actions) if a["type"] == "finish_turn"]
        click_legal(ada, finish[0] if finish else 0)
        if finish:
            break
    ada.wait_for_selector(".draft", state="detached")
    bo.wait_for_selector(LEGAL_SELECTOR)  # the turn was published: Bo is to act
    with httpx.Client(base_url=web_server.url) as http:
        events = http.get(f"/v1/matches/{match_id}/events").json()["events"]
    assert any(e["type"] == "draft_published" for e in events)
    assert page_errors(ada) == []


def test_the_dragons_table_stays_as_the_reader_left_it(browser: Browser, web_server: ServerProcess) -> None:
    """The page is drawn again at every commit: the dragons' table stays open (or closed) as the
    reader left it, through the page's own moves and the bot's."""
    with httpx.Client(base_url=web_server.url) as http:
        match_id = new_match(http, "mount_drago", bots=[1])
        page = open_page(browser, seat_url(web_server.url, http, match_id, 0, "Ada"))
    for want_open in (True, False):
        page.wait_for_selector(LEGAL_SELECTOR)
        page.click("details.dragons summary")  # closed at first: opens it; then closes it
        assert page.locator("details.dragons").evaluate("d => d.open") is want_open
        seq = shown_seq(page)
        click_legal(page, 0)
        page.wait_for_function("n => Number(document.querySelector('.board').dataset.seq) > n", arg=seq)
        assert page.locator("details.dragons").evaluate("d => d.open") is want_open, "redrawn as it was not"
    assert page_errors(page) == []


def test_a_four_player_match_is_drawn_on_its_side_of_the_board(
    browser: Browser, web_server: ServerProcess
) -> None:
    with httpx.Client(base_url=web_server.url) as http:
        # A development seed makes a drago-fair-1 match, dealt at creation, so that its waiting board
        # has riders (a drago-fair-2 match is dealt at its last seat: tests/web/test_fairness.py).
        match_id = http.post(
            "/v1/matches", json={"game": "mount_drago", "players": 4, "seed": "board-side"}
        ).json()["id"]
        side = http.get("/v1/games/mount_drago").json()["catalogue"]["tracks"]["4-5"]
    watcher = open_page(browser, f"{web_server.url}/#/match/{match_id}?as=spectator")
    watcher.wait_for_selector(".board")
    assert "Board side for 4–5 players" in watcher.inner_text(".track-figure figcaption")
    spaces = watcher.locator("svg.track [data-space]")
    assert spaces.count() == len(side)
    assert [spaces.nth(i).get_attribute("data-kind") for i in range(len(side))] == [
        space["kind"] for space in side
    ]
    assert watcher.locator("svg.track [data-dragon]").count() == 10
    assert watcher.locator("[data-seat-row]").count() == 4
    assert watcher.locator("#join-3").inner_text() == "Join seat 4"
    assert unnamed_controls(watcher) == []


def test_a_custom_track_is_drawn_as_the_match_plays_it(browser: Browser, web_server: ServerProcess) -> None:
    kinds = [
        "start",
        "plain",
        "blue",
        "plain",
        "green",
        "plain",
        "plain",
        "green",
        "summit",
        "summit",
        "summit",
        "summit",
    ]
    values = [0, 1, 3, 2, 4, 5, 1, 7, 4, 2, 0, -2]
    track = [{"kind": k, "value": v} for k, v in zip(kinds, values, strict=True)]
    with httpx.Client(base_url=web_server.url) as http:
        match_id = http.post(
            "/v1/matches",  # dealt at creation (a development seed: drago-fair-1), riders and all
            json={"game": "mount_drago", "players": 3, "options": {"track": track}, "seed": "custom-track"},
        ).json()["id"]
    watcher = open_page(browser, f"{web_server.url}/#/match/{match_id}?as=spectator")
    watcher.wait_for_selector(".board")
    assert "This match's own track" in watcher.inner_text(".track-figure figcaption")
    spaces = watcher.locator("svg.track [data-space]")
    assert [spaces.nth(i).get_attribute("data-kind") for i in range(spaces.count())] == kinds
    assert (
        watcher.get_attribute("svg.track [data-space='7']", "aria-label")
        == "space 7, green (large scoring), worth 7"
    )
    start = watcher.get_attribute("svg.track [data-space='0']", "aria-label") or ""
    assert start.startswith("the start: 10 dragons: ")
    with httpx.Client(base_url=web_server.url) as http:
        riders = http.get(f"/v1/matches/{match_id}/view").json()["riders"]
    for dragon, name, letters in [
        ("light_blue", "Light blue", "LB"),
        ("black", "Black", "Bk"),
        ("gray", "Gray", "Gy"),
    ]:
        label = watcher.get_attribute(f"svg.track [data-dragon='{dragon}']", "aria-label")
        rider = f"ridden by Seat {riders.index(dragon) + 1}" if dragon in riders else "no rider"
        assert label == f"{name} dragon, {rider}, on the start"
        assert watcher.text_content(f"svg.track [data-dragon='{dragon}'] .letters") == letters


def test_the_create_form_speaks_plainly(browser: Browser, web_server: ServerProcess) -> None:
    """Every choice in words: no JSON, no `null`, no option's identifier, nothing to type but numbers."""
    page = open_page(browser, web_server.url + "/")
    page.wait_for_selector("form.create [id^=option-mount_drago-]", state="attached")
    page.click("details.more summary")
    for game in ("mount_drago", "yutaka"):
        page.check(f"#create-game-{game}")
        page.wait_for_selector(f"[id^=option-{game}-]", state="attached")
        for clock in range(3):
            page.select_option("#create-clock", index=clock)
            form = page.inner_text("form.create") + "\n".join(
                page.eval_on_selector_all(
                    "form.create option", "options => options.map((o) => o.textContent)"
                )
            )
            assert not re.search(r"\bnull\b|[{}\[\]`]|\w_\w", form), form
        assert page.locator("form.create textarea").count() == 0
        kinds = page.eval_on_selector_all("form.create input", "inputs => inputs.map((i) => i.type)")
        assert set(kinds) <= {"radio", "checkbox", "number"}, kinds
    assert page_errors(page) == []
