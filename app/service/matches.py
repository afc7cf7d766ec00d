"""The match use cases: create, join, authenticate, act, read, reveal.

`MatchService` is what the edges (HTTP, WebSocket) call. It speaks plain JSON-ready data and
raises only `app.service.errors`; it knows the ports (`EventStore`, `Notifier`) and the games,
never FastAPI or SQLAlchemy. Hidden information leaves only through `app.matches.views`.
"""

from __future__ import annotations

import contextlib
import hashlib
import secrets
from collections.abc import Mapping, Sequence
from typing import Any

from app.games.codec import JSON
from app.games.core import Game, Seat
from app.games.registry import GAMES
from app.matches.lifecycle import fold, project
from app.matches.views import full_events, redacted_events, timestamp, view_for
from app.service import catalogue
from app.service.acting import Actions, update_of
from app.service.cache import StateCache, TokenCache
from app.service.creation import plan_match
from app.service.errors import (
    Forbidden,
    MatchNotFinished,
    NotFound,
    SeatTakenError,
    Unauthorized,
    Unavailable,
    ValidationFailed,
    VersionConflictError,
)
from app.service.hooks import BotPolicy, NullMetrics, NullNotifier, RandomBot, ServiceMetrics
from app.service.loading import Loader
from app.service.ports import (
    Clock,
    EventStore,
    MatchFilter,
    MatchRecord,
    MatchStatus,
    Notifier,
    SeatTaken,
    VersionConflict,
    utcnow,
)

MAX_NAME = 40
COMMITMENT_SCHEME = (
    'sha256(canonical_json({"deal": <first event data>, "secret": <secret>})); canonical JSON: keys sorted, '
    'separators "," and ":", UTF-8, no ASCII escaping'
)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


class MatchService:
    def __init__(
        self,
        store: EventStore,
        notifier: Notifier | None = None,
        *,
        games: Mapping[str, Game[Any, Any, Any]] | None = None,
        clock: Clock = utcnow,
        dev_features: bool = False,
        metrics: ServiceMetrics | None = None,
        bot: BotPolicy | None = None,
        cache_size: int = 1024,
    ) -> None:
        self.store = store
        self.games = GAMES if games is None else games
        self.clock = clock
        self.dev_features = dev_features
        self.metrics = metrics or NullMetrics()
        self.loader = Loader(store, self.games, StateCache(cache_size))
        self.tokens = TokenCache()
        self.actions = Actions(
            self.loader, notifier or NullNotifier(), self.metrics, bot or RandomBot(), clock
        )

    @property
    def notifier(self) -> Notifier:
        return self.actions.notifier

    @notifier.setter
    def notifier(self, notifier: Notifier) -> None:
        self.actions.notifier = notifier

    # -- games -----------------------------------------------------------------------------------

    def list_games(self) -> list[dict[str, JSON]]:
        return catalogue.list_games(self.games)

    def describe_game(self, name: str) -> dict[str, JSON]:
        return catalogue.describe_game(self.games, name)

    # -- creating and joining --------------------------------------------------------------------

    async def create_match(
        self,
        game: str,
        players: int,
        options: Mapping[str, JSON] | None = None,
        bots: Sequence[int] = (),
        seed: str | None = None,
        setup: Mapping[str, JSON] | None = None,
    ) -> dict[str, JSON]:
        """Create a match, deal it (seq 1) and fill the bot seats; returns its summary."""
        if (seed is not None or setup is not None) and not self.dev_features:
            raise Forbidden(
                "seed and setup are development features and this server has them disabled",
                {"fields": [f for f, v in (("seed", seed), ("setup", setup)) if v is not None]},
            )
        rules = self.games.get(game)
        if rules is None:
            raise ValidationFailed(f"unknown game {game!r}", {"field": "game", "known": sorted(self.games)})
        new = plan_match(game, rules, players, options or {}, bots, seed, setup, self.clock())
        record, seats, loaded = new.record, new.seats, new.match
        match_id = record.id
        await self.store.create_match(record, seats, [new.deal])  # the match and its deal, atomically
        self.metrics.match_created(game)
        await self.actions.notify(match_id, 1)
        if loaded.seated:
            await self.actions.run_bots(match_id)
        return await self.get_summary(match_id)

    async def join_seat(self, match_id: str, seat: Seat, name: str) -> dict[str, JSON]:
        """Claim a free seat; returns its token (shown this once, stored only as a hash)."""
        record = await self.loader.record(match_id)
        if not 0 <= seat < record.players:
            raise NotFound(f"this match has seats 0 to {record.players - 1}", {"seat": seat})
        name = name.strip()
        if not 1 <= len(name) <= MAX_NAME or not name.isprintable():
            raise ValidationFailed(f"a name has 1 to {MAX_NAME} printable characters", {"field": "name"})
        token = secrets.token_urlsafe(32)
        try:
            await self.store.claim_seat(match_id, seat, name, hash_token(token), self.clock())
        except SeatTaken:
            raise SeatTakenError(details={"seat": seat}) from None
        await self._start_if_seated(match_id)
        return {"match_id": match_id, "seat": seat, "token": token}

    async def _start_if_seated(self, match_id: str) -> None:
        async with self.actions.locks.get(match_id):
            loaded = await self.loader.load(match_id)
            if not loaded.match.seated or loaded.record.status != "waiting":
                return
            # No event: only the listing's status and seats to act change. On a conflict someone
            # else wrote first, and their update carries the new status.
            update = update_of(project(loaded.match))
            with contextlib.suppress(VersionConflict):
                await self.store.append(match_id, loaded.match.seq, [], update, self.clock())
        await self.actions.notify(match_id, loaded.match.seq)
        await self.actions.run_bots(match_id)

    # -- authentication --------------------------------------------------------------------------

    async def authenticate(self, token: str | None) -> tuple[str, Seat]:
        """The (match id, seat) a token belongs to; `Unauthorized` for a missing or unknown token."""
        if not token:
            raise Unauthorized()
        digest = hash_token(token)
        owner = self.tokens.get(digest)
        if owner is None:
            seat = await self.store.seat_by_token(digest)
            if seat is None:
                raise Unauthorized("this token is not valid")
            owner = (seat.match_id, seat.seat)
            self.tokens.put(digest, owner)
        return owner

    async def authorize(self, match_id: str, token: str | None) -> Seat:
        """The seat a token holds in `match_id`; `Forbidden` if it belongs to another match."""
        owner, seat = await self.authenticate(token)
        if owner != match_id:
            await self.loader.record(match_id)  # an unknown match is a 404 first
            raise Forbidden("this token belongs to another match")
        return seat

    async def viewer(self, match_id: str, token: str | None) -> Seat | None:
        """The seat of an optional token (`None`, a spectator, without one)."""
        return None if token is None else await self.authorize(match_id, token)

    # -- acting ----------------------------------------------------------------------------------

    async def submit_action(
        self,
        match_id: str,
        seat: Seat,
        action: JSON,
        expected_seq: int | None = None,
        idempotency_key: str | None = None,
    ) -> dict[str, JSON]:
        """Apply one action; returns `{seq, events, view}` redacted for `seat`."""
        return await self.actions.submit(match_id, seat, action, expected_seq, idempotency_key)

    # -- reading ---------------------------------------------------------------------------------

    async def get_view(self, match_id: str, seat: Seat | None, at: int | None = None) -> dict[str, JSON]:
        """The viewer's view now, or as it was at seq `at` (replay)."""
        if at is None:
            loaded = await self.loader.load(match_id)
            if loaded.match.status == "active" and set(loaded.match.to_act) & loaded.bots:
                await self.actions.run_bots(match_id)  # bots owe a move (e.g. after a crash)
                loaded = await self.loader.load(match_id)
            return view_for(loaded.match, seat)
        loaded = await self.loader.load(match_id)
        if not 1 <= at <= loaded.match.seq:
            raise ValidationFailed(
                f"at must be a seq from 1 to {loaded.match.seq}", {"field": "at", "seq": loaded.match.seq}
            )
        events = await self.store.read(match_id, 0, at)
        past = fold(match_id, loaded.match.game, loaded.record.players, events, loaded.match.seated)
        return view_for(past, seat)

    async def get_events(
        self, match_id: str, seat: Seat | None, after: int = 0, limit: int = 100
    ) -> dict[str, JSON]:
        """Events with `seq > after` (at most `limit`), each redacted for the viewer."""
        if after < 0 or limit < 1:
            field = "after" if after < 0 else "limit"
            raise ValidationFailed("after must be ≥ 0 and limit ≥ 1", {"field": field})
        record = await self.loader.record(match_id)
        game = self.loader.game_of(record)
        events = await self.store.read(match_id, after, limit)
        seq = max(record.seq, events[-1].seq if events else 0)
        return {"match_id": match_id, "seq": seq, "events": redacted_events(game, events, seat)}

    async def get_summary(self, match_id: str) -> dict[str, JSON]:
        loaded = await self.loader.load(match_id)
        out = self._record_json(loaded.record)
        out.update(
            status=loaded.match.status,
            seq=loaded.match.seq,
            to_act=list(loaded.match.to_act),
            seats=[
                {"seat": s.seat, "name": s.name, "bot": s.bot, "taken": s.name is not None}
                for s in loaded.seats
            ],
        )
        return out

    async def list_matches(
        self, status: MatchStatus | None = None, game: str | None = None, limit: int = 50, offset: int = 0
    ) -> dict[str, JSON]:
        records, total = await self.store.list_matches(MatchFilter(status, game, limit, offset))
        return {
            "items": [self._record_json(r) for r in records],
            "total": total,
            "limit": limit,
            "offset": offset,
        }

    async def reveal(self, match_id: str) -> dict[str, JSON]:
        """The secret, the commitment and the full unredacted log: only once the match is over."""
        loaded = await self.loader.load(match_id)
        outcome = loaded.match.outcome
        if outcome is None:
            raise MatchNotFinished()
        events = await self.store.read(match_id)
        record = loaded.record
        return {
            "match_id": match_id,
            "game": record.game,
            "players": record.players,
            "options": dict(record.options),
            "secret": record.secret,
            "commitment": record.commitment,
            "commitment_scheme": COMMITMENT_SCHEME,
            "outcome": outcome.to_json(),
            "events": full_events(events),
        }

    async def ping(self) -> None:
        try:
            await self.store.ping()
        except Exception:
            raise Unavailable("the database is not reachable") from None

    @staticmethod
    def _record_json(r: MatchRecord) -> dict[str, JSON]:
        """The public part of a match record (never its secret)."""
        return {
            "id": r.id,
            "game": r.game,
            "players": r.players,
            "options": dict(r.options),
            "status": r.status,
            "seq": r.seq,
            "to_act": list(r.to_act),
            "scores": None if r.scores is None else list(r.scores),
            "winners": None if r.winners is None else list(r.winners),
            "commitment": r.commitment,
            "created_at": timestamp(r.created_at),
            "updated_at": timestamp(r.updated_at),
        }


__all__ = ["COMMITMENT_SCHEME", "MatchService", "VersionConflictError", "hash_token"]
