"""Live-stream frames built once per viewer: the per-process fan-out cache behind the WebSocket.

A match streams one `commit` frame per commit: the commit's events redacted for the viewer (a seat,
or `None` for a spectator), and with `views=1` the viewer's view at that commit when it is the
newest state this process knows. Many connections share a viewer (all spectators, a player's
second tab, a bot and its watcher), so `MatchFrames` builds the JSON text of each frame once per
`(commit, viewer, with view)` and hands the same `str` to every connection of that viewer.

`Streams` keeps one `MatchFrames` per match with open streams and drops it with the last one. The
frame's encoding is the edge's (`app.api.frame_text.commit_frame`, handed in as `encode`), checked
against the committed schema (`app.api.frames`) with the other frames.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable, Sequence
from typing import Any, Final

import orjson

from app.games.core import Game, Seat
from app.matches.events import SeatTokenReissued
from app.matches.fold import Match, decode
from app.matches.views import records_of
from app.service.chat_rights import RIGHTS_EVENTS
from app.service.loading import Loader
from app.service.ports import StoredEvent

Viewer = Seat | None
"""A seat, or `None` for a spectator."""

CommitEncoder = Callable[[int, bytes, bytes | None], str]
"""A commit frame's text from its seq, its events (a JSON array, encoded) and the viewer's view (JSON
bytes) or None."""

DEFAULT_CACHE_COMMITS: Final = 128
"""Commits kept serialized per match: enough for every live connection (a connection more than the
hub's queue limit behind is cut off) and for a herd of reconnects catching up together."""


class StreamCounters:
    """Plain counters (read by /metrics at scrape time; cheap enough for the per-frame path)."""

    def __init__(self) -> None:
        self.connections = 0  # open streams (a gauge)
        self.frames_sent = 0
        self.frames_built = 0  # frame texts serialized (cache misses)
        self.frame_hits = 0  # texts served from the cache
        self.state_loads = 0

    def as_dict(self) -> dict[str, int]:
        return dict(vars(self))


class ViewerFrame:
    """One commit's frame for one viewer, built once and handed to all of that viewer's connections."""

    __slots__ = ("encoded", "reissues", "rights", "seq", "text")

    def __init__(self, seq: int, text: str, reissues: bool, rights: bool = False) -> None:
        self.seq = seq  # the commit's last seq
        self.text = text
        self.reissues = reissues  # this commit reissued the viewer's seat token
        self.rights = rights  # its events may change who reads which chat room (`RIGHTS_EVENTS`)
        self.encoded: bytes | None = None  # the edge's own encoding of `text` (its wire bytes), kept with it


class _Commit:
    """What the frames of one run of a commit's events share: the frames built so far by viewer
    (without and with the view: two dicts, not a tuple key, as the lookup runs per connection), the
    events decoded, the seats it reissued, whether it may change chat rights. A run is the whole
    commit or, for a stream resumed inside the commit, its rest: each run from another first seq is
    its own `_Commit` (in `others` of the first one built), so a frame always holds exactly the
    events asked for."""

    __slots__ = ("decoded", "first", "others", "plain", "reissued", "rights", "viewed")

    def __init__(self, events: Sequence[StoredEvent]) -> None:
        self.first = events[0].seq
        self.plain: dict[Viewer, ViewerFrame] = {}
        self.viewed: dict[Viewer, ViewerFrame] = {}
        self.decoded: list[object] | None = None
        self.others: dict[int, _Commit] | None = None
        self.reissued: frozenset[object] = frozenset(
            e.data.get("seat") for e in events if e.type == SeatTokenReissued.TYPE
        )
        self.rights = any(e.type in RIGHTS_EVENTS for e in events)  # once per run, not per connection


class MatchFrames:
    """The frames of one match in this process, shared by all its connections."""

    def __init__(
        self,
        match_id: str,
        game: Game[Any, Any, Any],
        loader: Loader,
        counters: StreamCounters,
        encode: CommitEncoder,
        capacity: int = DEFAULT_CACHE_COMMITS,
    ) -> None:
        self.match_id = match_id
        self.game = game
        self._encode = encode
        self.state: Match | None = None  # the newest state loaded in this process
        self._loader = loader
        self._counters = counters
        self._capacity = capacity
        self._commits: OrderedDict[int, _Commit] = OrderedDict()  # by the commit's last seq
        self._loading: asyncio.Task[Match] | None = None
        self.users = 0

    def commit_frame(
        self, events: Sequence[StoredEvent], viewer: Viewer, view: Match | None = None
    ) -> ViewerFrame:
        """`{"type":"commit","seq":N,"events":[…]}` redacted for `viewer`, with its view at `seq`
        (`view`, the state at the commit) when given. A hit (every connection of a viewer but its
        first) is two dict lookups: this runs once per connection and commit."""
        commit = self._commits.get(events[-1].seq)
        if commit is not None and commit.first != events[0].seq:  # the rest of a commit, or all of it
            commit = None if commit.others is None else commit.others.get(events[0].seq)
        if commit is not None:
            frame = (commit.plain if view is None else commit.viewed).get(viewer)
            if frame is not None:
                self._counters.frame_hits += 1
                return frame
        return self._build(events, viewer, view)

    def _build(self, events: Sequence[StoredEvent], viewer: Viewer, view: Match | None) -> ViewerFrame:
        seq = events[-1].seq
        commit = self._run(events)
        decoded = commit.decoded
        if decoded is None:  # once per run of a commit, whatever the number of viewers
            decoded = commit.decoded = [
                decode(self.game, e) if e.decoded is None else e.decoded for e in events
            ]
        state = view if view is not None else self.at_once(seq)[1]
        if state is not None and state.seq == seq:  # shared with the actor's reply, encoded once
            encoded: bytes = self._loader.renderings.commit_json(state, events, viewer, decoded)
        else:
            encoded = orjson.dumps([r.to_json() for r in records_of(self.game, events, viewer, decoded)])
        encoded_view = None if view is None else self._loader.renderings.view(view, viewer).json_bytes()
        text = self._encode(seq, encoded, encoded_view)
        frame = ViewerFrame(seq, text, viewer is not None and viewer in commit.reissued, commit.rights)
        (commit.plain if view is None else commit.viewed)[viewer] = frame
        self._counters.frames_built += 1
        return frame

    def _run(self, events: Sequence[StoredEvent]) -> _Commit:
        """The `_Commit` of exactly these events (a commit, or its rest), made on first use."""
        seq, first = events[-1].seq, events[0].seq
        commit = self._commits.get(seq)
        if commit is None:
            commit = self._commits[seq] = _Commit(events)
            if len(self._commits) > self._capacity:
                self._commits.popitem(last=False)
            return commit
        if commit.first == first:
            return commit
        if commit.others is None:
            commit.others = {}
        run = commit.others.get(first)
        if run is None:
            run = commit.others[first] = _Commit(events)
        return run

    async def current(self) -> Match:
        """The match as committed now (one load, shared by concurrent callers)."""
        return await self._load()

    async def at(self, seq: int) -> Match | None:
        """The state at exactly `seq` if this process has it (or can read up to it), else None."""
        known, state = self.at_once(seq)
        if known:
            return state
        loaded = await self._load()
        return loaded if loaded.seq == seq else None

    def at_once(self, seq: int) -> tuple[bool, Match | None]:
        """`at` without waiting: (True, the state at `seq` or None if this process is past it), or
        (False, None) when only a load can tell."""
        state = self.state
        if state is None or state.seq < seq:
            cached = self._loader.cached(self.match_id)  # this process may have just committed it
            if cached is not None:
                self._adopt(cached.match)
                state = self.state
        if state is None or state.seq < seq:
            return False, None
        return True, state if state.seq == seq else None

    async def close(self) -> None:
        """After the last connection: stop a load in flight and let go of the cached frames and
        state at once (a closed connection's objects may sit in reference cycles until the next
        collection; this keeps a match's 128 commits of frames and events out of them)."""
        task = self._loading
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task  # also retrieves a failure nobody waited for
        self._loading = None
        self._commits.clear()
        self.state = None

    async def _load(self) -> Match:
        task = self._loading
        if task is None or task.done():
            task = self._loading = asyncio.create_task(self._fetch(), name=f"stream-load-{self.match_id}")
        # Shielded: one caller going away must not cancel the load the others wait for.
        return await asyncio.shield(task)

    async def _fetch(self) -> Match:
        loaded = await self._loader.load(self.match_id)
        self._counters.state_loads += 1
        self._adopt(loaded.match)
        return self.state if self.state is not None else loaded.match

    def _adopt(self, match: Match) -> None:
        if self.state is None or match.seq > self.state.seq:
            self.state = match


class Streams:
    """This process's `MatchFrames`, one per match with open streams."""

    def __init__(
        self, loader: Loader, encode: CommitEncoder, *, cache_commits: int = DEFAULT_CACHE_COMMITS
    ) -> None:
        self._loader = loader
        self._encode = encode
        self._cache_commits = cache_commits
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
                frames = MatchFrames(
                    match_id, game, self._loader, self.counters, self._encode, self._cache_commits
                )
                self._matches[match_id] = frames
        frames.users += 1
        try:
            yield frames
        finally:
            frames.users -= 1
            if frames.users == 0 and self._matches.get(match_id) is frames:
                del self._matches[match_id]
                await frames.close()

    def stats(self) -> dict[str, int]:
        return {"matches": len(self._matches), **self.counters.as_dict()}
