"""Ratings fixtures: the API fixtures (the app over memory, SQLite and PostgreSQL), shared, and
`own_database_url`: a database of the test's own (the session's PostgreSQL database is shared by
every test, so a test that counts every rated match needs one of its own)."""

from __future__ import annotations

import pytest

from tests.api.conftest import BACKENDS, database_url, sql_database_url

__all__ = ["database_url", "sql_database_url"]  # re-exported as fixtures


@pytest.fixture(params=BACKENDS)
def own_database_url(request: pytest.FixtureRequest) -> str:
    if request.param == "memory":
        return "memory://"
    return str(request.getfixturevalue("sqlite_url" if request.param == "sqlite" else "fresh_postgres_url"))
