"""Recording what a client of the real app receives: the app in-process, a still clock, a session.

`running()` starts the app on the memory store with development features on (a match's `seed` fixes
every deal and draw), server bots and the background sweeper off and a clock that only moves when
told (`StillClock`), so every response is reproducible. A `Session` is a client over
`httpx.ASGITransport` that keeps what it receives in a `Capture`: views, the actions it sent, the
replies, and every event in each form its readers received (`Match.read_back`: each seat's history,
a spectator's, and the reveal). The random match ids are replaced by `MATCH_ID`. The scenarios that
drive sessions are in `app.gamedocs.scenarios`.
"""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any, Final

import httpx
from fastapi import FastAPI

from app.games.codec import JSON
from app.main import create_app
from app.settings import Settings

MATCH_ID: Final = "0f3c9a3e8b7d4e21a6c3f0b9d8e7a615"
START: Final = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)


class StillClock:
    """The app's clock: fixed, advanced only by the scenarios (so every timestamp is reproducible)."""

    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> datetime:
        return self.now

    def tick(self, seconds: float = 5) -> None:
        self.now += timedelta(seconds=seconds)


@dataclass
class Seen:
    """One event as each reader received it: `forms[reader]` is its `data` ("seat 0", "spectator",
    "reveal")."""

    seq: int
    type: str
    scenario: str
    forms: dict[str, JSON] = field(default_factory=dict)


@dataclass
class Capture:
    game: str
    schemas: dict[str, JSON] = field(default_factory=dict)  # as `GET /v1/games/{game}` serves them
    matches: dict[str, JSON] = field(default_factory=dict)  # scenario → its `createMatch` request
    views: list[tuple[str, JSON]] = field(default_factory=list)  # (who, view) in play order
    actions: dict[str, JSON] = field(default_factory=dict)  # type → the first one sent
    replies: list[JSON] = field(default_factory=list)  # action replies in play order
    events: list[Seen] = field(default_factory=list)


class Session:
    """A client of the in-process app, recording what it receives into `capture`."""

    def __init__(self, client: httpx.AsyncClient, clock: StillClock, capture: Capture) -> None:
        self.client, self.clock, self.capture = client, clock, capture

    async def call(self, method: str, url: str, token: str | None = None, body: object = None) -> Any:
        self.clock.tick()
        headers = {} if token is None else {"Authorization": f"Bearer {token}"}
        r = await self.client.request(method, url, json=body, headers=headers)
        if r.status_code >= 300:
            raise RuntimeError(f"{method} {url}: {r.status_code} {r.text}")
        return _anonymous(r.json())

    async def create(
        self, scenario: str, players: int, seed: str, join: bool = True, **body: object
    ) -> Match:
        request = {"game": self.capture.game, "players": players, "seed": seed, **body}
        self.capture.matches[scenario] = request
        self.clock.tick()
        r = await self.client.post("/v1/matches", json=request)
        if r.status_code != 201:
            raise RuntimeError(r.text)
        match = Match(self, scenario, r.json()["id"], players, r.json()["host_token"])
        for seat in range(players if join else 0):
            grant = await self.call("POST", f"{match.url}/seats/{seat}", body={"name": NAMES[seat]})
            match.tokens[seat] = grant["token"]
        return match


NAMES: Final = ("Ada", "Bo", "Cy", "Di", "Ed")


@dataclass
class Match:
    session: Session
    scenario: str
    id: str
    players: int
    host: str
    tokens: dict[int, str] = field(default_factory=dict)

    @property
    def url(self) -> str:
        return f"/v1/matches/{self.id}"

    async def view(self, seat: int | None) -> Any:
        return await self.session.call(
            "GET", f"{self.url}/view", self.tokens.get(seat) if seat is not None else None
        )

    async def act(self, seat: int, action: JSON) -> Any:
        capture = self.session.capture
        capture.actions.setdefault(action["type"], action)
        reply = await self.session.call("POST", f"{self.url}/actions", self.tokens[seat], {"action": action})
        capture.replies.append(reply)
        return reply

    async def read_back(self) -> None:
        """Every reader's history and, once the match is over, the reveal."""
        readers: dict[str, str | None] = {f"seat {s}": t for s, t in self.tokens.items()}
        readers["spectator"] = None
        seen: dict[int, Seen] = {}
        for reader, token in readers.items():
            page = await self.session.call("GET", f"{self.url}/events?limit=1000", token)
            for record in page["events"]:
                seen.setdefault(record["seq"], Seen(record["seq"], record["type"], self.scenario))
                seen[record["seq"]].forms[reader] = record["data"]
        summary = await self.session.call("GET", self.url)
        if summary["status"] in ("finished", "aborted"):
            for record in (await self.session.call("GET", f"{self.url}/reveal"))["events"]:
                seen[record["seq"]].forms["reveal"] = record["data"]
        self.session.capture.events.extend(seen[s] for s in sorted(seen))


def _anonymous(value: JSON) -> JSON:
    """`value` with the match's random id replaced by `MATCH_ID`."""
    if isinstance(value, dict):
        return {
            k: MATCH_ID if k in ("match_id", "id") and isinstance(v, str) else _anonymous(v)
            for k, v in value.items()
        }
    if isinstance(value, list):
        return [_anonymous(v) for v in value]
    return value


@asynccontextmanager
async def running() -> AsyncIterator[tuple[FastAPI, httpx.AsyncClient, StillClock]]:
    settings = Settings(
        database_url="memory://", dev_features=True, log_level="WARNING", rate_limit_enabled=False,
        bots_enabled=False, sweep_interval_seconds=0,
    )  # fmt: skip
    app = create_app(settings)
    clock = app.state.clock = StillClock()
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://docs") as client:
            yield app, client, clock


def choose(rng: random.Random, legal: list[JSON]) -> JSON:
    """A random legal action, its type first (so a rare kind, such as a discard, comes up)."""
    kind = rng.choice(sorted({a["type"] for a in legal}))
    return rng.choice([a for a in legal if a["type"] == kind])
