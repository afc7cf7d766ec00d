"""The scenarios whose responses become the examples of `docs/games/`, per game.

- `main`: a whole match of random legal actions (a seeded RNG picks an action type, then an action);
  the next seed is tried until every game event but `UNREACHABLE` has happened;
- `drafts`: turn drafts: steps, an undo, steps again, `finish_turn`, then a resignation;
- `host`: the host reissues a seat's token and hands a seat to a server bot; then a resignation;
- `abort`: a waiting match the host aborts;
- `timeout`: a turn clock runs out (`forfeit`);
- `rated`: a rated match of two server bots, played out: its `ratings_changed` (the built-in bots'
  player ids and figures are the same on every run).

`capture(game)` plays them all in one in-process app and returns what the clients received.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Final

from fastapi import FastAPI

from app.gamedocs.capture import Capture, Match, Session, choose, running
from app.games.codec import JSON
from app.games.registry import GAMES
from app.service.bots import BotRunner, random_chooser

PLAYERS: Final = {"mount_drago": 5, "yutaka": 2}
"""Players of the main match (Mount Drago's draw pile runs out in long five-player games)."""
DRAFT_OPTIONS: Final[dict[str, dict[str, object]]] = {
    "mount_drago": {"explicit_end_turn": True},  # a turn stays open after the play: a draft to finish
    "yutaka": {"explicit_end_turn": True},
}
UNREACHABLE: Final = {"mount_drago": {"turn_passed"}, "yutaka": set[str]()}
"""Events no real match produces (docs/rules.md §1.4.7): the docs show a constructed example."""
MAIN_OPTIONS: Final[dict[str, dict[str, object]]] = {
    "mount_drago": {},
    "yutaka": {"mode": "tactika", "explicit_end_turn": True},  # types shown face down; `end_turn`
}
SEEDS: Final = 12
"""Main matches tried at most, seed after seed, until every game event has happened."""
INTERESTING: Final[dict[str, Callable[[JSON], bool]]] = {
    "mount_drago": lambda v: v["phase"] == "discard" and len(v["legal_actions"]) > 1,
    "yutaka": lambda v: v["phase"] == "play" and v["cards_played"] >= 8,
}
"""The position whose views (the seat to act's and a spectator's) the docs show."""
DRAFTING: Final = ("undo", "finish_turn")


async def capture(game: str) -> Capture:
    out = Capture(game)
    async with running() as (app, client, clock):
        session = Session(client, clock, out)
        out.schemas = (await session.call("GET", f"/v1/games/{game}"))["schemas"]
        await _main(session)
        await _drafts(session)
        await _host(session, app)
        await _abort(session)
        await _timeout(session, app)
        await _rated(session, app)
    return out


async def _main(session: Session) -> None:
    game = session.capture.game
    wanted = set(GAMES[game].event_types) - UNREACHABLE[game]
    for attempt in range(1, SEEDS + 1):
        trial = Capture(game)
        trial_session = Session(session.client, session.clock, trial)
        seed = f"docs-{game}-{attempt}"
        match = await trial_session.create("main", PLAYERS[game], seed, options=MAIN_OPTIONS[game])
        await _play(match, random.Random(seed), game)
        await match.read_back()
        if wanted <= {e.type for e in trial.events}:
            _merge(session.capture, trial)
            return
    raise RuntimeError(f"no {game} match of {SEEDS} seeds had every event of {sorted(wanted)}")


async def _play(match: Match, rng: random.Random, game: str) -> None:
    shown = False
    for _ in range(5000):
        summary = await match.session.call("GET", match.url)
        if summary["status"] != "active":
            return
        seat = summary["to_act"][0]
        view = await match.view(seat)
        if not shown and INTERESTING[game](view):
            match.session.capture.views += [(f"seat {seat}", view), ("spectator", await match.view(None))]
            shown = True
        await match.act(seat, choose(rng, view["legal_actions"]))
    raise RuntimeError("the match did not end")


def _merge(into: Capture, trial: Capture) -> None:
    into.matches.update(trial.matches)
    into.views += trial.views
    for kind, action in trial.actions.items():
        into.actions.setdefault(kind, action)
    into.replies += trial.replies
    into.events += trial.events


async def _drafts(session: Session) -> None:
    game = session.capture.game
    seed = f"docs-{game}-drafts"
    match = await session.create("drafts", 2, seed, drafts=True, options=DRAFT_OPTIONS[game])
    rng = random.Random(seed)
    undone = False
    for _ in range(200):
        seat = (await session.call("GET", match.url))["to_act"][0]
        legal = (await match.view(seat))["legal_actions"]
        kinds = {a["type"] for a in legal}
        if "undo" in kinds and not undone:
            await match.act(seat, {"type": "undo"})
            undone = True
        elif "finish_turn" in kinds and undone:
            await match.act(seat, {"type": "finish_turn"})
            break
        else:
            await match.act(seat, choose(rng, [a for a in legal if a["type"] not in DRAFTING] or legal))
    else:
        raise RuntimeError("no draft was finished")
    await session.call("POST", f"{match.url}/resign", match.tokens[1])
    await match.read_back()


async def _host(session: Session, app: FastAPI) -> None:
    match = await session.create("host", 2, f"docs-{session.capture.game}-host")
    grant = await session.call("POST", f"{match.url}/seats/0/token", match.host)
    match.tokens[0] = grant["token"]
    await session.call("POST", f"{match.url}/seats/1/bot", match.host)
    await BotRunner(app.state.ctx, random_chooser).play(match.id)
    del match.tokens[1]  # the bot's seat: its old token still reads, but nobody holds it now
    await session.call("POST", f"{match.url}/resign", match.tokens[0])
    await match.read_back()


async def _abort(session: Session) -> None:
    match = await session.create("abort", 2, f"docs-{session.capture.game}-abort", join=False)
    await session.call("POST", f"{match.url}/seats/0", body={"name": "Ada"})
    await session.call("POST", f"{match.url}/abort", match.host)
    await match.read_back()


async def _timeout(session: Session, app: FastAPI) -> None:
    game = session.capture.game
    clock = {"per_decision_s": 60}
    match = await session.create("timeout", 2, f"docs-{game}-timeout", clock=clock, on_timeout="forfeit")
    session.capture.views.append(("seat with a clock", await match.view(0)))
    session.clock.tick(61)
    if await app.state.sweeper.sweep_once() != 1:
        raise RuntimeError("the clock did not run out")
    await match.read_back()


async def _rated(session: Session, app: FastAPI) -> None:
    game = session.capture.game
    bots = [{"seat": 0, "level": "random"}, {"seat": 1, "level": "greedy"}]
    match = await session.create("rated", 2, f"docs-{game}-rated", join=False, bots=bots, rated=True)
    await BotRunner(app.state.ctx, random_chooser).play(match.id)
    await match.read_back()
    if "ratings_changed" not in {e.type for e in session.capture.events if e.scenario == "rated"}:
        raise RuntimeError("the rated match got no ratings_changed")
