"""Full games of both games over HTTP only, on every store (server bots playing their seats in the
bot runner); the reveal proves the deal and replays."""

from __future__ import annotations

import hashlib
import random

import httpx
import pytest

from app.games import fair2
from app.games.core import decode_event, replay
from app.games.registry import GAMES
from app.matches.events import MATCH_EVENT_TYPES
from tests.api.helpers import Table, new_table, play_to_end

CASES = [("mount_drago", 3, [2]), ("yutaka", 2, [])]


@pytest.mark.parametrize(("game", "players", "bots"), CASES)
async def test_a_full_game_to_the_end_and_its_reveal(
    client: httpx.AsyncClient, game: str, players: int, bots: list[int]
) -> None:
    table = await new_table(client, game, players, bots)
    before = await client.get(f"{table.url}/reveal")
    assert before.status_code == 409 and before.json()["error"]["code"] == "match_not_finished"
    final = await play_to_end(table, random.Random(f"{game}-1"))
    assert final["status"] == "finished" and final["to_act"] == [] and final["winners"]

    revealed = (await client.get(f"{table.url}/reveal")).json()
    log = revealed["events"]
    assert [e["seq"] for e in log] == list(range(1, final["seq"] + 1))
    assert revealed["algorithm"] == "drago-fair-2"
    start = next(i for i, e in enumerate(log) if e["type"] == "game_started")
    assert {e["type"] for e in log[:start]} == {"seat_joined"} and log[start + 1]["type"] == "match_started"
    commitment = hashlib.sha256(bytes.fromhex(revealed["secret"]) + b"drago-fair-2").hexdigest()
    assert commitment == revealed["commitment"] == final["commitment"]
    rules = GAMES[game]
    game_events = [e for e in log if e["type"] not in MATCH_EVENT_TYPES]
    state = replay(rules, [decode_event(rules, e["data"]) for e in game_events])
    outcome = rules.outcome(state)
    assert outcome is not None and list(outcome.scores) == final["scores"] == revealed["outcome"]["scores"]
    assert list(outcome.winners) == final["winners"]

    # The revealed server seed and the seats' seeds re-roll the deal: the server could not have
    # chosen it alone, nor after the fact.
    options = rules.parse_options(players, revealed["options"])
    seeds = revealed["seat_seeds"]
    dice = fair2.stream(bytes.fromhex(revealed["secret"]), table.match_id, seeds, None)
    assert decode_event(rules, log[start]["data"]) == rules.start(players, options, dice)

    listed = (await client.get("/v1/matches", params={"status": "finished", "game": game})).json()
    assert table.match_id in [m["id"] for m in listed["items"]]


async def test_an_all_bot_match_starts_when_created_and_the_bots_finish_it(client: httpx.AsyncClient) -> None:
    r = await client.post("/v1/matches", json={"game": "yutaka", "players": 2, "bots": [0, 1]})
    assert r.status_code == 201 and r.json()["status"] == "active"
    assert r.json()["seq"] == 4  # two seats, the deal, the start: the bots move after the reply
    assert [s["name"] for s in r.json()["seats"]] == ["bot 1", "bot 2"]
    table = Table(client, r.json()["id"], 2, {})
    final = await table.settled()
    assert final["status"] == "finished" and final["winners"]
    types = await table.types()
    assert types[:4] == ["seat_joined", "seat_joined", "game_started", "match_started"]
    assert types[-1] == "match_ended"
