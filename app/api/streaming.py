"""The process's stream edge as the app builds it: serving the two streams, and going away.

`Streaming` is the `StreamEdge` (`app.api.stream_edge`: what the sessions share) that serves the
match streams (`app.api.match_stream`) and the personal player streams (`app.api.player_stream`),
both built on `app.api.session.Session`, closes those of banned players (`app.service.bans.BanWatch`,
4403) and closes them all when the process goes away.

Graceful shutdown: uvicorn closes open WebSockets with 1012 *before* the app's lifespan ends, so
`Streaming` hooks SIGTERM/SIGINT: the first signal closes every stream with 1001 — those still
waiting for their `auth` frame too — and waits (at most `CLOSE_WAIT`) until each close frame is
out, and only then hands the signal to the server's own handler, which stops accepting, lets
in-flight HTTP requests finish and ends the lifespan. (Handing it over at once raced uvicorn's
shutdown: with many streams some got 1012.) A second signal goes to the server at once. At the
lifespan's end whatever is left gets 1001 the same way.
"""

from __future__ import annotations

import asyncio
import signal
import threading
from collections.abc import Callable
from types import FrameType

from starlette.websockets import WebSocket

from app.api.closes import Close
from app.api.match_stream import MatchSession
from app.api.metrics import Metrics
from app.api.player_stream import PlayerSession
from app.api.ratelimit import Limiter
from app.api.stream_edge import StreamEdge
from app.service import errors as svc
from app.service.bans import BanWatch
from app.service.context import Context
from app.service.live import LiveHub
from app.settings import Settings

SignalHandler = Callable[[int, FrameType | None], object]

CLOSE_WAIT = 5.0  # seconds the lifespan's end waits for streams to send their close


class Streaming(StreamEdge):
    """The process's stream edge: serving streams, going away."""

    def __init__(
        self, ctx: Context, hub: LiveHub, settings: Settings, metrics: Metrics, limiter: Limiter | None = None
    ) -> None:
        super().__init__(ctx, hub, settings, metrics, limiter)
        self._signalled = False
        self._draining: asyncio.Task[None] | None = None
        self._hooked: dict[int, tuple[SignalHandler, SignalHandler]] = {}
        self._hook_signals()
        self.ban_watch = BanWatch(
            ctx, self._owners, self._close_banned, interval_s=settings.ban_check_seconds
        )

    async def start(self) -> None:
        """Start watching for bans of the players behind open streams (unless its interval is 0)."""
        if self.ban_watch.loop.interval_s > 0:
            await self.ban_watch.start()

    def _owners(self) -> set[str]:
        return {s.owner for s in self.sessions if s.owner is not None}

    def _close_banned(self, banned: set[str]) -> None:
        """An `error` frame `banned`, then close 4403 (`banned: …`), to each stream of these players."""
        for session in list(self.sessions):
            if session.owner in banned:
                session.refuse(svc.Banned())

    async def serve_match(self, ws: WebSocket, match_id: str) -> None:
        await MatchSession(self, ws, match_id).run()

    async def serve_player(self, ws: WebSocket) -> None:
        await PlayerSession(self, ws).run()

    def going_away(self) -> None:
        """Close every stream with 1001 (and refuse new ones the same way)."""
        self.closing = True
        for session in list(self.sessions):
            session.end(Close.GOING_AWAY, "server going away")

    async def close(self) -> None:
        """At the lifespan's end: 1001 to every stream still open, then wait (briefly) for them."""
        self._unhook_signals()
        await self.ban_watch.stop()
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

    async def _go_away_then(self, server_handler: Callable[[], object]) -> None:
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

            def handler(signum: int, frame: FrameType | None, previous: SignalHandler = previous) -> None:
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

    def _drain(self, server_handler: Callable[[], object]) -> None:
        self._draining = asyncio.get_running_loop().create_task(self._go_away_then(server_handler))

    def _unhook_signals(self) -> None:
        for sig, (handler, previous) in self._hooked.items():
            if signal.getsignal(sig) is handler:
                signal.signal(sig, previous)
        self._hooked.clear()
