"""Server bots, outside every request: a runner per process that plays bots' decisions when woken.

A commit that leaves a server bot to act wakes the runner (`Context.bots.wake`); so does the
sweeper for matches whose bot has owed a move for a while (a crash, another process gone). The
runner plays each woken match until no bot is to act: it builds the seat's information — its
redacted history and legal actions, nothing else — and hands it to a chooser in an executor (a
process pool for search, so the event loop never waits on it), then appends the chosen action with
`expected_seq` like any client. When another process got there first the store refuses the append
and the runner looks again. Bots never draft: their actions are public at once.

One search per decision across processes: the runner claims the match first (`app.service.leases`)
and, holding the claim, checks that the match is still at the seq it loaded; a process that does
not get the claim leaves the decision to the one that has it. Each search is counted
(`BotRunner.searches`) and logged (`bot search`, with the match id, seat and seq), so a test can
check that no decision was searched twice. A choice whose append failed because the database was
unreachable is kept (per process) and appended at the next wake without searching again.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import random
from collections.abc import Callable, Sequence
from concurrent.futures import Executor
from typing import Final

from app.bots import Bot, Budget, InfoSet, make_bot
from app.games.codec import JSON, to_json
from app.games.core import AnyGame, Seat
from app.matches import decide
from app.matches.decide import Decision
from app.matches.events import MATCH_EVENT_TYPES
from app.matches.fold import Match, decode
from app.service.acting import request_hash, run
from app.service.cache import Loaded
from app.service.context import Context
from app.service.errors import ServiceError, StaleVersion, Unavailable
from app.service.leases import BotClaims, LocalClaims
from app.service.tasks import cancel_and_wait

log = logging.getLogger("app.bots")

MAX_DECISIONS_PER_WAKE: Final = 10_000  # a bound, so one broken match cannot hold the runner forever
HISTORIES_KEPT: Final = 4096  # (match, seat) histories remembered between decisions

Chooser = Callable[[str, str, Seat, tuple[JSON, ...], tuple[object, ...], int], object]
"""`(level, game, seat, history, legal_actions, seed) -> action`: a module-level function, so a
process pool can run it. `history` is the seat's redacted history as JSON."""


def bot_seed(secret: str, seq: int) -> int:
    """The seed of a bot's decision at `seq`: from the match's secret, so a replay can check it."""
    return int.from_bytes(hashlib.sha256(f"{secret}:bot:{seq}".encode()).digest()[:8], "big")


def history_for(match_game: AnyGame, events: Sequence[object], seat: Seat) -> tuple[JSON, ...]:
    """The seat's view of the game's committed events, as JSON (match-level events left out)."""
    return tuple(to_json(match_game.redact(e, seat)) for e in events)


class BotRunner:
    """Plays server bots' decisions for the matches it is woken for (one task per process)."""

    def __init__(
        self, ctx: Context, choose: Chooser, executor: Executor | None = None, claims: BotClaims | None = None
    ) -> None:
        self.ctx = ctx
        self.choose = choose
        self.executor = executor
        self.claims: BotClaims = claims or LocalClaims()
        self._pending: dict[str, None] = {}
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._histories: dict[tuple[str, Seat], tuple[int, tuple[JSON, ...]]] = {}  # least recent first
        self._unwritten: dict[tuple[str, int], object] = {}  # (match, seq) → action whose append failed
        self.decisions = 0
        self.searches = 0  # choosers run (a search each); a claim keeps it to one per decision
        self.declined = 0  # decisions left to the process holding the claim

    def wake(self, match_id: str) -> None:
        self._pending[match_id] = None
        self._wake.set()

    async def start(self) -> None:
        self._task = asyncio.create_task(self._loop(), name="bot-runner")

    async def stop(self) -> None:
        task, self._task = self._task, None
        await cancel_and_wait(task)

    async def _loop(self) -> None:
        while True:
            await self._wake.wait()
            self._wake.clear()
            while self._pending:
                match_id = next(iter(self._pending))
                del self._pending[match_id]
                try:
                    await self.play(match_id)
                except Exception:
                    log.exception("bot runner failed", extra={"match_id": match_id})

    async def play(self, match_id: str) -> int:
        """Play bot decisions in `match_id` until no bot is to act; returns how many were made."""
        made = 0
        for _ in range(MAX_DECISIONS_PER_WAKE):
            loaded = await self.ctx.loader.load(match_id)
            seats = loaded.match.bots_to_act
            if not seats:
                return made
            try:
                async with self.claims.claim(match_id) as mine:
                    if not mine:
                        self.declined += 1
                        return made  # another process is deciding: it plays on from there
                    record = await self.ctx.store.get_match(match_id)
                    if record is None or record.seq != loaded.match.seq:
                        continue  # decided meanwhile (the load was stale): look again
                    await self._decide(loaded, seats[0])
            except StaleVersion:
                continue  # someone else moved first: look again
            except ServiceError as e:
                extra = {"match_id": match_id, "seat": seats[0], "seq": loaded.match.seq, "code": e.code}
                log.error("bot action refused", extra=extra)
                return made
            made += 1
            self.decisions += 1
        log.warning("bot decision budget exhausted", extra={"match_id": match_id})
        return made

    async def _decide(self, loaded: Loaded, seat: Seat) -> None:
        match = loaded.match
        game = match.game
        legal = tuple(game.legal_actions(match.state, seat))
        if not legal:
            raise StaleVersion("no legal action")
        history = await self._history(loaded, seat)
        level = match.seats[seat].level or self.ctx.config.takeover_bot_level
        args = (level, game.info.name, seat, history, legal, bot_seed(loaded.record.secret, match.seq))
        key = (match.match_id, match.seq)
        action = self._unwritten.pop(key, None)  # chosen before, but the append failed (an outage)
        if action is None:
            self.searches += 1
            log.info("bot search", extra={"match_id": match.match_id, "seat": seat, "seq": match.seq})
            if self.executor is None:
                action = self.choose(*args)
            else:
                action = await asyncio.get_running_loop().run_in_executor(self.executor, self.choose, *args)
        action_json = to_json(action)
        self._unwritten[key] = action  # kept until the append is answered: a retry needs no search
        while len(self._unwritten) > HISTORIES_KEPT:
            self._unwritten.pop(next(iter(self._unwritten)))

        def decider(m: Match, s: Seat, rng: random.Random) -> Decision:
            return decide.act(m, s, action_json, rng, drafting=False)

        digest = request_hash("bot", action_json, match.seq)
        try:
            await run(self.ctx, match.match_id, seat, decider, digest, match.seq, None, bot=True)
        except Unavailable:
            raise  # the store is down: keep the choice for the next wake
        except BaseException:
            self._unwritten.pop(key, None)
            raise
        self._unwritten.pop(key, None)

    async def _history(self, loaded: Loaded, seat: Seat) -> tuple[JSON, ...]:
        """The seat's redacted history of the game's committed events (drafts are only ever of
        people, and published by now), read and redacted incrementally: a bot deciding again in
        the same match reads only the events since its last decision."""
        match = loaded.match
        key = (match.match_id, seat)
        seq, history = self._histories.pop(key, (0, ()))
        if seq > match.seq:  # cannot happen with one store; start afresh rather than trust it
            seq, history = 0, ()
        if seq < match.seq:
            stored = await self.ctx.store.read(match.match_id, seq, match.seq - seq)
            game = match.game
            new = [decode(game, e) for e in stored if e.type not in MATCH_EVENT_TYPES]
            history = (*history, *history_for(game, new, seat))
            seq = stored[-1].seq if stored else seq
        self._histories[key] = (seq, history)
        while len(self._histories) > HISTORIES_KEPT:
            self._histories.pop(next(iter(self._histories)))
        return history


def level_chooser(
    level: str,
    game: str,
    seat: Seat,
    history: tuple[JSON, ...],
    legal: tuple[object, ...],
    seed: int,
    *,
    millis: float | None = 140.0,
    iterations: int | None = None,
) -> object:
    """The server's bots (`app.bots`): the level's policy over exactly the seat's information,
    searching within the budget (`functools.partial` fixes it: a process pool can pickle that)."""
    bot = _bots.get((level, millis, iterations))
    if bot is None:
        bot = _bots[(level, millis, iterations)] = make_bot(
            level, Budget(iterations=iterations, millis=millis)
        )
    return bot.choose(InfoSet(game, seat, history, legal), random.Random(seed))


_bots: dict[tuple[str, float | None, int | None], Bot] = {}  # per worker process


def random_chooser(
    level: str, game: str, seat: Seat, history: tuple[JSON, ...], legal: tuple[object, ...], seed: int
) -> object:
    """The simplest policy: a uniformly random legal action (for tests of the runner)."""
    return random.Random(seed).choice(legal)
