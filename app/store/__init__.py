"""Event store adapters: `memory` (the in-memory twin) and `sql` (SQLAlchemy 2 Core on SQLite or
PostgreSQL; `tables` is its schema, `engine` where its SQL runs, `migrate` its Alembic migrations).
Both implement `app.service.ports.EventStore`."""
