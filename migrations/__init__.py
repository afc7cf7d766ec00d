"""Alembic migrations of the event store schema (`app.store.tables`); run by `app.store.migrate`."""
