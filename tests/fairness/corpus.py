"""A corpus of finished drago-fair-2 matches for the three independent verifiers (issue 39).

Random matches of every game, mode and player count are created, joined (seats' own seeds or the
server's) and played to the end over HTTP (the app in-process, memory store); each reveal is kept
with the commitment published at creation and its tampered variants, one per field class the log
has (the secret, a seat's seed, the deal, a reshuffle's order, a drawn card, a revealed tile).

A variant is a patch, not a copy (a copy per variant would make the file several times larger):
`{"what": "seq 41 cards_drawn.cards[0]", "set": [[path, value], ...]}`, each `path` a list of keys
and indices into the reveal. The Python verifier (tests/api/test_fair_deals.py), the TypeScript
verifier (clients/typescript/scripts/verify-corpus.mjs) and the page's verifier in Chromium
(tests/web/test_fairness.py) read the same file and check the same thing: every reveal verifies,
every variant fails and the verdict names the tampered field (`field` starts with `what`'s field
class, the part before the first `[`).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import copy
import itertools
import json
import multiprocessing
import os
import random
import threading
from pathlib import Path
from typing import Any

import httpx

from tests.api.conftest import running
from tests.api.helpers import Table, create, join, play_to_end

CONFIGS: list[tuple[str, int, dict[str, Any]]] = [
    *(("mount_drago", n, {}) for n in range(2, 6)),
    ("yutaka", 2, {"mode": "mysteria"}),
    ("yutaka", 2, {"mode": "tactika", "first_player": "random"}),
    ("yutaka", 2, {"mode": "mixed"}),
]
KINDS = {
    "secret",
    "seat_seeds",
    "game_started.hands",
    "game_started.riders",
    "game_started.decks",
    "game_started.islands",
    "draw_pile_reshuffled.draw_pile",
    "cards_drawn.cards",
    "card_drawn.card",
    "tile_revealed.tile",
}
RARE = {"draw_pile_reshuffled.draw_pile"}  # a reshuffle happens in about one Mount Drago match in ten


def size() -> int:
    """Matches per configuration in the session's corpus: `FAIR_CORPUS_MATCHES`, else 200."""
    return int(os.environ.get("FAIR_CORPUS_MATCHES", "200"))


def kinds(n: int) -> set[str]:
    """The field classes that a corpus of `n` matches per configuration tampers with."""
    return KINDS if n >= 50 else KINDS - RARE


Where = list[str | int]


async def finished(
    client: httpx.AsyncClient, game: str, players: int, options: dict[str, Any], rng: random.Random
) -> tuple[Any, str]:
    """A match played to its end by random legal actions: its reveal and the published commitment."""
    created = (await create(client, game, players, options=options)).json()
    match_id = created["id"]
    tokens = {}
    for seat in range(players):
        body = {"client_seed": f"seat {seat} 🎲 {rng.randrange(10**6)}"} if rng.random() < 0.7 else {}
        r = await join(client, match_id, seat, **body)
        assert r.status_code == 201, r.text
        tokens[seat] = r.json()["token"]
        if "client_seed" in body:
            assert r.json()["client_seed"] == body["client_seed"]
        else:
            assert len(r.json()["client_seed"]) == 32
    table = Table(client, match_id, players, tokens, lambda *_: None, created["host_token"], None)
    final = await play_to_end(table, rng)
    assert final["status"] == "finished"
    reveal = (await client.get(f"/v1/matches/{match_id}/reveal")).json()
    assert reveal["algorithm"] == "drago-fair-2" and len(reveal["seat_seeds"]) == players
    return reveal, created["commitment"]


def tampered(reveal: Any, rng: random.Random) -> list[dict[str, Any]]:
    """One patch per field class the log has (see the module's docstring)."""
    out: list[dict[str, Any]] = []

    def variant(what: str, *sets: tuple[Where, Any]) -> None:
        out.append({"what": what, "set": [[path, value] for path, value in sets]})

    def swap(what: str, at: Where, items: list[Any], i: int, j: int) -> None:
        variant(what, ([*at, i], items[j]), ([*at, j], items[i]))

    def other(value: int) -> int:
        return 1 if value != 1 else 2

    seat = rng.randrange(reveal["players"])
    secret = reveal["secret"]
    variant("secret", (["secret"], ("0" if secret[0] != "0" else "1") + secret[1:]))
    variant(f"seat_seeds[{seat}]", (["seat_seeds", seat], reveal["seat_seeds"][seat] + "x"))
    events = reveal["events"]
    start = next(i for i, e in enumerate(events) if e["type"] == "game_started")
    deal = events[start]["data"]
    at_deal: Where = ["events", start, "data"]

    def pick(kind: str) -> int | None:
        found = [i for i, e in enumerate(events) if e["type"] == kind]
        return rng.choice(found) if found else None

    def label(i: int, field: str) -> str:
        return f"seq {events[i]['seq']} {events[i]['type']}.{field}"

    if reveal["game"] == "mount_drago":
        hand, pile = deal["hands"][0][0], deal["draw_pile"][0]
        if hand != pile:
            variant(
                "game_started.hands[0][0]",
                ([*at_deal, "hands", 0, 0], pile),
                ([*at_deal, "draw_pile", 0], hand),
            )
        rider = deal["riders"][0]["value"]
        variant("game_started.riders[0]", ([*at_deal, "riders", 0, "value"], other(rider)))
        i = pick("draw_pile_reshuffled")
        if i is not None:
            cards = events[i]["data"]["draw_pile"]
            j = next((k for k in range(1, len(cards)) if cards[k] != cards[0]), None)
            if j is not None:
                swap(label(i, "draw_pile"), ["events", i, "data", "draw_pile"], cards, 0, j)
        i = pick("cards_drawn")
        assert i is not None
        value = events[i]["data"]["cards"][0]["value"]
        variant(label(i, "cards[0]"), (["events", i, "data", "cards", 0, "value"], other(value)))
    else:
        deck = deal["decks"][0]
        k = next(k for k in range(1, len(deck)) if deck[k] != deck[0])
        swap("game_started.decks[0]", [*at_deal, "decks", 0], deck, 0, k)
        tile = deal["islands"][0][0]["value"]
        variant("game_started.islands[0][0]", ([*at_deal, "islands", 0, 0, "value"], tile + 1))
        i = pick("card_drawn")
        assert i is not None
        card = events[i]["data"]["card"]
        redrawn = {**card, "kind": "idol", "value": other(card["value"])}
        variant(label(i, "card"), (["events", i, "data", "card"], redrawn))
        i = pick("tile_revealed")
        assert i is not None
        value = events[i]["data"]["tile"]["value"]
        variant(label(i, "tile"), (["events", i, "data", "tile", "value"], value + 1))
    return out


def apply(reveal: Any, variant: dict[str, Any]) -> Any:
    """The reveal with the variant's patch applied (the reveal itself is left as it is)."""
    changed = copy.deepcopy(reveal)
    for path, value in variant["set"]:
        node = changed
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = value
    return changed


def kind_of(what: str) -> str:
    """`seq 41 cards_drawn.cards[0]` → `cards_drawn.cards`: the field class a variant tampers with."""
    return what.split(" ")[-1].split("[")[0]


def named(what: str, field: str | None) -> bool:
    """Whether a verdict's `field` names the variant's tampered field."""
    return field is not None and field.startswith(what.split("[")[0])


WORKERS = 2  # processes that play the configurations (one per core of these machines)


async def _catalogues() -> dict[str, Any]:
    async with running("memory://") as client:
        return {game: (await client.get(f"/v1/games/{game}")).json()["catalogue"] for game, _, _ in CONFIGS}


async def _played(config: tuple[str, int, dict[str, Any]], n: int, seed: str) -> list[dict[str, Any]]:
    """`n` finished matches of one configuration, with their variants (a random stream of its own)."""
    game, players, options = config
    name = f"{game}-{players}-{options.get('mode', '')}"
    rng = random.Random(f"{seed}:{name}")
    matches: list[dict[str, Any]] = []
    async with running("memory://") as client:
        for _ in range(n):
            reveal, published = await finished(client, game, players, options, rng)
            matches.append(
                {"config": name, "published": published, "reveal": reveal, "tampered": tampered(reveal, rng)}
            )
    return matches


def _play(config: tuple[str, int, dict[str, Any]], n: int, seed: str) -> list[dict[str, Any]]:
    return asyncio.run(_played(config, n, seed))


def build(n: int, seed: str = "fair-corpus") -> dict[str, Any]:
    """`n` finished matches of every configuration, with their variants and the games' catalogues.

    The configurations are played in `WORKERS` processes of their own (started afresh, not forked
    from a test process that may hold threads and event loops), each on its own in-process server:
    the corpus is CPU work, and one process took about four minutes of CI."""
    context = multiprocessing.get_context("spawn")
    with concurrent.futures.ProcessPoolExecutor(WORKERS, mp_context=context) as pool:
        parts = list(pool.map(_play, CONFIGS, itertools.repeat(n), itertools.repeat(seed)))
    return {"catalogues": asyncio.run(_catalogues()), "matches": [m for part in parts for m in part]}


PLANTED = ["secret", "seat_seeds[0]"]
"""The `what` of the control corpus's two planted faults, in order."""


def control(path: Path, out: Path) -> Path:
    """A control corpus that proves a checker can fail: the corpus's first match with two planted
    faults as its only variants, a patch that changes nothing (the reveal still verifies) and a
    tampered secret labelled as a seat's seed (the verdict names another field). A checker must
    report exactly these two (`PLANTED`)."""
    data = json.loads(path.read_text(encoding="utf-8"))
    first = data["matches"][0]
    secret = first["reveal"]["secret"]
    first["tampered"] = [
        {"what": PLANTED[0], "set": []},
        {"what": PLANTED[1], "set": [[["secret"], secret[::-1]]]},
    ]
    data["matches"] = [first]
    out.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return out


def write(path: Path, n: int) -> Path:
    """Build the corpus and write it to `path` as JSON.

    In a thread of its own: the caller may be a session fixture set up while another event loop
    runs in the test thread (sync Playwright keeps one while its browser lives)."""
    done: list[dict[str, Any]] = []
    failed: list[BaseException] = []

    def run() -> None:
        try:
            done.append(build(n))
        except BaseException as error:
            failed.append(error)

    worker = threading.Thread(target=run)
    worker.start()
    worker.join()
    if failed:
        raise failed[0]
    path.write_text(json.dumps(done[0], ensure_ascii=False), encoding="utf-8")
    return path
