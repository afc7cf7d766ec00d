"""The committed bundle in `app/web/static/` is what `web/` builds: `npm ci` from the lock file,
`tsc --strict` over the page and the TypeScript client it bundles, then the build into a temporary
directory, compared file by file with the committed one. Running the server never needs Node; only
this test does. Without Node.js ≥ 20 it skips on a laptop and fails in CI (`TEST_REQUIRE_SERVICES=1`).
"""

from __future__ import annotations

import filecmp
import subprocess
from pathlib import Path

import pytest

from app.api.web import static_dir
from tests.clients.test_typescript import _node_ok
from tests.conftest import REQUIRE_SERVICES

WEB = Path(__file__).resolve().parents[2] / "web"


def _run(step: list[str]) -> None:
    done = subprocess.run(step, cwd=WEB, capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, f"{' '.join(step)} failed:\n{done.stdout[-4000:]}\n{done.stderr[-4000:]}"


@pytest.mark.slow
def test_the_committed_bundle_is_what_the_sources_build(tmp_path: Path) -> None:
    if not _node_ok():
        message = "Node.js >= 20 and npm are needed to build web/"
        if REQUIRE_SERVICES:
            pytest.fail(message)
        pytest.skip(message)
    _run(["npm", "ci", "--no-audit", "--no-fund"])
    _run(["npm", "run", "typecheck"])
    _run(["node", "build.mjs", "--out", str(tmp_path)])
    committed = static_dir()
    built = sorted(p.name for p in tmp_path.iterdir())
    assert built == sorted(p.name for p in committed.iterdir() if p.name != "__pycache__")
    stale = [name for name in built if not filecmp.cmp(tmp_path / name, committed / name, shallow=False)]
    assert not stale, f"app/web/static/ is stale ({', '.join(stale)}): run `npm run build` in web/ and commit"
