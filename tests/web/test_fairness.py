"""The page's fairness check in a real browser (drago-fair-2, docs/fairness.md): finished matches of
every game, mode and player count, created and played over HTTP with seats' own seeds, show "deal
verified"; a reveal tampered field by field (served to the page in place of the real one) shows
what differs; a waiting match says that it is not dealt yet. `FAIR_PAGE_MATCHES` matches per
configuration (default 1).

Then the page's own verifier code (`checkFairness` of web/src/controls/fairness.ts with the client's
`verifyMatch` it bundles, built by the locked esbuild) in Chromium over the session's corpus of
finished matches (tests/fairness/corpus.py), the one the Python and TypeScript verifiers check: 200
per game, mode and player count, and every tampered variant, in one `page.evaluate`."""

from __future__ import annotations

import copy
import json
import os
import random
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Route

from tests.clients.servers import ServerProcess
from tests.fairness import corpus
from tests.web.conftest import ESBUILD, WEB
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


# Installed before the verifier's bundle (its client keeps the `fetch` it finds when created).
CACHE_CATALOGUES = """() => {
  const cached = new Map();
  const fetched = window.fetch.bind(window);
  window.fetch = (input, init) => {  // one request per game's catalogue, not one per verification
    const url = String(input instanceof Request ? input.url : input);
    if (!url.includes("/v1/games/")) return fetched(input, init);
    if (!cached.has(url)) cached.set(url, fetched(input, init).then((r) => r.text()));
    const headers = {"content-type": "application/json"};
    return cached.get(url).then((body) => new Response(body, {headers}));
  };
}"""
# `fair` is the page's verdict as its fairness panel draws it (`data-fair`): the commitment computed,
# revealed and published agree, and the verifier's verdict is ok.
CHECK_CORPUS = """async (url) => {
  const data = await (await fetch(url)).json();
  const apply = (reveal, variant) => {
    const changed = structuredClone(reveal);
    for (const [path, value] of variant.set) {
      let node = changed;
      for (const key of path.slice(0, -1)) node = node[key];
      node[path.at(-1)] = value;
    }
    return changed;
  };
  const fair = (r) => r.computed === r.published && r.computed === r.revealed && (r.verdict?.ok ?? true);
  const failures = [];
  const kinds = new Set();
  let variants = 0;
  const check = async ({reveal, published, tampered}) => {
    const result = await window.checkFairness(reveal, published);
    if (!fair(result)) failures.push({match: reveal.match_id, what: null, verdict: result.verdict});
    for (const variant of tampered) {
      const bad = await window.checkFairness(apply(reveal, variant), published);
      const field = bad.verdict?.field ?? null;
      if (fair(bad) || field === null || !field.startsWith(variant.what.split("[")[0])) {
        failures.push({match: reveal.match_id, what: variant.what, verdict: bad.verdict});
      }
      kinds.add(variant.what.split(" ").at(-1).split("[")[0]);
      variants += 1;
    }
  };
  for (const match of data.matches) await check(match);  // (several at once measured no faster)
  return {matches: data.matches.length, variants, kinds: [...kinds].sort(), failures: failures.slice(0, 10)};
}"""


def _page_verifier(out: Path) -> Path:
    """web/src/controls/fairness.ts's `checkFairness` bundled for the browser as `window.checkFairness`
    (with the page's own tsconfig, so `drago-client` is the client's source the page bundles)."""
    entry = (
        'import { checkFairness } from "./src/controls/fairness.js";\n'
        "(window as any).checkFairness = checkFairness;\n"
    )
    step = [
        str(ESBUILD), "--bundle", "--format=iife", "--target=chrome120", "--tsconfig=tsconfig.json",
        "--loader=ts", "--sourcefile=corpus-entry.ts", "--log-level=warning", f"--outfile={out}",
    ]  # fmt: skip
    done = subprocess.run(
        step, cwd=WEB, input=entry, capture_output=True, text=True, timeout=300, check=False
    )
    assert done.returncode == 0, f"esbuild failed:\n{done.stderr[-4000:]}"
    return out


def test_the_pages_verifier_checks_the_fairness_corpus(
    browser: Browser, web_server: ServerProcess, web_modules: Path, fair_corpus: Path, tmp_path: Path
) -> None:
    bundle = _page_verifier(tmp_path / "verifier.js")
    page = open_page(browser, "about:blank")
    blank = "<!doctype html><title>corpus</title>"
    page.route(
        f"{web_server.url}/__corpus__/", lambda route: route.fulfill(content_type="text/html", body=blank)
    )
    planted = corpus.control(fair_corpus, tmp_path / "control.json")
    page.route(f"{web_server.url}/__corpus__/corpus.json", lambda route: route.fulfill(path=fair_corpus))
    page.route(f"{web_server.url}/__corpus__/control.json", lambda route: route.fulfill(path=planted))
    page.goto(f"{web_server.url}/__corpus__/")
    page.evaluate(CACHE_CATALOGUES)
    page.add_script_tag(path=bundle)
    summary = page.evaluate(CHECK_CORPUS, "/__corpus__/corpus.json")
    control = page.evaluate(CHECK_CORPUS, "/__corpus__/control.json")
    assert page_errors(page) == []
    page.context.close()
    data = json.loads(fair_corpus.read_text(encoding="utf-8"))
    assert summary["failures"] == []
    assert summary["matches"] == len(data["matches"]) == len(corpus.CONFIGS) * corpus.size()
    assert summary["variants"] == sum(len(m["tampered"]) for m in data["matches"])
    assert corpus.kinds(corpus.size()) <= set(summary["kinds"]) <= corpus.KINDS
    assert [f["what"] for f in control["failures"]] == corpus.PLANTED  # the check fails on each fault
