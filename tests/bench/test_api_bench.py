"""`bench.api` end to end on a tiny load: the real server on SQLite, actions over HTTP and over the
match socket (`--via ws`). Nothing is timed here; the runs must complete and count right."""

from __future__ import annotations

import asyncio
import random
import shutil
from typing import Any

import pytest

from bench import api
from bench.api import OurServer, run_load

pytestmark = pytest.mark.skipif(shutil.which("taskset") is None, reason="bench.api pins with taskset")


def test_actions_over_http_and_over_the_socket(monkeypatch: pytest.MonkeyPatch) -> None:
    acted: list[int] = []
    keys: list[str | None] = []
    act = api.Stream.act

    async def counted(stream: api.Stream, action: Any, key: str | None = None) -> tuple[int, dict[str, Any]]:
        seq, view = await act(stream, action, key)
        assert view["seq"] >= seq  # the view at (or after) the acknowledged commit
        acted.append(seq)
        keys.append(key)
        return seq, view

    monkeypatch.setattr(api.Stream, "act", counted)
    server = OurServer.start("sqlite", api.DEFAULT_PG)
    try:
        over_http = asyncio.run(run_load(server.port, 2, 20, True, server.proc.pid, "http"))
        assert acted == []
        over_ws = asyncio.run(run_load(server.port, 2, 20, True, server.proc.pid, "ws"))
        # `--keys`: each action with a key of its own, as the SDKs send (refused keys would fail the run)
        keyed = [
            asyncio.run(run_load(server.port, 2, 20, True, server.proc.pid, via, keys=True))
            for via in ("http", "ws")
        ]
    finally:
        server.stop()
    for figures in (over_http, over_ws, *keyed):
        assert figures["actions"] == 20
        assert figures["matches_begun"] >= 2
        assert figures["p50_ms"] > 0 and figures["cpu_us"] > 0
    frames = 20 + 2 * 30  # the measured actions and the warm-up's, all as frames
    assert len(acted) == 2 * frames
    assert keys[:frames] == [None] * frames
    assert None not in keys[frames:] and len(set(keys[frames:])) == frames


def test_ws_needs_the_streams() -> None:
    with pytest.raises(ValueError, match="streams"):
        asyncio.run(api.drive(1, 1, [], random.Random(0), streams=False, via="ws"))
