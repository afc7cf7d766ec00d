"""Chat fixtures: the API's backends (memory, SQLite, PostgreSQL)."""

from tests.api.conftest import database_url

__all__ = ["database_url"]  # re-exported as a fixture
