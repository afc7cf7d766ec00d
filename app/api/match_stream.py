"""`WS /v1/matches/{id}/stream`: one match's commits, redacted for the caller, one frame per commit.

The session authenticates (a seat token, a player key holding a seat, or nobody for a spectator),
subscribes to the process's `LiveHub` after its cursor (`after`, else the seq now), sends `hello`
with the viewer's view, then one `commit` frame per commit — the commit's events redacted for the
viewer and, with `views=1`, the viewer's view at that commit when it is the newest this process
knows. Actions may be sent on the same socket. A session that authenticated with a seat token is
closed with 4401 right after the commit that reissues its seat's token; one whose player is banned
with 4403 (an action frame is refused first).
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Sequence
from typing import TYPE_CHECKING, NamedTuple

from starlette.websockets import WebSocket

from app.api.client_frames import InvalidAction
from app.api.closes import Close, ProtocolError
from app.api.frame_text import ack_frame, chat_frame, error_frame, hello_frame
from app.api.frames import ActionFrame
from app.api.ratelimit import client_ip
from app.api.session import Session, log
from app.api.stream_edge import StreamEdge
from app.service import acting
from app.service import errors as svc
from app.service.auth import Caller, check_not_banned, identify
from app.service.chat import ChatReader, keeps_chat
from app.service.chat_live import ChatWatch
from app.service.chat_rights import reader_of
from app.service.ports import StoredEvent
from app.service.streams import MatchFrames, ViewerFrame
from app.service.subscription import Subscription

if TYPE_CHECKING:
    from app.matches.fold import Match


class _Chat(NamedTuple):
    reader: ChatReader
    head: int  # the match's chat_seq when the stream started (the hello's)


class MatchSession(Session):
    __slots__ = (
        "_by_token",
        "_chat",
        "_frames",
        "_pending",
        "_sending",
        "_sub",
        "caller",
        "match_id",
        "seat",
        "token",
        "views",
    )
    kind = "match"

    def __init__(self, edge: StreamEdge, ws: WebSocket, match_id: str) -> None:
        super().__init__(edge, ws)
        self.match_id = match_id
        self.seat: int | None = None
        self.caller: Caller | None = None
        self.token: str | None = None
        self.views = False
        self._by_token = False  # authenticated with a seat token: a reissue of it ends the session
        self._pending: list[StoredEvent] = []  # the events of a commit not complete yet
        self._frames: MatchFrames | None = None
        self._sending: asyncio.Task[None] | None = None  # a direct send that had to wait
        self._sub: Subscription | None = None  # the hub's subscription, once subscribed
        self._chat: ChatWatch | None = None  # woken by a new message, or by a commit changing rights

    def describe(self) -> dict[str, object]:
        return {"stream": self.kind, "match_id": self.match_id, "seat": self.seat, "seq": self.cursor}

    async def stream(self) -> None:
        edge, ctx = self.edge, self.edge.ctx
        protocol = self.protocol()  # first: a client of another version understands nothing else
        if len(self.match_id) > 64:
            raise svc.NotFound("no such match")
        after = self.after()
        chat_after = self.after("chat_after")
        self.views = self.flag("views")
        self.token = await self.credential(spectators=True)
        self.caller = None if self.token is None else await identify(ctx, self.token)
        self._by_token = self.caller is not None and self.caller.kind == "seat"
        async with edge.streams.open(self.match_id) as frames:
            state = await frames.current()
            loaded = ctx.loader.cached(self.match_id) or await ctx.loader.load(self.match_id)
            # A player key without a seat here watches as a spectator who may chat (docs/chat.md).
            self.seat = None if self.caller is None else reader_of(loaded, self.caller).seat
            if self.caller is not None:  # the key's player (seated or not), or the seat's
                seated = None if self.seat is None else loaded.seats[self.seat].player_id
                self.owner = self.caller.player_id or seated
            if after is None:
                after = state.seq
            elif after > state.seq:
                message = f"after must be at most the match's seq, {state.seq}"
                raise svc.ValidationFailed(message, {"field": "after", "seq": state.seq})
            async with (
                edge.hub.subscribe(self.match_id, after) as sub,
                edge.hub.chat.watch(self.match_id) as watch,
            ):
                self.cursor = after
                self._sub = sub
                chat = await self._chat_reader(chat_after)  # after the watch: no message is missed
                view = ctx.loader.renderings.view(state, self.seat).json_bytes()  # once per state and viewer
                hello = hello_frame(
                    self.match_id, self.seat, state.seq, after, self.views, edge.heartbeat, view, protocol,
                    chat_seq=0 if chat is None else chat.head,
                )  # fmt: skip
                await self.send(hello)
                self.spawn(self.receive())
                self.spawn(self.heartbeat())
                if chat is not None:
                    self._chat = watch
                    if chat.reader.cursor < chat.head:
                        watch.notify()  # the backlog first (else nothing to read until woken)
                    self.spawn(self._send_chat(chat.reader, watch))
                await self._send_commits(sub, frames)

    async def _chat_reader(self, chat_after: int | None) -> _Chat | None:
        """The stream's chat reader, after `chat_after` (else the newest message now)."""
        store = self.edge.ctx.store
        if not keeps_chat(store):
            return None
        read = functools.partial(store.chat_head, self.match_id)  # unless this process knows it
        head = await self.edge.hub.chat.head(self.match_id, read, at_least=chat_after or 0)
        if chat_after is None:
            chat_after = head
        elif chat_after > head:
            message = f"chat_after must be at most the match's chat_seq, {head}"
            raise svc.ValidationFailed(message, {"field": "chat_after", "chat_seq": head})
        reader = ChatReader(self.edge.ctx, self.match_id, self.caller, chat_after, shared=self.edge.hub.chat)
        return _Chat(reader, head)

    async def _send_chat(self, reader: ChatReader, watch: ChatWatch) -> None:
        """One `chat` frame per message the viewer may read, in order, each once: read after the
        chat cursor whenever woken (a notification, or a commit that may change the rooms)."""
        while True:
            await watch.wake.wait()
            for message in await reader.new_messages(watch.take()):
                await self.send(chat_frame(message))

    async def _send_commits(self, sub: Subscription, frames: MatchFrames) -> None:
        """One frame per commit, in order. With the fast lane (`app.api.fast_lane`), live commits
        are sent by the hub's own push (`take`, no wake-up of this task per commit); this task
        sends the backlog and what the push declined (a send still under way, a view that needs a
        load). Without it, this task sends every frame (the plain send loop)."""
        self._frames = frames
        lane = self._lane
        while True:
            if not self._pending and lane is not None:
                await sub.deliver_directly(self)  # returns when iterating is needed again
            if self._sending is not None:
                await self._sending  # a direct send that could not finish at once goes first
                self._sending = None
            for event in await sub.next_batch():  # all that is queued: one wake-up, many commits
                if event.seq < event.commit:
                    self._pending.append(event)
                    continue  # the rest of the commit follows
                frame = self._frame((event,), await frames.at(event.seq) if self.views else None)
                await self._send_text(frame.text)
                if self._sent(frame):
                    return

    def take(self, events: Sequence[StoredEvent]) -> int:
        """The hub's direct push (synchronous; this session as the hub's `LiveSink`, with the fast
        lane only): send each commit of `events` once complete; return how many events were taken.
        Declines the rest while a direct send is still under way (to keep the order) and from a
        commit whose view needs a load (this session's task sends it)."""
        if self._sending is not None:
            if not self._sending.done():
                return 0
            self._sending.result()  # raises what that send met (a closed socket)
            self._sending = None
        if self._outcome.done():  # ended: closing, nothing more goes out
            return len(events)
        frames, lane = self._frames, self._lane
        assert frames is not None and lane is not None
        start, count = 0, len(events)
        while start < count:  # commit by commit: seqs are gap-free, so `commit` says where one ends
            first = events[start]
            end: int = start + first.commit - first.seq + 1
            if end > count:
                break  # the rest of this commit follows
            view = None
            if self.views:
                known, view = frames.at_once(first.commit)
                if not known:
                    return start  # this commit, and what follows, goes by the task
            frame = self._frame(events if end - start == count else events[start:end], view)
            start = end
            self._sending = lane.send_soon(frame, self._send_text)
            if self._sent(frame):
                return count
            if self._sending is not None:
                return start  # that send waits: what follows goes after it
        self._pending.extend(events[start:])  # a commit whose end is still to come
        return count

    def _frame(self, tail: Sequence[StoredEvent], view: Match | None) -> ViewerFrame:
        """The frame, for this viewer, of the commit that `tail` completes (the events pending
        before it, and it), with `view` (the state at the commit) when given."""
        assert self._frames is not None
        if self._pending:
            tail, self._pending = [*self._pending, *tail], []
        frame = self._frames.commit_frame(tail, self.seat, view)
        if frame.rights and self._chat is not None:
            self._chat.rights_changed(frame.seq)  # the readable rooms may differ (a seat taken, the end)
        return frame

    def _sent(self, frame: ViewerFrame) -> bool:
        """After a commit's frame: count it and move the cursor; True if the session must end (the
        seat's token was reissued by this commit and the session authenticated with it)."""
        self._counters.frames_sent += 1
        self.cursor = frame.seq
        if frame.reissues and self._by_token:
            self.end(Close.UNAUTHORIZED, "this seat's token was reissued")
            return True
        return False

    async def answer(self, frame: ActionFrame | InvalidAction) -> None:
        if isinstance(frame, InvalidAction):
            await self.send(error_frame(frame.frame_id, frame.error))
            return
        if self.owner is not None and self.caller is not None:  # banned since it connected?
            # an error frame, then 4403; a key's player is read now, as an HTTP action would
            await check_not_banned(self.edge.ctx, self.owner, fresh=self.caller.kind == "player")
        await self._act(frame)

    async def _act(self, frame: ActionFrame) -> None:
        error: svc.ServiceError
        limiter = self.edge.limiter
        refusal = None
        if limiter is not None and self.caller is not None:
            refusal = await limiter.check("actions", client_ip(self.ws.scope), self.token)
        if self.caller is None:
            error = svc.Unauthorized("spectators cannot act: connect with a seat token or a player key")
        elif refusal is not None:
            error = refusal.error()  # the same budget as HTTP actions: the socket is no way around it
        else:
            lane = self._lane
            if lane is not None:
                lane.hold()  # its commit's frame leaves with its ack, in one write
            if self._sub is not None:
                self._sub.first()  # its commit's frame before the other viewers': the ack waits for it
            try:
                reply = await acting.submit_action(
                    self.edge.ctx,
                    self.match_id,
                    self.caller,
                    frame.action,
                    frame.expected_seq,
                    frame.idempotency_key,
                )
            except svc.ServiceError as e:
                error = e
            except Exception:
                log.exception("stream action failed", extra=self.describe())
                error = svc.InternalError()
            else:
                ack = ack_frame(frame.id, reply.seq)
                if lane is not None and lane.holding:
                    # The hub pushes a commit right after the committing task yields
                    # (`LiveHub.notify`): yield once, so that its frame is held, and the lane writes
                    # the ack with it as soon as it is (before the other viewers' frames are built).
                    lane.ack_with(reply.seq, ack)
                    await asyncio.sleep(0)
                if lane is not None and (lane.acked or lane.flush(ack)):
                    self._counters.frames_sent += 1
                else:
                    await self.send(ack)
                return
            finally:
                if lane is not None and lane.holding:
                    lane.flush()
        await self.send(error_frame(frame.id, error))


__all__ = ["MatchSession", "ProtocolError"]
