"""Playing matches over HTTP only: create, join, random legal actions from the seat views."""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import httpx

Observer = Callable[[int | None, str, Any], None]
"""Called with (viewer seat or None, kind, JSON body) for every response a test receives."""


def _ignore(viewer: int | None, kind: str, body: Any) -> None:
    return None


@dataclass
class Table:
    client: httpx.AsyncClient
    match_id: str
    players: int
    tokens: dict[int, str]
    observe: Observer = field(default=_ignore)

    def auth(self, seat: int | None) -> dict[str, str]:
        return {} if seat is None else {"Authorization": f"Bearer {self.tokens[seat]}"}

    @property
    def url(self) -> str:
        return f"/v1/matches/{self.match_id}"

    async def get(self, path: str, seat: int | None = None, kind: str = "get", **params: Any) -> Any:
        r = await self.client.get(self.url + path, headers=self.auth(seat), params=params)
        assert r.status_code == 200, r.text
        self.observe(seat, kind, r.json())
        return r.json()

    async def summary(self) -> Any:
        r = await self.client.get(self.url)
        assert r.status_code == 200, r.text
        self.observe(None, "summary", r.json())
        return r.json()

    async def view(self, seat: int | None, at: int | None = None) -> Any:
        params = {} if at is None else {"at": at}
        return await self.get("/view", seat, "view", **params)

    async def events(self, seat: int | None, after: int = 0, limit: int | None = None) -> list[Any]:
        params: dict[str, Any] = {"after": after}
        if limit is not None:
            params["limit"] = limit
        page = await self.get("/events", seat, "events", **params)
        events: list[Any] = page["events"]
        return events

    async def act(self, seat: int, action: Any, **extra: Any) -> httpx.Response:
        headers = self.auth(seat)
        key = extra.pop("idempotency_key", None)
        if key is not None:
            headers["Idempotency-Key"] = key
        r = await self.client.post(self.url + "/actions", json={"action": action, **extra}, headers=headers)
        self.observe(seat, "reply" if r.status_code == 200 else "error", r.json())
        return r


async def create(client: httpx.AsyncClient, game: str, players: int, **body: Any) -> httpx.Response:
    return await client.post("/v1/matches", json={"game": game, "players": players, **body})


async def new_table(
    client: httpx.AsyncClient,
    game: str,
    players: int,
    bots: Sequence[int] = (),
    observe: Observer = _ignore,
    **body: Any,
) -> Table:
    r = await create(client, game, players, bots=list(bots), **body)
    assert r.status_code == 201, r.text
    match_id = r.json()["id"]
    tokens = {}
    for seat in range(players):
        if seat in bots:
            continue
        r = await client.post(f"/v1/matches/{match_id}/seats/{seat}", json={"name": f"player {seat}"})
        assert r.status_code == 201, r.text
        tokens[seat] = r.json()["token"]
    return Table(client, match_id, players, tokens, observe)


Hook = Callable[[Table, int, Any], Awaitable[None]]


async def play_to_end(
    table: Table, rng: random.Random, hook: Hook | None = None, max_steps: int = 3000
) -> Any:
    """Play random legal actions taken from the seat views until the match is over.

    `hook(table, seat, view)` runs before each decision (tests poke the API there)."""
    seat: int | None = None
    view: Any = None
    for _ in range(max_steps):
        if view is None:
            summary = await table.summary()
            if summary["status"] == "finished":
                return summary
            humans = [s for s in summary["to_act"] if s in table.tokens]
            assert humans, summary
            seat = rng.choice(humans)
            view = await table.view(seat)
        assert seat is not None
        if hook is not None:
            await hook(table, seat, view)
        assert view["legal_actions"], view
        r = await table.act(seat, rng.choice(view["legal_actions"]))
        assert r.status_code == 200, r.text
        nxt = r.json()["view"]
        view = nxt if nxt["status"] == "active" and seat in nxt["to_act"] else None
    raise AssertionError("the match did not end")
