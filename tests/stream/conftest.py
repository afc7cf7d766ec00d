"""Stream fixtures: the real app started in-process (memory store unless said otherwise)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import httpx
import pytest
from fastapi import FastAPI

from tests.api.conftest import sql_database_url, started

__all__ = ["Live", "live", "sql_database_url"]  # sql_database_url: re-exported as a fixture

Live = tuple[FastAPI, httpx.AsyncClient]


@pytest.fixture
async def live() -> AsyncIterator[Live]:
    async with started("memory://") as app_client:
        yield app_client
