"""Stream fixtures: the real app started in-process (memory store unless said otherwise), every
test run twice: with the stream fast lane (`app.api.fast_lane`, the default) and without it
(`DRAGO_STREAM_FAST_LANE=0`: the plain send loop), which must serve the same frames."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

import httpx
import pytest
from fastapi import FastAPI

from tests.api.conftest import sql_database_url, started

__all__ = ["Live", "live", "sql_database_url"]  # sql_database_url: re-exported as a fixture

Live = tuple[FastAPI, httpx.AsyncClient]


@pytest.fixture(autouse=True, params=["fast lane", "plain send loop"])
def fast_lane(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[bool]:
    """Both ways of sending: the setting reaches in-process apps (`Settings` reads the environment)
    and the servers of `tests.stream.servers`, which pass it on."""
    on = request.param == "fast lane"
    monkeypatch.setenv("DRAGO_STREAM_FAST_LANE", "1" if on else "0")
    yield on


@pytest.fixture
async def live() -> AsyncIterator[Live]:
    async with started("memory://") as app_client:
        yield app_client
