"""Chat test helpers: a two-seat match whose seats are held by player keys (or a seat token), its
spectators (player keys without a seat, and anonymous), and the rights of docs/chat.md written
out independently of `app.service.chat_rights`, as the oracle the tests check every page and
frame against."""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Any

import httpx

from tests.api.helpers import create, join
from tests.players.support import bearer, new_player

_names = itertools.count()


@dataclass
class Person:
    """Someone who may read the chat: a credential (None: anonymous) and, if seated, the seat."""

    label: str
    credential: str | None
    player_id: str | None = None
    seat: int | None = None

    def headers(self) -> dict[str, str]:
        return {} if self.credential is None else bearer(self.credential)


@dataclass
class ChatTable:
    client: httpx.AsyncClient
    match_id: str
    seats: list[Person]
    watchers: list[Person]  # player keys without a seat
    anonymous: Person = field(default_factory=lambda: Person("anonymous", None))

    @property
    def url(self) -> str:
        return f"/v1/matches/{self.match_id}"

    @property
    def everyone(self) -> list[Person]:
        return [*self.seats, *self.watchers, self.anonymous]

    def on(self, client: httpx.AsyncClient) -> ChatTable:
        return ChatTable(client, self.match_id, self.seats, self.watchers, self.anonymous)

    async def post(self, who: Person, room: str, text: str) -> httpx.Response:
        return await self.client.post(
            f"{self.url}/chat", json={"room": room, "text": text}, headers=who.headers()
        )

    async def page(self, who: Person, **params: Any) -> httpx.Response:
        return await self.client.get(f"{self.url}/chat", params=params, headers=who.headers())

    async def read_all(self, who: Person, room: str | None = None, limit: int = 7) -> list[Any]:
        """Every message `who` may read, page by page (`next` followed to the end)."""
        messages: list[Any] = []
        after = 0
        while True:
            params: dict[str, Any] = {"after": after, "limit": limit}
            if room is not None:
                params["room"] = room
            r = await self.page(who, **params)
            assert r.status_code == 200, r.text
            messages.extend(r.json()["messages"])
            if r.json()["next"] is None:
                return messages
            after = r.json()["next"]

    async def resign(self, seat: int) -> None:
        r = await self.client.post(f"{self.url}/resign", headers=self.seats[seat].headers())
        assert r.status_code == 200, r.text

    async def status(self) -> str:
        r = await self.client.get(self.url)
        return str(r.json()["status"])


async def person(client: httpx.AsyncClient, label: str) -> Person:
    player_id, key = await new_player(client, f"chat-{label}-{next(_names)}")
    return Person(label, key, player_id)


async def chat_table(
    client: httpx.AsyncClient,
    *,
    watchers: int = 1,
    seat_token: bool = False,
    start: bool = True,
    **settings: Any,
) -> ChatTable:
    """A two-player Mount Drago match: seat 0 by a player key (or a seat token), seat 1 by a key
    (left free unless `start`), and `watchers` player keys without a seat."""
    r = await create(client, "mount_drago", 2, **settings)
    assert r.status_code == 201, r.text
    match_id, invite = r.json()["id"], r.json()["invite"]
    seats = []
    for seat in range(2 if start else 1):
        if seat == 0 and seat_token:
            r = await join(client, match_id, 0, invite=invite)
            assert r.status_code == 201, r.text
            seats.append(Person("seat 0", r.json()["token"], None, 0))
            continue
        p = await person(client, f"seat{seat}")
        r = await join(client, match_id, seat, invite=invite, key=p.credential)
        assert r.status_code == 201, r.text
        p.seat = seat
        seats.append(p)
    spectators = [await person(client, f"watcher{i}") for i in range(watchers)]
    return ChatTable(client, match_id, seats, spectators)


def may_read(who: Person, room: str, over: bool, spectator_chat: bool = True) -> bool:
    """docs/chat.md: players read `players`, others `spectators`; after the end everyone reads both."""
    if room == "spectators" and not spectator_chat:
        return False
    if over:
        return True
    return (who.seat is not None) == (room == "players")


def may_write(who: Person, room: str, over: bool) -> bool:
    if who.seat is not None:
        return room == "players" or over
    return who.credential is not None and room == "spectators"
