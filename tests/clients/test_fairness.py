"""The Python client's fairness verifier (`drago_client.fairness`) against the committed test vectors
and, through its command line, against a real server process: it imports nothing of the server."""

from __future__ import annotations

import ast
import json
import random
from pathlib import Path

import httpx
import pytest
from drago_client import fairness
from drago_client.__main__ import main

from tests.clients.servers import ServerProcess

VECTORS = json.loads(
    (Path(__file__).resolve().parents[2] / "docs" / "fairness-vectors.json").read_text("utf-8")
)


def test_the_verifier_imports_nothing_of_the_server() -> None:
    source = Path(fairness.__file__).read_text("utf-8")
    imported = {
        (n.module or "") if isinstance(n, ast.ImportFrom) else a.name
        for n in ast.walk(ast.parse(source))
        if isinstance(n, ast.Import | ast.ImportFrom)
        for a in n.names
    }
    assert imported <= {
        "__future__",
        "hashlib",
        "hmac",
        "collections",
        "collections.abc",
        "dataclasses",
        "typing",
    }


def test_the_primitives_give_the_committed_vectors() -> None:
    server = bytes.fromhex(VECTORS["server_seed"])
    assert fairness.commitment(server) == VECTORS["commitment"]
    combined = fairness.combined_seed(server, VECTORS["match_id"], VECTORS["seat_seeds"])
    assert combined.hex() == VECTORS["combined_seed"]
    for b in VECTORS["blocks"]:
        assert fairness.Stream(combined, b["context"]).block(b["counter"]).hex() == b["block"]
    for case in VECTORS["integers"]:
        s = fairness.Stream(combined, case["context"])
        assert [s.uniform(case["n"]) for _ in case["values"]] == case["values"]
    for case in [*VECTORS["permutations"], VECTORS["decision_permutation"]]:
        items = list(range(case["size"]))
        fairness.Stream(combined, case["context"]).shuffle(items)
        assert items == case["permutation"]


@pytest.mark.parametrize(
    "case", VECTORS["deals"], ids=lambda c: f"{c['game']}-{c['players']}-{c['options']['first_player']}"
)
def test_the_deals_give_the_committed_vectors(case: dict, server_catalogues: dict) -> None:  # type: ignore[type-arg]
    combined = fairness.combined_seed(
        bytes.fromhex(VECTORS["server_seed"]), VECTORS["match_id"], case["seat_seeds"]
    )
    dealt = fairness.deal(
        case["game"], combined, case["players"], case["options"], server_catalogues[case["game"]]
    )
    assert dealt == {k: case["game_started"][k] for k in dealt}


@pytest.fixture(scope="module")
def server_catalogues(server: ServerProcess) -> dict:  # type: ignore[type-arg]
    return {g: httpx.get(f"{server.url}/v1/games/{g}").json()["catalogue"] for g in ("mount_drago", "yutaka")}


def test_the_command_line_verifies_a_finished_match_of_a_real_server(
    server: ServerProcess, capsys: pytest.CaptureFixture[str]
) -> None:
    rng = random.Random(5)
    with httpx.Client(base_url=server.url, timeout=30) as http:
        match_id = http.post("/v1/matches", json={"game": "yutaka", "players": 2}).json()["id"]
        tokens = [
            http.post(
                f"/v1/matches/{match_id}/seats/{s}", json={"name": f"p{s}", "client_seed": f"mine {s}"}
            ).json()["token"]
            for s in range(2)
        ]
        with pytest.raises(SystemExit):
            main(["verify"])
        assert main(["verify", server.url, match_id]) == 2  # unfinished: the reveal refuses (409)
        for _ in range(500):
            acted = False
            for token in tokens:
                view = http.get(
                    f"/v1/matches/{match_id}/view", headers={"Authorization": f"Bearer {token}"}
                ).json()
                if view["legal_actions"]:
                    action = rng.choice(view["legal_actions"])
                    http.post(
                        f"/v1/matches/{match_id}/actions",
                        json={"action": action},
                        headers={"Authorization": f"Bearer {token}"},
                    )
                    acted = True
            if not acted:
                break
    capsys.readouterr()
    assert main(["verify", server.url, match_id]) == 0
    assert "deal verified (drago-fair-2)" in capsys.readouterr().out
