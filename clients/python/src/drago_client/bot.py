"""An example bot that plays like any third party's would: random legal moves over the public API.

    python -m drago_client.bot --url http://127.0.0.1:8000 --match M --token T     # one seat
    python -m drago_client.bot --url http://127.0.0.1:8000 --key pk_… --until-done  # a player

With a seat token it follows the match (`follow`, with views) and, whenever a `hello` or a commit
shows its seat in `to_act`, sends a random legal action over HTTP with `expected_seq` (a stale view
is refused with `version_conflict` and changes nothing: the next frame brings the fresh state).
With a player key it keeps one connection, the player's notice stream (`follow_player`): each
`your_turn` or `match_started` notice, and each (re)connection's `hello`, makes it read its view of
the matches concerned and play there until it is no longer on turn. It plays every match the key
holds a seat in; `--until-done` ends it once none is waiting or active.

Long-running (`play_forever`, `--seek GAME`, `--accept-challenges`): the bot also keeps a seek
open (`--parallel N`: N seeks), posting a new one whenever one was matched or expired, accepts
every challenge addressed to it, and plays every match it gets, forever (or until it took part in
`--matches` matches). Its state lives on the server (its open seeks, its challenges, its
matches), so a restarted bot carries on where it stopped and a restarted server loses nothing:

    python -m drago_client.bot --url http://127.0.0.1:8000 --key pk_… --seek yutaka --accept-challenges

Both survive a server restart: the streams reconnect with `after` and resume exactly, HTTP calls
are retried (actions with an idempotency key, so never twice), and a decision lost in between is
made again from the view that the next `hello` brings.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import logging
import random
import sys
from collections.abc import Mapping
from contextlib import aclosing
from typing import Any

from drago_client import games, models
from drago_client.client import AsyncClient
from drago_client.errors import (
    DragoError,
    IllegalAction,
    MatchOver,
    NotYourTurn,
    TransportError,
    VersionConflict,
)
from drago_client.wire import encode

log = logging.getLogger("drago_client.bot")
STALE = (VersionConflict, NotYourTurn, MatchOver, IllegalAction)
"""Refusals of an action decided on a view the match has left: harmless, a fresh view follows."""


class RandomBot:
    """Picks a uniformly random legal action, after an optional pause (`delay` seconds)."""

    def __init__(self, api: AsyncClient, *, seed: object = None, delay: float = 0.0) -> None:
        self.api = api
        self.rng = random.Random(str(seed) if seed is not None else None)
        self.delay = delay

    def on_turn(self, view: games.View) -> bool:
        return (
            view.status == "active"
            and view.seat is not None
            and view.seat in view.to_act
            and bool(view.legal_actions)
        )

    async def act(self, match_id: str, view: games.View, token: str) -> games.View | None:
        """Send one action decided on `view`; the view after it (None if it was refused or lost)."""
        if self.delay:
            await asyncio.sleep(self.delay)
        action = self.rng.choice(view.legal_actions)
        try:
            reply = await self.api.submit_action(match_id, action, expected_seq=view.seq, token=token)
        except STALE:
            return None
        except TransportError as e:  # the server is away: the stream's next hello brings the state
            log.warning("action not sent: %s", e)
            return None
        return reply.view

    async def play_seat(self, match_id: str, token: str) -> models.Match:
        """Play the token's seat until the match ends; its final public summary."""
        # aclosing: the stream's socket closes when this returns or fails, not when collected.
        async with aclosing(self.api.follow(match_id, token, hellos=True)) as frames:
            async for frame in frames:
                if frame.view is not None and self.on_turn(frame.view):
                    await self.act(match_id, frame.view, token)
        return await self.api.get_match(match_id)

    async def play_player(self, key: str, *, until_done: bool = False) -> list[str]:
        """Play every match the key holds a seat in; with `until_done`, return once it holds no
        waiting or active match: the ids of the matches it took part in meanwhile."""
        seen: set[str] = set()
        locks: dict[str, asyncio.Lock] = {}
        tasks: set[asyncio.Task[None]] = set()

        def decide(match_id: str) -> None:
            seen.add(match_id)
            lock = locks.setdefault(match_id, asyncio.Lock())
            task = asyncio.create_task(self._play_turns(match_id, key, lock))
            tasks.add(task)
            task.add_done_callback(tasks.discard)

        try:
            async with aclosing(self.api.follow_player(key, hellos=True)) as frames:  # closed on break
                async for frame in frames:
                    if isinstance(frame, models.PlayerHelloFrame):
                        for item in await self._all(key, to_act="me"):  # missed nothing, yet maybe on turn
                            decide(item.match.id)
                        if until_done and not await self._unfinished(key):
                            break
                    elif frame.notice.match_id is None:  # a challenge's notice, before any match
                        continue
                    elif frame.notice.type in ("your_turn", "match_started", "seek_matched"):
                        decide(frame.notice.match_id)
                    elif frame.notice.type == "match_ended":
                        seen.add(frame.notice.match_id)
                        if until_done and not await self._unfinished(key):
                            break
        finally:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
        return sorted(seen)

    async def play_forever(
        self,
        key: str,
        *,
        seek: Mapping[str, Any] | None = None,
        accept_challenges: bool = False,
        matches: int | None = None,
        parallel: int = 1,
    ) -> list[str]:
        """Keep `parallel` seeks open (`seek`: the arguments of `create_seek`; the server caps open
        seeks per player), accept challenges, play every
        match; forever, or until the key took part in `matches` matches in all (as the server counts
        them, so across restarts) and they are over (then its open seek is cancelled). Returns the
        ids of the matches it played in this run."""
        seen: set[str] = set()
        locks: dict[str, asyncio.Lock] = {}
        tasks: set[asyncio.Task[None]] = set()

        def decide(match_id: str) -> None:
            seen.add(match_id)
            task = asyncio.create_task(
                self._play_turns(match_id, key, locks.setdefault(match_id, asyncio.Lock()))
            )
            tasks.add(task)
            task.add_done_callback(tasks.discard)

        async def enough() -> bool:
            """Whether the key took part in `matches` matches, counted by the server (so across restarts)."""
            if matches is None:
                return False
            with contextlib.suppress(DragoError):
                return (await self.api.my_matches(token=key, limit=1)).total >= matches
            return False

        async def tend() -> None:
            """The seek and the challenges, as the server has them now."""
            with contextlib.suppress(DragoError):  # the server went away: the next hello tends again
                if accept_challenges:
                    me = (await self.api.get_me(token=key)).player_id
                    for c in (await self.api.list_my_challenges(token=key)).items:
                        if c.status == "open" and any(t.player_id == me and t.answer is None for t in c.to):
                            with contextlib.suppress(DragoError):
                                await self.api.accept_challenge(c.challenge_id, token=key)
                if seek is not None and not await enough():
                    mine = (await self.api.list_my_seeks(token=key)).items
                    for _ in range(parallel - sum(1 for s in mine if s.status == "open")):
                        await self.api.create_seek(token=key, **seek)

        try:
            async for frame in self.api.follow_player(key, hellos=True):
                if isinstance(frame, models.PlayerHelloFrame):
                    for item in await self._all(key, to_act="me"):
                        decide(item.match.id)
                    await tend()
                elif frame.notice.type == "challenge_received" and accept_challenges:
                    await tend()
                elif frame.notice.match_id is None:
                    continue
                elif frame.notice.type in (
                    "your_turn",
                    "match_started",
                    "seek_matched",
                    "challenge_accepted",
                ):
                    decide(frame.notice.match_id)
                    if frame.notice.type == "seek_matched":
                        await tend()
                elif frame.notice.type == "match_ended":
                    seen.add(frame.notice.match_id)
                if await enough() and not await self._unfinished(key):
                    break
        finally:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            if await enough():
                with contextlib.suppress(DragoError):
                    for s in (await self.api.list_my_seeks(token=key)).items:
                        if s.status == "open":
                            await self.api.cancel_seek(s.seek_id, token=key)
        return sorted(seen)

    async def _play_turns(self, match_id: str, key: str, lock: asyncio.Lock) -> None:
        """Act in one match for as long as the player is on turn there (one decision at a time)."""
        async with lock:
            try:
                view: games.View | None = await self.api.get_view(match_id, token=key)
                while view is not None and self.on_turn(view):
                    view = await self.act(match_id, view, key) or await self.api.get_view(match_id, token=key)
            except DragoError as e:  # e.g. the server went away: the next hello or notice retries
                log.warning("match %s: %s", match_id, e)

    async def _all(self, key: str, **query: Any) -> list[models.PlayerMatch]:
        items: list[models.PlayerMatch] = []
        while True:
            page = await self.api.my_matches(token=key, offset=len(items), **query)
            items += page.items
            if not page.items or len(items) >= page.total:
                return items

    async def _unfinished(self, key: str) -> int:
        waiting = await self.api.my_matches(token=key, status="waiting", limit=1)
        active = await self.api.my_matches(token=key, status="active", limit=1)
        return waiting.total + active.total


async def run(args: argparse.Namespace) -> int:
    async with AsyncClient(args.url) as api:
        bot = RandomBot(api, seed=args.seed, delay=args.delay)
        if args.key is not None and (args.seek or args.accept_challenges):
            seek = (
                None
                if args.seek is None
                else {"game": args.seek, "players": args.players, "opponents": "any"}
            )
            played = await bot.play_forever(
                args.key,
                seek=seek,
                accept_challenges=args.accept_challenges,
                matches=args.matches,
                parallel=args.parallel,
            )
            print(json.dumps({"played": played}))
        elif args.key is not None:
            played = await bot.play_player(args.key, until_done=args.until_done)
            print(json.dumps({"played": played}))
        else:
            summary = await bot.play_seat(args.match, args.token)
            print(json.dumps(encode(summary), ensure_ascii=False))
    return 0


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m drago_client.bot", description=__doc__.split("\n")[0])
    parser.add_argument("--url", "--base-url", default="http://127.0.0.1:8000", help="the server")
    parser.add_argument("--match", help="the match id (with --token)")
    parser.add_argument("--token", help="the seat token from joinSeat")
    parser.add_argument("--key", help="a player key (pk_…): play every match it holds a seat in")
    parser.add_argument("--until-done", action="store_true", help="with --key: stop when no match is left")
    parser.add_argument("--seek", metavar="GAME", help="with --key: keep a seek for GAME open, forever")
    parser.add_argument("--players", type=int, default=2, help="with --seek: the player count")
    parser.add_argument("--accept-challenges", action="store_true", help="with --key: accept every challenge")
    parser.add_argument("--parallel", type=int, default=1, help="with --seek: seeks kept open at once")
    parser.add_argument("--matches", type=int, default=None, help="with --seek: stop after this many matches")
    parser.add_argument("--seed", default=None, help="seed of the bot's choices (reproducible play)")
    parser.add_argument("--delay", type=float, default=0.0, help="seconds to think before each action")
    args = parser.parse_args(argv)
    if (args.key is None) == (args.token is None) or (args.token is not None and args.match is None):
        parser.error("give either --match and --token, or --key")
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s", stream=sys.stderr)
    sys.exit(asyncio.run(run(args)))


if __name__ == "__main__":
    main()
