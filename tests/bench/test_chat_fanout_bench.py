"""`bench.chat_fanout` end to end on a tiny run: the real server on SQLite, a few spectators, each
message counted on every stream. Nothing is timed here; the run must complete and count right."""

from __future__ import annotations

import asyncio
import shutil

import pytest

from bench import api, chat_fanout
from bench.api import OurServer

pytestmark = pytest.mark.skipif(shutil.which("taskset") is None, reason="OurServer pins with taskset")


def test_every_spectator_gets_every_message(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DRAGO_CHAT_RATE_MESSAGES", "100")
    seen: list[int] = []
    close = chat_fanout.Spectator.close

    async def counted(spectator: chat_fanout.Spectator) -> None:
        seen.append(spectator.seen)
        await close(spectator)

    monkeypatch.setattr(chat_fanout.Spectator, "close", counted)
    server = OurServer.start("sqlite", api.DEFAULT_PG)
    try:
        cpu_us, p50_ms = asyncio.run(chat_fanout.one_run(server.port, server.proc.pid, 4, 7))
    finally:
        server.stop()
    assert seen == [7, 7, 7, 7]
    assert cpu_us > 0 and p50_ms > 0
