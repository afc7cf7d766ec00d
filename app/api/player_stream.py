"""`WS /v1/players/me/stream`: one player's notices — "your turn in M at seq N" and the like.

The personal stream of a player key (same authentication, heartbeat and close codes as match
streams). Its items are the notices the commits wrote for the player (`match_started`,
`your_turn`, `seat_taken_over`, `match_ended`), each with its gap-free `cursor`; a reconnect with
`after=<cursor>` loses nothing and repeats nothing, on any process. Notices carry only public
facts (match ids, seats, seqs, deadlines): a bot then reads its view of that match.
A rotated key closes the stream (4401) at the next heartbeat.
"""

from __future__ import annotations

import asyncio

from starlette.websockets import WebSocket

from app.api.client_frames import InvalidAction
from app.api.closes import Close
from app.api.frame_text import PING, PONG, error_frame, notice_frame, player_hello_frame
from app.api.frames import AuthFrame, PingFrame
from app.api.session import Session
from app.api.stream_edge import StreamEdge
from app.service import errors as svc
from app.service import players
from app.service.auth import Caller, identify
from app.service.ports import player_channel


class PlayerSession(Session):
    __slots__ = ("caller",)
    kind = "player"

    def __init__(self, edge: StreamEdge, ws: WebSocket) -> None:
        super().__init__(edge, ws)
        self.caller: Caller | None = None

    def describe(self) -> dict[str, object]:
        player = None if self.caller is None else self.caller.player_id
        return {"stream": self.kind, "player_id": player, "cursor": self.cursor}

    async def stream(self) -> None:
        edge, ctx = self.edge, self.edge.ctx
        protocol = self.protocol()
        after = self.after()
        token = await self.credential(spectators=False)
        caller = self.caller = await identify(ctx, token)
        player = await players.player_of(ctx, caller, "the personal stream needs a player key (pk_…)")
        self.owner = player.id
        if after is None:
            after = player.cursor
        players.check_after(player, after)
        async with edge.hub.subscribe(player_channel(player.id), after) as sub:
            self.cursor = after
            await self.send(player_hello_frame(player.id, player.cursor, after, edge.heartbeat, protocol))
            self.spawn(self._receive())
            self.spawn(self.heartbeat())
            async for notice in sub:
                await self.send(notice_frame(notice))
                self.cursor = notice.cursor

    async def heartbeat(self) -> None:
        while True:
            await asyncio.sleep(self.edge.heartbeat)
            if self.caller is not None:
                try:
                    await players.player_of(self.edge.ctx, self.caller)
                except svc.Unauthorized:
                    self.end(Close.UNAUTHORIZED, "this player key was rotated")
                    return
            await self.send(PING)

    async def _receive(self) -> None:
        while True:
            frame = self.read(await self.ws.receive())
            if frame is None:
                self.end(None)
                return
            if isinstance(frame, PingFrame):
                await self.send(PONG)
            elif isinstance(frame, AuthFrame):  # an error frame, then the close (4400)
                raise svc.ValidationFailed("already authenticated: auth is only ever the first frame")
            elif isinstance(frame, InvalidAction) or frame.type == "action":
                error = svc.ValidationFailed("the personal stream takes only ping and pong frames")
                await self.send(
                    error_frame(
                        getattr(frame, "id", None)
                        if not isinstance(frame, InvalidAction)
                        else frame.frame_id,
                        error,
                    )
                )
