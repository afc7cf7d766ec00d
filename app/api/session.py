"""One WebSocket session: a handshake, then tasks (a sender, a receiver, a heartbeat) and a cursor.

After `accept`, the subclass's `stream` task authenticates the connection (a credential in the
URL, a Bearer header or an `auth` first frame; for match streams none means a spectator), sends
`hello`, then its items after the cursor. A receiver answers client frames and a heartbeat sends
`ping` frames. A session whose player (`owner`: the player key's, or the player holding the seat
of a seat token) is banned is closed with 4403 by the process's ban watch (`app.api.streaming`).
Whatever ends a session first — the client leaving, the hub dropping a slow
consumer, a bad frame, the server going away — resolves its outcome once; then the tasks are
cancelled and the socket is closed with that code (`app.api.closes.Close`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
from collections.abc import Coroutine
from typing import Final

from starlette.types import Message
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketDisconnected, WebSocketState

from app.api.asgi import SERVER_SEND
from app.api.client_frames import ClientFrame, InvalidAction, parse_client_frame
from app.api.closes import Close, ProtocolError, close_code, close_reason, fit_reason
from app.api.credentials import required_bearer
from app.api.fast_lane import FastLane
from app.api.frame_text import PING, PONG, error_frame
from app.api.frames import PROTOCOL, PROTOCOLS, ActionFrame, AuthFrame, PingFrame, PongFrame
from app.api.stream_edge import StreamEdge
from app.service import errors as svc
from app.service.ports import MAX_SEQ
from app.service.subscription import GoingAway, SlowConsumer

log = logging.getLogger("app.stream")

_TRUE, _FALSE = ("1", "true"), ("0", "false", "")
REFUSE_SEND_S: Final = 0.2  # a consumer too slow to take the error frame gets the close without it
_AFTER: Final = re.compile(r"[0-9]{1,19}")  # ASCII digits only, as HTTP query integers: `after=١` is refused


class Session:
    """The life of one WebSocket; subclasses implement `stream` (and may add receivers)."""

    # Slots: the fan-out touches every session of a match per commit; compact instances are
    # fewer cache lines to walk.
    __slots__ = (
        "_counters",
        "_lane",
        "_outcome",
        "_server_send",
        "_tasks",
        "connection",
        "cursor",
        "edge",
        "finished",
        "owner",
        "ws",
    )

    kind = "stream"

    def __init__(self, edge: StreamEdge, ws: WebSocket) -> None:
        self.edge = edge
        self.ws = ws
        self.connection = f"{next(edge.connection_ids)}"  # the key of its frame budget
        self._counters = edge.streams.counters
        self.cursor = 0  # the position of the last item sent (a seq, or a notice cursor)
        self.owner: str | None = None  # the player behind the credential: its ban closes the session
        self.finished = asyncio.Event()
        self._outcome: asyncio.Future[tuple[int, str] | None] = asyncio.get_running_loop().create_future()
        self._tasks: set[asyncio.Task[None]] = set()
        # The server's own `send` (see `app.api.asgi`): commit frames skip Starlette's wrappers.
        self._server_send = ws.scope.get(SERVER_SEND) or ws.send
        self._lane: FastLane | None = None  # after the handshake, unless DRAGO_STREAM_FAST_LANE=0

    def ended(self) -> bool:
        return self._outcome.done()

    def end(self, code: int | None, reason: str = "") -> None:
        """Finish the session: close with `code`, or just stop when `code` is None (the client left)."""
        if not self._outcome.done():
            self._outcome.set_result(None if code is None else (code, reason))

    def refuse(self, error: svc.ServiceError) -> None:
        """End the session for `error` from outside its tasks (a ban): its `error` frame (unless the
        socket cannot take it within `REFUSE_SEND_S`), then its close code and reason."""
        if self._outcome.done():
            return

        async def refused() -> None:
            with contextlib.suppress(WebSocketDisconnect, WebSocketDisconnected, TimeoutError):
                async with asyncio.timeout(REFUSE_SEND_S):
                    await self.send(error_frame(None, error))
            self.end(close_code(error), close_reason(error))

        self.spawn(refused())

    def describe(self) -> dict[str, object]:
        """What a log line says about this session (ids and seats only, never a credential)."""
        return {"stream": self.kind, "seq": self.cursor}

    async def stream(self) -> None:
        raise NotImplementedError

    async def run(self) -> None:
        edge = self.edge
        counters = edge.streams.counters
        try:
            await self.ws.accept()
        except (WebSocketDisconnect, WebSocketDisconnected):
            self.finished.set()
            return
        if edge.fast_lane:
            self._lane = FastLane(self._server_send)
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
                self.spawn(self.stream())
            outcome = await self._outcome
        finally:
            tasks = list(self._tasks)
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            self._tasks.clear()
        code = "client" if outcome is None else str(outcome[0])
        self.edge.metrics.stream_closed(code)
        log.info("stream closed", extra={**self.describe(), "code": code})
        self._flush_held()  # nothing held stays behind the close frame
        if outcome is not None:
            with contextlib.suppress(WebSocketDisconnect, WebSocketDisconnected):
                await self.ws.close(outcome[0], fit_reason(outcome[1]))

    def spawn(self, work: Coroutine[object, None, None]) -> None:
        task = asyncio.create_task(self._guard(work))
        self._tasks.add(task)

    async def _guard(self, work: Coroutine[object, None, None]) -> None:
        """Run one of the session's tasks; whatever ends it becomes the session's outcome."""
        try:
            await work
        except (WebSocketDisconnect, WebSocketDisconnected):
            self.end(None)
        except SlowConsumer:
            self.end(Close.SLOW_CONSUMER, f"slow consumer: reconnect with after={self.cursor}")
        except GoingAway:
            self.end(Close.GOING_AWAY, "server going away")
        except ProtocolError as e:
            self.end(e.code, e.reason)
        except svc.ServiceError as e:
            with contextlib.suppress(WebSocketDisconnect, WebSocketDisconnected):
                await self.send(error_frame(None, e))
            self.end(close_code(e), close_reason(e))
        except Exception:
            log.exception("stream failed", extra=self.describe())
            self.end(Close.INTERNAL_ERROR, "internal error")

    def _flush_held(self) -> None:
        """Write the frames the lane holds during an action (`FastLane.hold`) before anything else."""
        lane = self._lane
        if lane is not None and lane.holding:
            lane.flush()

    async def send(self, text: str) -> None:
        self._flush_held()
        await self.ws.send_text(text)
        self._counters.frames_sent += 1

    async def _send_text(self, text: str) -> None:
        """A text frame straight to the server (after the handshake): as `ws.send_text`, without
        its two wrappers; a connection that is gone is `WebSocketDisconnect`, as there."""
        self._flush_held()
        try:
            await self._server_send({"type": "websocket.send", "text": text})
        except OSError:
            self.ws.application_state = WebSocketState.DISCONNECTED
            raise WebSocketDisconnect(code=1006) from None

    # The handshake

    def protocol(self) -> int:
        """The protocol version asked for (`?protocol=`), else the newest; refused unless served."""
        asked = self.ws.query_params.get("protocol")
        if asked is None:
            return PROTOCOL
        for version in PROTOCOLS:
            if asked == str(version):
                return version
        served = ", ".join(map(str, PROTOCOLS))
        raise svc.ValidationFailed(
            f"protocol must be a version this server serves: {served}",
            {"field": "protocol", "served": list(PROTOCOLS)},
        )

    def after(self, name: str = "after") -> int | None:
        """The cursor query parameter `name` (`after`, or a match stream's `chat_after`): the
        cursor to resume after (None: from now)."""
        after = self.ws.query_params.get(name)
        if after is not None and (not _AFTER.fullmatch(after) or int(after) > MAX_SEQ):
            message = f"{name} must be a whole number from 0 to {MAX_SEQ}"
            raise svc.ValidationFailed(message, {"field": name})
        return None if after is None else int(after)

    def flag(self, name: str) -> bool:
        value = self.ws.query_params.get(name)
        if value is None or value.lower() in _FALSE:
            return False
        if value.lower() in _TRUE:
            return True
        raise svc.ValidationFailed(f"{name} must be 1 or 0", {"field": name})

    async def credential(self, *, spectators: bool) -> str | None:
        """The bearer credential: `?token=`, an Authorization header, or an `auth` first frame
        (`None`: a spectator, where `spectators` may watch)."""
        header = required_bearer(self.ws.scope)
        tokens = [t for t in (header, self.ws.query_params.get("token")) if t is not None]
        spectate = spectators and self.flag("spectate")
        if len(tokens) + spectate > 1:
            raise svc.ValidationFailed("send one of: token, Authorization, spectate=1", {"field": "token"})
        if tokens:
            return tokens[0]
        if spectate:
            return None
        token = await self._auth_frame()
        if token is None and not spectators:
            raise svc.Unauthorized("this stream needs a credential")
        return token

    async def _auth_frame(self) -> str | None:
        timeout = self.edge.auth_timeout
        try:
            async with asyncio.timeout(timeout):  # not wait_for, which can swallow a cancel on 3.11
                message = await self.ws.receive()
        except TimeoutError:
            raise svc.Unauthorized(
                f"send the credential: an auth frame within {timeout:g} s, ?token=…, or ?spectate=1"
            ) from None
        frame = self.read(message)
        if frame is None:
            raise WebSocketDisconnect()
        if not isinstance(frame, AuthFrame):
            raise ProtocolError('the first frame must be {"type":"auth","token":…}')
        if frame.token == "":
            raise svc.Unauthorized("this token is not valid")
        return frame.token

    # Client frames and the heartbeat

    def read(self, message: Message) -> ClientFrame | InvalidAction | None:
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

    async def receive(self) -> None:
        """Answer the client's frames until it leaves: a `ping` with `pong`, a second `auth` with an
        error frame and the close (4400), a `pong` with nothing; any other frame (an action, or one
        that is not valid) is the subclass's to `answer`."""
        while True:
            frame = self.read(await self.ws.receive())
            if frame is None:
                self.end(None)
                return
            if isinstance(frame, PingFrame):
                await self.send(PONG)
            elif isinstance(frame, AuthFrame):  # an error frame, then the close (4400)
                raise svc.ValidationFailed("already authenticated: auth is only ever the first frame")
            elif not isinstance(frame, PongFrame):  # a pong needs no answer
                await self.answer(frame)

    async def answer(self, frame: ActionFrame | InvalidAction) -> None:
        """A client frame other than ping, pong and auth."""
        raise NotImplementedError

    async def heartbeat(self) -> None:
        while True:
            await asyncio.sleep(self.edge.heartbeat)
            await self.send(PING)
