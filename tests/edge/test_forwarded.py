"""Behind a proxy: `X-Forwarded-For` / `Forwarded` name the client only when the peer is one of
`DRAGO_TRUSTED_PROXIES`; the rate limits and the access log count that client; a malformed header
or an untrusted peer leaves the peer's address; a setting that is not an address or network stops
the server at start with the reason."""

from __future__ import annotations

import logging
import os
import subprocess
import sys

import httpx
import pydantic
import pytest

from app.api.forwarded import TrustedProxies, parse_networks
from app.settings import Settings
from tests.api.conftest import started
from tests.edge.test_ratelimit import limited_app, refused


async def create(
    client: httpx.AsyncClient, game: str, players: int, headers: dict[str, str]
) -> httpx.Response:
    return await client.post("/v1/matches", json={"game": game, "players": players}, headers=headers)


PROXIES = TrustedProxies(parse_networks(["127.0.0.1", "::1", "10.0.0.0/8"]))


@pytest.mark.parametrize(
    ("peer", "forwarded", "xff", "client"),
    [
        ("127.0.0.1", [], ["203.0.113.7"], "203.0.113.7"),
        ("10.1.2.3", [], ["203.0.113.7, 10.9.9.9"], "203.0.113.7"),  # trusted hops skipped from the right
        ("10.1.2.3", [], ["198.51.100.1", "203.0.113.7"], "203.0.113.7"),  # several headers: one list
        ("10.1.2.3", [], ["6.6.6.6, 203.0.113.7"], "203.0.113.7"),  # what the client wrote is not trusted
        ("10.1.2.3", [], ["10.0.0.1, 10.0.0.2"], "10.0.0.1"),  # every hop trusted: the leftmost
        ("10.1.2.3", [], ["203.0.113.7:4711"], "203.0.113.7"),
        ("10.1.2.3", [], ["[2001:db8::1]:80"], "2001:db8::1"),
        ("10.1.2.3", ["for=192.0.2.60;proto=http;by=10.0.0.1"], [], "192.0.2.60"),
        ("10.1.2.3", ['for="[2001:db8:cafe::17]:4711"'], [], "2001:db8:cafe::17"),
        ("10.1.2.3", ["for=192.0.2.43, for=198.51.100.17"], ["1.1.1.1"], "198.51.100.17"),  # Forwarded wins
        ("::ffff:127.0.0.1", [], ["203.0.113.7"], "203.0.113.7"),  # IPv4 mapped into IPv6
        # malformed: ignored as a whole, the peer's address stays
        ("10.1.2.3", [], ["not-an-address"], "10.1.2.3"),
        ("10.1.2.3", [], ["203.0.113.7, , 10.0.0.1"], "10.1.2.3"),
        ("10.1.2.3", [], [""], "10.1.2.3"),
        ("10.1.2.3", ["for=unknown"], [], "10.1.2.3"),
        ("10.1.2.3", ["for=_hidden, for=203.0.113.7"], [], "10.1.2.3"),
        ("10.1.2.3", ["proto=https"], [], "10.1.2.3"),
        ("10.1.2.3", ['for="[2001:db8::1'], [], "10.1.2.3"),
        # untrusted peers: ignored
        ("192.0.2.1", [], ["203.0.113.7"], "192.0.2.1"),
        ("192.0.2.1", ["for=203.0.113.7"], [], "192.0.2.1"),
        ("not-an-ip", [], ["203.0.113.7"], "not-an-ip"),
    ],
)
def test_which_address_is_the_client(peer: str, forwarded: list[str], xff: list[str], client: str) -> None:
    assert PROXIES.client(peer, forwarded, xff) == client


def test_the_default_trusts_loopback_only_and_the_setting_takes_networks() -> None:
    assert Settings(database_url="memory://").trusted_proxies == ["127.0.0.1", "::1"]
    s = Settings(database_url="memory://", trusted_proxies="10.0.0.0/8, 192.168.1.7 ,fd00::/8")  # type: ignore[arg-type]
    assert s.trusted_proxies == ["10.0.0.0/8", "192.168.1.7", "fd00::/8"]
    assert Settings(database_url="memory://", trusted_proxies='["172.16.0.0/12"]').trusted_proxies == [  # type: ignore[arg-type]
        "172.16.0.0/12"
    ]
    for bad in ("proxy.example", "10.0.0.0/33", "10.0.0.1,banana"):
        with pytest.raises(pydantic.ValidationError, match="is not an IP address or network"):
            Settings(database_url="memory://", trusted_proxies=bad)  # type: ignore[arg-type]


def test_the_server_refuses_to_start_with_a_proxy_setting_that_is_not_an_address() -> None:
    env = {**os.environ, "DRAGO_TRUSTED_PROXIES": "10.0.0.1,lb.internal", "DRAGO_DATABASE_URL": "memory://"}
    done = subprocess.run(
        [sys.executable, "-m", "app", "serve"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2
    assert "DRAGO_TRUSTED_PROXIES" in done.stderr and "'lb.internal' is not an IP address" in done.stderr


async def test_rate_limits_count_each_forwarded_client_and_ignore_untrusted_peers() -> None:
    async with limited_app(rate_limit_create_per_ip="2/minute") as (_, client):  # its peer is 127.0.0.1
        for who in ("203.0.113.1", "203.0.113.2"):
            replies = [await create(client, "yutaka", 2, headers={"X-Forwarded-For": who}) for _ in range(3)]
            assert [r.status_code for r in replies[:2]] == [201, 201] and refused(replies[2])
        malformed = await create(client, "yutaka", 2, headers={"X-Forwarded-For": "garbage"})
        assert malformed.status_code == 201  # counted for the peer, 127.0.0.1: its first
    async with limited_app(rate_limit_create_per_ip="2/minute", trusted_proxies=["10.0.0.0/8"]) as (app, _):
        transport = httpx.ASGITransport(app=app, client=("192.0.2.9", 1234))  # not a trusted proxy
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as untrusted:
            replies = [
                await create(untrusted, "yutaka", 2, headers={"X-Forwarded-For": f"203.0.113.{i}"})
                for i in range(3)
            ]
        assert [r.status_code for r in replies[:2]] == [201, 201] and refused(replies[2])  # one client


async def test_the_access_log_names_the_forwarded_client(caplog: pytest.LogCaptureFixture) -> None:
    async with started("memory://", log_level="INFO") as (_, client):
        caplog.set_level(logging.INFO, logger="app.access")
        await client.get("/healthz", headers={"Forwarded": 'for="203.0.113.9:1234"'})
        await client.get("/healthz", headers={"X-Forwarded-For": "bad, 1.2.3.4"})
    clients = [r.__dict__["client"] for r in caplog.records if r.name == "app.access"]
    assert clients == ["203.0.113.9", "127.0.0.1"]
