"""Stream test helpers: open a stream on the in-process app, collect its frames in the background.

Protocol 2: after `hello`, one `commit` frame per commit (`{type, seq, events: [...], view?}`);
`Reader.seqs()` lists the seqs of the events of those frames, in the order received."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from functools import cache
from typing import Any, Protocol

import jsonschema  # type: ignore[import-untyped]  # no stubs in the dev extras
from starlette.types import ASGIApp

from app.openapi import FRAMES_PATH
from tests.stream.asgi import GUARD, AsgiSocket, Closed

Frame = dict[str, Any]


def open_player_stream(app: ASGIApp, *, key: str | None = None, after: int | None = None) -> AsgiSocket:
    """`WS /v1/players/me/stream` with the key in the URL (or an `auth` frame to come, when None)."""
    params: dict[str, Any] = {}
    if key is not None:
        params["token"] = key
    if after is not None:
        params["after"] = after
    return AsgiSocket(app, "/v1/players/me/stream", params)


def open_stream(
    app: ASGIApp,
    match_id: str,
    *,
    token: str | None = None,
    spectate: bool = False,
    after: int | None = None,
    views: bool | str = False,
    headers: dict[str, str] | None = None,
    **query: Any,
) -> AsgiSocket:
    params: dict[str, Any] = dict(query)
    if token is not None:
        params["token"] = token
    if spectate:
        params["spectate"] = "1"
    if after is not None:
        params["after"] = after
    if views:
        params["views"] = views if isinstance(views, str) else "1"
    return AsgiSocket(app, f"/v1/matches/{match_id}/stream", params, headers)


class Socket(Protocol):
    """What `Reader` needs of a client socket (`AsgiSocket` in-process, `RealSocket` over TCP)."""

    async def recv(self) -> Any: ...

    async def send(self, frame: Any) -> None: ...

    async def close(self) -> None: ...


class Reader:
    """Reads a stream's frames into `frames` until it closes; `wait_for` a condition on them."""

    def __init__(self, ws: Socket, name: str = "") -> None:
        self.ws = ws
        self.name = name
        self.frames: list[Frame] = []
        self.closed: Closed | None = None
        self._changed = asyncio.Event()
        self._task = asyncio.create_task(self._read())

    async def _read(self) -> None:
        try:
            while True:
                self.frames.append(await self.ws.recv())
                self._changed.set()
        except Closed as closed:
            self.closed = closed
            self._changed.set()

    async def wait_for(self, predicate: Callable[[list[Frame]], bool], what: str = "") -> None:
        async def wait() -> None:
            while not predicate(self.frames):
                if self.closed is not None:
                    raise AssertionError(f"{self.name}: closed ({self.closed}) before {what}")
                self._changed.clear()
                await self._changed.wait()

        await asyncio.wait_for(wait(), GUARD)

    async def wait_for_seq(self, seq: int) -> None:
        await self.wait_for(
            lambda frames: any(f["type"] == "commit" and f["seq"] >= seq for f in frames), f"seq {seq}"
        )

    async def wait_for_close(self) -> Closed:
        await self.wait_for(lambda _: self.closed is not None, "the close")
        assert self.closed is not None
        return self.closed

    def of(self, kind: str) -> list[Frame]:
        return [f for f in self.frames if f["type"] == kind]

    def events(self) -> list[Any]:
        """The events of the `commit` frames, in the order received."""
        return [e for f in self.of("commit") for e in f["events"]]

    def seqs(self) -> list[int]:
        return [e["seq"] for e in self.events()]

    async def stop(self) -> None:
        # Cancelled again while it runs: on Python 3.11 `asyncio.wait_for` (in `AsgiSocket._next`)
        # swallows a cancel that arrives as its frame does, and the reader would then wait out
        # the guard for a frame that never comes (while every other reader starves).
        while not self._task.done():
            self._task.cancel()
            await asyncio.wait({self._task}, timeout=0.05)
        await self.ws.close()


@cache
def _validator(kind: str | None) -> jsonschema.Draft202012Validator:
    """The committed file's validator for one kind of frame, or (None) its root, which a consumer
    of the file would use: any frame of the protocol."""
    schema = json.loads(FRAMES_PATH.read_text(encoding="utf-8"))  # the committed file
    if kind is None:
        return jsonschema.Draft202012Validator(schema)
    return jsonschema.Draft202012Validator({"$ref": f"#/$defs/{kind}", "$defs": schema["$defs"]})


def check_server_frame(frame: Frame) -> None:
    """Raise unless `frame` is a valid server frame of the committed protocol (and so valid
    against the schema's root)."""
    data = json.loads(json.dumps(frame))
    _validator("ServerFrame").validate(data)
    _validator(None).validate(data)


def check_client_frame(frame: Frame) -> None:
    _validator("ClientFrame").validate(frame)
    _validator(None).validate(frame)
