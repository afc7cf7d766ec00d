"""Event store adapters: `memory` (the in-memory twin) and `sql` (SQLAlchemy 2 async on SQLite or
PostgreSQL). Both implement `app.service.ports.EventStore`."""
