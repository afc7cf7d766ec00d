"""The seek store beside an event store: the same database, the same connections."""

from __future__ import annotations

from app.service.ports import EventStore
from app.service.seek_ports import SeekStore
from app.store.memory import MemoryEventStore
from app.store.postgres import PostgresEventStore
from app.store.seeks_memory import MemorySeekStore
from app.store.seeks_postgres import PostgresSeekStore
from app.store.seeks_sqlite import SqliteSeekStore
from app.store.sqlite import SqliteEventStore


def seek_store_for(store: EventStore) -> SeekStore:
    """The `SeekStore` that writes in `store`'s database (its transactions and threads)."""
    if isinstance(store, SqliteEventStore):
        return SqliteSeekStore(store)
    if isinstance(store, PostgresEventStore):
        return PostgresSeekStore(store)
    if isinstance(store, MemoryEventStore):
        return MemorySeekStore(store)
    raise TypeError(f"no seek store for {type(store).__name__}")
