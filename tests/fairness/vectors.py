"""The test vectors of `drago-fair-2` (docs/fairness-vectors.json): made here, checked by the server's
tests, both clients' tests and the page's tests. `python -m tests.fairness.vectors` rewrites the file.

Inputs are fixed strings; outputs come from `app.games.fair2` and the games' own deals, so a change to
either that alters a roll fails `test_vectors.py` until the document's version changes.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Final

from app.games import fair2
from app.games.codec import to_json
from app.games.registry import GAMES

PATH: Final = Path(__file__).resolve().parents[2] / "docs" / "fairness-vectors.json"

SERVER_SEED: Final = bytes(range(32))  # 00 01 02 … 1f
MATCH_ID: Final = "0123456789abcdef0123456789abcdef"
SEAT_SEEDS: Final = ("alice's seed", "Bob ✓", "3", "~ seat three ~", "seed-of-seat-4")
RANGES: Final = (1, 2, 3, 5, 6, 7, 52, 100, 110, 1000, 2**31 + 1, 2**32)
PERMUTATION_SIZES: Final = (5, 52, 110)


def _deals() -> list[dict[str, Any]]:
    cases: list[tuple[str, int, dict[str, Any]]] = [("mount_drago", n, {}) for n in range(2, 6)] + [
        ("mount_drago", 3, {"first_player": 1}),
        ("yutaka", 2, {}),
        ("yutaka", 2, {"first_player": "random"}),
        ("yutaka", 2, {"mode": "tactika", "first_player": 1}),
    ]
    out = []
    for game, players, raw in cases:
        rules = GAMES[game]
        options = rules.parse_options(players, raw)
        seeds = list(SEAT_SEEDS[:players])
        dice = fair2.stream(SERVER_SEED, MATCH_ID, seeds, None)
        deal = to_json(rules.start(players, options, dice, None))
        out.append(
            {"game": game, "players": players, "options": options, "seat_seeds": seeds, "game_started": deal}
        )
    return out


def vectors() -> dict[str, Any]:
    seeds = list(SEAT_SEEDS[:3])
    combined = fair2.combined_seed(SERVER_SEED, MATCH_ID, seeds)
    integers = []
    for n in RANGES:
        s = fair2.Stream(combined, "ints")
        integers.append({"context": "ints", "n": n, "values": [s.randrange(n) for _ in range(10)]})
    permutations = []
    for size in PERMUTATION_SIZES:
        items = list(range(size))
        fair2.Stream(combined, f"perm:{size}").shuffle(items)
        permutations.append({"context": f"perm:{size}", "size": size, "permutation": items})
    reshuffle = list(range(20))
    fair2.Stream(combined, fair2.context_for(57)).shuffle(reshuffle)
    return {
        "algorithm": fair2.ALGORITHM,
        "about": "Inputs and outputs of drago-fair-2 (docs/fairness.md). Byte strings are lowercase hex.",
        "server_seed": SERVER_SEED.hex(),
        "commitment": fair2.commitment(SERVER_SEED),
        "match_id": MATCH_ID,
        "seat_seeds": seeds,
        "combined_seed": combined.hex(),
        "blocks": [
            {"context": c, "counter": i, "block": fair2.block(combined, c, i).hex()}
            for c in ("deal", "seq:57")
            for i in range(3)
        ],
        "integers": integers,
        "permutations": permutations,
        "decision_permutation": {"context": "seq:57", "size": 20, "permutation": reshuffle},
        "deals": _deals(),
    }


def render() -> str:
    return json.dumps(vectors(), ensure_ascii=False, indent=1) + "\n"


if __name__ == "__main__":
    PATH.write_text(render(), encoding="utf-8")
