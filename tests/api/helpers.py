"""Playing matches over HTTP only: create, join, random legal actions from the seat views.

Server bots play in the server's bot runner, outside the requests: a test that needs the match to
move on waits (`Table.settled`) until no bot owes a decision, polling the public summary under a
generous guard (never a timing expectation).
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx

GUARD = 60.0  # seconds: a hang guard, never an expectation of speed
OVER = ("finished", "aborted")

Observer = Callable[[int | None, str, Any], None]
"""Called with (viewer seat or None, kind, JSON body) for every response a test receives."""


class FakeClock:
    """The service's clock in fast tests: it moves only when the test says so (no sleeping).

    Each clock starts a hundred days before the previous one: on a database that tests share
    (PostgreSQL), the deadlines of earlier tests' matches then lie in this clock's future, so a
    sweep sees only this test's deadlines."""

    _epochs = 0

    def __init__(self) -> None:
        FakeClock._epochs += 1
        self.now = datetime(2026, 1, 1, 12, 0, tzinfo=UTC) - timedelta(days=100 * FakeClock._epochs)

    def stamp(self, seconds: float = 0) -> str:
        """The API's rendering of the time `seconds` from now (UTC with `Z`)."""
        return (self.now + timedelta(seconds=seconds)).isoformat().replace("+00:00", "Z")

    def __call__(self) -> datetime:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)


def _ignore(viewer: int | None, kind: str, body: Any) -> None:
    return None


async def eventually(check: Callable[[], Awaitable[Any]], what: str, guard: float = GUARD) -> Any:
    """Poll `check()` until it returns something truthy (the result), under a hang guard."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + guard
    while True:
        result = await check()
        if result:
            return result
        if loop.time() > deadline:
            raise AssertionError(f"gave up waiting for {what}")
        await asyncio.sleep(0.005)


@dataclass
class Table:
    client: httpx.AsyncClient
    match_id: str
    players: int
    tokens: dict[int, str]
    observe: Observer = field(default=_ignore)
    host: str | None = None  # the host token
    invite: str | None = None

    def auth(self, seat: int | None) -> dict[str, str]:
        return {} if seat is None else {"Authorization": f"Bearer {self.tokens[seat]}"}

    @property
    def url(self) -> str:
        return f"/v1/matches/{self.match_id}"

    def on(self, client: httpx.AsyncClient) -> Table:
        """The same table reached through another client (another server process)."""
        return Table(client, self.match_id, self.players, self.tokens, self.observe, self.host, self.invite)

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

    async def history(self, seat: int | None) -> list[Any]:
        """The whole history as `seat` sees it, page by page."""
        events: list[Any] = []
        while page := await self.events(seat, events[-1]["seq"] if events else 0):
            events.extend(page)
        return events

    async def types(self, after: int = 0) -> list[str]:
        """The types of the events after `after`, as a spectator sees them."""
        return [e["type"] for e in await self.events(None, after, limit=1000)]

    async def act(self, seat: int, action: Any, **extra: Any) -> httpx.Response:
        headers = self.auth(seat)
        key = extra.pop("idempotency_key", None)
        if key is not None:
            headers["Idempotency-Key"] = key
        r = await self.client.post(self.url + "/actions", json={"action": action, **extra}, headers=headers)
        self.observe(seat, "reply" if r.status_code == 200 else "error", r.json())
        return r

    async def resign(self, seat: int, **headers: str) -> httpx.Response:
        r = await self.client.post(self.url + "/resign", headers={**self.auth(seat), **headers})
        self.observe(seat, "reply" if r.status_code == 200 else "error", r.json())
        return r

    def as_host(self) -> dict[str, str]:
        assert self.host is not None
        return {"Authorization": f"Bearer {self.host}"}

    async def settled(self) -> Any:
        """The summary once no server bot owes a decision (or the match is over)."""

        async def check() -> Any:
            summary = await self.summary()
            bots = {s["seat"] for s in summary["seats"] if s["bot"]}
            if summary["status"] in OVER or not bots & set(summary["to_act"]):
                return summary
            return None

        return await eventually(check, f"the bots of match {self.match_id}")


def error_of(r: httpx.Response, status: int, code: str) -> dict[str, Any]:
    """The error of a refused request, checked: the status, the envelope, the code, a message."""
    assert r.status_code == status, r.text
    body = r.json()
    assert set(body) == {"error"} and set(body["error"]) == {"code", "message", "details"}
    assert body["error"]["code"] == code, body
    assert body["error"]["message"]
    error: dict[str, Any] = body["error"]
    return error


async def log_of(table: Table) -> tuple[Any, list[Any]]:
    """The match's public summary and its whole history as seat 0 (or a spectator) sees it."""
    summary = (await table.client.get(table.url)).json()
    return summary, await table.history(0 if 0 in table.tokens else None)


async def unchanged(
    table: Table, request: Callable[[], Awaitable[httpx.Response]], status: int, code: str
) -> dict[str, Any]:
    """`request` is refused with `status`/`code` and changes nothing: the summary and log are as before."""
    before = await log_of(table)
    error = error_of(await request(), status, code)
    assert await log_of(table) == before
    return error


async def create(client: httpx.AsyncClient, game: str, players: int, **body: Any) -> httpx.Response:
    return await client.post("/v1/matches", json={"game": game, "players": players, **body})


async def join(
    client: httpx.AsyncClient, match_id: str, seat: int, name: str | None = None, **body: Any
) -> httpx.Response:
    key = body.pop("key", None)
    headers = {} if key is None else {"Authorization": f"Bearer {key}"}
    body = {"name": name or f"player {seat}", **body}
    return await client.post(f"/v1/matches/{match_id}/seats/{seat}", json=body, headers=headers)


async def new_table(
    client: httpx.AsyncClient,
    game: str,
    players: int,
    bots: Sequence[Any] = (),
    observe: Observer = _ignore,
    **body: Any,
) -> Table:
    """A match with every seat taken: `bots` by server bots, the others by people (tokens)."""
    r = await create(client, game, players, bots=list(bots), **body)
    assert r.status_code == 201, r.text
    created = r.json()
    match_id = created["id"]
    bot_seats = {b if isinstance(b, int) else b["seat"] for b in bots}
    tokens = {}
    for seat in range(players):
        if seat in bot_seats:
            continue
        r = await join(client, match_id, seat, invite=created["invite"])
        assert r.status_code == 201, r.text
        tokens[seat] = r.json()["token"]
    return Table(client, match_id, players, tokens, observe, created["host_token"], created["invite"])


Hook = Callable[[Table, int, Any], Awaitable[bool | None]]
"""Runs before a decision; returning True says the match changed meanwhile (read the view again)."""
Choice = Callable[[random.Random, list[Any]], Any]


def uniform(rng: random.Random, legal: list[Any]) -> Any:
    return rng.choice(legal)


def few_undos(rng: random.Random, legal: list[Any]) -> Any:
    """With turn drafts: an `undo` now and then (not half the time, or turns would drag on)."""
    others = [a for a in legal if a["type"] != "undo"]
    if not others or (len(others) < len(legal) and rng.random() < 0.15):
        return next(a for a in legal if a["type"] == "undo")
    return rng.choice(others)


async def play_to_end(
    table: Table,
    rng: random.Random,
    hook: Hook | None = None,
    max_steps: int = 5000,
    choose: Choice = uniform,
) -> Any:
    """Play random legal actions taken from the seat views until the match is over; server bots
    play their own turns in the meantime.

    `hook(table, seat, view)` runs before each decision (tests poke the API there)."""
    seat: int | None = None
    view: Any = None
    for _ in range(max_steps):
        if view is None:
            summary = await table.settled()
            if summary["status"] in OVER:
                return summary
            humans = [s for s in summary["to_act"] if s in table.tokens]
            assert humans, summary
            seat = rng.choice(humans)
            view = await table.view(seat)
        assert seat is not None
        if hook is not None and await hook(table, seat, view):
            view = None
            continue
        assert view["legal_actions"], view
        r = await table.act(seat, choose(rng, view["legal_actions"]))
        assert r.status_code == 200, r.text
        nxt = r.json()["view"]
        view = nxt if nxt["status"] == "active" and seat in nxt["to_act"] else None
    raise AssertionError("the match did not end")
