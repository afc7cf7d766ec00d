"""The deployment recipe in `deploy/`: the compose file describes the fleet that docs/deploy.md
explains, and HAProxy accepts the proxy config (`haproxy -c`, Debian's package; `.ci/run` installs it).

No Docker engine (nor the compose plugin) runs here, so the compose file is checked by a schema of
the Compose keys it uses (unknown keys fail, as `docker compose config` would refuse them) and by
the fleet's invariants: one database, broadcast and rate-limit storage shared by the three servers,
a migration job they wait for, health checks, the proxy's config from this directory, and the
servers trusting exactly the proxy's address."""

from __future__ import annotations

import ipaddress
import os
import subprocess
from pathlib import Path
from typing import Any

import jsonschema  # type: ignore[import-untyped]  # no stubs in the dev extras
import yaml  # type: ignore[import-untyped]  # a dependency of the dev extras (schemathesis), no stubs

from app.settings import Settings
from tests.fleet.instances import haproxy_binary

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
SERVERS = ("server1", "server2", "server3")

_STRINGS = {"type": "object", "additionalProperties": {"type": "string"}}
_HEALTH = {
    "type": "object",
    "properties": {
        "test": {"type": "array", "items": {"type": "string"}, "minItems": 2},
        "interval": {"type": "string"},
        "timeout": {"type": "string"},
        "retries": {"type": "integer"},
    },
    "required": ["test"],
    "additionalProperties": False,
}
SERVICE = {
    "type": "object",
    "properties": {
        "build": {
            "type": "object",
            "properties": {"context": {"type": "string"}},
            "additionalProperties": False,
        },
        "image": {"type": "string"},
        "command": {"type": "array", "items": {"type": "string"}},
        "environment": _STRINGS,
        "volumes": {"type": "array", "items": {"type": "string"}},
        "ports": {"type": "array", "items": {"type": "string", "pattern": r"^\d+:\d+$"}},
        "healthcheck": _HEALTH,
        "restart": {"enum": ["no", "always", "on-failure", "unless-stopped"]},
        "stop_grace_period": {"type": "string"},
        "depends_on": {
            "anyOf": [
                {"type": "array", "items": {"type": "string"}},
                {
                    "type": "object",
                    "additionalProperties": {
                        "type": "object",
                        "properties": {
                            "condition": {
                                "enum": [
                                    "service_started",
                                    "service_healthy",
                                    "service_completed_successfully",
                                ]
                            }
                        },
                        "required": ["condition"],
                        "additionalProperties": False,
                    },
                },
            ]
        },
        "networks": {
            "type": "object",
            "additionalProperties": {
                "type": "object",
                "properties": {"ipv4_address": {"type": "string"}},
                "additionalProperties": False,
            },
        },
    },
    "required": ["image"],
    "additionalProperties": False,
}
COMPOSE = {
    "type": "object",
    "properties": {
        "name": {"type": "string"},
        "services": {"type": "object", "additionalProperties": SERVICE},
        "networks": {"type": "object"},
        "volumes": {"type": "object"},
    },
    "patternProperties": {"^x-": {}},
    "required": ["services"],
    "additionalProperties": False,
}


def compose() -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load((DEPLOY / "compose.yaml").read_text())
    return data


def test_the_compose_file_follows_the_compose_keys_it_uses() -> None:
    jsonschema.validate(compose(), COMPOSE)


def test_the_compose_file_is_a_fleet_on_shared_storage() -> None:
    spec = compose()
    services = spec["services"]
    assert set(services) == {"postgres", "redis", "migrate", *SERVERS, "proxy"}
    envs = [services[s]["environment"] for s in SERVERS]
    assert all(env == envs[0] for env in envs)  # one anchor: the same settings everywhere
    env = envs[0]
    known = {f"DRAGO_{name.upper()}" for name in Settings.model_fields}
    assert set(env) <= known, set(env) - known
    assert (
        env["DRAGO_DATABASE_URL"].startswith("postgresql+asyncpg://")
        and "@postgres:" in env["DRAGO_DATABASE_URL"]
    )
    assert env["DRAGO_BROADCAST_URL"].startswith("redis://redis:")
    assert env["DRAGO_RATE_LIMIT_STORAGE_URL"].startswith("redis://redis:")
    assert env["DRAGO_RUN_MIGRATIONS_ON_START"] == "false"  # the job migrates, once, before any server
    migrate = services["migrate"]
    assert migrate["command"] == ["python", "-m", "app", "migrate"]
    assert migrate["environment"]["DRAGO_DATABASE_URL"] == env["DRAGO_DATABASE_URL"]
    assert migrate["depends_on"]["postgres"]["condition"] == "service_healthy"
    for name in SERVERS:
        assert services[name]["depends_on"]["migrate"]["condition"] == "service_completed_successfully"
    assert services["postgres"]["healthcheck"]["test"][1] == "pg_isready"
    assert services["redis"]["healthcheck"]["test"][1:] == ["redis-cli", "ping"]
    proxy = services["proxy"]
    assert "./haproxy.cfg:/usr/local/etc/haproxy/haproxy.cfg:ro" in proxy["volumes"]
    assert (DEPLOY / "haproxy.cfg").is_file()
    assert [proxy["environment"][f"DRAGO_SERVER_{i}"] for i in (1, 2, 3)] == [f"{s}:8000" for s in SERVERS]
    # The servers trust exactly the proxy's fixed address, inside the fleet's network.
    address = proxy["networks"]["fleet"]["ipv4_address"]
    assert env["DRAGO_TRUSTED_PROXIES"] == address
    subnet = spec["networks"]["fleet"]["ipam"]["config"][0]["subnet"]
    assert ipaddress.ip_address(address) in ipaddress.ip_network(subnet)
    Settings(database_url="memory://", trusted_proxies=env["DRAGO_TRUSTED_PROXIES"])


def haproxy_check(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [haproxy_binary(), "-c", "-f", str(DEPLOY / "haproxy.cfg")],
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_haproxy_accepts_the_proxy_config_with_the_compose_addresses() -> None:
    env = compose()["services"]["proxy"]["environment"]
    done = haproxy_check(env)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Configuration file is valid" in done.stdout + done.stderr


def test_the_proxy_config_checks_readiness_and_keeps_streams_open() -> None:
    text = (DEPLOY / "haproxy.cfg").read_text()
    assert "option httpchk GET /readyz" in text and "http-check expect status 200" in text
    assert "option forwardfor" in text
    no_server = 'http-error status 503 content-type application/json string "{\\"error\\":{\\"code\\":'
    assert no_server + '\\"unavailable\\"' in text  # no server ready: the servers' own 503
    tunnel = next(line.split()[-1] for line in text.splitlines() if line.strip().startswith("timeout tunnel"))
    heartbeat = Settings(database_url="memory://").stream_heartbeat_seconds
    assert int(tunnel.removesuffix("s")) > 2 * heartbeat  # heartbeats keep an idle stream alive
