"""The page's two languages. Its catalogues (`web/src/i18n/en.json`, `de.json`) have the same keys,
the same placeholders per key, both plural forms, and no key the sources never use. A browser whose
language is German gets the page in German with no English string from the catalogue anywhere: the
lobby and its whole create form, a match being created, joined and played (waiting for players, the
host's panel, the clock, a rider choice, resigning asked), a Yutakâ card picked, finished matches of
both games watched (their whole history, the result, the fairness check, a replayed position) and an
error; and the community pages (quick play, my matches and challenges, a profile, the leaderboard).
The checker is shown to find English on the English page. The language switch persists.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, Page

from tests.clients.servers import ServerProcess
from tests.web.pages import (
    LEGAL_SELECTOR,
    click_legal,
    new_match,
    new_player,
    open_page,
    page_errors,
    page_player,
    page_text,
    pick_after_the_opening,
    rated_player,
    seat_url,
    wait_finished,
)  # fmt: skip

WEB = Path(__file__).resolve().parents[2] / "web"
CATALOGUES = WEB / "src" / "i18n"
PLACEHOLDER = re.compile(r"\{(\w+)\}")


def catalogue(lang: str) -> dict[str, str]:
    loaded: dict[str, str] = json.loads((CATALOGUES / f"{lang}.json").read_text(encoding="utf-8"))
    return loaded


def test_the_catalogues_have_the_same_keys_placeholders_and_plural_forms() -> None:
    en, de = catalogue("en"), catalogue("de")
    assert list(en) == list(de), "the catalogues list different keys (or in another order)"
    for key, text in en.items():
        assert text.strip() and de[key].strip(), key
        assert set(PLACEHOLDER.findall(text)) == set(PLACEHOLDER.findall(de[key])), key
        if key.endswith("_one"):
            assert key.removesuffix("_one") + "_other" in en, key
        if key.endswith("_other"):
            assert key.removesuffix("_other") + "_one" in en, key


def test_every_key_is_used_by_the_sources() -> None:
    sources = "\n".join(p.read_text(encoding="utf-8") for p in (WEB / "src").rglob("*.ts"))

    def used(key: str) -> bool:
        base = re.sub(r"_(one|other)$", "", key)
        if f'"{base}"' in sources:
            return True
        # keys built from a code: `md.dragon.${dragon}`, `ev.md.rider_${…}`, word("ev.policy", …)
        cuts = [m.start() for m in re.finditer(r"[._]", base)]
        return any(
            f"{base[:cut]}.${{" in sources or f"{base[:cut]}_${{" in sources or f'"{base[:cut]}"' in sources
            for cut in cuts
        )

    unused = [key for key in catalogue("en") if not used(key)]
    assert unused == []


def english_fragments() -> list[str]:
    """The English catalogue's words that are not also German: each text (where the two differ)
    cut at its placeholders, the pieces of at least four letters that no German text contains."""
    en, de = catalogue("en"), catalogue("de")
    german = "\n".join(de.values())
    fragments: set[str] = set()
    for key, text in en.items():
        if text == de[key]:
            continue
        for piece in PLACEHOLDER.split(text)[::2]:
            piece = piece.strip(" .,:;()·—–-→×▶✔✘“”'\n")
            if sum(c.isalpha() for c in piece) >= 4 and piece not in german:
                fragments.add(piece)
    return sorted(fragments, key=len, reverse=True)


def english_in(text: str, fragments: list[str]) -> list[str]:
    return [f for f in fragments if re.search(rf"(?<!\w){re.escape(f)}(?!\w)", text)]


def collect(page: Page, texts: list[str]) -> None:
    texts.append(page_text(page))


@pytest.mark.slow
def test_the_page_in_german_shows_no_english_string(browser: Browser, web_server: ServerProcess) -> None:
    texts: list[str] = []
    page = open_page(browser, web_server.url + "/", locale="de-DE")
    page.wait_for_selector("form.create [id^=option-mount_drago-]", state="attached")
    assert page.get_attribute("html", "lang") == "de", "the browser's language was not taken"
    page.click("details.more summary")
    page.select_option("#create-clock", index=2)  # a bank: time, increment, timeout, takeover
    collect(page, texts)
    page.check("#create-game-yutaka")
    page.wait_for_selector("#option-yutaka-mode")
    page.select_option("#option-yutaka-mode", index=2)
    collect(page, texts)

    page.check("#create-game-mount_drago")
    page.wait_for_selector("#option-mount_drago-first_player")
    page.select_option("#option-mount_drago-first_player", index=1)
    page.select_option("#create-seat-1", "random")
    page.select_option("#create-clock", index=1)  # per move
    page.check("#create-visibility-unlisted")
    page.click("form.create button[type=submit]")
    page.wait_for_selector("#join-name-0")
    collect(page, texts)  # waiting: the seats, the join form, the host's invite link
    page.fill("#join-name-0", "Ada")
    page.click("#join-0")
    page.wait_for_selector(LEGAL_SELECTOR)
    page.wait_for_selector("[data-deadline]")
    collect(page, texts)
    for _ in range(10):
        page.wait_for_selector(LEGAL_SELECTOR)
        if page.locator("[data-legal*=choose_rider]").count():
            collect(page, texts)  # keep riding or switch
        click_legal(page, 0)
    page.click("[data-key=resign]")
    collect(page, texts)
    page.click("[data-key=resign-no]")

    with httpx.Client(base_url=web_server.url) as http:
        yutaka = new_match(http, "yutaka", bots=[1], options={"mode": "tactika"})
        page.goto(seat_url(web_server.url, http, yutaka, 0, "Ada"))
        page.wait_for_selector("g[data-legal]")
        collect(page, texts)  # opening reveals
        pick_after_the_opening(page)
        collect(page, texts)
        for game in ("mount_drago", "yutaka"):
            finished = new_match(http, game, bots=[0, 1])
            wait_finished(http, finished)
            page.goto(f"{web_server.url}/#/match/{finished}?as=spectator")
            page.wait_for_selector("[data-fair=yes]")
            if game == "mount_drago":
                page.click("details.dragons summary")
            collect(page, texts)
            page.focus("#replay")
            page.keyboard.press("Home")
            page.keyboard.press("ArrowRight")
            page.wait_for_selector(".replay-note:not([data-loading])")
            collect(page, texts)
    page.goto(f"{web_server.url}/#/match/{'0' * 32}")
    page.wait_for_selector(".message.error")
    collect(page, texts)
    assert "Diese Partie gibt es nicht" in texts[-1], "an error code is not in the page's own words"
    assert page_errors(page) == []

    with httpx.Client(base_url=web_server.url) as http:  # Yutakâ's islands keep their French names
        islands = [i["name"] for i in http.get("/v1/games/yutaka").json()["catalogue"]["islands"]]
    fragments = english_fragments()
    found = {f for text in texts for f in english_in(re.sub("|".join(islands), "", text), fragments)}
    assert not found, f"English on the German page: {sorted(found)}"

    english = open_page(browser, web_server.url + "/", locale="en-US")
    english.wait_for_selector("form.create [id^=option-mount_drago-]", state="attached")
    assert len(english_in(page_text(english), fragments)) > 20, (
        "the checker finds no English on the English page"
    )


@pytest.mark.slow
def test_the_language_switch_persists(browser: Browser, web_server: ServerProcess) -> None:
    page = open_page(browser, web_server.url + "/", locale="en-US")
    page.wait_for_selector("form.create")
    assert page.get_attribute("html", "lang") == "en"
    assert page.inner_text("#create-title") == "New match"
    page.select_option("#lang", "de")
    page.wait_for_function("() => document.getElementById('create-title')?.textContent === 'Neue Partie'")
    assert page.get_attribute("html", "lang") == "de"
    page.reload()
    page.wait_for_selector("form.create")
    assert page.inner_text("#create-title") == "Neue Partie", "the choice did not survive a reload"
    assert page.evaluate("() => localStorage.getItem('drago:lang')") == "de"
    page.select_option("#lang", "en")
    page.wait_for_function("() => document.getElementById('create-title')?.textContent === 'New match'")


@pytest.mark.slow
def test_the_community_pages_in_german_show_no_english_string(
    browser: Browser, web_server: ServerProcess
) -> None:
    """Quick play (no player yet, a taken name, the form, a seek waiting and cancelled), my matches
    (challenges received, one accepted, one declined with a reason, the match listed), a profile with
    its chart and challenge form, a challenge sent, the leaderboard."""
    texts: list[str] = []
    with httpx.Client(base_url=web_server.url) as http:
        rated = rated_player(http, "yutaka", 10)
        taken = http.get(f"/v1/players/{rated}").json()["name"]
        _, key = new_player(http, "herausforderer")
        page = open_page(browser, web_server.url + "/#/play?game=mount_drago&bots_after=", locale="de-DE")
        page.wait_for_selector("#player-name")
        page.click(".identity details summary")
        page.fill("#player-name", taken)
        page.click("[data-key=player-create]")
        page.wait_for_selector("text=Dieser Name ist vergeben")
        collect(page, texts)
        page_player(page, "deutsch")
        page.select_option("#create-clock", index=2)
        page.click("[data-key=seek-submit]")
        page.wait_for_selector("[data-seek]")
        page.click(".identity details summary")
        collect(page, texts)
        page.locator("[data-seek] button").click()
        page.wait_for_selector("[data-seek]", state="detached")
        collect(page, texts)

        me = page.get_attribute("[data-player]", "data-player")
        auth = {"Authorization": f"Bearer {key}"}
        ids = [
            http.post("/v1/challenges", json={"to": [me], "game": game}, headers=auth).json()["challenge_id"]
            for game in ("yutaka", "mount_drago")
        ]
        page.goto(f"{web_server.url}/#/me")
        page.click(f"[data-key=accept-{ids[0]}]")
        page.wait_for_selector("[data-match]")
        page.click("details.decline summary")
        collect(page, texts)
        page.fill(f"#reason-{ids[1]}", "keine Zeit")
        page.click(f"[data-key=decline-{ids[1]}]")
        page.wait_for_selector(f"[data-challenge='{ids[1]}'][data-status=declined]")
        collect(page, texts)

        page.goto(f"{web_server.url}/#/player/{rated}")
        page.wait_for_selector("svg.rating-chart")
        page.click("[data-key=challenge-send]")
        page.wait_for_selector("text=Herausforderung gesendet")
        texts.append(
            page.evaluate(
                "() => [...document.querySelectorAll('svg title')].map((e) => e.textContent).join('\\n')"
            )
        )
        collect(page, texts)
        page.goto(f"{web_server.url}/#/leaderboard/yutaka")
        page.wait_for_selector(f"tr[data-player='{rated}']")
        collect(page, texts)
        page.goto(f"{web_server.url}/#/leaderboard/yutaka?offset=1000")
        page.wait_for_selector("text=Hier folgen keine Spieler mehr.")
        collect(page, texts)
    assert page_errors(page) == []
    # the players' names are theirs (the built-in bots' names are English words)
    names = re.compile(r"\b(random|greedy|ismcts)\b|[a-z]+-[0-9a-f]{8}")
    fragments = english_fragments()
    found = {f for text in texts for f in english_in(names.sub("", text), fragments)}
    assert not found, f"English on the German community pages: {sorted(found)}"
