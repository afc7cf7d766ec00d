"""The live stream of a match over one WebSocket: a handshake, then two tasks and a cursor.

After `accept`, the sender task authenticates the connection (token in the URL, a Bearer header or
an `auth` first frame; none means a spectator), subscribes to the process's `LiveHub` after the
cursor (`after`, else the seq now), sends `hello` and then every event redacted for its viewer,
in seq order, as the shared `MatchFrames` text. A receiver task answers client frames (actions,
pings) and a heartbeat task sends `ping` frames (and the view when a waiting match starts, which
writes no event). Whatever ends a session first — the client leaving, the hub dropping a slow
consumer, a bad frame, the server going away — resolves its outcome once; then the tasks are
cancelled and the socket is closed with that code (`app.api.frames.Close`).

Graceful shutdown: uvicorn closes open WebSockets with 1012 *before* the app's lifespan ends, so
`Streaming` hooks SIGTERM/SIGINT: the first signal closes every stream with 1001 — those still
waiting for their `auth` frame too — and waits (at most `CLOSE_WAIT`) until each close frame is
out, and only then hands the signal to the server's own handler, which stops accepting, lets
in-flight HTTP requests finish and ends the lifespan. (Handing it over at once, as before, raced
uvicorn's shutdown: with many streams some got 1012.) A second signal goes to the server at once.
At the lifespan's end whatever is left gets 1001 the same way.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import re
import signal
import threading
from collections.abc import Callable, Coroutine
from types import FrameType
from typing import Any

from starlette.types import Message
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketDisconnected

from app.api.frames import (
    PING,
    PONG,
    PROTOCOL,
    ActionFrame,
    AuthFrame,
    Close,
    InvalidAction,
    PingFrame,
    ProtocolError,
    ack_frame,
    close_code,
    error_frame,
    parse_client_frame,
)
from app.api.metrics import Metrics
from app.api.ratelimit import Limiter, client_ip
from app.api.schemas import SEQ_LIMIT
from app.service import errors as svc
from app.service.live import GoingAway, LiveHub, SlowConsumer, Subscription
from app.service.matches import MatchService
from app.service.streams import MatchFrames, NotificationTap, Streams, dumps
from app.settings import Settings

log = logging.getLogger("app.stream")


_TRUE, _FALSE = ("1", "true"), ("0", "false", "")
_AFTER = re.compile(r"[0-9]{1,19}")  # ASCII digits only, as HTTP query integers: `after=١` is refused
CLOSE_WAIT = 5.0  # seconds the lifespan's end waits for streams to send their close


class Streaming:
    """The process's stream edge: settings, open sessions, going away."""

    def __init__(
        self,
        service: MatchService,
        hub: LiveHub,
        tap: NotificationTap,
        settings: Settings,
        metrics: Metrics,
        limiter: Limiter | None = None,
    ) -> None:
        self.service = service
        self.limiter = limiter
        self.connection_ids = itertools.count(1)
        self.hub = hub
        self.streams = Streams(service.loader)
        self.heartbeat = settings.stream_heartbeat_seconds
        self.auth_timeout = settings.stream_auth_timeout_seconds
        self.max_frame_bytes = settings.max_body_bytes
        self.metrics = metrics
        self.sessions: set[Session] = set()
        self.closing = False
        self._signalled = False
        self._draining: asyncio.Task[None] | None = None
        self._hooked: dict[int, tuple[Callable[[int, FrameType | None], Any], Any]] = {}
        tap.listener = self.streams.notified
        metrics.watch("drago_live", hub.stats, gauges=("matches", "subscribers"))
        metrics.watch("drago_stream", self.streams.stats, gauges=("matches", "connections"))
        self._hook_signals()

    async def serve(self, ws: WebSocket, match_id: str) -> None:
        await Session(self, ws, match_id).run()

    def going_away(self) -> None:
        """Close every stream with 1001 (and refuse new ones the same way)."""
        self.closing = True
        for session in list(self.sessions):
            session.end(Close.GOING_AWAY, "server going away")

    async def close(self) -> None:
        """At the lifespan's end: 1001 to every stream still open, then wait (briefly) for them."""
        self._unhook_signals()
        self.going_away()
        await self._all_closed()

    async def _all_closed(self) -> None:
        """Wait (at most `CLOSE_WAIT`) until every session has sent its close, those that open
        meanwhile included."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + CLOSE_WAIT
        while self.sessions and (left := deadline - loop.time()) > 0:
            waits = [asyncio.ensure_future(s.finished.wait()) for s in self.sessions]
            try:
                await asyncio.wait(waits, timeout=left)
            finally:
                for wait in waits:
                    wait.cancel()

    async def _go_away_then(self, server_handler: Callable[[], None]) -> None:
        try:
            self.going_away()
            await self._all_closed()
        finally:
            server_handler()  # now uvicorn may shut down: no stream is left for it to close with 1012

    def _hook_signals(self) -> None:
        if threading.current_thread() is not threading.main_thread():
            return
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            previous = signal.getsignal(sig)
            if not callable(previous):
                continue  # no server handler to chain to: nothing would close the sockets early

            def handler(signum: int, frame: FrameType | None, previous: Any = previous) -> None:
                if self._signalled:  # a second signal: the server's own handling (a forced exit)
                    previous(signum, frame)
                    return
                self._signalled = True
                try:
                    loop.call_soon_threadsafe(self._drain, lambda: previous(signum, frame))
                except RuntimeError:  # the loop is closed already
                    previous(signum, frame)

            signal.signal(sig, handler)
            self._hooked[sig] = (handler, previous)

    def _drain(self, server_handler: Callable[[], None]) -> None:
        self._draining = asyncio.get_running_loop().create_task(self._go_away_then(server_handler))

    def _unhook_signals(self) -> None:
        for sig, (handler, previous) in self._hooked.items():
            if signal.getsignal(sig) is handler:
                signal.signal(sig, previous)
        self._hooked.clear()


class Session:
    """One WebSocket stream."""

    def __init__(self, edge: Streaming, ws: WebSocket, match_id: str) -> None:
        self.edge = edge
        self.ws = ws
        self.match_id = match_id
        self.seat: int | None = None
        self.connection = f"{next(edge.connection_ids)}"  # the key of its frame budget
        self.credential: str | None = None
        self.finished = asyncio.Event()
        self._outcome: asyncio.Future[tuple[int, str] | None] = asyncio.get_running_loop().create_future()
        self._tasks: set[asyncio.Task[None]] = set()
        self._frames: MatchFrames | None = None
        self._views = False
        self._sent_seq = 0  # the cursor: the seq of the last event frame sent
        self._view_at = (0, "")  # (seq, status) of the last view sent (in hello or a view frame)

    def end(self, code: int | None, reason: str = "") -> None:
        """Finish the session: close with `code`, or just stop when `code` is None (the client left)."""
        if not self._outcome.done():
            self._outcome.set_result(None if code is None else (code, reason))

    async def run(self) -> None:
        edge = self.edge
        counters = edge.streams.counters
        try:
            await self.ws.accept()
        except (WebSocketDisconnect, WebSocketDisconnected):
            self.finished.set()
            return
        edge.sessions.add(self)
        counters.connections += 1
        try:
            await self._run()
        finally:  # `finished` once the close frame is out: going away waits for it
            edge.sessions.discard(self)
            counters.connections -= 1
            self.finished.set()

    async def _run(self) -> None:
        try:
            if self.edge.closing:
                self.end(Close.GOING_AWAY, "server going away")
            else:
                self._spawn(self._stream())
            outcome = await self._outcome
        finally:
            tasks = list(self._tasks)
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
        code = "client" if outcome is None else str(outcome[0])
        self.edge.metrics.stream_closed(code)
        log.info(
            "stream closed",
            extra={"match_id": self.match_id, "seat": self.seat, "code": code, "seq": self._sent_seq},
        )
        if outcome is not None:
            with contextlib.suppress(WebSocketDisconnect, WebSocketDisconnected):
                await self.ws.close(outcome[0], _reason(outcome[1]))

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.create_task(self._guard(work))
        self._tasks.add(task)

    async def _guard(self, work: Coroutine[Any, Any, None]) -> None:
        """Run one of the session's tasks; whatever ends it becomes the session's outcome."""
        try:
            await work
        except (WebSocketDisconnect, WebSocketDisconnected):
            self.end(None)
        except SlowConsumer:
            self.end(Close.SLOW_CONSUMER, f"slow consumer: reconnect with after={self._sent_seq}")
        except GoingAway:
            self.end(Close.GOING_AWAY, "server going away")
        except ProtocolError as e:
            self.end(e.code, e.reason)
        except svc.ServiceError as e:
            with contextlib.suppress(WebSocketDisconnect, WebSocketDisconnected):
                await self._send(error_frame(None, e))
            self.end(close_code(e), f"{e.code}: {e.message}")
        except Exception:
            log.exception("stream failed", extra={"match_id": self.match_id, "seat": self.seat})
            self.end(Close.INTERNAL_ERROR, "internal error")

    async def _send(self, text: str) -> None:
        await self.ws.send_text(text)
        self.edge.streams.counters.frames_sent += 1

    # The sender: handshake, hello, then the events after the cursor.

    async def _stream(self) -> None:
        edge = self.edge
        after, token = await self._handshake()
        self.credential = token
        self.seat = None if token is None else await edge.service.authorize(self.match_id, token)
        async with edge.streams.open(self.match_id) as frames:
            self._frames = frames
            state = await frames.current()
            if after is None:
                after = state.seq
            elif after > state.seq:
                message = f"after must be at most the match's seq, {state.seq}"
                raise svc.ValidationFailed(message, {"field": "after", "seq": state.seq})
            async with edge.hub.subscribe(self.match_id, after) as sub:
                self._sent_seq = after
                self._view_at = (state.seq, frames.status if frames.state is state else state.status)
                hello = {
                    "type": "hello",
                    "protocol": PROTOCOL,
                    "match_id": self.match_id,
                    "seat": self.seat,
                    "seq": state.seq,
                    "after": after,
                    "views": self._views,
                    "heartbeat": edge.heartbeat,
                }
                await self._send(f'{dumps(hello)[:-1]},"view":{frames.view_json(state, self.seat)}}}')
                self._spawn(self._receive())
                self._spawn(self._heartbeat())
                await self._send_events(sub, frames)

    async def _send_events(self, sub: Subscription, frames: MatchFrames) -> None:
        viewer = self.seat
        send_text = self.ws.send_text  # the hot path: one coroutine layer less than `_send`
        counters = self.edge.streams.counters
        async for event in sub:
            await send_text(frames.event_frame(event, viewer))
            counters.frames_sent += 1
            self._sent_seq = event.seq
            if self._views:
                state = frames.state
                if state is None or state.seq < event.seq:
                    state = await frames.at_least(event.seq)
                if state.seq == event.seq:
                    await self._maybe_view()
            elif self._view_at[1] == "waiting":
                await self._maybe_view()

    async def _maybe_view(self) -> None:
        """Send the view of the newest state if this connection has all its events and is due one:
        with `views=1` whenever it changed, else only when the match has started."""
        frames = self._frames
        state = frames.state if frames is not None else None
        if frames is None or state is None or state.seq != self._sent_seq:
            return
        status = frames.status
        if self._views:
            due = (state.seq, status) != self._view_at
        else:
            due = self._view_at[1] == "waiting" and status != "waiting"
        if due:
            self._view_at = (state.seq, status)
            await self._send(frames.view_frame(state, self.seat))

    async def _handshake(self) -> tuple[int | None, str | None]:
        """Parse the query; the `after` cursor (None: from now) and the token (None: spectator)."""
        query = self.ws.query_params
        if len(self.match_id) > 64:
            raise svc.NotFound("no such match")
        after = query.get("after")
        if after is not None and (not _AFTER.fullmatch(after) or int(after) >= SEQ_LIMIT):
            raise ProtocolError(f"after must be a whole number from 0 to {SEQ_LIMIT - 1}")
        self._views = _flag(query.get("views"), "views")
        spectate = _flag(query.get("spectate"), "spectate")
        header = self.ws.headers.get("authorization")
        tokens = [t for t in (_bearer(header), query.get("token")) if t is not None]
        if len(tokens) + spectate > 1:
            raise ProtocolError("send one of: token, Authorization, spectate=1")
        if tokens:
            return (None if after is None else int(after)), tokens[0]
        if spectate:
            return (None if after is None else int(after)), None
        token = await self._auth_frame()
        return (None if after is None else int(after)), token

    async def _auth_frame(self) -> str | None:
        timeout = self.edge.auth_timeout
        try:
            message = await asyncio.wait_for(self.ws.receive(), timeout)
        except TimeoutError:
            raise svc.Unauthorized(
                f"send the token: an auth frame within {timeout:g} s, ?token=…, or ?spectate=1"
            ) from None
        frame = self._read(message)
        if frame is None:
            raise WebSocketDisconnect()
        if not isinstance(frame, AuthFrame):
            raise ProtocolError('the first frame must be {"type":"auth","token":…}')
        if frame.token == "":
            raise svc.Unauthorized("this token is not valid")
        return frame.token

    # The receiver

    def _read(self, message: Message) -> Any:
        """The client frame in an ASGI message (None when the client left)."""
        if message["type"] == "websocket.disconnect":
            return None
        limiter = self.edge.limiter
        if limiter is not None and (refusal := limiter.frame(self.connection)) is not None:
            raise refusal.error()  # an error frame, then close 4429
        text = message.get("text")
        if text is None:
            raise ProtocolError("frames are JSON text", Close.UNSUPPORTED_DATA)
        if len(text) > self.edge.max_frame_bytes or len(text.encode()) > self.edge.max_frame_bytes:
            raise ProtocolError(f"frames are at most {self.edge.max_frame_bytes} bytes", Close.TOO_BIG)
        try:
            return parse_client_frame(text)
        except InvalidAction as e:
            return e

    async def _receive(self) -> None:
        while True:
            frame = self._read(await self.ws.receive())
            if frame is None:
                self.end(None)
                return
            if isinstance(frame, InvalidAction):
                await self._send(error_frame(frame.frame_id, frame.error))
            elif isinstance(frame, ActionFrame):
                await self._act(frame)
            elif isinstance(frame, PingFrame):
                await self._send(PONG)
            elif isinstance(frame, AuthFrame):
                error = svc.ValidationFailed("already authenticated: auth is only ever the first frame")
                await self._send(error_frame(None, error))
            # a pong needs no answer

    async def _act(self, frame: ActionFrame) -> None:
        error: svc.ServiceError
        limiter = self.edge.limiter
        refusal = None
        if limiter is not None and self.seat is not None:
            refusal = await limiter.check("actions", client_ip(self.ws.scope), self.credential)
        if self.seat is None:
            error = svc.Unauthorized("spectators cannot act: connect with a seat token")
        elif refusal is not None:
            error = refusal.error()  # the same budget as HTTP actions: the socket is no way around it
        else:
            try:
                reply = await self.edge.service.submit_action(
                    self.match_id, self.seat, frame.action, frame.expected_seq, frame.idempotency_key
                )
            except svc.ServiceError as e:
                error = e
            except Exception:
                log.exception("stream action failed", extra={"match_id": self.match_id, "seat": self.seat})
                error = svc.InternalError()
            else:
                await self._send(ack_frame(frame.id, int(reply["seq"])))
                return
        await self._send(error_frame(frame.id, error))

    # The heartbeat

    async def _heartbeat(self) -> None:
        interval = self.edge.heartbeat
        frames = self._frames
        assert frames is not None
        while True:
            if self._view_at[1] == "waiting" and not frames.started.is_set():
                try:
                    await asyncio.wait_for(frames.started.wait(), interval)
                except TimeoutError:
                    pass
                else:
                    await self._maybe_view()  # else the sender sends it when it gets there
                    continue
            else:
                await asyncio.sleep(interval)
            await self._send(PING)


def _flag(value: str | None, name: str) -> bool:
    if value is None or value.lower() in _FALSE:
        return False
    if value.lower() in _TRUE:
        return True
    raise ProtocolError(f"{name} must be 1 or 0")


def _bearer(header: str | None) -> str | None:
    if header is None:
        return None
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise svc.Unauthorized("the Authorization header must be 'Bearer <token>'")
    return token.strip()


def _reason(text: str) -> str:
    """A close reason fits in 123 bytes of UTF-8."""
    data = text.encode()
    if len(data) <= 123:
        return text
    return data[:120].decode(errors="ignore") + "…"
