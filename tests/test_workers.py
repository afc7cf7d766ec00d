"""The suite's split over pytest-xdist's workers keeps what they would share on one of them
(tests/conftest.py): every test module that runs `npm` in the repository or reads the fairness
corpus is found here by reading the sources, so a new one cannot be missed."""

from __future__ import annotations

import re
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
