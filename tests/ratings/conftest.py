"""Ratings fixtures: the API fixtures (the app over memory, SQLite and PostgreSQL), shared."""

from __future__ import annotations

from tests.api.conftest import database_url, sql_database_url

__all__ = ["database_url", "sql_database_url"]  # re-exported as fixtures
