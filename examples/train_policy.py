"""Train a small policy on the server's own rules, then play it on a live server.

    pip install -e '.[envs]' -e ./clients/python
    python examples/train_policy.py --game yutaka --out policy.npz                # train, save
    python examples/train_policy.py --policy policy.npz --url http://127.0.0.1:8000  # play
    python examples/train_policy.py --game yutaka --out policy.npz --url URL        # both

Training needs nothing heavier than numpy: a linear softmax policy over the game's fixed action
space (logits = [observation, 1] · W, illegal ids masked out), trained by REINFORCE with a running
baseline in the Gymnasium environment (`app.envs.gymnasium`) against the server's `random` level.
Every `--eval-every` episodes it plays `--eval-games` games greedily (the best legal id) against
`random` on seeds it never trains on, and stops as soon as the 95 % Wilson lower bound of its win
share is above one half: it beats `random`. The policy is saved as an `.npz` (the weights, the
game, the observation and action sizes).

Playing uses only the Python client (`drago_client`, no server import): it creates a match with a
server `random` bot in the other seat, joins seat 0, and on each of its turns builds the same
observation from the view JSON the server sends (`drago_client.observation.observe`), masks the
legal ids (`legal_ids`) and submits the chosen id's action (`action_for`), until the match is over.
Everything is seeded (`--seed`), so a run is repeatable on one machine.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

Weights = np.ndarray[Any, np.dtype[np.float64]]


def wilson_low(wins: float, n: int, z: float = 1.96) -> float:
    """The lower end of the 95 % Wilson interval of a win share."""
    p = wins / n
    centre = p + z * z / (2 * n)
    margin = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return (centre - margin) / (1 + z * z / n)


def choose(weights: Weights, observation: Any, legal: Any, rng: np.random.Generator | None) -> int:
    """A legal action id: sampled from the masked softmax (training) or the best one (`rng` None)."""
    logits = np.append(np.asarray(observation, dtype=np.float64), 1.0) @ weights
    legal = np.asarray(legal)
    scores = logits[legal]
    if rng is None:
        return int(legal[int(np.argmax(scores))])
    p = np.exp(scores - scores.max())
    return int(rng.choice(legal, p=p / p.sum()))


def evaluate(env: Any, weights: Weights, games: int, seed: int) -> float:
    """The greedy policy's win share against the environment's opponents (a shared win: a half)."""
    wins = 0.0
    for i in range(games):
        obs, _ = env.reset(seed=seed + i)
        done, reward = False, 0.0
        while not done:
            action = choose(weights, obs["observation"], np.flatnonzero(obs["action_mask"]), None)
            obs, reward, done, _, _ = env.step(action)
        wins += (reward + 1) / 2
    return wins / games


def train(
    game: str, episodes: int, eval_every: int, eval_games: int, seed: int, lr: float
) -> tuple[Weights, float]:
    """Train until the policy beats `random` (see the module docstring); the weights and win share."""
    from app.envs.gymnasium import DragoEnv

    env = DragoEnv(game, 2, opponent="random")
    size, actions = env.table.spec.observation, env.table.spec.actions
    weights: Weights = np.zeros((size + 1, actions))
    rng = np.random.default_rng(seed)
    baseline, share = 0.0, 0.0
    held_out = 10**9 + seed * eval_games  # evaluation seeds, never trained on
    started = time.perf_counter()
    for episode in range(1, episodes + 1):
        obs, _ = env.reset(seed=seed * 10**6 + episode)
        inputs, grads, done, reward = [], [], False, 0.0
        while not done:
            legal = np.flatnonzero(obs["action_mask"])
            x = np.append(obs["observation"], 1.0)
            scores = (x @ weights)[legal]
            p = np.exp(scores - scores.max())
            p /= p.sum()
            pick = int(rng.choice(len(legal), p=p))
            grad = np.zeros(weights.shape[1])
            grad[legal] = -p
            grad[legal[pick]] += 1.0  # d log π(a) / d logits, over the legal ids
            inputs.append(x)
            grads.append(grad)
            obs, reward, done, _, _ = env.step(int(legal[pick]))
        advantage = reward - baseline
        baseline += 0.02 * (reward - baseline)
        weights += lr * advantage * np.asarray(inputs).T @ np.asarray(grads) / math.sqrt(len(inputs))
        if episode % eval_every == 0:
            share = evaluate(env, weights, eval_games, held_out)
            low = wilson_low(share * eval_games, eval_games)
            print(
                f"episode {episode}: greedy win share against random {share:.1%} "
                f"(95% Wilson lower bound {low:.1%}), {time.perf_counter() - started:.0f} s",
                flush=True,
            )
            if low > 0.5:
                print(f"beats random after {episode} episodes")
                return weights, share
    print(f"did not beat random within {episodes} episodes", file=sys.stderr)
    return weights, share


def play(url: str, weights: Weights, game: str) -> dict[str, Any]:
    """One match on the server at `url`: the policy in seat 0, a server `random` bot in seat 1."""
    from drago_client import Client, models
    from drago_client.observation import action_for, legal_ids, observe
    from drago_client.wire import encode

    with Client(url) as api:
        match = api.create_match(game, 2, bots=[models.BotSeat(seat=1, level="random")])
        token = api.join_seat(match.id, 0, "trained policy").token
        deadline = time.monotonic() + 300
        decisions = 0
        while time.monotonic() < deadline:
            view = encode(api.get_view(match.id, token=token))
            if view["status"] in ("finished", "aborted"):
                summary = encode(api.get_match(match.id))
                result = f"scores {summary['scores']}, winners {summary['winners']}"
                print(f"match {match.id}: {view['status']}, {result}")
                return {"match": match.id, "decisions": decisions, **summary}
            legal = legal_ids(view)
            if not legal:  # the server's bot is thinking
                time.sleep(0.02)
                continue
            action_id = choose(weights, observe(view), legal, None)
            api.submit_action(match.id, action_for(view, action_id), expected_seq=view["seq"], token=token)
            decisions += 1
        raise TimeoutError("the match did not end within 300 s")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--game", default="yutaka", choices=["yutaka", "mount_drago"])
    parser.add_argument("--episodes", type=int, default=5000, help="training episodes at most")
    parser.add_argument("--eval-every", type=int, default=250)
    parser.add_argument("--eval-games", type=int, default=300)
    parser.add_argument("--lr", type=float, default=0.05)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, default=None, help="save the trained policy here (.npz)")
    parser.add_argument("--policy", type=Path, default=None, help="play this saved policy (no training)")
    parser.add_argument("--url", default=None, help="a running server: play one match there")
    args = parser.parse_args()
    if args.policy is not None:
        saved = np.load(args.policy)
        weights, game = saved["weights"], str(saved["game"])
    else:
        weights, share = train(args.game, args.episodes, args.eval_every, args.eval_games, args.seed, args.lr)
        game = args.game
        if args.out is not None:
            np.savez(args.out, weights=weights, game=game, win_share=share)
            print(f"saved {args.out}")
    if args.url is not None:
        play(args.url, weights, game)


if __name__ == "__main__":
    main()
