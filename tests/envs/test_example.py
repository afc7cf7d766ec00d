"""The training example, shortened: it trains against `random` in the Gymnasium environment until
it beats it, saves the policy, and plays one match on a live server (a `python -m app` process on
loopback) through the Python client; then plays again from the saved file."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from tests.clients.servers import ROOT, ServerProcess

EXAMPLE = ROOT / "examples" / "train_policy.py"


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerProcess]:
    process = ServerProcess(tmp_path, "memory://", DRAGO_BOT_WORKERS="0")
    process.start()
    try:
        yield process
    finally:
        process.stop()


def _run(*args: str) -> str:
    done = subprocess.run(
        [sys.executable, str(EXAMPLE), *args], capture_output=True, text=True, timeout=600, cwd=ROOT
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def test_the_example_trains_beats_random_and_plays_on_a_server(server: ServerProcess, tmp_path: Path) -> None:
    policy = tmp_path / "policy.npz"
    out = _run(
        "--game", "yutaka", "--episodes", "750", "--eval-every", "250", "--eval-games", "200",
        "--seed", "1", "--out", str(policy), "--url", server.url,
    )  # fmt: skip
    assert "beats random after" in out and "finished" in out, out
    saved = np.load(policy)
    assert str(saved["game"]) == "yutaka" and float(saved["win_share"]) > 0.5
    again = _run("--policy", str(policy), "--url", server.url)
    assert "finished" in again, again
