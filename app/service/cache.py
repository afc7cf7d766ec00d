"""Process-local caches: folded matches keyed by `seq`, their per-viewer renderings, seat tokens,
players' bans (for at most `BAN_TTL_S`), and one `asyncio.Lock` per match.

The store is the truth. A cached entry is only ever a state this process saw committed, so
loading a match reads just the events after the cached `seq`.
"""

from __future__ import annotations

import asyncio
import time
import weakref
from collections import OrderedDict
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Final

import orjson

from app.games.core import Seat
from app.matches.fold import EventEnvelope, Match
from app.matches.views import EventRecord, View, commit_records, view_of
from app.service.ports import MatchRecord, SeatRecord


@dataclass(frozen=True, slots=True)
class Loaded:
    """A match as loaded (`app.service.loading`) and as cached: the same immutable object."""

    record: MatchRecord  # as first read: only its fixed members (game, players, secret…) are relied on
    match: Match
    seats: tuple[SeatRecord, ...]


class StateCache:
    def __init__(self, size: int = 1024) -> None:
        self._size = size
        self._entries: OrderedDict[str, Loaded] = OrderedDict()

    def get(self, match_id: str) -> Loaded | None:
        entry = self._entries.get(match_id)
        if entry is not None:
            self._entries.move_to_end(match_id)
        return entry

    def put(self, entry: Loaded) -> None:
        key = entry.match.match_id
        old = self._entries.get(key)
        if old is not None and old.match.seq > entry.match.seq:
            return  # never move a cached match backwards
        self._entries[key] = entry
        self._entries.move_to_end(key)
        while len(self._entries) > self._size:
            self._entries.popitem(last=False)

    def __len__(self) -> int:
        return len(self._entries)


class Renderings:
    """What a viewer receives of a committed state, built once per state and viewer: its view, and
    the commit that made the state redacted for it, as JSON (the actor's reply and its stream
    frames share both). A committed `seq` names one state in every process, so an entry is keyed
    by match id and `seq`. What is kept is encoded: a view's JSON text, not its object tree, and
    the commit's JSON, not its records. Kept object trees bring the collector's next young
    collection sooner and are all traversed by it; freed at once, they never are (measured with
    `gc.callbacks` under `python -m bench.ab`: half as many young collections, each about half as
    long; 4% of the server's CPU per action on PostgreSQL in all).

    Only each match's newest states are kept (`states`: the newest and the one before, for the
    `size` matches whose states were looked up afresh most recently; the state a match was last
    asked about is found again without touching that order): what the actor's reply, its streams'
    frames and the polls of the view ask for, and the commit before it while a burst's frames are
    still fanned out. An older state's renderings go as its match moves on, instead of lingering
    among thousands of entries until they are the least recently used (they cost the collector and
    the CPU's caches per action for nothing; `python -m bench.ab` measured 6% of the server's CPU
    per action). An older state still (`GET …/view?at=`, a replayed retry, a stream catching up)
    is built for its viewer when asked for, and not kept."""

    def __init__(self, size: int = 2048, states: int = 2) -> None:
        self._size = size
        self._states = states
        # match id → its newest `states` seqs seen → that state's renderings by what and viewer
        self._entries: OrderedDict[str, dict[int, Shelf]] = OrderedDict()
        # match id → the state last asked for and its shelf: an action asks for its state several
        # times (the reply's view and records, then each stream's frame, with other matches'
        # requests in between), so most lookups end here, with one dict lookup.
        self._asked: dict[str, tuple[Match, Shelf]] = {}

    def view(self, match: Match, seat: Seat | None) -> View:
        shelf = self._shelf(match)
        key = (_VIEW, seat)
        cached = None if shelf is None else shelf.get(key)
        if isinstance(cached, View):
            return cached
        view = view_of(match, seat)
        if shelf is not None:
            shelf[key] = view
        return view

    def fresh(
        self, match: Match, events: Sequence[EventEnvelope], seat: Seat | None, decoded: Sequence[object]
    ) -> Rendered:
        """What `commit_json` and `view` build for `seat`, built without keeping anything: for a
        state not known to be committed yet (a commit renders its reply while its append is in
        flight). Once the state is committed, `keep` puts it where `commit_json` and `view` find it;
        a state that never committed must never be kept (its seq may name another state)."""
        records = commit_records(match, events, seat, decoded)
        view = view_of(match, seat)
        view.json_bytes()  # encoded now, while there is time for it
        first = events[0].seq if events else None
        return Rendered(match, seat, first, records, _records_json(records), view)

    def keep(self, rendered: Rendered) -> None:
        """Keep what `fresh` rendered of a state now committed (what is kept already stays)."""
        shelf = self._shelf(rendered.match)
        if shelf is not None:
            shelf.setdefault((_VIEW, rendered.seat), rendered.view)
            shelf.setdefault((_RECORDS_JSON, rendered.seat, rendered.first_seq), rendered.records_json)

    def commit_json(
        self,
        match: Match,
        events: Sequence[EventEnvelope],
        seat: Seat | None,
        decoded: Sequence[object] | None = None,
        records: Sequence[EventRecord] | None = None,
    ) -> bytes:
        """`app.matches.views.commit_records` as a JSON array (orjson), encoded once per state,
        viewer and first seq of `events`: the actor's reply and its stream frame embed the same
        bytes (`orjson.Fragment`). `records`: those records, when the caller has them already.
        Only the bytes are kept (the records go as soon as they are encoded)."""
        shelf = self._shelf(match)
        key = (_RECORDS_JSON, seat, events[0].seq if events else None)
        cached = None if shelf is None else shelf.get(key)
        if isinstance(cached, bytes):
            return cached
        if records is None:
            records = commit_records(match, events, seat, decoded)
        encoded = _records_json(records)
        if shelf is not None:
            shelf[key] = encoded
        return encoded

    def _shelf(self, match: Match) -> Shelf | None:
        """The renderings kept for `match`'s state, or None when its match has `states` newer states
        here (then nothing of this one is kept). A newer state pushes out its match's oldest one;
        the one before the newest stays, so that a burst of commits fanned out to many viewers
        still renders each commit once while its frames are on their way."""
        key = match.match_id
        asked = self._asked.get(key)
        if asked is not None and asked[0] is match:
            return asked[1]
        entries, seq = self._entries, match.seq
        states = entries.get(key)
        if states is None:
            states = entries[key] = {}
            if len(entries) > self._size:
                self._asked.pop(entries.popitem(last=False)[0], None)
        entries.move_to_end(key)
        shelf = states.get(seq)
        if shelf is None:
            if len(states) >= self._states and seq < min(states):
                return None
            shelf = states[seq] = {}
            if len(states) > self._states:
                del states[min(states)]
        self._asked[key] = (match, shelf)
        return shelf

    def __len__(self) -> int:
        """Renderings kept, over all matches."""
        return sum(len(shelf) for states in self._entries.values() for shelf in states.values())


@dataclass(frozen=True, slots=True)
class Rendered:
    """One viewer's renderings of one commit and the state it made (`Renderings.fresh`)."""

    match: Match
    seat: Seat | None
    first_seq: int | None  # the commit's first event's seq
    records: tuple[EventRecord, ...]
    records_json: bytes
    view: View


def _records_json(records: Sequence[EventRecord]) -> bytes:
    return orjson.dumps([r.to_json() for r in records])


Shelf = dict[Hashable, View | bytes]  # one state's renderings
_VIEW: Final = "view"
_RECORDS_JSON: Final = "records_json"


TokenOwner = tuple[str, int, str | None]
"""What a seat token names: its match, its seat, and the player the seat is bound to (if any)."""


class TokenCache:
    """Seat token hash → what it named when last looked up (`TokenOwner`).

    Only a hint: a reissued token still hits here, so every use checks the hash against the
    current seat row (`app.service.auth`). The player a seat is bound to never changes (a reissue
    or a takeover keeps it), so the hint's player is the seat's."""

    def __init__(self, size: int = 65536) -> None:
        self._size = size
        self._entries: OrderedDict[str, TokenOwner] = OrderedDict()

    def get(self, token_hash: str) -> TokenOwner | None:
        return self._entries.get(token_hash)

    def put(self, token_hash: str, owner: TokenOwner) -> None:
        self._entries[token_hash] = owner
        if len(self._entries) > self._size:
            self._entries.popitem(last=False)

    def drop(self, token_hash: str) -> None:
        self._entries.pop(token_hash, None)


BAN_TTL_S: Final = 0.5  # a ban reaches seat tokens in this process within this (docs/moderation.md)


class BanCache:
    """Player id → whether it was banned when last read, trusted for `ttl_s` (monotonic time).

    Only seat tokens go through it (a player key's request reads its player anyway): an action by
    seat token then costs no store read for the ban but once per `ttl_s` per player. Bounded: the
    oldest entries go first."""

    def __init__(
        self, ttl_s: float = BAN_TTL_S, size: int = 65536, now: Callable[[], float] = time.monotonic
    ) -> None:
        self.ttl_s = ttl_s
        self._size = size
        self._now = now
        self._entries: OrderedDict[str, tuple[bool, float]] = OrderedDict()

    def get(self, player_id: str) -> bool | None:
        """Whether the player is banned, or None when unknown or older than `ttl_s`."""
        entry = self._entries.get(player_id)
        if entry is None or self._now() - entry[1] >= self.ttl_s:
            return None
        return entry[0]

    def put(self, player_id: str, banned: bool) -> None:
        self._entries[player_id] = (banned, self._now())
        self._entries.move_to_end(player_id)
        if len(self._entries) > self._size:
            self._entries.popitem(last=False)


class MatchLocks:
    """One lock per match in this process; unused locks disappear with their last holder."""

    def __init__(self) -> None:
        self._locks: weakref.WeakValueDictionary[str, asyncio.Lock] = weakref.WeakValueDictionary()

    def get(self, match_id: str) -> asyncio.Lock:
        lock = self._locks.get(match_id)
        if lock is None:
            lock = asyncio.Lock()
            self._locks[match_id] = lock
        return lock
