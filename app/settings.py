"""Settings from environment variables (pydantic-settings).

Every setting is read from `DRAGO_<NAME>` (e.g. `DRAGO_DEV_FEATURES=1`). Two conventional plain
names are honoured as well: `DATABASE_URL` (after `DRAGO_DATABASE_URL`) and `PORT` (after
`DRAGO_PORT`), as container platforms set them. `DRAGO_CORS_ORIGINS` takes a JSON list or a
comma-separated list.

| setting                  | env                                    | default                          |
|--------------------------|----------------------------------------|----------------------------------|
| database_url             | DRAGO_DATABASE_URL, DATABASE_URL       | sqlite+aiosqlite:///./drago.db   |
| db_pool_size             | DRAGO_DB_POOL_SIZE                     | 8 (see below)                    |
| broadcast_url            | DRAGO_BROADCAST_URL                    | memory://                        |
| broadcast_prefix         | DRAGO_BROADCAST_PREFIX                 | drago (channel names)            |
| cors_origins             | DRAGO_CORS_ORIGINS                     | [] (no CORS)                     |
| max_body_bytes           | DRAGO_MAX_BODY_BYTES                   | 65536                            |
| page_size                | DRAGO_PAGE_SIZE                        | 50 (matches listing default)     |
| max_page_size            | DRAGO_MAX_PAGE_SIZE                    | 200                              |
| events_page_size         | DRAGO_EVENTS_PAGE_SIZE                 | 500 (events default)             |
| max_events_page_size     | DRAGO_MAX_EVENTS_PAGE_SIZE             | 1000                             |
| log_level                | DRAGO_LOG_LEVEL                        | INFO                             |
| dev_features             | DRAGO_DEV_FEATURES                     | false (refuses `seed`, `setup`)  |
| host                     | DRAGO_HOST                             | 0.0.0.0                          |
| port                     | DRAGO_PORT, PORT                       | 8000                             |
| run_migrations_on_start  | DRAGO_RUN_MIGRATIONS_ON_START          | true                             |
| stream_heartbeat_seconds | DRAGO_STREAM_HEARTBEAT_SECONDS         | 20 (`ping` frame interval)       |
| stream_auth_timeout_seconds | DRAGO_STREAM_AUTH_TIMEOUT_SECONDS   | 5 (wait for an `auth` frame)     |
| stream_queue_limit       | DRAGO_STREAM_QUEUE_LIMIT               | 256 (events a stream may lag)    |
| stream_fast_lane         | DRAGO_STREAM_FAST_LANE                 | on (`app.api.fast_lane`; 0: off) |
| http_one_write           | DRAGO_HTTP_ONE_WRITE                   | on (`app.api.http_protocol`; 0: off) |
| thread_switch_ms         | DRAGO_THREAD_SWITCH_MS                 | 20 (Python's switch interval, ms) |
| stream_quiet_seconds     | DRAGO_STREAM_QUIET_SECONDS             | 30 (quiet feeds read again; 0: off) |
| max_open_seeks           | DRAGO_MAX_OPEN_SEEKS                   | 5 (open seeks per player)        |
| seek_group_wait_seconds  | DRAGO_SEEK_GROUP_WAIT_SECONDS          | 15 (wait for a larger group)     |
| matcher_interval_seconds | DRAGO_MATCHER_INTERVAL_SECONDS         | 0.5 (0: no matcher here)         |
| matcher_idle_seconds     | DRAGO_MATCHER_IDLE_SECONDS             | 5 (the pace when no seek is open)|
| webhook_interval_seconds | DRAGO_WEBHOOK_INTERVAL_SECONDS         | 0.5 (0: no deliveries here)      |
| webhook_timeout_seconds  | DRAGO_WEBHOOK_TIMEOUT_SECONDS          | 5 (per delivery)                 |
| webhook_allow_private    | DRAGO_WEBHOOK_ALLOW_PRIVATE            | false (loopback/private refused) |
| webhook_lease_seconds    | DRAGO_WEBHOOK_LEASE_SECONDS            | 60 (a dead process holds it) |
| trusted_proxies          | DRAGO_TRUSTED_PROXIES                  | 127.0.0.1,::1 (loopback)         |
| ban_check_seconds        | DRAGO_BAN_CHECK_SECONDS                | 0.5 (banned players' streams; 0: off) |
| chat_rate_messages, chat_rate_seconds | DRAGO_CHAT_RATE_…      | 5 per 10 s (per chat author)     |
| chat_keep_last, chat_retention_seconds | DRAGO_CHAT_…         | 100 per room; older: 30 days     |

`database_url = "memory://"` runs on the in-memory store (nothing persists).

`trusted_proxies` lists the peers (addresses or networks, JSON list or comma-separated) whose
`X-Forwarded-For` / `Forwarded` headers name the client (`app.api.forwarded`); behind a load
balancer, its address or network. A value that is not an address or network stops the server at
start with the reason.

`db_pool_size` is the event store's connection count per process (`app.store.factory`): on
PostgreSQL one pool of that many connections, on SQLite that many reader connections plus the one
writer. A PostgreSQL deployment needs `processes × (db_pool_size + the broadcaster's connections)`
below the server's `max_connections`.
"""

from __future__ import annotations

import ipaddress
import json
from typing import Annotated, Literal

from limits import parse_many
from pydantic import AliasChoices, Field, field_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="DRAGO_", extra="ignore", case_sensitive=False)

    database_url: str = Field(
        default="sqlite+aiosqlite:///./drago.db",
        validation_alias=AliasChoices("DRAGO_DATABASE_URL", "DATABASE_URL", "database_url"),
    )
    db_pool_size: int = Field(default=8, ge=1, le=100)
    broadcast_url: str = "memory://"
    broadcast_prefix: str = Field(default="drago", min_length=1, max_length=40, pattern=r"^[A-Za-z0-9_.:-]+$")
    cors_origins: Annotated[list[str], NoDecode] = Field(default_factory=list)
    max_body_bytes: int = Field(default=64 * 1024, ge=1)
    page_size: int = Field(default=50, ge=1)
    max_page_size: int = Field(default=200, ge=1)
    events_page_size: int = Field(default=500, ge=1)
    max_events_page_size: int = Field(default=1000, ge=1)
    log_level: str = "INFO"
    dev_features: bool = False
    host: str = "0.0.0.0"  # noqa: S104  # a server in a container listens on every interface
    port: int = Field(
        default=8000, ge=1, le=65535, validation_alias=AliasChoices("DRAGO_PORT", "PORT", "port")
    )
    run_migrations_on_start: bool = True
    # How long an idle keep-alive HTTP connection stays open (uvicorn's own default is 5 s). Longer
    # than the pools of the usual clients keep one (httpx 5 s, aiohttp 15 s) and than a proxy's idle
    # timeout (deploy/haproxy.cfg: 60 s): the client or the proxy lets go first, so a request is
    # never sent on a connection the server is closing at that moment (the client sees a reset).
    http_keep_alive_seconds: int = Field(default=75, ge=1, le=3600)
    http_one_write: bool = True  # a reply of known length in one write (`app.api.http_protocol`)
    thread_switch_ms: int = Field(default=20, ge=1, le=100)  # sys.setswitchinterval (`app.__main__`)
    stream_heartbeat_seconds: float = Field(default=20.0, gt=0)
    stream_auth_timeout_seconds: float = Field(default=5.0, gt=0)
    stream_queue_limit: int = Field(default=256, ge=1)
    stream_fast_lane: bool = True
    stream_quiet_seconds: float = Field(default=30.0, ge=0, le=3600)
    trusted_proxies: Annotated[list[str], NoDecode] = Field(default_factory=lambda: ["127.0.0.1", "::1"])
    bots_enabled: bool = True
    bot_workers: int = Field(default=1, ge=0, le=64)
    bot_default_level: Literal["random", "greedy", "ismcts"] = "greedy"
    bot_takeover_level: Literal["random", "greedy", "ismcts"] = "ismcts"
    bot_budget_ms: float = Field(default=140.0, ge=0, le=60_000)
    bot_iterations: int = Field(default=0, ge=0, le=1_000_000)
    sweep_interval_seconds: float = Field(default=0.5, ge=0)
    # Whether the commit that ends a rated match applies its ratings at once (else the sweepers do,
    # within a sweep interval). Off only to exercise the projection's catch-up (tests, operators).
    ratings_on_commit: bool = True
    waiting_expiry_seconds: float = Field(default=7 * 86_400.0, ge=0)
    idempotency_ttl_seconds: float = Field(default=86_400.0, gt=0)
    samples_per_seat: int = Field(default=10_000, ge=0)
    require_player_key: bool = False
    max_open_seeks: int = Field(default=5, ge=1, le=1000)
    seek_group_wait_seconds: float = Field(default=15.0, ge=0, le=86_400)
    matcher_interval_seconds: float = Field(default=0.5, ge=0)
    matcher_idle_seconds: float = Field(default=5.0, gt=0, le=3600)
    webhook_interval_seconds: float = Field(default=0.5, ge=0)
    webhook_timeout_seconds: float = Field(default=5.0, gt=0, le=60)
    webhook_allow_private: bool = False
    webhook_lease_seconds: float = Field(default=60.0, gt=0, le=3600)
    # The chat (docs/chat.md): per author at most `chat_rate_messages` in any `chat_rate_seconds`;
    # the sweeper prunes messages older than `chat_retention_seconds` beyond each room's newest
    # `chat_keep_last`.
    chat_rate_messages: int = Field(default=5, ge=1, le=10_000)
    chat_rate_seconds: float = Field(default=10.0, gt=0, le=86_400)
    chat_keep_last: int = Field(default=100, ge=0, le=100_000)
    chat_retention_seconds: float = Field(default=30 * 86_400.0, gt=0)
    # How often each process looks for bans of the players behind its open streams (a ban closes
    # them within this, docs/moderation.md). At most 0.5: the promise is one second.
    ban_check_seconds: float = Field(default=0.5, ge=0, le=0.5)
    rate_limit_enabled: bool = True
    rate_limit_storage_url: str = Field(default="memory://", pattern=r"^(memory|redis|rediss)://")
    rate_limit_create_per_ip: str = "60/minute"
    rate_limit_create_per_credential: str = "60/minute"
    rate_limit_actions_per_ip: str = "100/second;6000/minute"
    rate_limit_actions_per_credential: str = "50/second;3000/minute"
    rate_limit_reads_per_ip: str = "100/second;6000/minute"
    rate_limit_reads_per_credential: str = "50/second;3000/minute"
    rate_limit_streams_per_ip: str = "120/minute"
    rate_limit_streams_per_credential: str = "60/minute"
    rate_limit_frames_per_connection: str = "60/second;3000/minute"

    @field_validator(
        "rate_limit_create_per_ip",
        "rate_limit_create_per_credential",
        "rate_limit_actions_per_ip",
        "rate_limit_actions_per_credential",
        "rate_limit_reads_per_ip",
        "rate_limit_reads_per_credential",
        "rate_limit_streams_per_ip",
        "rate_limit_streams_per_credential",
        "rate_limit_frames_per_connection",
    )
    @classmethod
    def _limits(cls, value: str) -> str:
        text = value.strip()
        if text and text.lower() != "none":
            parse_many(text)  # raises ValueError on a malformed limit
        return text

    @field_validator("trusted_proxies", mode="before")
    @classmethod
    def _split_proxies(cls, value: object) -> object:
        return cls._split_origins(value)

    @field_validator("trusted_proxies")
    @classmethod
    def _networks(cls, value: list[str]) -> list[str]:
        kept = [v.strip() for v in value if v.strip()]
        for text in kept:
            try:
                ipaddress.ip_network(text, strict=False)
            except ValueError:
                raise ValueError(
                    f"{text!r} is not an IP address or network (e.g. 10.0.0.5, 10.0.0.0/8, fd00::/8)"
                ) from None
        return kept

    @field_validator("cors_origins", mode="before")
    @classmethod
    def _split_origins(cls, value: object) -> object:
        if isinstance(value, str):
            text = value.strip()
            if text.startswith("["):
                return json.loads(text)
            return [o.strip() for o in text.split(",") if o.strip()]
        return value

    @field_validator("log_level")
    @classmethod
    def _upper(cls, value: str) -> str:
        return value.upper()
