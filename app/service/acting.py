"""Submitting actions: decide, append at the expected `seq`, notify after the commit, let bots play.

One path for humans and server bots: load (cached fold + new events) → decode → `game.decide`
with the dice of `(secret, seq)` → `store.append(expected_seq=seq)` → `notifier.notify`. A
per-match lock in this process avoids most conflicts; the store's `(match_id, seq)` key settles
the rest across processes: an unpinned request reloads and decides again (a bounded number of
times), a request that pinned `expected_seq` gets `version_conflict`.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Sequence
from typing import Any

from app.games.codec import JSON, DecodeError, to_json
from app.games.core import IllegalAction, Seat, decode_action
from app.matches.fairness import bot_rng_for, canonical_json, rng_for
from app.matches.lifecycle import LoadedMatch, Projection, advance, project
from app.matches.views import redact_one, view_for
from app.service.cache import MatchLocks
from app.service.errors import (
    IdempotencyKeyReused,
    MatchNotStarted,
    MatchOver,
    NotYourTurn,
    ServiceError,
    ValidationFailed,
    VersionConflictError,
    from_illegal,
)
from app.service.hooks import BotPolicy, ServiceMetrics
from app.service.loading import Loaded, Loader
from app.service.ports import (
    Clock,
    EventStore,
    IdempotencyRecord,
    MatchUpdate,
    NewEvent,
    Notifier,
    VersionConflict,
)

log = logging.getLogger("app.service")

MAX_RETRIES = 8  # reload-and-decide attempts of an unpinned action under write contention
MAX_BOT_CONFLICTS = 8


def update_of(projection: Projection) -> MatchUpdate:
    return MatchUpdate(projection.status, projection.to_act, projection.scores, projection.winners)


def request_hash(action: JSON, expected_seq: int | None) -> str:
    try:
        body = canonical_json({"action": action, "expected_seq": expected_seq})
    except ValueError:
        raise ValidationFailed("numbers in an action must be finite", {"field": "action"}) from None
    return hashlib.sha256(body).hexdigest()


class Actions:
    def __init__(
        self,
        loader: Loader,
        notifier: Notifier,
        metrics: ServiceMetrics,
        bot: BotPolicy,
        clock: Clock,
    ) -> None:
        self.loader = loader
        self.store: EventStore = loader.store
        self.notifier = notifier
        self.metrics = metrics
        self.bot = bot
        self.clock = clock
        self.locks = MatchLocks()

    async def submit(
        self,
        match_id: str,
        seat: Seat,
        action: JSON,
        expected_seq: int | None = None,
        idempotency_key: str | None = None,
    ) -> dict[str, JSON]:
        digest = request_hash(action, expected_seq)
        if idempotency_key is not None:
            first = await self._first_reply(match_id, seat, idempotency_key, digest)
            if first is not None:
                return first
        reply: dict[str, JSON] = {}
        bots_next = False
        async with self.locks.get(match_id):
            fresh = False  # the first try acts on this process's cached state, without reading
            for _ in range(MAX_RETRIES):
                try:
                    reply, bots_next = await self._attempt(
                        match_id, seat, action, expected_seq, idempotency_key, digest, fresh
                    )
                    break
                except VersionConflict:
                    first = await self._after_failure(match_id, seat, idempotency_key, digest)
                    if first is not None:
                        return first
                    if expected_seq is not None:
                        raise VersionConflictError(details={"expected_seq": expected_seq}) from None
                    fresh = True
                except ServiceError:
                    if not fresh:  # judged on a cached state: judge again on the store's
                        fresh = True
                        continue
                    first = await self._after_failure(match_id, seat, idempotency_key, digest)
                    if first is not None:
                        return first
                    raise
            else:
                raise VersionConflictError("the match is busy; try again")
        await self.notify(match_id, int(reply["seq"]))
        if bots_next:
            await self.run_bots(match_id)
        return reply

    async def _attempt(
        self,
        match_id: str,
        seat: Seat,
        action_json: JSON,
        expected_seq: int | None,
        key: str | None,
        digest: str,
        fresh: bool,
    ) -> tuple[dict[str, JSON], bool]:
        """One try: the reply, and whether a server bot is to act next.

        Not `fresh`: on the cached state when there is one (a stale one makes the append conflict).
        """
        loaded = (None if fresh else self.loader.cached(match_id)) or await self.loader.load(match_id)
        match = loaded.match
        game = match.game
        if match.status == "waiting":
            raise MatchNotStarted()
        if match.status == "finished":
            raise MatchOver()
        if expected_seq is not None and expected_seq != match.seq:
            raise VersionConflictError(details={"expected_seq": expected_seq, "seq": match.seq})
        try:
            action = decode_action(game, action_json)
        except DecodeError as e:
            raise ValidationFailed(str(e), {"field": "action"}) from None
        if seat not in match.to_act:
            raise NotYourTurn(details={"to_act": list(match.to_act)})
        try:
            events = game.decide(match.state, seat, action, rng_for(loaded.record.secret, match.seq))
        except IllegalAction as e:
            log.info("action refused", extra={"match_id": match_id, "seat": seat, "code": e.code})
            raise from_illegal(e) from None
        reply, after = await self._commit(loaded, seat, events, key, digest, bot=False)
        return reply, bool(set(after.to_act) & loaded.bots)

    async def _commit(
        self,
        loaded: Loaded,
        seat: Seat,
        events: Sequence[Any],
        key: str | None,
        digest: str,
        bot: bool,
    ) -> tuple[dict[str, JSON], LoadedMatch]:
        """Append `events` at the loaded `seq`; raises `VersionConflict` if another writer won."""
        match = loaded.match
        after: LoadedMatch = advance(match, events)
        at = self.clock()
        reply: dict[str, JSON] = {
            "seq": after.seq,
            "events": [redact_one(match.game, match.seq + i + 1, e, at, seat) for i, e in enumerate(events)],
            "view": view_for(after, seat),
        }
        idem = IdempotencyRecord(match.match_id, seat, key, digest, reply) if key is not None else None
        try:
            await self.store.append(
                match.match_id,
                match.seq,
                [NewEvent(e.TYPE, to_json(e)) for e in events],
                update_of(project(after)),
                at,
                idem,
            )
        except VersionConflict:
            self.metrics.version_conflict(loaded.record.game)
            raise
        self.loader.remember(loaded, after)
        self.metrics.action_appended(loaded.record.game, bot)
        log.log(
            logging.DEBUG if bot else logging.INFO,
            "action appended",
            extra={"match_id": match.match_id, "seat": seat, "seq": after.seq, "bot": bot},
        )
        return reply, after

    async def _first_reply(self, match_id: str, seat: Seat, key: str, digest: str) -> dict[str, JSON] | None:
        record = await self.store.get_idempotent(match_id, seat, key)
        if record is None:
            return None
        if record.request_hash != digest:
            raise IdempotencyKeyReused(details={"idempotency_key": key})
        return dict(record.response)

    async def _after_failure(
        self, match_id: str, seat: Seat, key: str | None, digest: str
    ) -> dict[str, JSON] | None:
        """A failed attempt may have lost to a duplicate of itself: then its first reply stands."""
        if key is None:
            return None
        return await self._first_reply(match_id, seat, key, digest)

    async def notify(self, match_id: str, seq: int) -> None:
        try:
            await self.notifier.notify(match_id, seq)
        except Exception:  # the commit stands; live readers catch up on their next read
            log.exception("notify failed", extra={"match_id": match_id, "seq": seq})

    async def run_bots(self, match_id: str) -> None:
        """Play server bots' decisions until a human is to act or the match ends (bounded)."""
        conflicts = 0
        budget: int | None = None
        fresh = False  # as for humans: act on the cached state until a conflict says it is stale
        while budget is None or budget > 0:
            async with self.locks.get(match_id):
                loaded = (None if fresh else self.loader.cached(match_id)) or await self.loader.load(match_id)
                match = loaded.match
                if budget is None:
                    budget = match.game.info.max_actions
                budget -= 1
                seats = [s for s in match.to_act if s in loaded.bots]
                if match.status != "active" or not seats:
                    return
                seat = seats[0]
                events = self._bot_decision(loaded, seat)
                if events is None:
                    return
                try:
                    reply, _ = await self._commit(loaded, seat, events, None, "", bot=True)
                except VersionConflict:
                    conflicts += 1
                    if conflicts > MAX_BOT_CONFLICTS:
                        return  # another process is playing this match's bots
                    fresh = True
                    continue
            await self.notify(match_id, int(reply["seq"]))
        log.warning("bot move budget exhausted", extra={"match_id": match_id})

    def _bot_decision(self, loaded: Loaded, seat: Seat) -> Sequence[Any] | None:
        match = loaded.match
        game = match.game
        legal = game.legal_actions(match.state, seat)
        if not legal:
            log.error("bot has no legal action", extra={"match_id": match.match_id, "seat": seat})
            return None
        secret = loaded.record.secret
        action = self.bot.choose(view_for(match, seat), legal, bot_rng_for(secret, match.seq))
        try:
            return game.decide(match.state, seat, action, rng_for(secret, match.seq))
        except IllegalAction as e:
            log.error("bot action refused", extra={"match_id": match.match_id, "seat": seat, "code": e.code})
            return None
