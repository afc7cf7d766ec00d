"""The environments play exactly the server's games: the same seed gives the same log.

Each game is played twice with the same random actions: in the PettingZoo table with a secret
(`app.envs.table`: the server's dice for that secret), and on the real app over its HTTP API
(in-process, `httpx.ASGITransport`, a memory store, development features on) in a match created
with that secret as its `seed` and every seat joined before the first action. After every action
the server's seq is the table's; at the end the game events the server reveals are the table's
event log, JSON for JSON, and so are the scores. The short version always runs; the 1,000 games per
game are marked slow. Mount Drago cycles through 2–5 players, Yutakâ through its modes.
"""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest

from app.envs.table import SPECS, Table
from app.games.codec import to_json
from app.matches.events import MATCH_EVENT_TYPES
from tests.api.conftest import started

YUTAKA_MODES = ({"mode": "mysteria"}, {"mode": "tactika"}, {"mode": "mixed"})


def table_of(name: str, i: int) -> tuple[int, dict[str, Any]]:
    if name == "mount_drago":
        return 2 + i % 4, {}
    return 2, dict(YUTAKA_MODES[i % 3])


@pytest.fixture
async def client() -> AsyncIterator[httpx.AsyncClient]:
    async with started("memory://") as (_, c):
        yield c


async def play_both(client: httpx.AsyncClient, name: str, i: int) -> int:
    """One game through the table and through HTTP; the number of decisions."""
    players, options = table_of(name, i)
    secret = f"differential {name} {i}"
    table = Table(name, players, options)
    table.reset(secret=secret)
    created = await client.post(
        "/v1/matches", json={"game": name, "players": players, "options": options, "seed": secret}
    )
    assert created.status_code == 201, created.text
    match = created.json()["id"]
    tokens = []
    for seat in range(players):
        joined = await client.post(f"/v1/matches/{match}/seats/{seat}", json={"name": f"p{seat}"})
        assert joined.status_code == 201, joined.text
        tokens.append(joined.json()["token"])
    rng = random.Random(secret)
    decisions = 0
    while (acting := table.to_act) is not None:
        seat = acting
        legal = table.legal_ids(seat)
        action_id = legal[rng.randrange(len(legal))]
        action = to_json(table.spec.action_of(table.state, seat, action_id))
        table.step(seat, action_id)
        reply = await client.post(
            f"/v1/matches/{match}/actions",
            json={"action": action},
            headers={"Authorization": f"Bearer {tokens[seat]}"},
        )
        assert reply.status_code == 200, reply.text
        assert reply.json()["view"]["to_act"] == ([] if table.to_act is None else [table.to_act])
        decisions += 1
    revealed = (await client.get(f"/v1/matches/{match}/reveal")).json()
    served = [e["data"] for e in revealed["events"] if e["type"] not in MATCH_EVENT_TYPES]
    assert table.log is not None
    assert served == [to_json(event) for event in table.log]
    outcome = table.outcome()
    assert outcome is not None and revealed["outcome"]["scores"] == list(outcome.scores)
    return decisions


@pytest.mark.parametrize("name", sorted(SPECS))
async def test_a_few_games_through_the_environment_and_the_api(client: httpx.AsyncClient, name: str) -> None:
    assert sum([await play_both(client, name, i) for i in range(6)]) > 6 * 40


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(SPECS))
async def test_a_thousand_games_through_the_environment_and_the_api(
    client: httpx.AsyncClient, name: str
) -> None:
    for i in range(1000):
        await play_both(client, name, 1000 + i)
