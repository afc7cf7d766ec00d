"""Driving the web client as a person does: open pages, join seats, click legal actions; and reading
back what a page shows (`snapshot`) for the checks. Every clickable legal action carries its action
in `data-legal`; a Yutakâ card is picked first (`data-pick`), then an island target is legal.
"""

from __future__ import annotations

import json
from typing import Any
from weakref import WeakKeyDictionary

from playwright.sync_api import Browser, Page

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

LEGAL = """() => [...document.querySelectorAll('[data-legal]:not([disabled])')]
  .map((e) => JSON.parse(e.dataset.legal))"""
PICKS = """() => [...document.querySelectorAll('[data-pick]')]
  .map((e) => e.querySelector('[data-card]').dataset.card)"""


def open_page(browser: Browser, url: str) -> Page:
    context = browser.new_context(viewport={"width": 1280, "height": 1000})
    page = context.new_page()
    page.set_default_timeout(GUARD_MS)
    errors, requests = _ERRORS.setdefault(page, []), _REQUESTS.setdefault(page, [])
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("request", lambda request: requests.append(request.url))
    page.goto(url)
    return page


def join(page: Page, seat: int, name: str) -> None:
    page.fill(f"#join-name-{seat}", name)
    page.click(f"text=Join seat {seat}")
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
        " && !document.querySelector('.message')?.textContent.startsWith('Sending')",
        arg=seq,
    )


def click_action(page: Page, action: dict[str, Any]) -> None:
    """Click the element that carries exactly this legal action."""
    page.locator(f"[data-legal='{json.dumps(action, separators=(',', ':'))}']").first.click()


def click_legal(page: Page, index: int) -> None:
    page.locator("[data-legal]:not([disabled])").nth(index).click()


UNNAMED = """() => [...document.querySelectorAll('button, a[href], input, select, textarea, [tabindex]')]
  .filter((e) => e.id !== 'app')
  .filter((e) => {
    const by = e.getAttribute('aria-labelledby');
    const name = e.getAttribute('aria-label')
      || (e.labels && [...e.labels].map((l) => l.textContent).join(''))
      || (by && document.getElementById(by)?.textContent)
      || (['BUTTON', 'A'].includes(e.tagName) && e.textContent) || e.getAttribute('title')
      || (e.tagName === 'FIELDSET' && e.querySelector('legend')?.textContent) || '';
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
    """Uncaught exceptions in the page's scripts."""
    return list(_ERRORS.get(page, []))
