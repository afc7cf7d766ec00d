"""Live-stream frames built once per viewer: the per-process fan-out cache behind the WebSocket.

Every connection streaming a match gets each event redacted for its viewer (a seat, or `None` for
a spectator). Many connections share a viewer (all spectators, a player's second tab, a bot and
its watcher), so `MatchFrames` builds the JSON text of each frame once per `(seq, viewer)` in this
process and hands the same `str` to every connection of that viewer; the edge sends it as it is.
Views are cached the same way, per viewer, for the newest state this process has loaded.

That state also answers "has this connection delivered everything committed?": a connection that
asks for views gets one after an event only when that event's seq is the head, so a view never
splits a commit. And since filling the last seat starts a match without writing an event,
`NotificationTap` passes every "match M is at seq N" to `Streams`, which reloads a match that is
still waiting and sets `MatchFrames.started` when it has started.

`Streams` keeps one `MatchFrames` per match with open streams and drops it with the last one.
The wire shapes of the frames built here (`event`, `view`) are described with the others in
`app.api.frames` and checked against the schema in tests.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import OrderedDict
from collections.abc import AsyncIterator
from typing import Any

import orjson

from app.games.codec import JSON
from app.games.core import Game, Seat
from app.matches.lifecycle import LoadedMatch, decode
from app.matches.views import redact_one, view_for
from app.service.loading import Loader
from app.service.ports import Broadcaster, MessageHandler, StoredEvent

log = logging.getLogger(__name__)

Viewer = Seat | None
"""A seat, or `None` for a spectator."""

DEFAULT_CACHE_SEQS = 128
"""Seqs of events kept serialized per match: enough for every live connection (a connection more
than the hub's queue limit behind is cut off) and for a herd of reconnects catching up together."""


def dumps(value: JSON) -> str:
    """Compact JSON text, as the HTTP responses are rendered (UTF-8); orjson is ~5× the stdlib's speed."""
    return orjson.dumps(value).decode()


class StreamCounters:
    """Plain counters (read by /metrics at scrape time; cheap enough for the per-frame path)."""

    def __init__(self) -> None:
        self.connections = 0  # open streams (a gauge)
        self.frames_sent = 0
        self.frames_built = 0  # event and view texts serialized (cache misses)
        self.frame_hits = 0  # texts served from the cache
        self.state_loads = 0

    def as_dict(self) -> dict[str, int]:
        return dict(vars(self))


class _Seq:
    """One event, decoded once, and its frame text per viewer."""

    __slots__ = ("decoded", "texts")

    def __init__(self, decoded: Any) -> None:
        self.decoded = decoded
        self.texts: dict[Viewer, str] = {}


class MatchFrames:
    """The frames of one match in this process, shared by all its connections."""

    def __init__(
        self,
        match_id: str,
        game: Game[Any, Any, Any],
        loader: Loader,
        counters: StreamCounters,
        capacity: int = DEFAULT_CACHE_SEQS,
    ) -> None:
        self.match_id = match_id
        self.game = game
        self.state: LoadedMatch | None = None  # the newest state loaded in this process
        self.status = "waiting"  # of `state`, computed once per state
        self.started = asyncio.Event()  # set once a loaded state has every seat filled
        self._loader = loader
        self._counters = counters
        self._capacity = capacity
        self._events: OrderedDict[int, _Seq] = OrderedDict()
        self._views: dict[Viewer, str] = {}  # view frames of `self.state`
        self._loading: asyncio.Task[LoadedMatch] | None = None
        self._refresh: asyncio.Task[None] | None = None
        self.users = 0

    # Frames

    def event_frame(self, event: StoredEvent, viewer: Viewer) -> str:
        """`{"type":"event","seq":N,"event":{seq,type,data,recorded_at}}` redacted for `viewer`."""
        entry = self._events.get(event.seq)
        if entry is None:
            entry = self._events[event.seq] = _Seq(decode(self.game, event))
            if len(self._events) > self._capacity:
                self._events.popitem(last=False)
        else:
            text = entry.texts.get(viewer)
            if text is not None:
                self._counters.frame_hits += 1
                return text
        body = redact_one(self.game, event.seq, entry.decoded, event.recorded_at, viewer)
        text = entry.texts[viewer] = dumps({"type": "event", "seq": event.seq, "event": body})
        self._counters.frames_built += 1
        return text

    def view_json(self, state: LoadedMatch, viewer: Viewer) -> str:
        """The viewer's view of `state` as JSON text (cached while `state` is the newest)."""
        if state is not self.state:
            return dumps(view_for(state, viewer))
        text = self._views.get(viewer)
        if text is None:
            text = self._views[viewer] = dumps(view_for(state, viewer))
            self._counters.frames_built += 1
        else:
            self._counters.frame_hits += 1
        return text

    def view_frame(self, state: LoadedMatch, viewer: Viewer) -> str:
        """`{"type":"view","seq":N,"view":{...}}` for `viewer`."""
        return f'{{"type":"view","seq":{state.seq},"view":{self.view_json(state, viewer)}}}'

    # State

    async def current(self) -> LoadedMatch:
        """The match as committed now (one load, shared by concurrent callers)."""
        return await self._load()

    async def at_least(self, seq: int) -> LoadedMatch:
        """The newest loaded state if it has reached `seq`, else a fresh load."""
        state = self.state
        if state is None or state.seq < seq:  # this process may have just committed it: no read
            cached = self._loader.cached(self.match_id)
            if cached is not None:
                self._adopt(cached.match)
                state = self.state
        while state is None or state.seq < seq:
            before = state
            state = await self._load()
            if state is before:  # the store has not got there (yet): do not spin
                break
        return state

    def notified(self, seq: int) -> None:
        """Someone says the match is at `seq`: reload it if it may have just started."""
        if self.started.is_set() or (self._refresh is not None and not self._refresh.done()):
            return
        self._refresh = asyncio.create_task(self._reload(), name=f"stream-refresh-{self.match_id}")

    async def close(self) -> None:
        for task in (self._refresh, self._loading):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task  # also retrieves a failure nobody waited for

    async def _reload(self) -> None:
        try:
            await self._load()
        except Exception:
            log.warning("reloading match %s for its streams failed", self.match_id, exc_info=True)

    async def _load(self) -> LoadedMatch:
        task = self._loading
        if task is None or task.done():
            task = self._loading = asyncio.create_task(self._fetch(), name=f"stream-load-{self.match_id}")
        # Shielded: one caller going away must not cancel the load the others wait for.
        return await asyncio.shield(task)

    async def _fetch(self) -> LoadedMatch:
        loaded = await self._loader.load(self.match_id)
        self._counters.state_loads += 1
        self._adopt(loaded.match)
        return self.state if self.state is not None else loaded.match

    def _adopt(self, match: LoadedMatch) -> None:
        old = self.state
        if old is None or match.seq > old.seq or (match.seq == old.seq and match.seated and not old.seated):
            self.state = match
            self.status = match.status
            self._views = {}
        if self.state is not None and self.state.seated:
            self.started.set()


class Streams:
    """This process's `MatchFrames`, one per match with open streams."""

    def __init__(self, loader: Loader, *, cache_seqs: int = DEFAULT_CACHE_SEQS) -> None:
        self._loader = loader
        self._cache_seqs = cache_seqs
        self._matches: dict[str, MatchFrames] = {}
        self.counters = StreamCounters()

    @contextlib.asynccontextmanager
    async def open(self, match_id: str) -> AsyncIterator[MatchFrames]:
        """The match's frames while the caller streams it; raises `NotFound` for an unknown match."""
        frames = self._matches.get(match_id)
        if frames is None:
            record = await self._loader.record(match_id)
            game = self._loader.game_of(record)
            frames = self._matches.get(match_id)  # another connection may have opened it meanwhile
            if frames is None:
                frames = MatchFrames(match_id, game, self._loader, self.counters, self._cache_seqs)
                self._matches[match_id] = frames
        frames.users += 1
        try:
            yield frames
        finally:
            frames.users -= 1
            if frames.users == 0 and self._matches.get(match_id) is frames:
                del self._matches[match_id]
                await frames.close()

    def notified(self, match_id: str, seq: int) -> None:
        frames = self._matches.get(match_id)
        if frames is not None:
            frames.notified(seq)

    def stats(self) -> dict[str, int]:
        return {"matches": len(self._matches), **self.counters.as_dict()}


class NotificationTap:
    """A broadcaster that also shows every "match M is at seq N" it delivers to a listener.

    It wraps the process's broadcaster (the live hub gets it) so that streams learn of notifications
    the hub drops because they carry no new seq, such as a match starting when its last seat fills.
    Local commits are delivered back through the broadcaster too, so this sees them as well.
    """

    def __init__(self, inner: Broadcaster) -> None:
        self.inner = inner
        self.listener: MessageHandler | None = None

    async def start(self, handler: MessageHandler) -> None:
        def both(match_id: str, seq: int) -> None:
            handler(match_id, seq)
            if self.listener is not None:
                try:
                    self.listener(match_id, seq)
                except Exception:
                    log.exception("stream notification listener failed")

        await self.inner.start(both)

    async def stop(self) -> None:
        await self.inner.stop()

    async def publish(self, match_id: str, seq: int) -> None:
        await self.inner.publish(match_id, seq)

    async def subscribe(self, match_id: str) -> None:
        await self.inner.subscribe(match_id)

    async def unsubscribe(self, match_id: str) -> None:
        await self.inner.unsubscribe(match_id)
