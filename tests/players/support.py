"""Players over HTTP: keys, seats held by a key, "my matches", and which notices a player is owed.

`expected_turns` is the outside oracle of the personal stream's `your_turn` notices: a seat held by
the player becomes to act at a commit (it was not to act at the commit before), read from the
replays (`view?at=`) of that seat at every commit of the match.
"""

from __future__ import annotations

from typing import Any

import httpx


def bearer(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


async def new_player(client: httpx.AsyncClient, name: str) -> tuple[str, str]:
    """(player id, key) of a new player named `name`, or `name` and a number when it is taken
    (names are unique in a deployment, and the PostgreSQL tests share one database)."""
    r = await client.post("/v1/players", json={"name": name})
    n = 1
    while r.status_code == 409 and r.json()["error"]["code"] == "name_taken":
        n += 1
        name = f"{name.rsplit('#', 1)[0]}#{n}"
        r = await client.post("/v1/players", json={"name": name})
    assert r.status_code == 201, r.text
    assert r.json()["key"].startswith("pk_") and r.json()["name"] == name
    return r.json()["player_id"], r.json()["key"]


async def my_matches(client: httpx.AsyncClient, key: str, **params: Any) -> list[Any]:
    """Every item of "my matches" for the filter, page by page."""
    items: list[Any] = []
    while True:
        r = await client.get(
            "/v1/players/me/matches", params={**params, "offset": len(items), "limit": 7}, headers=bearer(key)
        )
        assert r.status_code == 200, r.text
        page = r.json()
        items.extend(page["items"])
        if not page["items"] or len(items) >= page["total"]:
            assert len(items) == page["total"]
            return items


async def expected_turns(client: httpx.AsyncClient, match_id: str, key: str) -> list[int]:
    """The seqs of the commits at which the key's seat became to act (a person's turn)."""
    url = f"/v1/matches/{match_id}"
    events: list[Any] = []
    while page := (await client.get(f"{url}/events", params={"after": len(events)})).json()["events"]:
        events.extend(page)
    ends = sorted({e["commit"] for e in events})
    turns = []
    was = False
    for seq in ends:
        view = (await client.get(f"{url}/view", params={"at": seq}, headers=bearer(key))).json()
        now = view["seat"] in view["to_act"] and view["status"] == "active"
        if now and not was:
            turns.append(seq)
        was = now
    return turns
