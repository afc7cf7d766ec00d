"""No leaks over random games: every response a seat or a spectator gets shows only what it may know.

Each match is created with a dev seed and played to the end by random legal actions, while the test
also pokes the API (out-of-turn and broken actions, replays, history pages, spectator views). After
the end the revealed log is the hidden truth: every view and event a viewer received must be
exactly the engine's view/redaction *for that viewer* of the true state or event at that seq, and
must not hold another seat's hand, the draw pile or decks, or a face-down tile's value.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from app.games.codec import to_json
from app.games.core import Game, decode_event
from app.games.registry import GAMES
from app.matches.lifecycle import LoadedMatch
from app.matches.views import view_for
from tests.api.conftest import running
from tests.api.helpers import Table, new_table, play_to_end

Record = tuple[int | None, str, Any]

SUMMARY_KEYS = {
    "id", "game", "players", "options", "status", "seq", "to_act", "scores", "winners", "commitment",
    "created_at", "updated_at", "seats",
}  # fmt: skip
NEVER = {"secret", "draw_pile", "decks", "token", "token_hash"}


def normal(value: Any) -> Any:
    return json.loads(json.dumps(value))


def walk(value: Any) -> Iterator[Any]:
    yield value
    if isinstance(value, dict):
        for v in value.values():
            yield from walk(v)
    elif isinstance(value, list):
        for v in value:
            yield from walk(v)


def multiset(items: list[Any]) -> list[str]:
    return sorted(json.dumps(i, sort_keys=True) for i in items)


class Truth:
    """The states and events of a finished match, from its revealed log."""

    def __init__(self, game: Game[Any, Any, Any], match_id: str, players: int, log: list[Any]) -> None:
        self.game, self.match_id, self.players = game, match_id, players
        self.events = [decode_event(game, e["data"]) for e in log]
        self.states = [None, game.initial_state(self.events[0])]
        for event in self.events[1:]:
            self.states.append(game.evolve(self.states[-1], event))

    def view(self, seq: int, seat: int | None) -> Any:
        match = LoadedMatch(self.match_id, self.game, self.states[seq], seq, self.players, True)
        return normal(view_for(match, seat))

    def event(self, seq: int, seat: int | None) -> Any:
        return normal(to_json(self.game.redact(self.events[seq - 1], seat)))

    def hand(self, seq: int, seat: int) -> list[Any]:
        hand: list[Any] = normal(to_json(self.game.view(self.states[seq], seat)))["hand"]
        return hand


def check_secrets(truth: Truth, viewer: int | None, seq: int, body: Any, finished: bool) -> None:
    others = [o for o in range(truth.players) if o != viewer]
    hidden = [multiset(h) for h in (truth.hand(seq, o) for o in others) if len(h) >= 3]
    own = multiset(truth.hand(seq, viewer)) if viewer is not None else None
    for node in walk(body):
        if isinstance(node, dict):
            assert not NEVER & set(node), node
            if "hands" in node:  # a deal redacted for the viewer
                assert all(h is None for i, h in enumerate(node["hands"]) if i != viewer), node
            if node.get("type") in ("cards_drawn", "card_drawn") and node.get("seat") != viewer:
                assert "cards" not in node and "card" not in node, node
            if node.get("face_up") is False:
                assert node.get("value") is None, node
            if node.get("set_aside") is not None:
                assert finished, node
        elif isinstance(node, list) and len(node) >= 3:
            ms = multiset(node)
            assert ms == own or ms not in hidden, f"another seat's hand reached seat {viewer}"


def verify(truth: Truth, records: list[Record]) -> int:
    checked = 0
    for viewer, kind, body in records:
        if kind == "summary":
            assert set(body) == SUMMARY_KEYS
            continue
        if kind == "error":
            assert set(body) == {"error"} and not NEVER & set(json.dumps(body).split('"'))
            continue
        views = [body] if kind == "view" else [body["view"]] if kind == "reply" else []
        events = body["events"] if kind in ("reply", "events") else []
        for view in views:
            assert view == truth.view(view["seq"], viewer)
            check_secrets(truth, viewer, view["seq"], view, view["status"] == "finished")
        for event in events:
            assert event["data"] == truth.event(event["seq"], viewer), (viewer, event)
            check_secrets(truth, viewer, event["seq"], event, event["type"] == "game_ended")
        checked += len(views) + len(events)
    return checked


async def poke(table: Table, seat: int, view: Any, rng: random.Random) -> None:
    """Side requests whose responses the observer records too."""
    roll = rng.random()
    viewers: list[int | None] = [None, *table.tokens]
    if roll < 0.15:
        others = [o for o in table.tokens if o != seat]
        if others:
            r = await table.act(rng.choice(others), rng.choice(view["legal_actions"]))
            assert r.status_code == 409, r.text
    elif roll < 0.25:
        broken = dict(rng.choice(view["legal_actions"]))
        key = rng.choice(sorted(broken))
        broken[key] = {"type": "nonsense"} if key == "type" else 99
        r = await table.act(seat, broken)
        assert r.status_code in (409, 422), r.text
    elif roll < 0.4:
        await table.view(rng.choice(viewers), at=rng.randint(1, view["seq"]))
    elif roll < 0.55:
        await table.events(rng.choice(viewers), after=rng.randint(0, view["seq"]), limit=rng.randint(1, 20))
    elif roll < 0.65:
        await table.view(None)


async def play_and_verify(client: httpx.AsyncClient, game: str, players: int, seed: str, **body: Any) -> None:
    records: list[Record] = []
    rng = random.Random(seed)
    table = await new_table(
        client, game, players, observe=lambda v, k, b: records.append((v, k, b)), seed=seed, **body
    )

    async def hook(t: Table, seat: int, view: Any) -> None:
        await poke(t, seat, view, rng)

    final = await play_to_end(table, rng, hook)
    for viewer in [None, *table.tokens]:  # whole histories, and replays of the end
        await table.events(viewer, limit=1000)
        await table.view(viewer)
    revealed = (await client.get(f"{table.url}/reveal")).json()
    truth = Truth(GAMES[game], table.match_id, players, revealed["events"])
    assert len(truth.events) == final["seq"]
    assert verify(truth, records) > final["seq"]


MEMORY_CASES = [
    ("mount_drago", 2, {}),
    ("mount_drago", 5, {"bots": [3]}),
    ("yutaka", 2, {"options": {"mode": "mysteria"}}),
    ("yutaka", 2, {"options": {"mode": "tactika"}}),
    ("yutaka", 2, {"options": {"mode": "mixed", "known_types": ["idol", "crystal"]}}),
]


@pytest.mark.parametrize(("game", "players", "body"), MEMORY_CASES)
async def test_no_leaks_in_memory(game: str, players: int, body: dict[str, Any]) -> None:
    async with running("memory://") as client:
        await play_and_verify(client, game, players, f"leaks-{game}-{players}", **body)


@pytest.mark.parametrize(("game", "players"), [("mount_drago", 3), ("yutaka", 2)])
async def test_no_leaks_on_a_database(sql_database_url: str, game: str, players: int) -> None:
    async with running(sql_database_url) as client:
        await play_and_verify(client, game, players, f"db-leaks-{game}")
