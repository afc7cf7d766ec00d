"""The bot worker processes die with their server: after a SIGTERM (a deployment's stop) and after
a SIGKILL (a crash), no worker is left behind waiting for work that will never come.

A real `python -m app` with one bot worker process plays an all-bot match, so its process pool has
started its worker; then the server is stopped and its children (found in /proc) must go too.
"""

from __future__ import annotations

import signal
import sys
import time
from collections.abc import Callable
from pathlib import Path

import httpx
import pytest

from tests.clients.servers import GUARD, ServerProcess

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc"),
]


def children(pid: int) -> set[int]:
    found = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue  # gone meanwhile
        if int(fields[1]) == pid:
            found.add(int(stat.parent.name))
    return found


def alive(pid: int) -> bool:
    try:
        state = (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def wait_until(predicate: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + GUARD
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.1)
    raise AssertionError(what)


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGKILL], ids=["sigterm", "sigkill"])
def test_bot_workers_exit_with_the_server(tmp_path: Path, sig: signal.Signals) -> None:
    server = ServerProcess(
        tmp_path, "memory://", DRAGO_BOTS_ENABLED="1", DRAGO_BOT_WORKERS="1", DRAGO_BOT_DEFAULT_LEVEL="random"
    )
    server.start()
    try:
        assert server.proc is not None
        pid = server.proc.pid
        with httpx.Client(base_url=server.url) as http:
            r = http.post("/v1/matches", json={"game": "yutaka", "players": 2, "bots": [0, 1]})
            assert r.status_code == 201, r.text
            match_id = r.json()["id"]
            summary = f"/v1/matches/{match_id}"
            wait_until(lambda: http.get(summary).json()["status"] == "finished", "the bots did not finish")
        workers = children(pid)
        assert workers, "the bots played, so the pool has a worker process"
        server.proc.send_signal(sig)
        server.proc.wait(GUARD)
        left = f"bot workers outlived the server ({sig.name})"
        wait_until(lambda: not any(alive(w) for w in workers), left)
    finally:
        server.stop()  # a no-op once it has exited
