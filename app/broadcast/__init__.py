"""Broadcaster adapters: carry "match M is at seq N" between processes (`app.service.ports.Broadcaster`).

`create_broadcaster` picks one by URL scheme: `memory://` (in-process, one process), `postgresql://`
(LISTEN/NOTIFY) or `redis://` (pub/sub). All three ref-count `subscribe`/`unsubscribe` per match,
and after a reconnect the networked ones call the handler with `app.service.live.RESYNC` (-1) for
every subscribed match, since notifications may have been missed.
"""

from __future__ import annotations

from app.service.ports import Broadcaster

__all__ = ["create_broadcaster"]


def create_broadcaster(url: str, *, prefix: str = "drago") -> Broadcaster:
    """The broadcaster for `url`; `prefix` namespaces its channels (one deployment, one prefix)."""
    scheme = url.partition("://")[0].lower() if "://" in url else ""
    if scheme == "memory":
        from app.broadcast.memory import MemoryBroadcaster

        return MemoryBroadcaster()
    if scheme in ("postgresql", "postgres", "postgresql+asyncpg", "postgres+asyncpg"):
        from app.broadcast.postgres import PostgresBroadcaster

        return PostgresBroadcaster(url, prefix=prefix)
    if scheme in ("redis", "rediss", "unix"):
        from app.broadcast.redis import RedisBroadcaster

        return RedisBroadcaster(url, prefix=prefix)
    raise ValueError(f"unsupported broadcast URL scheme {scheme!r}: use memory://, postgresql:// or redis://")
