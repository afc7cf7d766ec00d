"""Driving the web client as a person does: open pages, join seats, press legal actions (with the
mouse, or the keyboard alone); and reading back what a page shows (`snapshot`) for the checks.
Every legal action's control carries its action in `data-legal` (and is `aria-disabled` while an
action is on its way); a Yutakâ card is picked first (`data-pick`), then an island is legal.
"""

from __future__ import annotations

import json
import time
import uuid
from pathlib import Path
from typing import Any
from weakref import WeakKeyDictionary

from playwright.sync_api import Browser, Locator, Page

_ERRORS: WeakKeyDictionary[Page, list[str]] = WeakKeyDictionary()
_REQUESTS: WeakKeyDictionary[Page, list[str]] = WeakKeyDictionary()
GUARD_MS = 30_000  # a hang guard, never an expectation of speed

SNAPSHOT = """() => {
  const board = document.querySelector('.board');
  const head = document.querySelector('[data-connection]');
  const island = (e) => e.closest('[data-island-box]')?.dataset.islandBox ?? null;
  const cards = (root) => [...root.querySelectorAll('[data-card]')].map((e) => [
    e.dataset.zone, e.dataset.card, e.dataset.seat ?? null, island(e)]);
  return {
    seq: board ? Number(board.dataset.seq) : null,
    status: head ? head.dataset.status : null,
    connection: head ? head.dataset.connection : null,
    board: board ? cards(board) : [],
    hand: document.querySelectorAll('[data-zone=hand]').length,
    tiles: [...document.querySelectorAll('[data-island][data-slot]')].map((e) => ({
      island: Number(e.dataset.island), slot: Number(e.dataset.slot), face: e.dataset.face,
      type: e.dataset.type ?? null, value: e.dataset.value ?? null, text: e.textContent })),
    setAside: [...document.querySelectorAll('[data-zone=set-aside]')]
      .map((e) => [e.dataset.type, e.dataset.value]),
    log: [...document.querySelectorAll('.log li')].map((li) => ({
      seq: Number(li.dataset.seq), text: li.textContent,
      cards: [...li.querySelectorAll('[data-card]')].map((e) => e.dataset.card) })),
    scores: [...document.querySelectorAll('[data-score]')].map((e) => e.textContent),
  };
}"""

ENABLED = ':not([aria-disabled="true"])'
LEGAL_SELECTOR = f"[data-legal]{ENABLED}"
LEGAL = f"""() => [...document.querySelectorAll('{LEGAL_SELECTOR}')]
  .map((e) => JSON.parse(e.dataset.legal))"""
PICKS = f"""() => [...document.querySelectorAll('[data-pick]{ENABLED}')]
  .map((e) => e.querySelector('[data-card]').dataset.card)"""


def open_page(browser: Browser, url: str, **context_options: Any) -> Page:
    """A page in a fresh browser context (its own storage), English unless `locale` says otherwise."""
    options: dict[str, Any] = {
        "viewport": {"width": 1280, "height": 1000},
        "locale": "en-US",
        **context_options,
    }
    context = browser.new_context(**options)
    page = context.new_page()
    page.set_default_timeout(GUARD_MS)
    errors, requests = _ERRORS.setdefault(page, []), _REQUESTS.setdefault(page, [])
    page.on("pageerror", lambda error: errors.append(str(error)))
    # the Content-Security-Policy's refusals (an inline style, a foreign request) are errors too
    page.on("console", lambda m: errors.append(m.text) if "Content Security Policy" in m.text else None)
    page.on("request", lambda request: requests.append(request.url))
    page.goto(url)
    return page


def join(page: Page, seat: int, name: str) -> None:
    page.fill(f"#join-name-{seat}", name)
    page.click(f"#join-{seat}")
    page.wait_for_url(f"**as={seat}", wait_until="commit")
    page.wait_for_selector(".board")


def snapshot(page: Page) -> dict[str, Any]:
    result: dict[str, Any] = page.evaluate(SNAPSHOT)
    return result


def legal(page: Page) -> list[dict[str, Any]]:
    actions: list[dict[str, Any]] = page.evaluate(LEGAL)
    return actions


def picks(page: Page) -> list[str]:
    cards: list[str] = page.evaluate(PICKS)
    return cards


def shown_seq(page: Page) -> int:
    return int(page.get_attribute(".board", "data-seq") or 0)


def wait_history(page: Page) -> None:
    """Until the history's newest line is at the board's seq: the mover's board follows its
    action's reply, its history the stream's frame a moment later."""
    page.wait_for_function(
        "() => Number(document.querySelector('.log li')?.dataset.seq)"
        " === Number(document.querySelector('.board')?.dataset.seq)"
    )


def wait_seq(page: Page, seq: int) -> None:
    """Until the page shows the board at `seq` and is live (not waiting for an answer)."""
    page.wait_for_function(
        "seq => Number(document.querySelector('.board')?.dataset.seq) === seq"
        " && !document.querySelector('[data-legal][aria-disabled=true]')",
        arg=seq,
    )


def click_action(page: Page, action: dict[str, Any]) -> None:
    """Click the element that carries exactly this legal action."""
    page.locator(f"[data-legal='{json.dumps(action, separators=(',', ':'))}']").first.click()


def click_legal(page: Page, index: int) -> None:
    page.locator(LEGAL_SELECTOR).nth(index).click()


def press(target: Locator, tap: bool = False) -> None:
    """Tap (a touch screen) or click."""
    if tap:
        target.tap()
    else:
        target.click()


def pick_after_the_opening(page: Page, tap: bool = False) -> None:
    """Yutakâ: reveal the first tile offered until a hand card can be picked, pick the first one;
    its islands are then offered. By click, or by tap on a touch screen."""
    pickable = page.locator(f"[data-pick]{ENABLED}")
    while not pickable.count():
        page.wait_for_selector(f"{LEGAL_SELECTOR}, [data-pick]{ENABLED}")
        if page.locator(LEGAL_SELECTOR).count():
            seq = shown_seq(page)
            press(page.locator(LEGAL_SELECTOR).first, tap)
            page.wait_for_function(
                "seq => Number(document.querySelector('.board').dataset.seq) > seq", arg=seq
            )
    press(pickable.first, tap)
    page.wait_for_selector("g.target")


UNNAMED = """() => [...document.querySelectorAll(
    'button, a[href], input, select, textarea, summary, [tabindex]')]
  .filter((e) => {
    const by = e.getAttribute('aria-labelledby');
    const name = e.getAttribute('aria-label')
      || (e.labels && [...e.labels].map((l) => l.textContent).join(''))
      || (by && document.getElementById(by)?.textContent)
      || (['BUTTON', 'A', 'SUMMARY'].includes(e.tagName) && e.textContent) || e.getAttribute('title')
      || (e.id && document.querySelector(`label[for="${e.id}"]`)?.textContent) || '';
    return !name.trim() || e.tabIndex < 0;
  })
  .map((e) => e.outerHTML.slice(0, 120))"""


def unnamed_controls(page: Page) -> list[str]:
    """Controls without an accessible name, or taken out of the keyboard's reach (tabindex -1)."""
    found: list[str] = page.evaluate(UNNAMED)
    return found


def foreign_requests(page: Page, origin: str) -> list[str]:
    """Requests the page made anywhere but the server (the WebSocket is on the same host and port)."""
    host = origin.split("://", 1)[1]
    return [
        url
        for url in _REQUESTS.get(page, [])
        if url.split("://", 1)[-1].split("/", 1)[0] != host and not url.startswith("data:")
    ]


def page_errors(page: Page) -> list[str]:
    """Uncaught exceptions in the page's scripts, and what its Content-Security-Policy refused."""
    return list(_ERRORS.get(page, []))


AXE_RUN = """async () => {
  const result = await axe.run(document, { resultTypes: ['violations'] });
  return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 4).map((n) => n.target.join(' ')).join(' | ')}`);
}"""


def axe_violations(page: Page, axe: Path) -> list[str]:
    """axe-core's serious and critical violations on the page as it is now. The page's context must
    be opened with `bypass_csp=True`: its Content-Security-Policy refuses the injected script."""
    if not page.evaluate("() => typeof axe === 'object'"):
        page.add_script_tag(path=str(axe))
    # half-faded pieces in motion would be judged on their passing contrast
    page.evaluate("() => Promise.all(document.getAnimations().map((a) => a.finished.catch(() => null)))")
    found: list[str] = page.evaluate(AXE_RUN)
    return found


def page_text(page: Page) -> str:
    """Every text the page shows or names: the rendered text, option labels, SVG text, and the
    names and descriptions in attributes (aria-label, title, placeholder, aria-valuetext)."""
    text: str = page.evaluate(
        """() => {
      const parts = [document.body.innerText, document.title];
      for (const e of document.querySelectorAll('option, svg text')) parts.push(e.textContent);
      for (const e of document.querySelectorAll('[aria-label], [title], [placeholder], [aria-valuetext]'))
        for (const a of ['aria-label', 'title', 'placeholder', 'aria-valuetext'])
          if (e.hasAttribute(a)) parts.push(e.getAttribute(a));
      return parts.join('\\n');
    }"""
    )
    return text


def no_horizontal_scroll(page: Page) -> bool:
    width: int = page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")
    return width <= 0


def new_match(
    http: Any, game: str, *, bots: list[int] | None = None, level: str = "random", **body: Any
) -> str:
    """A match created over the API (`http`: an httpx client on the server); `bots`: seats for bots."""
    seats = [{"seat": seat, "level": level} for seat in bots or []]
    reply = http.post("/v1/matches", json={"game": game, "players": 2, "bots": seats, **body})
    assert reply.status_code == 201, reply.text
    match_id: str = reply.json()["id"]
    return match_id


def seat_url(server: str, http: Any, match_id: str, seat: int, name: str) -> str:
    """Join `seat` over the API and return the link that hands its token to a page (as the host's
    reissued links do): the page keeps the token and drops it from the address."""
    reply = http.post(f"/v1/matches/{match_id}/seats/{seat}", json={"name": name})
    assert reply.status_code in (200, 201), reply.text
    return f"{server}/#/match/{match_id}?seat={seat}&token={reply.json()['token']}"


def wait_finished(http: Any, match_id: str, guard_s: float = 120.0) -> dict[str, Any]:
    """Until a match of bots is over (a hang guard, polling the public summary)."""
    deadline = time.monotonic() + guard_s
    while time.monotonic() < deadline:
        summary: dict[str, Any] = http.get(f"/v1/matches/{match_id}").json()
        if summary["status"] in ("finished", "aborted"):
            return summary
        time.sleep(0.1)
    raise AssertionError(f"match {match_id} did not finish")


def unique(prefix: str) -> str:
    """A player name no other test takes (names are unique per server)."""
    return f"{prefix}-{uuid.uuid4().hex[:8]}"


def new_player(http: Any, prefix: str) -> tuple[str, str]:
    """A player created over the API: its id and its key."""
    reply = http.post("/v1/players", json={"name": unique(prefix)})
    assert reply.status_code == 201, reply.text
    return reply.json()["player_id"], reply.json()["key"]


def page_player(page: Page, prefix: str) -> str:
    """Create the page's player with the identity form (on a community page); its name."""
    name = unique(prefix)
    page.fill("#player-name", name)
    page.click("[data-key=player-create]")
    page.wait_for_selector(f"text={name}")
    return name


def rated_player(http: Any, game: str, matches: int) -> str:
    """A player with `matches` finished rated matches of `game` against the random server bot (it
    joins seat 0 with its key and resigns at once: cheap, and rated); its id, once all are applied."""
    player_id, key = new_player(http, "rated")
    name = http.get(f"/v1/players/{player_id}").json()["name"]
    auth = {"Authorization": f"Bearer {key}"}
    for _ in range(matches):
        match_id = new_match(http, game, bots=[1], rated=True)
        joined = http.post(f"/v1/matches/{match_id}/seats/0", json={"name": name}, headers=auth)
        assert joined.status_code in (200, 201), joined.text
        resigned = http.post(f"/v1/matches/{match_id}/resign", headers=auth)
        assert resigned.status_code == 200, resigned.text
    deadline = time.monotonic() + GUARD_MS / 1000
    while time.monotonic() < deadline:
        ratings = http.get(f"/v1/players/{player_id}").json()["ratings"]
        if any(r["game"] == game and r["games"] == matches for r in ratings):
            return player_id
        time.sleep(0.1)
    raise AssertionError(f"the ratings of {player_id} were not applied")


def rivals(http: Any, game: str, matches: int, seed: int = 7) -> list[str]:
    """Two players with `matches` rated matches of `game` against each other, the loser of each
    (drawn from `seed`) resigning at once: ratings that go up and down. Their ids."""
    import random

    draw = random.Random(seed)
    players = [new_player(http, "rival") for _ in range(2)]
    names = [http.get(f"/v1/players/{pid}").json()["name"] for pid, _ in players]
    for _ in range(matches):
        match_id = new_match(http, game, rated=True)
        for seat, (_, key) in enumerate(players):
            auth = {"Authorization": f"Bearer {key}"}
            joined = http.post(
                f"/v1/matches/{match_id}/seats/{seat}", json={"name": names[seat]}, headers=auth
            )
            assert joined.status_code in (200, 201), joined.text
        loser = players[draw.randrange(2)][1]
        resigned = http.post(f"/v1/matches/{match_id}/resign", headers={"Authorization": f"Bearer {loser}"})
        assert resigned.status_code == 200, resigned.text
    return [pid for pid, _ in players]
