"""The community pages in Chromium, on a real server: quick play finds a match for a person through
a seek (with a second seeker over HTTP) and lands seated, where the person plays a move (issue 42's
page acceptance); a seek with server bots after a short wait becomes a match against bots; a seek is
cancelled; a challenge received is accepted on "my matches", which then lists the match; a profile
draws its rating chart from real rated matches and the leaderboard lists the player; the chat
rooms of a match (issue 43) for a seated page and a spectator's page.

Each page keeps its own player (a name and a key in its localStorage), created through its form.
"""

from __future__ import annotations

import os
import re
import time
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, Page, Route

from tests.clients.servers import ServerProcess
from tests.web.pages import (
    GUARD_MS,
    LEGAL_SELECTOR,
    click_legal,
    new_match,
    new_player,
    open_page,
    page_errors,
    page_player,
    rated_player,
    rivals,
    seat_url,
    shown_seq,
    unique,
)  # fmt: skip

pytestmark = pytest.mark.slow
SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"


def seat_of(page: Page) -> int:
    page.wait_for_url(re.compile(r"#/match/[0-9a-f]+\?as=\d"), wait_until="commit")
    return int(page.url.rsplit("as=", 1)[1])


def match_of(page: Page) -> str:
    return page.url.split("#/match/", 1)[1].split("?", 1)[0]


def test_quick_play_seats_the_page_with_another_seeker_and_it_plays(
    browser: Browser, web_server: ServerProcess
) -> None:
    page = open_page(browser, web_server.url + "/#/play?game=mount_drago&players=2&bots_after=")
    name = page_player(page, "quick")
    page.wait_for_selector("#seek-game-mount_drago:checked")
    assert page.input_value("#seek-bots-after") == ""  # the link's preset: no bots

    page.click("[data-key=seek-submit]")  # opened, shown waiting, cancelled
    page.wait_for_selector("[data-seek]")
    page.locator("[data-seek] button").click()
    page.wait_for_selector("[data-seek]", state="detached")

    page.click("[data-key=seek-submit]")
    page.wait_for_selector("[data-seek]")
    with httpx.Client(base_url=web_server.url) as http:
        _, key = new_player(http, "seeker")
        auth = {"Authorization": f"Bearer {key}"}
        mine = http.get("/v1/players/me/seeks", headers=auth)
        assert mine.status_code == 200
        seek = http.post("/v1/seeks", json={"game": "mount_drago", "players": 2, "options": {}}, headers=auth)
        assert seek.status_code == 201, seek.text
        seat = seat_of(page)  # told by the personal stream, the page opens the match seated
        match_id = match_of(page)
        page.wait_for_selector(".board")
        summary = http.get(f"/v1/matches/{match_id}").json()
        assert summary["seats"][seat]["name"] == name
        assert summary["seats"][1 - seat]["taken"] and not summary["seats"][1 - seat]["bot"]
        played = False
        deadline = time.monotonic() + GUARD_MS / 1000
        while not played and time.monotonic() < deadline:
            view = http.get(f"/v1/matches/{match_id}/view", headers=auth).json()
            if view["legal_actions"]:  # the other seeker's turn (over HTTP)
                reply = http.post(
                    f"/v1/matches/{match_id}/actions",
                    json={"action": view["legal_actions"][0], "expected_seq": view["seq"]},
                    headers=auth,
                )
                assert reply.status_code == 200, reply.text
                continue
            if page.locator(LEGAL_SELECTOR).count():
                seq = shown_seq(page)
                click_legal(page, 0)
                page.wait_for_function(
                    "seq => Number(document.querySelector('.board').dataset.seq) > seq", arg=seq
                )
                played = True
            else:
                time.sleep(0.05)
        assert played, "the page never had a move to play"
        events = http.get(f"/v1/matches/{match_id}/events").json()["events"]
        assert any(e["data"].get("seat") == seat and e["type"] == "card_played" for e in events), [
            e["type"] for e in events
        ]
    assert page_errors(page) == []


def test_quick_play_with_server_bots_after_a_wait(browser: Browser, web_server: ServerProcess) -> None:
    page = open_page(browser, web_server.url + "/#/play?game=yutaka&bots_after=2")
    page_player(page, "botfill")
    assert page.input_value("#seek-bots-after") == "2"
    page.click("[data-key=seek-submit]")
    page.wait_for_selector("[data-seek]")  # waiting until the bots come
    seat = seat_of(page)
    page.wait_for_selector(".board")
    with httpx.Client(base_url=web_server.url) as http:
        summary = http.get(f"/v1/matches/{match_of(page)}").json()
    assert summary["status"] == "active"
    assert [s["bot"] for s in summary["seats"]] == [s != seat for s in range(2)]
    assert page_errors(page) == []


def my_matches(browser: Browser, web_server: ServerProcess, name: str) -> tuple[Page, str]:
    """A page on "my matches" with a new player of its own, nobody having challenged it yet; its id."""
    page = open_page(browser, web_server.url + "/#/me")
    page_player(page, name)
    me = page.get_attribute("[data-player]", "data-player")
    assert me is not None
    page.wait_for_selector("text=Nobody has challenged you.")
    return page, me


def test_a_challenge_is_accepted_on_my_matches(browser: Browser, web_server: ServerProcess) -> None:
    page, me = my_matches(browser, web_server, "challenged")
    with httpx.Client(base_url=web_server.url) as http:
        _, key = new_player(http, "challenger")
        sent = http.post(
            "/v1/challenges", json={"to": [me], "game": "yutaka"}, headers={"Authorization": f"Bearer {key}"}
        )
        assert sent.status_code == 201, sent.text
        challenge = sent.json()["challenge_id"]
        page.click(f"[data-key=accept-{challenge}]")  # shown live, through the personal stream
        page.wait_for_selector(f"[data-challenge='{challenge}'][data-status=accepted]")
        match_id = http.get("/v1/players/me/challenges", headers={"Authorization": f"Bearer {key}"}).json()[
            "items"
        ][0]["match_id"]
    item = page.locator(f"[data-match='{match_id}']")
    item.wait_for()
    mine = page.locator("[data-my-turn]").evaluate_all("els => els.map((e) => e.dataset.myTurn)")
    assert mine == sorted(mine, reverse=True), "'your turn' is not first"
    item.locator("a").click()
    seat_of(page)
    page.wait_for_selector(".board")
    assert page_errors(page) == []


def test_a_name_being_typed_survives_the_games_arriving(browser: Browser, web_server: ServerProcess) -> None:
    """Quick play draws its seek form when the list of games arrives: a name typed meanwhile into
    the identity form stays there (it was wiped when that list came late, as on a loaded machine),
    and creating the player with it works."""
    context = browser.new_context(viewport={"width": 1280, "height": 1000}, locale="en-US")
    page = context.new_page()
    page.set_default_timeout(GUARD_MS)
    held: list[Route] = []

    def hold(route: Route) -> None:  # the list of games waits until the name is typed
        held.append(route)

    page.route("**/v1/games*", hold)
    page.goto(web_server.url + "/#/play")
    name = unique("typing")
    page.fill("#player-name", name)
    page.wait_for_function("() => document.querySelector('[aria-busy=true]') !== null")
    assert len(held) == 1
    held[0].continue_()
    page.unroute("**/v1/games*", hold)  # the next pages' lists come at once
    page.wait_for_selector("section[aria-busy=false]")
    assert page.input_value("#player-name") == name
    page.click("[data-key=player-create]")
    page.wait_for_selector(f"text={name}")
    page.wait_for_selector("[data-key=seek-submit]")  # the seek form, now that there is a player
    context.close()


def test_a_decline_being_written_survives_a_notice(browser: Browser, web_server: ServerProcess) -> None:
    """The page reads its lists again on every notice of the personal stream: a decline's form the
    player has opened, and the reason typed in it, are still there after a notice (another challenge
    arriving), and the decline sends that reason."""
    page, me = my_matches(browser, web_server, "declining")
    with httpx.Client(base_url=web_server.url) as http:
        _, key = new_player(http, "declined-challenger")
        auth = {"Authorization": f"Bearer {key}"}

        def challenge() -> str:
            sent = http.post("/v1/challenges", json={"to": [me], "game": "yutaka"}, headers=auth)
            assert sent.status_code == 201, sent.text
            return str(sent.json()["challenge_id"])

        first = challenge()
        item = page.locator(f"[data-challenge='{first}']")
        item.locator("details.decline summary").click()
        page.fill(f"#reason-{first}", "not today")
        second = challenge()  # a notice: both lists are read and drawn again
        page.wait_for_selector(f"[data-challenge='{second}']")
        assert item.locator("details.decline").evaluate("d => d.open"), "the decline's form closed"
        assert page.input_value(f"#reason-{first}") == "not today"
        assert page.evaluate("document.activeElement.id") == f"reason-{first}", "the keyboard left the reason"
        page.click(f"[data-key=decline-{first}]")
        page.wait_for_selector(f"[data-challenge='{first}'][data-status=declined]")
        sent = http.get("/v1/players/me/challenges", headers=auth).json()["items"]
    declined = next(c for c in sent if c["challenge_id"] == first)
    assert declined["reason"] == "not today", declined
    assert not page.locator(f"[data-challenge='{second}'] details.decline").evaluate("d => d.open")
    assert page_errors(page) == []


def test_a_profile_and_the_leaderboard_show_real_ratings(browser: Browser, web_server: ServerProcess) -> None:
    with httpx.Client(base_url=web_server.url) as http:
        player = rated_player(http, "yutaka", 10)
        profile = http.get(f"/v1/players/{player}").json()
    page = open_page(browser, f"{web_server.url}/#/player/{player}")
    page.wait_for_selector("svg.rating-chart")
    assert page.inner_text("h1") == profile["name"]
    rating = next(r for r in profile["ratings"] if r["game"] == "yutaka")
    assert page.get_attribute("[data-game=yutaka] [data-rating]", "data-rating") == f"{rating['rating']:.1f}"
    assert page.locator("svg.rating-chart circle").count() == 11  # the start and one point per match
    assert "10" in (page.get_attribute("svg.rating-chart", "aria-label") or "")

    page.goto(f"{web_server.url}/#/leaderboard/yutaka")
    row = page.locator(f"tr[data-player='{player}']")
    row.wait_for()
    assert profile["name"] in row.inner_text()
    bot = page.locator("tr", has_text="random").first
    assert "bot" in bot.inner_text()  # the built-in bot it played, listed and marked
    row.locator("a").click()
    page.wait_for_selector("svg.rating-chart")
    assert page.locator("[data-bot]").count() == 0
    page.goto(f"{web_server.url}/#/leaderboard/yutaka")
    bot.locator("a").click()  # the built-in bot's profile says it is a bot
    page.wait_for_selector("h1 [data-bot=yes]")
    page.wait_for_selector("svg.rating-chart")
    assert page_errors(page) == []


def test_the_chat_rooms_of_a_match(browser: Browser, web_server: ServerProcess) -> None:
    """A seated page reads and writes the players' room, live; a spectator's page reads only the
    spectators' room, and writes there only with a player; after the end both read both rooms, and
    messages still arrive live."""
    with httpx.Client(base_url=web_server.url) as http:
        match_id = new_match(http, "yutaka")
        page = open_page(browser, seat_url(web_server.url, http, match_id, 0, "Ada"))
        other = http.post(f"/v1/matches/{match_id}/seats/1", json={"name": "Bo"}).json()["token"]
        page.wait_for_selector(".chat[data-room=players] #chat-text")
        watcher = open_page(browser, f"{web_server.url}/#/match/{match_id}?as=spectator")
        watcher.wait_for_selector(".chat[data-room=spectators]")
        assert watcher.locator("#chat-text").count() == 0  # no player in that browser: read only
        page.wait_for_selector("[data-connection=live]")

        posted = http.post(
            f"/v1/matches/{match_id}/chat",
            json={"room": "players", "text": "<b>hello</b> from Bo"},
            headers={"Authorization": f"Bearer {other}"},
        )
        assert posted.status_code == 201, posted.text
        page.wait_for_selector(".chat-log li:has-text('<b>hello</b> from Bo')")  # live, as text
        page.fill("#chat-text", "hi Bo")
        page.click("[data-key=chat-send]")
        page.wait_for_selector(".chat-log li:has-text('hi Bo')")
        read = http.get(f"/v1/matches/{match_id}/chat", headers={"Authorization": f"Bearer {other}"}).json()
        assert [m["text"] for m in read["messages"]] == ["<b>hello</b> from Bo", "hi Bo"]
        assert read["messages"][1]["author"]["seat"] == 0

        _, key = new_player(http, "zuschauer")
        said = http.post(
            f"/v1/matches/{match_id}/chat",
            json={"room": "spectators", "text": "nice opening"},
            headers={"Authorization": f"Bearer {key}"},
        )
        assert said.status_code == 201, said.text
        watcher.wait_for_selector(".chat-log li:has-text('nice opening')")
        assert "Bo" not in watcher.inner_text(".chat"), "a spectator reads the players' room"
        assert "nice opening" not in page.inner_text(".chat"), "a player reads the spectators' room"

        resigned = http.post(f"/v1/matches/{match_id}/resign", headers={"Authorization": f"Bearer {other}"})
        assert resigned.status_code == 200, resigned.text
        page.click("[data-key=chat-room-spectators]")  # over: both rooms open to everyone
        page.wait_for_selector(".chat[data-room=spectators]")  # the press took (redraws wait for its release)
        page.wait_for_selector(".chat-log li:has-text('nice opening')")
        after = http.post(
            f"/v1/matches/{match_id}/chat",
            json={"room": "spectators", "text": "well played"},
            headers={"Authorization": f"Bearer {key}"},
        )
        assert after.status_code == 201, after.text
        page.wait_for_selector(".chat-log li:has-text('well played')")  # still live after the end
        watcher.click("[data-key=chat-room-players]")
        watcher.wait_for_selector(".chat-log li:has-text('hi Bo')")
    assert page_errors(page) == [] and page_errors(watcher) == []


def test_a_press_on_the_chat_survives_a_redraw(browser: Browser, web_server: ServerProcess) -> None:
    """The match page is drawn anew on every frame, chat message and reply, and Chromium sends no
    click when the element pressed has left the page by the release: a press on the chat panel
    spanning a redraw did nothing. At the end several redraws come at once (the end's frame, the
    summary, the chat read again twice, the stream's end, the chat's own stream), spread out on a
    slow network or a loaded machine, just when the room that opened invites a press. The page
    holds its redraws while a press on the chat panel is down, and draws on its release; a press
    held longer than a click stops holding them."""
    with httpx.Client(base_url=web_server.url) as http:
        match_id = new_match(http, "yutaka")
        page = open_page(browser, seat_url(web_server.url, http, match_id, 0, "Ada"))
        bo = http.post(f"/v1/matches/{match_id}/seats/1", json={"name": "Bo"}).json()["token"]
        _, onlooker = new_player(http, "onlooker")

        def say(room: str, text: str, key: str = bo) -> None:
            said = http.post(
                f"/v1/matches/{match_id}/chat",
                json={"room": room, "text": text},
                headers={"Authorization": f"Bearer {key}"},
            )
            assert said.status_code == 201, said.text

        page.wait_for_selector("[data-connection=live]")
        say("players", "good luck")
        say("spectators", "nice opening", onlooker)
        page.wait_for_selector(".chat-log li:has-text('good luck')")
        # After the end the chat's own stream says hello and the page reads on from the newest
        # message it holds (`after=2`: the spectators' one is read by then); from then on a message
        # comes as a frame, announced and drawn at once.
        with page.expect_response(lambda r: f"/v1/matches/{match_id}/chat?after=2" in r.url):
            resigned = http.post(f"/v1/matches/{match_id}/resign", headers={"Authorization": f"Bearer {bo}"})
            assert resigned.status_code == 200, resigned.text

        page.locator("[data-key=chat-room-spectators]").hover()
        page.mouse.down()
        say("players", "gg")
        announced = "() => document.querySelector('.visually-hidden[aria-live]').textContent.includes('gg')"
        page.wait_for_function(announced)
        page.mouse.up()  # the page took the frame (it announced it) while the room's button was down
        page.wait_for_selector(".chat[data-room=spectators] .chat-log li:has-text('nice opening')")
        page.click("[data-key=chat-room-players]")
        page.wait_for_selector(".chat[data-room=players] .chat-log li:has-text('gg')")

        page.locator("[data-key=chat-room-spectators]").hover()
        page.mouse.down()  # held down for long: the redraw comes all the same (the press is lost)
        say("players", "rematch?")
        page.wait_for_selector(".chat-log li:has-text('rematch?')")
        page.mouse.up()
    assert page_errors(page) == []


def test_a_failed_read_of_the_rooms_opened_by_the_end_is_made_up_for(
    browser: Browser, web_server: ServerProcess
) -> None:
    """At the end the page reads the chat from the start (the spectators' room opened to the
    players, with messages older than the newest one the page holds). When those reads fail, the
    next read (the chat stream's hello after the end) still starts from the start, not after the
    newest message held, which would skip the older messages of the room that opened."""
    with httpx.Client(base_url=web_server.url) as http:
        match_id = new_match(http, "yutaka")
        page = open_page(browser, seat_url(web_server.url, http, match_id, 0, "Ada"))
        bo = http.post(f"/v1/matches/{match_id}/seats/1", json={"name": "Bo"}).json()["token"]
        _, onlooker = new_player(http, "onlooker")
        page.wait_for_selector("[data-connection=live]")
        for room, text, key in (("spectators", "nice opening", onlooker), ("players", "good luck", bo)):
            said = http.post(
                f"/v1/matches/{match_id}/chat",
                json={"room": room, "text": text},
                headers={"Authorization": f"Bearer {key}"},
            )
            assert said.status_code == 201, said.text
        page.wait_for_selector(".chat-log li:has-text('good luck')")  # the newest held: chat_seq 2

        failed: list[str] = []
        chat_stream: list[str] = []  # the stream the page opens for the chat after the end (no views)
        page.on("websocket", lambda ws: chat_stream.append(ws.url) if "views=0" in ws.url else None)

        def fail_until_the_chat_stream(route: Route) -> None:
            if chat_stream:
                route.continue_()
            else:  # every read the end asked for, until the chat's own stream is open
                failed.append(route.request.url)
                route.abort()

        page.route(f"**/v1/matches/{match_id}/chat?*", fail_until_the_chat_stream)
        resigned = http.post(f"/v1/matches/{match_id}/resign", headers={"Authorization": f"Bearer {bo}"})
        assert resigned.status_code == 200, resigned.text
        page.click("[data-key=chat-room-spectators]")
        page.wait_for_selector(".chat[data-room=spectators] .chat-log li:has-text('nice opening')")
        assert failed and all("after=0&" in url for url in failed)  # the reads the end asked for failed
    assert page_errors(page) == []


@pytest.mark.skipif(
    os.environ.get("DRAGO_WRITE_SCREENSHOTS") != "1", reason="DRAGO_WRITE_SCREENSHOTS=1 writes them"
)
def test_screenshots_of_the_community_pages(browser: Browser, web_server: ServerProcess) -> None:
    """docs/screenshots/: quick play waiting, a profile and the leaderboard (desktop, English), and
    quick play, my matches and a profile at phone width in German."""
    with httpx.Client(base_url=web_server.url) as http:
        first, second = rivals(http, "mount_drago", 14)
        deadline = time.monotonic() + GUARD_MS / 1000
        while time.monotonic() < deadline:
            ratings = http.get(f"/v1/players/{first}").json()["ratings"]
            if ratings and ratings[0]["games"] == 14:
                break
            time.sleep(0.1)
        for lang, size in (("en", {"width": 1280, "height": 900}), ("de", {"width": 390, "height": 844})):
            page = open_page(
                browser,
                web_server.url + "/#/play?game=mount_drago",
                locale=f"{lang}-DE" if lang == "de" else "en-US",
                viewport=size,
            )
            page_player(page, "Ada" if lang == "en" else "Bea")
            page.click("[data-key=seek-submit]")
            page.wait_for_selector("[data-seek]")
            kind = "desktop" if lang == "en" else "phone"
            page.evaluate("() => window.scrollTo(0, 0)")
            page.screenshot(path=str(SCREENSHOTS / f"quickplay-{kind}-{lang}.png"), full_page=lang == "en")
            me = page.get_attribute("[data-player]", "data-player")
            page.locator("[data-seek] button").click()
            _, key = new_player(http, "Cy")
            http.post(
                "/v1/challenges",
                json={"to": [me], "game": "yutaka"},
                headers={"Authorization": f"Bearer {key}"},
            )
            page.goto(f"{web_server.url}/#/me")
            page.wait_for_selector("[data-challenge]")
            page.screenshot(path=str(SCREENSHOTS / f"mine-{kind}-{lang}.png"), full_page=lang == "en")
            page.goto(f"{web_server.url}/#/player/{first}")
            page.wait_for_selector("svg.rating-chart")
            page.screenshot(path=str(SCREENSHOTS / f"profile-{kind}-{lang}.png"), full_page=lang == "en")
            page.goto(f"{web_server.url}/#/leaderboard/mount_drago")
            page.wait_for_selector(f"tr[data-player='{second}']")
            page.screenshot(path=str(SCREENSHOTS / f"leaderboard-{kind}-{lang}.png"), full_page=lang == "en")
            page.context.close()


def test_a_rated_matchs_history_says_how_the_ratings_changed(
    browser: Browser, web_server: ServerProcess
) -> None:
    """`ratings_changed` (after a rated match's end) is a line of the history in the page's words, in
    English and German, never the event's raw type."""
    with httpx.Client(base_url=web_server.url) as http:
        players = [new_player(http, "rated-log") for _ in range(2)]
        match_id = new_match(http, "yutaka", rated=True)
        for seat, (player_id, key) in enumerate(players):
            name = http.get(f"/v1/players/{player_id}").json()["name"]
            joined = http.post(
                f"/v1/matches/{match_id}/seats/{seat}",
                json={"name": name},
                headers={"Authorization": f"Bearer {key}"},
            )
            assert joined.status_code in (200, 201), joined.text
        resigned = http.post(
            f"/v1/matches/{match_id}/resign", headers={"Authorization": f"Bearer {players[0][1]}"}
        )
        assert resigned.status_code == 200, resigned.text
        deadline = time.monotonic() + GUARD_MS / 1000
        while not any(
            e["type"] == "ratings_changed"
            for e in http.get(f"/v1/matches/{match_id}/events").json()["events"]
        ):
            assert time.monotonic() < deadline, "no ratings_changed"
            time.sleep(0.1)
    for lang, word in (("en", "Ratings:"), ("de", "Wertungen:")):
        page = open_page(
            browser, f"{web_server.url}/#/match/{match_id}", locale="de-DE" if lang == "de" else "en-US"
        )
        page.wait_for_selector(".log li")
        page.wait_for_function("w => document.querySelector('.log').innerText.includes(w)", arg=word)
        log = page.inner_text(".log")
        assert "ratings_changed" not in log
        assert re.search(r"\d+\.\d → \d+\.\d \([+−±]", log), log
        assert page_errors(page) == []
        page.context.close()


def _turn_to(http: httpx.Client, match_id: str, keys: list[str], seat: int) -> None:
    """Play the match's first legal actions, with the seat to act's key, until `seat` is to act."""
    for _ in range(20):
        to_act = http.get(f"/v1/matches/{match_id}").json()["to_act"]
        if to_act == [seat]:
            return
        auth = {"Authorization": f"Bearer {keys[to_act[0]]}"}
        action = http.get(f"/v1/matches/{match_id}/view", headers=auth).json()["legal_actions"][0]
        acted = http.post(f"/v1/matches/{match_id}/actions", json={"action": action}, headers=auth)
        assert acted.status_code == 200, acted.text
    raise AssertionError(f"seat {seat} never came to act in {match_id}")


def test_my_matches_list_the_ones_where_it_is_my_turn_first(
    browser: Browser, web_server: ServerProcess
) -> None:
    page = open_page(browser, web_server.url + "/#/me")
    page_player(page, "turns")
    me = page.get_attribute("[data-player]", "data-player")
    my_key = page.evaluate("JSON.parse(localStorage.getItem('drago:player')).key")
    matches: list[str] = []
    with httpx.Client(base_url=web_server.url) as http:
        _, key = new_player(http, "turns-rival")
        for _ in range(2):
            sent = http.post(
                "/v1/challenges",
                json={"to": [me], "game": "yutaka"},
                headers={"Authorization": f"Bearer {key}"},
            )
            assert sent.status_code == 201, sent.text
            challenge = sent.json()["challenge_id"]
            accepted = http.post(
                f"/v1/challenges/{challenge}/accept", headers={"Authorization": f"Bearer {my_key}"}
            )
            assert accepted.status_code == 200, accepted.text
            matches.append(accepted.json()["match_id"])
        for match_id, mine in zip(matches, (False, True), strict=True):  # the newer one is my turn
            seats = http.get(f"/v1/matches/{match_id}").json()["seats"]
            my_seat = next(s["seat"] for s in seats if s.get("player_id") == me)
            keys = [my_key if s["seat"] == my_seat else key for s in seats]
            _turn_to(http, match_id, keys, my_seat if mine else 1 - my_seat)
    page.reload()
    for match_id in matches:
        page.locator(f"[data-match='{match_id}']").wait_for()
    order = page.locator("[data-match]").evaluate_all(
        "els => els.map((e) => [e.dataset.match, e.dataset.myTurn])"
    )
    listed = [(m, turn) for m, turn in order if m in matches]
    assert listed == [(matches[1], "yes"), (matches[0], "no")], listed
    assert page_errors(page) == []
