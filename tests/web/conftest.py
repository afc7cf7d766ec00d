"""Browser fixtures: a real server (`python -m app`, memory store) and Debian's headless Chromium
driven by Playwright (never a downloaded browser build: `executable_path` is the system's), and
axe-core for the accessibility checks, from its npm package in `web/` (installed from the lock
file with `npm ci` when missing).

Without Chromium, Playwright or Node.js the browser tests skip on a laptop and fail in CI
(`TEST_REQUIRE_SERVICES=1`, where `.ci/run` installs `chromium` with apt-get).
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from tests.clients.servers import ServerProcess
from tests.clients.test_typescript import _node_ok
from tests.conftest import REQUIRE_SERVICES

if TYPE_CHECKING:
    from playwright.sync_api import Browser

CHROMIUM = Path(os.environ.get("DRAGO_CHROMIUM", "/usr/bin/chromium"))
WEB = Path(__file__).resolve().parents[2] / "web"
AXE = WEB / "node_modules" / "axe-core" / "axe.min.js"
ESBUILD = WEB / "node_modules" / ".bin" / "esbuild"
# Flags that work in this sandbox; each test context gets a fresh profile from Playwright.
FLAGS = [
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
    "--disable-component-update", "--disable-sync",
]  # fmt: skip


def _missing(message: str) -> None:
    if REQUIRE_SERVICES:
        pytest.fail(f"{message}, but TEST_REQUIRE_SERVICES=1 requires the browser tests to run")
    pytest.skip(message)


# Module scope: sync Playwright keeps an event loop running in this thread while it lives, so it
# must stop before another module's async tests run.
@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _missing("the playwright package is not installed")
        raise AssertionError("unreachable") from None
    if not CHROMIUM.exists():
        _missing(f"no Chromium at {CHROMIUM} (apt-get install chromium)")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=FLAGS)
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture(scope="session")
def web_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    server = ServerProcess(tmp_path_factory.mktemp("web"), "memory://")
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="session")
def web_modules() -> Path:
    """`web/node_modules` (axe-core, esbuild), installed from `web/package-lock.json` when missing."""
    if not (AXE.exists() and ESBUILD.exists()):
        if not _node_ok():
            _missing("Node.js >= 20 and npm are needed to install web/'s packages (npm ci in web/)")
        done = subprocess.run(
            ["npm", "ci", "--no-audit", "--no-fund"],
            cwd=WEB,
            capture_output=True,
            text=True,
            timeout=600,
            check=False,
        )
        assert done.returncode == 0, f"npm ci in web/ failed:\n{done.stderr[-4000:]}"
    return WEB / "node_modules"


@pytest.fixture(scope="session")
def axe(web_modules: Path) -> Path:
    """axe-core's browser script, as `web/package-lock.json` pins it."""
    return AXE
