"""Resuming inside a commit: every viewer, at every seq of a multi-event commit, gets each event
exactly once — the rest of that commit first, then the commits after it — whatever the order in
which the connections open and on whichever of two processes (two app instances sharing one store
and one broadcast) they land. A `GET …/events` page may end inside a commit: following from its
last seq loses nothing and repeats nothing."""

from __future__ import annotations

import contextlib
import random
from collections.abc import AsyncIterator, Callable, Sequence
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from app import main
from app.service.ports import MessageHandler
from tests.api.conftest import started
from tests.api.helpers import Table, new_table
from tests.stream.helpers import Reader, check_server_frame, open_stream
from tests.stream.test_protocol import commits, step

Process = tuple[FastAPI, httpx.AsyncClient]
VIEWERS: tuple[int | None, ...] = (0, 1, None)  # each seat of a two-player match, and a spectator


class SharedBus:
    """One in-process broadcast for several apps of the same test (as PostgreSQL or Redis is for
    several processes): a publish reaches every started endpoint subscribed to the match."""

    def __init__(self) -> None:
        self.endpoints: list[Endpoint] = []

    def endpoint(self) -> Endpoint:
        endpoint = Endpoint(self)
        self.endpoints.append(endpoint)
        return endpoint


class Endpoint:
    def __init__(self, bus: SharedBus) -> None:
        self.bus = bus
        self.handler: MessageHandler | None = None
        self.subscribed: dict[str, int] = {}

    async def start(self, handler: MessageHandler) -> None:
        self.handler = handler

    async def stop(self) -> None:
        self.handler = None

    async def publish(self, match_id: str, seq: int) -> None:
        for endpoint in self.bus.endpoints:
            if endpoint.handler is not None and endpoint.subscribed.get(match_id):
                endpoint.handler(match_id, seq)

    async def publish_many(self, items: Sequence[tuple[str, int]]) -> None:
        for match_id, seq in items:
            await self.publish(match_id, seq)

    async def subscribe(self, match_id: str) -> None:
        self.subscribed[match_id] = self.subscribed.get(match_id, 0) + 1

    async def unsubscribe(self, match_id: str) -> None:
        self.subscribed[match_id] -= 1


@pytest.fixture(
    params=[
        "sqlite",
        pytest.param("postgres", marks=pytest.mark.postgres),
        pytest.param("redis", marks=[pytest.mark.postgres, pytest.mark.redis]),
    ]
)
def shared(
    request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch, channel_prefix: str
) -> tuple[str, dict[str, Any]]:
    """One store and one broadcast for two apps: a SQLite file with an in-process bus, or
    PostgreSQL with the PostgreSQL or the Redis broadcaster (the store's URL, the settings)."""
    settings: dict[str, Any] = {"broadcast_prefix": channel_prefix}
    if request.param == "sqlite":
        bus = SharedBus()
        make: Callable[..., Any] = lambda *_, **__: bus.endpoint()  # noqa: E731
        monkeypatch.setattr(main, "create_broadcaster", make)
        return str(request.getfixturevalue("sqlite_url")), settings
    url = str(request.getfixturevalue("postgres_url"))
    settings["broadcast_url"] = (
        url if request.param == "postgres" else str(request.getfixturevalue("redis_url"))
    )
    return url, settings


@pytest.fixture
async def two_processes(shared: tuple[str, dict[str, Any]]) -> AsyncIterator[tuple[Process, Process]]:
    """Two app instances on one store and one broadcast."""
    url, settings = shared
    # One after the other: the first migrates the database, the second finds it done.
    async with started(url, **settings) as a, started(url, **settings) as b:
        yield a, b


async def a_multi_event_commit(table: Table, rng: random.Random) -> list[Any]:
    """Play until the newest commit holds at least three events; its events (public records)."""
    for _ in range(40):
        await step(table, rng)
        last = commits(await table.events(None, limit=1000))[-1]
        if len(last) >= 3:
            return last
    raise AssertionError("no commit of three events or more in 40 moves")


async def caught_up(reader: Reader, after: int, seq: int) -> None:
    """Wait until `reader` has its `hello` and, resumed before `seq`, the frame that ends at `seq`."""
    await reader.wait_for(lambda frames: bool(frames), "hello")
    if after < seq:
        await reader.wait_for_seq(seq)


@pytest.mark.parametrize("order", ["ascending", "descending"])
async def test_every_viewer_resumed_at_every_seq_of_a_commit_gets_each_event_once(
    two_processes: tuple[Process, Process], order: str
) -> None:
    (app_a, client_a), (app_b, _) = two_processes
    table = await new_table(client_a, "mount_drago", 2, seed="resume-inside")
    rng = random.Random(3)
    commit = await a_multi_event_commit(table, rng)
    first, last = commit[0]["seq"], commit[-1]["seq"]
    afters = list(range(first - 1, last + 1))  # before the commit, inside it, at its end
    if order == "descending":
        afters.reverse()
    readers: list[tuple[Reader, int | None, int]] = []
    try:
        for after in afters:
            for viewer in VIEWERS:
                for name, app in (("A", app_a), ("B", app_b)):
                    credential: dict[str, Any] = (
                        {"spectate": True} if viewer is None else {"token": table.tokens[viewer]}
                    )
                    ws = open_stream(app, table.match_id, after=after, **credential)
                    await ws.__aenter__()
                    reader = Reader(ws, f"viewer {viewer} after {after} on {name}")
                    readers.append((reader, viewer, after))
                    await caught_up(reader, after, last)  # its backlog, the others' frames cached
        final = await step(table, rng)  # and one live commit to all of them
        expected = {viewer: await table.events(viewer, limit=1000) for viewer in VIEWERS}
        for reader, viewer, after in readers:
            await reader.wait_for_seq(final)
            assert reader.closed is None, reader.name
            assert reader.seqs() == list(range(after + 1, final + 1)), reader.name
            assert reader.events() == expected[viewer][after:final], reader.name
            for frame in reader.frames:
                check_server_frame(frame)
                if frame["type"] == "commit":  # a whole commit, or the rest of one
                    assert {e["commit"] for e in frame["events"]} == {frame["seq"]}, reader.name
    finally:
        for reader, _, _ in readers:
            await reader.stop()


async def test_following_an_events_page_that_ends_inside_a_commit(
    two_processes: tuple[Process, Process],
) -> None:
    (app_a, client_a), (app_b, _) = two_processes
    table = await new_table(client_a, "mount_drago", 2, seed="page-then-follow")
    rng = random.Random(5)
    commit = await a_multi_event_commit(table, rng)
    first, last = commit[0]["seq"], commit[-1]["seq"]
    followers: list[tuple[list[Any], Reader, int | None]] = []
    async with contextlib.AsyncExitStack() as stack:
        # A page that ends before the commit, then pages that end inside it, all followed at once.
        for size in range(first - 1, last):
            for viewer in VIEWERS:
                for app in (app_a, app_b):
                    page = await table.events(viewer, limit=size)
                    assert page[-1]["seq"] == size
                    credential: dict[str, Any] = (
                        {"spectate": True} if viewer is None else {"token": table.tokens[viewer]}
                    )
                    ws = open_stream(app, table.match_id, after=page[-1]["seq"], **credential)
                    await stack.enter_async_context(ws)
                    reader = Reader(ws, f"viewer {viewer} after a page of {size}")
                    stack.push_async_callback(reader.stop)
                    await reader.wait_for_seq(last)
                    followers.append((page, reader, viewer))
        for page, reader, viewer in followers:
            assert reader.closed is None, reader.name
            assert page + reader.events() == await table.events(viewer, limit=1000), reader.name
