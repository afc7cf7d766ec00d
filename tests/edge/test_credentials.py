"""One parser of bearer credentials (`app.api.credentials`) for routes, hot routes, streams and rate
limits: its rules, an empty header as no credential, and one parse per request."""

from __future__ import annotations

from typing import Any

import pytest

from app.api import credentials
from app.api.credentials import MALFORMED, parse_bearer
from tests.api.conftest import started
from tests.api.helpers import new_table
from tests.edge.test_ratelimit import limited
from tests.stream.helpers import open_stream


@pytest.mark.parametrize(
    ("header", "parsed"),
    [
        (None, None),
        ("", None),
        ("   ", None),
        ("Bearer abc", "abc"),
        ("bearer abc", "abc"),
        ("BEARER abc", "abc"),
        ("Bearer   abc", "abc"),
        (" Bearer abc ", "abc"),
        (b"Bearer abc", "abc"),
        ("Bearer", MALFORMED),
        ("Bearer ", MALFORMED),
        ("Bearer a b", MALFORMED),
        ("Bearer a\tb", MALFORMED),
        ("Bearer \tabc", MALFORMED),  # whitespace other than the spaces after the scheme
        ("Bearer a\u3000b", MALFORMED),  # any character `str.isspace` names, Unicode's too
        ("Bearer a\x85b", MALFORMED),
        ("Basic abc", MALFORMED),
        ("abc", MALFORMED),
    ],
)
def test_the_one_parser(header: str | bytes | None, parsed: Any) -> None:
    assert parse_bearer(header) == parsed


async def test_an_empty_header_is_no_credential_on_every_path(database_url: str) -> None:
    async with started(database_url) as (_, client):
        table = await new_table(client, "mount_drago", 2)
        spectator = await client.get(f"{table.url}/view")
        empty = {"Authorization": ""}
        hot = await client.get(f"{table.url}/view", headers=empty)  # the hot route
        at = {"at": spectator.json()["seq"]}  # a dealt seq (drago-fair-2 deals after the seats)
        routed = await client.get(f"{table.url}/view", params=at, headers=empty)  # FastAPI's
        assert hot.status_code == routed.status_code == 200
        assert hot.json() == spectator.json() and routed.json()["seat"] is None
        refused = await client.post(
            f"{table.url}/actions", json={"action": {"type": "end_turn"}}, headers=empty
        )
        assert refused.status_code == 401


async def test_a_token_after_several_spaces_is_the_token_on_every_path(database_url: str) -> None:
    async with started(database_url) as (_, client):
        table = await new_table(client, "mount_drago", 2)
        spaced = {"Authorization": f"Bearer   {table.tokens[0]}"}
        hot = await client.get(f"{table.url}/view", headers=spaced)
        routed = await client.get(f"{table.url}/events", headers=spaced)
        assert hot.status_code == routed.status_code == 200 and hot.json()["seat"] == 0


@pytest.mark.parametrize("route", ["hot", "fastapi"])
async def test_with_rate_limits_a_request_parses_its_credential_once(
    database_url: str, route: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    parsed: list[object] = []
    parse = credentials.parse_bearer

    def counting(value: str | bytes | None) -> credentials.Bearer:
        parsed.append(value)
        return parse(value)

    async with started(database_url, **limited(rate_limit_reads_per_credential="1000/minute")) as (_, client):
        table = await new_table(client, "mount_drago", 2)
        monkeypatch.setattr(credentials, "parse_bearer", counting)
        path = "/view" if route == "hot" else "/events"
        assert (await client.get(table.url + path, headers=table.auth(1))).status_code == 200
    assert len(parsed) == 1


@pytest.mark.parametrize(
    ("headers", "seat"),
    [({"Authorization": ""}, None), ({"Authorization": "bearer  {token}"}, 0)],
    ids=["empty header: a spectator", "any case, several spaces: the seat"],
)
async def test_streams_read_the_header_as_routes_do(headers: dict[str, str], seat: int | None) -> None:
    async with started("memory://") as (app, client):
        table = await new_table(client, "mount_drago", 2)
        sent = {k: v.format(token=table.tokens[0]) for k, v in headers.items()}
        async with open_stream(app, table.match_id, spectate=seat is None, headers=sent) as ws:
            hello = await ws.recv()
    assert hello["type"] == "hello" and hello["seat"] == seat
