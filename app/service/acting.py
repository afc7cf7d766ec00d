"""Acting on a match as a seat: an action (drafts included) or resigning, with idempotency keys.

One path for people and server bots: load (the cached fold plus new events) → the caller's seat →
`app.matches.decide` with the dice of `(secret, seq)` → `commit` at that seq. A per-match lock in
this process avoids most conflicts; the store's `(match_id, seq)` key settles the rest across
processes: a request without `expected_seq` reloads and decides again (a bounded number of times),
one that pinned `expected_seq` gets `version_conflict`. A retry carrying the same
`Idempotency-Key` gets the first reply, rebuilt from the events that first request appended, and
tells the live readers again that the match is at that commit (the first request's process may
have died before telling them). The key is read only when the request fails (see `run`).
"""

from __future__ import annotations

import functools
import hashlib
import logging
import random
from collections.abc import Callable
from typing import Final

import orjson

from app.games.codec import JSON
from app.games.core import Seat
from app.matches import decide
from app.matches.decide import Decision, Refused
from app.matches.fairness import dice_for
from app.matches.fold import Match
from app.matches.views import records_of
from app.service.auth import Caller, seat_in
from app.service.cache import Loaded, Rendered, Renderings
from app.service.committing import Idempotency, announce, commit
from app.service.context import Context
from app.service.errors import IdempotencyKeyReused, ServiceError, StaleVersion, ValidationFailed, from_code
from app.service.ports import StoredEvent, VersionConflict
from app.service.results import ActionResult

log = logging.getLogger("app.service")

MAX_RETRIES: Final = 8  # reload-and-decide attempts of an unpinned request under write contention

Decider = Callable[[Match, Seat, random.Random], Decision]
"""What a request decides once its seat is known: the events of one commit (or `Refused`)."""


def request_hash(kind: str, body: JSON, expected_seq: int | None) -> str:
    """What an idempotency key is bound to: the request, in a canonical form (sorted keys)."""
    return hashlib.sha256(
        _require_plain_json({"kind": kind, "body": body, "expected_seq": expected_seq}, orjson.OPT_SORT_KEYS)
    ).hexdigest()


def _require_plain_json(body: JSON, option: int = 0) -> bytes:
    try:
        return orjson.dumps(body, option=option)
    except TypeError:
        raise ValidationFailed("an action is plain JSON with 64-bit integers", {"field": "action"}) from None


async def submit_action(
    ctx: Context,
    match_id: str,
    caller: Caller,
    action: JSON,
    expected_seq: int | None = None,
    idempotency_key: str | None = None,
) -> ActionResult:
    """Apply one action of the caller's seat; the new seq, its events and view, for that seat."""

    def decider(m: Match, seat: Seat, rng: random.Random) -> Decision:
        return decide.act(m, seat, action, rng)

    if idempotency_key is None:  # nothing to bind: only the digest's refusal of what is not plain JSON
        _require_plain_json(action)
        digest = ""
    else:
        digest = request_hash("action", action, expected_seq)
    return await run(ctx, match_id, caller, decider, digest, expected_seq, idempotency_key)


async def resign(
    ctx: Context, match_id: str, caller: Caller, idempotency_key: str | None = None
) -> ActionResult:
    """The caller's seat resigns: with two players the other wins; with more a bot plays on."""
    level = ctx.config.takeover_bot_level

    def decider(m: Match, seat: Seat, rng: random.Random) -> Decision:
        return Decision(tuple(decide.resign(m, seat, level)))

    return await run(
        ctx, match_id, caller, decider, request_hash("resign", None, None), None, idempotency_key
    )


async def run(
    ctx: Context,
    match_id: str,
    caller: Caller | Seat,
    decider: Decider,
    digest: str,
    expected_seq: int | None,
    key: str | None,
    *,
    bot: bool = False,
) -> ActionResult:
    """Decide and commit for a seat (`caller`, or a seat number for the server's own bots).

    A request with a key is not looked up first: a retry of one already committed is found where
    it fails. Its action is refused by now (the turn has moved on), or, if legal again, its append
    finds the key kept and writes nothing (`VersionConflict`); either way the kept key answers
    with the first reply, or `idempotency_key_reused` if it was bound to another request. So every
    first request (the SDKs key each action) saves the store a read."""
    async with ctx.locks.get(match_id):
        fresh = False  # the first try acts on this process's cached state, without reading
        for _ in range(MAX_RETRIES):
            loaded = await ctx.loader.to_decide_on(match_id, fresh=fresh)
            try:
                seat = caller if isinstance(caller, int) else seat_in(loaded, caller)
                decision = _decide(loaded, seat, decider, expected_seq)
            except ServiceError:
                if key is not None and (first := await _first_reply(ctx, match_id, caller, key, digest)):
                    return first  # a retry, or lost to a duplicate of itself
                if not fresh:  # judged on a cached state: judge again on the store's
                    fresh = True
                    continue
                raise
            idem = None if key is None else Idempotency(seat, key, digest)
            renderings = ctx.loader.renderings
            replies: list[Rendered] = []  # while the append is in flight where it can be; kept below
            reply_of = functools.partial(_render_reply, renderings, seat, replies)
            try:
                done = await commit(
                    ctx,
                    loaded,
                    decision.events,
                    by=seat,
                    idempotency=idem,
                    bot=bot,
                    evolved=decision.evolved,
                    meanwhile=reply_of,
                )
            except VersionConflict:
                if key is not None and (first := await _first_reply(ctx, match_id, caller, key, digest)):
                    return first
                if expected_seq is not None:
                    raise StaleVersion(details={"expected_seq": expected_seq}) from None
                fresh = True
                continue
            match = done.loaded.match
            if key is not None:  # its retry rebuilds the reply from this state, folding nothing
                ctx.loader.replays.keep(match)
            # `commit` ran `meanwhile` once; its list is empty only if the rendering raised in the
            # loop's callback (logged there): rendered here then, so that the error is this request's.
            reply = (
                replies[0]
                if replies
                else renderings.fresh(match, done.stored, seat, [s.decoded for s in done.stored])
            )
            renderings.keep(reply)  # the actor's stream frame embeds the same view and records
            return ActionResult(match.seq, reply.records, reply.view, reply.records_json)
        raise StaleVersion("the match is busy; try again")


def _render_reply(
    renderings: Renderings, seat: Seat, into: list[Rendered], match: Match, stored: tuple[StoredEvent, ...]
) -> None:
    """The actor's reply on the state its commit makes, rendered before it is known committed
    (`commit`'s `meanwhile`): nothing is kept until it is."""
    into.append(renderings.fresh(match, stored, seat, [s.decoded for s in stored]))


def _decide(loaded: Loaded, seat: Seat, decider: Decider, expected_seq: int | None) -> Decision:
    match = loaded.match
    if expected_seq is not None and expected_seq != match.seq:
        raise StaleVersion(details={"expected_seq": expected_seq, "seq": match.seq})
    try:
        return decider(match, seat, dice_for(match, loaded.record.secret, match.seq))
    except Refused as r:
        log.info("request refused", extra={"match_id": match.match_id, "seat": seat, "code": r.code})
        raise from_code(r.code, r.message, r.details) from None


async def _first_reply(
    ctx: Context, match_id: str, caller: Caller | Seat, key: str, digest: str
) -> ActionResult | None:
    """The reply to the first request with this key, rebuilt from the events it appended."""
    # A seat does not move: this process's cached state names it, else (or if it cannot) the store's.
    cached = ctx.loader.cached(match_id)
    loaded = cached or await ctx.loader.load(match_id)
    try:
        seat = caller if isinstance(caller, int) else seat_in(loaded, caller)
    except ServiceError:
        if cached is None or isinstance(caller, int):
            raise
        loaded = await ctx.loader.load(match_id)
        seat = seat_in(loaded, caller)
    record = await ctx.store.get_idempotent(match_id, seat, key)
    if record is None:
        return None
    if record.request_hash != digest:
        raise IdempotencyKeyReused(details={"idempotency_key": key})
    await announce(ctx, match_id, record.last_seq)  # its first request may not have told anyone
    past, events = await ctx.loader.at(loaded.record, record.last_seq, since=record.first_seq - 1)
    return ActionResult(
        record.last_seq, records_of(past.game, events, seat), ctx.loader.renderings.view(past, seat)
    )
