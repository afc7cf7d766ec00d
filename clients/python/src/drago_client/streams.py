"""Following a match or a player's notices over WebSocket, resuming exactly after every reconnect.

`follow` yields a match's commit frames in seq order; `follow_player` yields a player's notices in
cursor order; `follow_chat` yields a match's chat frames in `chat_seq` order (its cursor is
`chat_after`, with gaps: other rooms). Each keeps `last` — the `after` of the first `hello`, then
the seq (cursor) of every frame yielded — and reconnects with `?after=<last>` (`?chat_after=`)
whenever the server closes with a code that says
"come back" (1001 going away, 1006 abnormal, 1011 internal error, 1012 restart, 1013 try later,
4008 slow consumer) or cannot be reached, waiting as the `Retry` policy says (4429, rate limited:
at least the server's `retry_after`). The server then sends exactly what came after `last`; a frame
at or before `last` is dropped, and one that would leave a gap makes the client reconnect, so a
seq is never yielded twice nor skipped. Other closes raise: the `ApiError` of the server's `error`
frame (`Unauthorized`, `NotFound`…) or `StreamClosed`.

The credential goes in the `Authorization` header (out of URLs and logs); without one a match
stream is followed as a spectator (`spectate=1`).
"""

from __future__ import annotations

import json
from collections.abc import AsyncGenerator
from contextlib import aclosing
from dataclasses import dataclass
from typing import Any, Literal, overload
from urllib.parse import quote, urlencode

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus, InvalidURI

from drago_client import models, wire
from drago_client.errors import BY_CODE, ApiError, DecodeError, RateLimited, StreamClosed, api_error
from drago_client.retry import Retry
from drago_client.transport import USER_AGENT, AsyncTransport

PROTOCOL = 2
"""The stream protocol version this client speaks, sent as `?protocol=` (docs/streams.md)."""
RETRYABLE = frozenset({1001, 1006, 1011, 1012, 1013, 4008})
"""Close codes after which the protocol says: reconnect with `after` (docs/streams.md)."""
RATE_LIMITED = 4429
STREAM_RETRY = Retry(attempts=20, backoff=0.5, max_backoff=30.0)
"""Reconnects in a row before giving up: about ten minutes of a server that stays away."""
_OVER = ("finished", "aborted")
_PONG = '{"type":"pong"}'


@dataclass
class _Close:
    """How a connection ended: the close code and reason, and the `error` frame sent before it."""

    code: int = 1006
    reason: str = ""
    refusal: ApiError | None = None


class _Link:
    """One stream's reconnections: failures in a row, and the wait (or the error) after a close."""

    def __init__(self, transport: AsyncTransport, retry: Retry | None) -> None:
        self.transport = transport
        self.retry = retry or STREAM_RETRY
        self.failures = 0

    def connected(self) -> None:
        self.failures = 0

    async def reopen(self, close: _Close) -> None:
        """Wait before the next connection, or raise when this close is final."""
        wait_at_least = 0.0
        if close.code == RATE_LIMITED:
            error = close.refusal if isinstance(close.refusal, RateLimited) else RateLimited(close.reason)
            details = error.details if isinstance(error.details, dict) else {}
            wait_at_least = float(details.get("retry_after") or error.retry_after or 1.0)
            final: Exception = error
        elif close.code in RETRYABLE:
            final = StreamClosed(close.code, close.reason)
        else:
            raise close.refusal or StreamClosed(close.code, close.reason)
        if self.failures + 1 >= self.retry.attempts:
            raise final
        await self.transport.sleep(self.retry.delay(self.failures, wait_at_least))
        self.failures += 1


def stream_url(base_url: str, path: str, query: dict[str, str]) -> str:
    """The `ws://` (`wss://`) URL of a stream under an `http://` (`https://`) base URL."""
    base = "ws" + base_url[len("http") :] if base_url.startswith("http") else base_url
    return f"{base.rstrip('/')}{path}?{urlencode(query)}"


def _connect(url: str, credential: str | None) -> Any:
    headers = {"User-Agent": USER_AGENT}
    if credential is not None:
        headers["Authorization"] = f"Bearer {credential}"
    # close_timeout: when the consumer stops early, frames it did not read may hold up the server's
    # close behind them; waiting the default 10 s for it would only delay the caller.
    return connect(
        url, additional_headers=headers, compression=None, open_timeout=10, close_timeout=1, max_size=2**24
    )


async def _frames(ws: ClientConnection, close: _Close) -> AsyncGenerator[dict[str, Any], None]:
    """The JSON frames of one connection; answers `ping`, records a refusal and the close."""
    try:
        async for message in ws:
            frame = json.loads(message)
            if not isinstance(frame, dict):
                raise DecodeError("a frame is not a JSON object")
            kind = frame.get("type")
            if kind == "ping":
                await ws.send(_PONG)
            elif kind == "error" and frame.get("id") is None:
                code = frame.get("error", {}).get("code")
                known = BY_CODE.get(code) if isinstance(code, str) else None
                close.refusal = api_error(
                    frame, known.status if known else 400
                )  # the HTTP status of its code
            else:
                yield frame
        close.code, close.reason = ws.close_code or 1006, ws.close_reason or ""
    except ConnectionClosed as e:
        close.code = e.rcvd.code if e.rcvd is not None else 1006
        close.reason = e.rcvd.reason if e.rcvd is not None else ""


def _handshake_failure(error: Exception, close: _Close) -> None:
    """A connection that never opened: retryable unless the server said no for good."""
    if isinstance(error, InvalidURI):
        raise error
    status = error.response.status_code if isinstance(error, InvalidStatus) else None
    if status is not None and status < 500 and status != 429:
        raise StreamClosed(status, f"the server refused the WebSocket with HTTP {status}")
    close.code, close.reason = 1006, f"{type(error).__name__}: {error}"


@overload
def follow(
    transport: AsyncTransport, match_id: str, token: str | None = ..., after: int | None = ...,
    *, views: bool = ..., hellos: Literal[False] = ..., until_end: bool = ..., retry: Retry | None = ...,
) -> AsyncGenerator[models.CommitFrame, None]: ...  # fmt: skip
@overload
def follow(
    transport: AsyncTransport, match_id: str, token: str | None = ..., after: int | None = ...,
    *, views: bool = ..., hellos: Literal[True], until_end: bool = ..., retry: Retry | None = ...,
) -> AsyncGenerator[models.CommitFrame | models.HelloFrame, None]: ...  # fmt: skip
async def follow(
    transport: AsyncTransport,
    match_id: str,
    token: str | None = None,
    after: int | None = None,
    *,
    views: bool = True,
    hellos: bool = False,
    until_end: bool = True,
    retry: Retry | None = None,
) -> AsyncGenerator[Any, None]:
    """A match's commits after `after` (None: from now), each once, in order, across reconnects.

    `token`: a seat token or player key (None: the client's, else a spectator). `views`: commits
    carry the viewer's view. `hellos`: also yield each connection's `hello` (its view is the state
    on connecting: a bot decides on it). `until_end`: stop after the commit that ends the match.
    """
    link, last, game = _Link(transport, retry), after, None
    credential = token if token is not None else transport.token
    path = f"/v1/matches/{quote(match_id, safe='')}/stream"
    while True:
        query = {"protocol": str(PROTOCOL), "views": "1" if views else "0"}
        if last is not None:
            query["after"] = str(last)
        if credential is None:
            query["spectate"] = "1"
        close = _Close()
        try:
            async with (
                _connect(stream_url(transport.base_url, path, query), credential) as ws,
                aclosing(_frames(ws, close)) as frames,
            ):
                async for frame in frames:
                    kind = frame.get("type")
                    if kind == "hello":
                        hello = wire.decode(models.HelloFrame, frame)
                        link.connected()
                        game = hello.view.game
                        last = hello.after if last is None else last
                        if hellos:
                            yield hello
                        if until_end and hello.view.status in _OVER and hello.seq <= last:
                            return
                    elif kind == "commit" and last is not None:
                        commit = wire.decode(models.CommitFrame, frame, game=game)
                        if commit.seq <= last:
                            continue  # seen already
                        if (commit.events[0].seq if commit.events else commit.seq) != last + 1:
                            close.code, close.reason = 1006, f"gap after seq {last}"
                            break  # reconnect with after=last: the server sends the missing commits
                        yield commit
                        last = commit.seq
                        if until_end and any(e.type == "match_ended" for e in commit.events):
                            return
        except (OSError, TimeoutError, InvalidHandshake) as e:
            _handshake_failure(e, close)
        await link.reopen(close)


async def follow_chat(
    transport: AsyncTransport,
    match_id: str,
    token: str | None = None,
    chat_after: int | None = None,
    *,
    retry: Retry | None = None,
) -> AsyncGenerator[models.ChatFrame, None]:
    """A match's chat messages after `chat_after` (None: from now) in the rooms the viewer may
    read, each once, in `chat_seq` order, across reconnects (docs/chat.md). It does not stop at
    the match's end (players may chat on); close the generator when done.

    Chat cursors have gaps (other rooms, blocked authors): a frame at or before the last one is
    dropped, nothing else is checked. `token`: a seat token or a player key (None: the client's,
    else an anonymous spectator, who reads the spectators' room only).
    """
    link, last = _Link(transport, retry), chat_after
    credential = token if token is not None else transport.token
    path = f"/v1/matches/{quote(match_id, safe='')}/stream"
    while True:
        query = {"protocol": str(PROTOCOL), "views": "0"}
        if last is not None:
            query["chat_after"] = str(last)
        if credential is None:
            query["spectate"] = "1"
        close = _Close()
        try:
            async with (
                _connect(stream_url(transport.base_url, path, query), credential) as ws,
                aclosing(_frames(ws, close)) as frames,
            ):
                async for frame in frames:
                    kind = frame.get("type")
                    if kind == "hello":
                        hello = wire.decode(models.HelloFrame, frame)
                        link.connected()
                        last = hello.chat_seq if last is None else last
                    elif kind == "chat" and last is not None:
                        chat = wire.decode(models.ChatFrame, frame)
                        if chat.chat_seq <= last:
                            continue  # seen already
                        yield chat
                        last = chat.chat_seq
        except (OSError, TimeoutError, InvalidHandshake) as e:
            _handshake_failure(e, close)
        await link.reopen(close)


@overload
def follow_player(
    transport: AsyncTransport, key: str | None = ..., after: int | None = ..., *,
    hellos: Literal[False] = ..., retry: Retry | None = ...,
) -> AsyncGenerator[models.NoticeFrame, None]: ...  # fmt: skip
@overload
def follow_player(
    transport: AsyncTransport, key: str | None = ..., after: int | None = ..., *,
    hellos: Literal[True], retry: Retry | None = ...,
) -> AsyncGenerator[models.NoticeFrame | models.PlayerHelloFrame, None]: ...  # fmt: skip
async def follow_player(
    transport: AsyncTransport,
    key: str | None = None,
    after: int | None = None,
    *,
    hellos: bool = False,
    retry: Retry | None = None,
) -> AsyncGenerator[Any, None]:
    """A player's notices after cursor `after` (None: from now), each once, in order, forever.

    `key`: the player key (None: the client's). `hellos`: also yield each connection's `hello`
    (a bot looks at its matches then: it may have missed nothing, yet be on turn).
    """
    link, last = _Link(transport, retry), after
    credential = key if key is not None else transport.token
    if credential is None:
        raise ValueError("follow_player needs a player key")
    while True:
        query = {"protocol": str(PROTOCOL)}
        if last is not None:
            query["after"] = str(last)
        close = _Close()
        try:
            url = stream_url(transport.base_url, "/v1/players/me/stream", query)
            async with _connect(url, credential) as ws, aclosing(_frames(ws, close)) as frames:
                async for frame in frames:
                    kind = frame.get("type")
                    if kind == "hello":
                        hello = wire.decode(models.PlayerHelloFrame, frame)
                        link.connected()
                        last = hello.after if last is None else last
                        if hellos:
                            yield hello
                    elif kind == "notice" and last is not None:
                        notice = wire.decode(models.NoticeFrame, frame)
                        if notice.cursor <= last:
                            continue
                        if notice.cursor != last + 1:
                            close.code, close.reason = 1006, f"gap after cursor {last}"
                            break
                        yield notice
                        last = notice.cursor
        except (OSError, TimeoutError, InvalidHandshake) as e:
            _handshake_failure(e, close)
        await link.reopen(close)
