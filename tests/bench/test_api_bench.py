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
    act = api.Stream.act

    async def counted(stream: api.Stream, action: Any) -> tuple[int, dict[str, Any]]:
        seq, view = await act(stream, action)
        assert view["seq"] >= seq  # the view at (or after) the acknowledged commit
        acted.append(seq)
        return seq, view

    monkeypatch.setattr(api.Stream, "act", counted)
    server = OurServer.start("sqlite", api.DEFAULT_PG)
    try:
        over_http = asyncio.run(run_load(server.port, 2, 20, True, server.proc.pid, "http"))
        assert acted == []
        over_ws = asyncio.run(run_load(server.port, 2, 20, True, server.proc.pid, "ws"))
    finally:
        server.stop()
    for figures in (over_http, over_ws):
        assert figures["actions"] == 20
        assert figures["matches_begun"] >= 2
        assert figures["p50_ms"] > 0 and figures["cpu_us"] > 0
    assert len(acted) == 20 + 2 * 30  # the measured actions and the warm-up's, all as frames


def test_ws_needs_the_streams() -> None:
    with pytest.raises(ValueError, match="streams"):
        asyncio.run(api.drive(1, 1, [], random.Random(0), streams=False, via="ws"))
