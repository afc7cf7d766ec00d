"""Random rated matches over HTTP for the projection tests: 2–5 seats, people holding player keys
(some play to the end, some resign at once, which ranks them last) and server bots of every level."""

from __future__ import annotations

import random
from typing import Any

import httpx

from tests.api.helpers import OVER, Table, create, eventually, join, play_to_end
from tests.players.support import bearer

LEVELS = ("random", "greedy", "ismcts")


async def random_rated_match(client: httpx.AsyncClient, keys: list[str], rng: random.Random) -> Table:
    """Create, fill and play one random rated match to its end; returns its table."""
    game = "yutaka" if rng.random() < 0.2 else "mount_drago"
    players = 2 if game == "yutaka" else rng.randint(2, 5)
    people = rng.randint(0, min(players, len(keys)))
    seats = list(range(players))
    rng.shuffle(seats)
    human_seats = set(seats[:people])
    bots = [{"seat": s, "level": rng.choice(LEVELS)} for s in range(players) if s not in human_seats]
    r = await create(client, game, players, bots=bots, rated=True)
    assert r.status_code == 201, r.text
    created = r.json()
    table = Table(client, created["id"], players, {}, host=created["host_token"])
    for seat, key in zip(sorted(human_seats), rng.sample(keys, people), strict=True):
        r = await join(client, table.match_id, seat, f"p{seat}", key=key)
        assert r.status_code == 201, r.text
        table.tokens[seat] = key
    for seat in sorted(table.tokens):
        if rng.random() < 0.5 and (await table.summary())["status"] not in OVER:
            r = await client.post(f"{table.url}/resign", headers=bearer(table.tokens.pop(seat)))
            assert r.status_code == 200, r.text
    if table.tokens:
        await play_to_end(table, rng)
    else:
        await table.settled()
    return table


async def finished(table: Table) -> Any:
    async def check() -> Any:
        summary = await table.summary()
        return summary if summary["status"] in OVER else None

    return await eventually(check, f"the end of {table.match_id}", guard=600.0)
