"""The TypeScript client's own suite, run from the README's one test command.

`npm ci` from the committed lock file, the strict type check, the ES-module build, then its
`node --test` suite against real servers (started from this repository's virtual environment, so
it tests this very checkout). Without Node.js ≥ 20 it skips on a laptop and fails in CI
(`TEST_REQUIRE_SERVICES=1`), like the PostgreSQL and Redis tests.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import REQUIRE_SERVICES
from tests.fairness import corpus

TS = Path(__file__).resolve().parents[2] / "clients" / "typescript"


def _node_ok() -> bool:
    node = shutil.which("node")
    if node is None or shutil.which("npm") is None:
        return False
    out = subprocess.run([node, "-p", "process.versions.node"], capture_output=True, text=True, check=False)
    return out.returncode == 0 and int(out.stdout.split(".")[0] or 0) >= 20


@pytest.mark.slow
def test_the_typescript_client_suite_passes() -> None:
    if not _node_ok():
        message = "Node.js >= 20 and npm are needed for clients/typescript"
        if REQUIRE_SERVICES:
            pytest.fail(message)
        pytest.skip(message)
    env = {**os.environ, "DRAGO_PYTHON": sys.executable}
    for step in (
        ["npm", "ci", "--no-audit", "--no-fund"],
        ["npm", "run", "typecheck"],
        ["npm", "run", "build"],
        ["npm", "test"],
    ):
        done = subprocess.run(step, cwd=TS, env=env, capture_output=True, text=True, timeout=900, check=False)
        assert done.returncode == 0, f"{' '.join(step)} failed:\n{done.stdout[-4000:]}\n{done.stderr[-4000:]}"


@pytest.mark.slow
def test_the_typescript_verifier_checks_the_fairness_corpus(fair_corpus: Path, tmp_path: Path) -> None:
    """`verifyMatch`, built from this checkout, over the same 200 matches per game, mode and player
    count as the Python verifier and the page, and every tampered variant (tests/fairness/corpus.py),
    in one node process (scripts/verify-corpus.mjs)."""
    if not _node_ok():
        message = "Node.js >= 20 and npm are needed for clients/typescript"
        if REQUIRE_SERVICES:
            pytest.fail(message)
        pytest.skip(message)
    steps = [["npm", "run", "build"], ["node", "scripts/verify-corpus.mjs", str(fair_corpus)]]
    if not (TS / "node_modules").exists():
        steps.insert(0, ["npm", "ci", "--no-audit", "--no-fund"])
    for step in steps:
        done = subprocess.run(step, cwd=TS, capture_output=True, text=True, timeout=900, check=False)
        assert done.returncode == 0, f"{' '.join(step)} failed:\n{done.stdout[-4000:]}\n{done.stderr[-4000:]}"
    summary = json.loads(done.stdout.splitlines()[-1])
    data = json.loads(fair_corpus.read_text(encoding="utf-8"))
    assert summary["failures"] == []
    assert summary["matches"] == len(data["matches"]) == len(corpus.CONFIGS) * corpus.size()
    assert summary["variants"] == sum(len(m["tampered"]) for m in data["matches"])
    assert corpus.kinds(corpus.size()) <= set(summary["kinds"]) <= corpus.KINDS
    planted = corpus.control(fair_corpus, tmp_path / "control.json")
    done = subprocess.run(
        ["node", "scripts/verify-corpus.mjs", str(planted)],
        cwd=TS,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 1, done.stderr[-4000:]  # the check fails on each planted fault
    assert [f["what"] for f in json.loads(done.stdout.splitlines()[-1])["failures"]] == corpus.PLANTED
