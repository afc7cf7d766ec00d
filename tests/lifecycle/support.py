"""Shared steps of the lifecycle tests: matches whose seat 0 moves first, following them live, and
reading the log grouped by commit."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import httpx
from fastapi import FastAPI

from tests.api.helpers import Table, eventually, new_table
from tests.stream.helpers import Reader, open_stream


async def drago(client: httpx.AsyncClient, players: int = 2, **body: Any) -> Table:
    """A started Mount Drago match whose seat 0 decides first."""
    options = {"first_player": 0, **body.pop("options", {})}
    return await new_table(client, "mount_drago", players, options=options, **body)


def commits(events: list[Any]) -> list[list[Any]]:
    """The events grouped by commit, in order."""
    groups: list[list[Any]] = []
    for event in events:
        if groups and groups[-1][-1]["commit"] == event["commit"]:
            groups[-1].append(event)
        else:
            groups.append([event])
    return groups


def kinds(group: list[Any]) -> list[str]:
    return [e["type"] for e in group]


async def moved_past(table: Table, seq: int) -> Any:
    """The summary once the match is beyond `seq` (a bot decided, say)."""

    async def check() -> Any:
        summary = await table.summary()
        return summary if summary["seq"] > seq else None

    return await eventually(check, f"match {table.match_id} beyond seq {seq}")


@asynccontextmanager
async def following(app: FastAPI, table: Table, *, token: str | None = None) -> AsyncIterator[Reader]:
    """A live stream of the match from its seq now (a spectator unless `token`), read in the background."""
    kwargs: dict[str, Any] = {"token": token} if token is not None else {"spectate": True}
    async with open_stream(app, table.match_id, views=True, **kwargs) as ws:
        reader = Reader(ws, "follower")
        await reader.wait_for(lambda fs: bool(fs), "hello")
        assert reader.frames[0]["type"] == "hello", reader.frames[0]
        try:
            yield reader
        finally:
            await reader.stop()


async def frames_through(reader: Reader, seq: int) -> list[list[str]]:
    """The event types of each commit frame received, once the frame of `seq` has come."""
    await reader.wait_for_seq(seq)
    return [kinds(f["events"]) for f in reader.of("commit")]
