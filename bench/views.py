"""View and redaction benchmark: microseconds to build and encode what one viewer receives.

    python -m bench.views [--games 30] [--cpu 0]

For every registered game and the player counts that matter it plays random games, then times,
over every position and every viewer (each seat and a spectator), the typed view plus its JSON
encoding (`codec.to_json`) plus, for the seat to act, the JSON of its legal actions — what the
match envelope builds for a view — and, over every event, `redact` plus encoding. The best of
seven rounds is printed, so figures compare across runs on a shared machine.
"""

from __future__ import annotations

import argparse
import os
import random
import time
from typing import Any

from app.games.codec import to_json
from app.games.core import Game
from app.games.registry import GAMES

PLAYER_COUNTS = {"mount_drago": (2, 5), "yutaka": (2,)}
ROUNDS = 7


def positions(game: Game[Any, Any, Any], players: int, games: int) -> tuple[list[Any], list[Any]]:
    states, events = [], []
    for seed in range(games):
        rng = random.Random(seed)
        first = game.start(players, game.parse_options(players, {}), rng)
        state = game.initial_state(first)
        states.append(state)
        events.append(first)
        while game.outcome(state) is None:
            seat = game.to_act(state)[0]
            for event in game.decide(state, seat, rng.choice(game.legal_actions(state, seat)), rng):
                state = game.evolve(state, event)
                events.append(event)
            states.append(state)
    return states, events


def bench(game: Game[Any, Any, Any], players: int, games: int) -> tuple[float, float]:
    states, events = positions(game, players, games)
    viewers: list[int | None] = [*range(players), None]
    best_view = best_event = float("inf")
    for _ in range(ROUNDS):
        t0 = time.perf_counter()
        for state in states:
            acting = game.to_act(state)
            for seat in viewers:
                to_json(game.view(state, seat))
                if seat is not None and seat in acting:
                    [to_json(a) for a in game.legal_actions(state, seat)]
        t1 = time.perf_counter()
        for event in events:
            for seat in viewers:
                to_json(game.redact(event, seat))
        t2 = time.perf_counter()
        best_view = min(best_view, (t1 - t0) / (len(states) * len(viewers)))
        best_event = min(best_event, (t2 - t1) / (len(events) * len(viewers)))
    return best_view * 1e6, best_event * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--cpu", type=int, default=None, help="pin to this core")
    args = parser.parse_args()
    if args.cpu is not None and hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {args.cpu})
    print(f"{'game':<12} {'players':>7} {'µs/view':>9} {'µs/event':>9}")
    for name, game in GAMES.items():
        for players in PLAYER_COUNTS.get(name, (game.info.min_players,)):
            view, event = bench(game, players, args.games)
            print(f"{name:<12} {players:>7} {view:>9.1f} {event:>9.2f}")


if __name__ == "__main__":
    main()
