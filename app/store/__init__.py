"""Event store adapters, each implementing `app.service.ports.EventStore`: `memory` (the in-memory
twin), `sqlite` (the standard `sqlite3` driver, one writer thread) and `postgres` (raw asyncpg, one
pool); `factory.create_store(url)` picks one. `tables` is the schema, `migrate` runs its Alembic
migrations (`migrations/`); SQLAlchemy runs only there, never in a store."""
