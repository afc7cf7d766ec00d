"""Crash safety: a real server process killed with SIGKILL mid-game loses nothing it acknowledged.

The server (`python -m app`, uvicorn) plays a Mount Drago match on SQLite or PostgreSQL. While a
burst of actions is in flight it is killed with SIGKILL, then restarted on the same database.
Every action it had answered with 200 must be in the log, the log must be gap-free, every
process must serve the fold of the stored log, and the game must play on to its end.
"""

from __future__ import annotations

import os
import random
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest

from app.games.core import decode_event, replay
from app.games.registry import GAMES
from app.matches.events import MATCH_EVENT_TYPES

pytestmark = pytest.mark.slow


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@contextmanager
def server(database_url: str, workdir: Path) -> Iterator[tuple[subprocess.Popen[bytes], str]]:
    port = _free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("DRAGO_") and k != "DATABASE_URL"}
    env.update(
        DRAGO_DATABASE_URL=database_url,
        PORT=str(port),
        DRAGO_LOG_LEVEL="WARNING",
        DRAGO_RATE_LIMIT_ENABLED="0",
    )
    proc = subprocess.Popen(
        [sys.executable, "-m", "app"], cwd=workdir, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(300):
            assert proc.poll() is None, proc.stderr.read().decode() if proc.stderr else "server exited"
            try:
                if httpx.get(f"{base}/readyz", timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                time.sleep(0.1)
        else:
            pytest.fail("the server did not become ready")
        yield proc, base
    finally:
        if proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        if proc.stderr:
            proc.stderr.close()


Step = tuple[int, int, int, dict[str, Any]]


def _play(client: httpx.Client, match_id: str, tokens: list[str], rng: random.Random) -> Step | None:
    """One random legal action by the seat to act: (seq before, seq after, the seat, its view after),
    or None at the end."""
    view = client.get(f"/v1/matches/{match_id}/view").json()
    if view["status"] != "active":
        return None
    seat = view["to_act"][0]
    headers = {"Authorization": f"Bearer {tokens[seat]}"}
    mine = client.get(f"/v1/matches/{match_id}/view", headers=headers).json()
    action = rng.choice(mine["legal_actions"])
    r = client.post(
        f"/v1/matches/{match_id}/actions",
        json={"action": action, "expected_seq": mine["seq"]},
        headers=headers,
    )
    assert r.status_code == 200, r.text
    return mine["seq"], r.json()["seq"], seat, r.json()["view"]


def _full_log(client: httpx.Client, match_id: str, token: str) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = []
    while True:
        page = client.get(
            f"/v1/matches/{match_id}/events",
            params={"after": events[-1]["seq"] if events else 0},
            headers={"Authorization": f"Bearer {token}"},
        ).json()
        if not page["events"]:
            return events
        events.extend(page["events"])


@pytest.mark.parametrize("drafts", [False, True], ids=["plain", "drafts"])
@pytest.mark.parametrize("backend", ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def test_sigkill_mid_game_loses_nothing_acknowledged(
    backend: str, drafts: bool, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    """With drafts, an acknowledged draft step is as durable as any action: after the restart the
    drafting seat's view (its draft included) is the one its last acknowledged reply showed."""
    database_url = str(request.getfixturevalue(f"{backend}_url"))
    rng = random.Random(7)
    acknowledged: list[int] = []
    replies: dict[int, tuple[int, dict[str, Any]]] = {}

    with server(database_url, tmp_path) as (proc, base), httpx.Client(base_url=base, timeout=10) as client:
        created = client.post("/v1/matches", json={"game": "mount_drago", "players": 2, "drafts": drafts})
        assert created.status_code == 201, created.text
        match_id = created.json()["id"]
        tokens = [
            client.post(f"/v1/matches/{match_id}/seats/{s}", json={"name": f"p{s}"}).json()["token"]
            for s in (0, 1)
        ]
        for _ in range(20):
            step = _play(client, match_id, tokens, rng)
            assert step is not None
            acknowledged.append(step[1])
            replies[step[1]] = step[2:]

        # A burst of actions in a thread; SIGKILL lands while some are in flight.
        stop = threading.Event()

        def burst() -> None:
            with httpx.Client(base_url=base, timeout=5) as c:
                while not stop.is_set():
                    try:
                        step = _play(c, match_id, tokens, rng)
                    except (httpx.TransportError, AssertionError, ValueError):
                        return
                    if step is None:
                        return
                    acknowledged.append(step[1])
                    replies[step[1]] = step[2:]

        worker = threading.Thread(target=burst)
        worker.start()
        while len(acknowledged) < 30 and worker.is_alive():
            time.sleep(0.001)
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        stop.set()
        worker.join()

    with server(database_url, tmp_path) as (_, base), httpx.Client(base_url=base, timeout=10) as client:
        summary = client.get(f"/v1/matches/{match_id}").json()
        log = _full_log(client, match_id, tokens[0])
        seqs = [e["seq"] for e in log]
        assert seqs == list(range(1, summary["seq"] + 1)), "the log has gaps or duplicates"
        assert max(acknowledged) <= summary["seq"], "an acknowledged action was lost"
        if summary["seq"] in replies:  # the last commit was acknowledged: its seat sees what it was told
            seat, view = replies[summary["seq"]]
            mine = client.get(
                f"/v1/matches/{match_id}/view", headers={"Authorization": f"Bearer {tokens[seat]}"}
            ).json()
            assert mine == view

        while _play(client, match_id, tokens, rng) is not None:
            pass
        final = client.get(f"/v1/matches/{match_id}").json()
        assert final["status"] == "finished"

        # After the end the full log is public: its fold is the game the server finished.
        revealed = client.get(f"/v1/matches/{match_id}/reveal").json()
        game = GAMES["mount_drago"]
        played = [e for e in revealed["events"] if e["type"] not in MATCH_EVENT_TYPES]
        state = replay(game, [decode_event(game, e["data"]) for e in played])
        outcome = game.outcome(state)
        assert outcome is not None
        assert list(outcome.scores) == final["scores"]
