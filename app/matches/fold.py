"""A match as the service sees it, folded from its one stream: the game's state and the match's own.

Stored events arrive as envelopes (`seq`, `type`, `data`, `recorded_at`, `commit`). Game events go
through the game's codec and `evolve`; match-level events (`app.matches.events`) change the seats,
the status, the draft and the clock. The status is derived, never stored as truth: `waiting` until
`match_started`, `active`, then `finished` or `aborted` at `match_ended`.

The clock is folded at commit boundaries (an envelope whose `seq` equals its `commit`): a seat that
becomes to act, or acts and stays to act, starts a new decision at the commit's time; with a bank
clock the seat that acted pays the time it took and earns its increment. Draft commits leave the
clock alone, so undoing and redoing cannot buy time.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Literal, Protocol

from app.games.codec import JSON, decode_tagged
from app.games.core import AnyGame, Seat, decode_event
from app.games.frozen import replace
from app.matches.events import (
    MATCH_EVENT_TYPES,
    DraftPublished,
    DraftStep,
    DraftUndone,
    EndReason,
    MatchAborted,
    MatchEnded,
    MatchStarted,
    RatingsChanged,
    SeatJoined,
    SeatResigned,
    SeatTakenOver,
    SeatTokenReissued,
    TurnTimedOut,
)
from app.matches.settings import Bank, MatchSettings, PerDecision

Status = Literal["waiting", "active", "finished", "aborted"]


class EventEnvelope(Protocol):
    """What a stored event looks like to this layer (`app.service.ports.StoredEvent` fits)."""

    @property
    def seq(self) -> int: ...

    @property
    def type(self) -> str: ...

    @property
    def data(self) -> Mapping[str, JSON]: ...

    @property
    def recorded_at(self) -> datetime: ...

    @property
    def commit(self) -> int: ...


class SeatRow(Protocol):
    """A seat as the seats table holds it (only for matches older than lifecycle events)."""

    @property
    def seat(self) -> int: ...

    @property
    def name(self) -> str | None: ...

    @property
    def bot(self) -> bool: ...


@dataclass(frozen=True, slots=True)
class SeatState:
    name: str | None = None  # None while the seat is free
    bot: bool = False  # a server bot plays it (from the start, or after a takeover)
    level: str | None = None
    player_id: str | None = None
    resigned: bool = False  # resigned or forfeited: a bot plays on and the seat is ranked last
    timeouts: int = 0  # consecutive timeouts
    seed: str | None = None  # the seat's seed (drago-fair-2), secret until the end

    @property
    def taken(self) -> bool:
        return self.name is not None


@dataclass(frozen=True, slots=True)
class Draft:
    """A seat's open turn draft: the steps since its last barrier, and the game state after them."""

    seat: Seat
    steps: tuple[tuple[Mapping[str, JSON], tuple[object, ...]], ...]  # (action JSON, decoded game events)
    state: object


@dataclass(frozen=True, slots=True)
class End:
    reason: EndReason
    winners: tuple[Seat, ...]
    scores: tuple[int, ...] | None


@dataclass(frozen=True, slots=True)
class Evolved:
    """One game event the decider already applied: `before` evolved by `event` is `after`.

    `decide.act` returns these with its events, and `advance` takes their states instead of
    evolving the same events twice (it checks that each `before` and `event` are the very objects
    it is about to evolve, so a stale list only costs the shortcut)."""

    before: object
    event: object
    after: object


@dataclass(frozen=True, slots=True)
class Match:
    """One match folded up to `seq` (immutable; `advance` and `fold` return new ones)."""

    match_id: str
    game: AnyGame
    players: int
    settings: MatchSettings
    seq: int
    state: object  # the committed game state (a draft's steps are not in it)
    seats: tuple[SeatState, ...]
    started: bool = False
    end: End | None = None
    draft: Draft | None = None
    bot_turns: frozenset[Seat] = frozenset()  # a bot makes these seats' current decision (a timeout)
    turn_since: tuple[datetime | None, ...] = ()  # per seat: since when its current decision runs
    banks: tuple[float, ...] = ()  # per seat: seconds left in its bank (bank clocks only)
    # `game.to_act(state)`, kept with the state it belongs to (`_with_state`): asked many times per
    # commit (the clock, notices, views), computed once per state.
    game_to_act: tuple[Seat, ...] = ()

    @property
    def status(self) -> Status:
        if self.end is not None:
            return "aborted" if self.end.reason == "aborted" else "finished"
        return "active" if self.started else "waiting"

    @property
    def to_act(self) -> tuple[Seat, ...]:
        """Seats whose decision it is; none before the match starts or after it ends."""
        if self.end is not None or not self.started:
            return ()
        if self.draft is not None:
            return (self.draft.seat,)
        return self.game_to_act

    def state_for(self, seat: Seat | None) -> object:
        """The game state `seat` sees: its own open draft applied, else the committed state."""
        draft = self.draft
        return draft.state if draft is not None and draft.seat == seat else self.state

    def bot_plays(self, seat: Seat) -> bool:
        return self.seats[seat].bot or seat in self.bot_turns

    @property
    def bots_to_act(self) -> tuple[Seat, ...]:
        return tuple(s for s in self.to_act if self.bot_plays(s))

    @property
    def open_seats(self) -> int:
        return sum(not s.taken for s in self.seats)

    def deadlines(self) -> dict[Seat, datetime]:
        """When each seat to act runs out of time (no clock, a bot's turn: none)."""
        clock = self.settings.clock
        if clock is None:
            return {}
        out: dict[Seat, datetime] = {}
        for s in self.to_act:
            since = self.turn_since[s] if s < len(self.turn_since) else None
            if since is None or self.bot_plays(s):
                continue
            budget = clock.per_decision_s if isinstance(clock, PerDecision) else max(self.banks[s], 0.0)
            out[s] = since + timedelta(seconds=budget)
        return out


def decode(game: AnyGame, stored: EventEnvelope) -> object:
    """Decode one stored event, game or match-level; the envelope's `type` is authoritative."""
    data = {**stored.data, "type": stored.type}
    if stored.type in MATCH_EVENT_TYPES:
        return decode_tagged(MATCH_EVENT_TYPES, data, "event")
    return decode_event(game, data)


def new_match(
    match_id: str,
    game: AnyGame,
    players: int,
    settings: MatchSettings,
    legacy_seats: Sequence[SeatRow] = (),
) -> Match:
    """A match before its first event. Matches older than lifecycle events take their seating
    from the seats table (`legacy_seats`) and have started once every seat is filled."""
    seats = tuple(SeatState() for _ in range(players))
    started = False
    if not settings.lifecycle and legacy_seats:
        seats = tuple(SeatState(name=r.name, bot=r.bot) for r in sorted(legacy_seats, key=lambda r: r.seat))
        started = all(s.taken for s in seats)
    banks = (float(settings.clock.initial_s),) * players if isinstance(settings.clock, Bank) else ()
    return Match(
        match_id, game, players, settings, 0, None, seats, started, turn_since=(None,) * players, banks=banks
    )


def fold(base: Match, events: Iterable[EventEnvelope]) -> Match:
    """`base` with the stored `events` (seq-ordered, gap-free, following `base.seq`) applied."""
    match = base
    commit: list[object] = []
    for stored in events:
        if stored.seq != match.seq + len(commit) + 1:
            raise ValueError(
                f"match {match.match_id}: event seq {stored.seq} follows {match.seq + len(commit)}"
            )
        commit.append(decode(match.game, stored))
        if stored.seq >= stored.commit:
            match = advance(match, commit, stored.recorded_at)
            commit = []
    if commit:  # a commit cut by the page size: its end comes with the next read
        match = _apply_all(match, commit)
    return match


def advance(match: Match, events: Sequence[object], at: datetime, evolved: Sequence[Evolved] = ()) -> Match:
    """`match` after appending decoded `events` as one commit recorded `at` (`evolved`: the game
    events among them that the decider already applied, see `Evolved`)."""
    before = match.to_act
    decided = any(type(e) not in _MATCH_STEPS for e in events)
    return _close_commit(_apply_all(match, events, evolved), before, at, decided)


def _apply_all(m: Match, events: Sequence[object], evolved: Sequence[Evolved] = ()) -> Match:
    """Apply events in order. Runs of game events evolve the game's state without rebuilding the
    match for each (a `replace` of this many fields costs more than most `evolve`s)."""
    game = m.game
    state = m.state
    seq = m.seq
    known = iter(evolved)
    for event in events:
        step = _MATCH_STEPS.get(type(event))
        if step is None:
            done = next(known, None)
            if done is not None and done.before is state and done.event is event:
                state = done.after
            else:
                state = game.initial_state(event) if state is None else game.evolve(state, event)
                known = iter(())
            seq += 1
            continue
        if state is not m.state or seq != m.seq:
            m = _with_state(m, state, seq)
        m = step(m, event)
        state = m.state
        seq += 1
    if state is not m.state or seq != m.seq:
        m = _with_state(m, state, seq)
    return m


def _with_state(m: Match, state: object, seq: int) -> Match:
    if state is m.state:
        return replace(m, seq=seq)
    return replace(m, state=state, seq=seq, game_to_act=tuple(m.game.to_act(state)))


def _seat(m: Match, seat: Seat, **changes: object) -> tuple[SeatState, ...]:
    seats = list(m.seats)
    seats[seat] = replace(seats[seat], **changes)
    return tuple(seats)


def _joined(m: Match, e: SeatJoined) -> Match:
    seats = _seat(m, e.seat, name=e.name, bot=e.bot, level=e.level, player_id=e.player_id, seed=e.seed)
    return replace(m, seats=seats)


def _started(m: Match, e: MatchStarted) -> Match:
    return replace(m, started=True)


def _resigned(m: Match, e: SeatResigned) -> Match:
    draft = None if m.draft is not None and m.draft.seat == e.seat else m.draft
    return replace(m, seats=_seat(m, e.seat, resigned=True), draft=draft)


def _timed_out(m: Match, e: TurnTimedOut) -> Match:
    seats = _seat(m, e.seat, timeouts=m.seats[e.seat].timeouts + 1, resigned=e.policy == "forfeit")
    draft = None if m.draft is not None and m.draft.seat == e.seat else m.draft  # a timeout drops the draft
    return replace(m, seats=seats, draft=draft, bot_turns=m.bot_turns | {e.seat})


def _taken_over(m: Match, e: SeatTakenOver) -> Match:
    draft = None if m.draft is not None and m.draft.seat == e.seat else m.draft
    return replace(m, seats=_seat(m, e.seat, bot=True, level=e.level), draft=draft)


def _reissued(m: Match, e: SeatTokenReissued) -> Match:
    return m


def _aborted(m: Match, e: MatchAborted) -> Match:
    return m


def _ended(m: Match, e: MatchEnded) -> Match:
    return replace(m, end=End(e.reason, e.winners, e.scores), draft=None)


def _ratings_changed(m: Match, e: RatingsChanged) -> Match:
    return m  # the players' ratings are not the match's state: a finished match stays as it ended


def _draft_step(m: Match, e: DraftStep) -> Match:
    draft = m.draft if m.draft is not None and m.draft.seat == e.seat else Draft(e.seat, (), m.state)
    events = tuple(decode_event(m.game, dict(ev)) for ev in e.events)
    state = draft.state
    for ev in events:
        state = m.game.evolve(state, ev)
    return replace(m, draft=Draft(e.seat, (*draft.steps, (e.action, events)), state))


def _draft_undone(m: Match, e: DraftUndone) -> Match:
    draft = m.draft
    if draft is None or draft.seat != e.seat or not draft.steps:
        raise ValueError("draft_undone without a draft step to undo")
    steps = draft.steps[:-1]
    if not steps:
        return replace(m, draft=None)
    state = m.state
    for _, events in steps:
        for ev in events:
            state = m.game.evolve(state, ev)
    return replace(m, draft=Draft(e.seat, steps, state))


def _draft_published(m: Match, e: DraftPublished) -> Match:
    # The game events of the draft follow in this commit and fold onto the committed state.
    return replace(m, draft=None)


_MATCH_STEPS: dict[type, Any] = {
    SeatJoined: _joined,
    MatchStarted: _started,
    SeatResigned: _resigned,
    TurnTimedOut: _timed_out,
    SeatTakenOver: _taken_over,
    SeatTokenReissued: _reissued,
    MatchAborted: _aborted,
    MatchEnded: _ended,
    RatingsChanged: _ratings_changed,
    DraftStep: _draft_step,
    DraftUndone: _draft_undone,
    DraftPublished: _draft_published,
}


def _close_commit(m: Match, before: tuple[Seat, ...], at: datetime, decided: bool) -> Match:
    """Fold the end of a commit into the clock, the one-shot bot turns and the timeout counts.

    `decided`: the commit holds game events, i.e. it is the decision of the seat that was to act
    (one seat at a time in these games); a commit of match-level events only decides nothing.
    """
    if m.draft is not None and m.draft.seat in before:
        return m  # a draft step: the clock runs on, nothing else changes
    after = m.to_act
    actor = before[0] if decided and len(before) == 1 else None
    bot_turns = frozenset(s for s in m.bot_turns if s in after and s != actor)
    since = list(m.turn_since)
    banks = list(m.banks)
    clock = m.settings.clock
    for s in range(m.players):
        was, now = s in before, s in after
        started = since[s]
        if was and isinstance(clock, Bank) and started is not None and (s == actor or not now):
            left = max(0.0, banks[s] - (at - started).total_seconds())
            banks[s] = left + (clock.increment_s if s == actor else 0)
        if now and (not was or s == actor):
            since[s] = at
        elif not now:
            since[s] = None
    seats = m.seats
    if actor is not None and actor not in m.bot_turns and m.seats[actor].timeouts:
        seats = _seat(m, actor, timeouts=0)  # the person acted: the timeouts are not consecutive
    return replace(m, bot_turns=bot_turns, turn_since=tuple(since), banks=tuple(banks), seats=seats)
