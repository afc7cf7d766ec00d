"""The suite's split over pytest-xdist's workers keeps what they would share on one of them
(tests/conftest.py): every test module that runs `npm` in the repository or reads the fairness
corpus is found here by reading the sources, so a new one cannot be missed. A worker that crashes
fails its test and the run goes on to its end."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from tests.conftest import ONE_WORKER

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
SHARING = re.compile(r"""\bfair_corpus\b|["']npm["']|\bweb_modules\b""")


def _sharing_modules() -> list[str]:
    return sorted(
        path.relative_to(ROOT).as_posix()
        for path in TESTS.rglob("*.py")
        if path.name not in ("conftest.py", Path(__file__).name) and SHARING.search(path.read_text())
    )


def test_every_module_sharing_node_or_the_corpus_runs_on_one_worker() -> None:
    modules = _sharing_modules()
    assert {"tests/web/test_build.py", "tests/clients/test_typescript.py"} <= set(modules)
    stray = [m for m in modules if not m.startswith(ONE_WORKER)]
    assert not stray, f"add these to ONE_WORKER in tests/conftest.py: {stray}"


def test_fixtures_that_share_them_live_under_one_worker_paths() -> None:
    for conftest in TESTS.rglob("conftest.py"):
        shared = SHARING.search(conftest.read_text())
        if conftest.parent != TESTS and shared:  # the root's defines fair_corpus for everyone
            assert (conftest.parent.relative_to(ROOT).as_posix() + "/").startswith(ONE_WORKER), conftest


# A synthetic suite run with the suite's scheduler: one test of each kind ends its worker's process.
_CRASHING = {
    "tests/test_many.py": "@pytest.mark.parametrize('i', range(30))\ndef test_many(i):\n"
    "    if i == 8:\n        os._exit(3)\n",
    "tests/web/test_shared.py": "@pytest.mark.parametrize('i', range(12))\ndef test_shared(i):\n"
    "    if i == 4:\n        os._exit(3)\n",
}


def test_a_crashed_worker_fails_its_test_and_the_run_goes_on(tmp_path: Path) -> None:
    assert "tests/web/" in ONE_WORKER
    for name, body in _CRASHING.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("import os\n\nimport pytest\n\n\n" + body)
    (tmp_path / "pytest.ini").write_text("[pytest]\n")
    (tmp_path / "conftest.py").write_text("from tests.conftest import pytest_xdist_make_scheduler\n")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    # The timeout only ends a hang (what pytest-xdist's own rescheduling met); a run takes seconds.
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-n", "2", "-p", "no:cacheprovider"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert run.returncode == 1, run.stdout + run.stderr
    assert "2 failed, 40 passed" in run.stdout, run.stdout
    for crashed in ("tests/test_many.py::test_many[8]", "tests/web/test_shared.py::test_shared[4]"):
        assert f"FAILED {crashed}" in run.stdout, run.stdout
