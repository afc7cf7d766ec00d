"""Bad lifecycle input over HTTP, on every store: each refusal is the documented 4xx with the error
envelope, and the match (its summary and its whole log) or the lobby is exactly as before."""

from __future__ import annotations

from collections.abc import Awaitable
from typing import Any

import httpx
import pytest

from tests.api.conftest import running
from tests.api.helpers import Table, create, error_of, join, new_table, unchanged
from tests.lifecycle.support import drago


@pytest.fixture
async def client(database_url: str) -> Any:
    async with running(database_url) as c:
        yield c


async def test_resigning_twice(client: httpx.AsyncClient) -> None:
    two = await drago(client)
    assert (await two.resign(1)).status_code == 200
    await unchanged(two, lambda: two.resign(1), 409, "match_over")
    await unchanged(two, lambda: two.resign(0), 409, "match_over")
    three = await drago(client, 3)
    assert (await three.resign(2)).status_code == 200
    await three.settled()
    await unchanged(three, lambda: three.resign(2), 409, "already_resigned")


async def test_resigning_before_the_start_or_without_a_seat(client: httpx.AsyncClient) -> None:
    created = (await create(client, "yutaka", 2)).json()
    token = (await join(client, created["id"], 0)).json()["token"]
    table = Table(client, created["id"], 2, {0: token}, host=created["host_token"])
    await unchanged(table, lambda: table.resign(0), 409, "match_not_started")
    await unchanged(table, lambda: client.post(f"{table.url}/resign"), 401, "unauthorized")
    host = {"Authorization": f"Bearer {created['host_token']}"}
    await unchanged(table, lambda: client.post(f"{table.url}/resign", headers=host), 401, "unauthorized")


async def test_aborting_a_started_match_or_without_the_host_token(client: httpx.AsyncClient) -> None:
    table = await drago(client)
    url = f"{table.url}/abort"
    await unchanged(table, lambda: client.post(url, headers=table.as_host()), 409, "match_started")
    await unchanged(table, lambda: client.post(url), 401, "unauthorized")
    await unchanged(table, lambda: client.post(url, headers=table.auth(0)), 403, "forbidden")
    other = (await create(client, "yutaka", 2)).json()
    their_host = {"Authorization": f"Bearer {other['host_token']}"}
    await unchanged(table, lambda: client.post(url, headers=their_host), 403, "forbidden")
    waiting = Table(client, other["id"], 2, {}, host=other["host_token"])
    await unchanged(
        waiting, lambda: client.post(f"{waiting.url}/abort", headers=table.as_host()), 403, "forbidden"
    )


async def test_reissuing_with_a_seat_token_or_for_a_seat_nobody_holds(client: httpx.AsyncClient) -> None:
    table = await drago(client)
    url = f"{table.url}/seats/1/token"
    await unchanged(table, lambda: client.post(url, headers=table.auth(1)), 403, "forbidden")
    await unchanged(table, lambda: client.post(url, headers=table.auth(0)), 403, "forbidden")
    await unchanged(table, lambda: client.post(url), 401, "unauthorized")
    bad = {"Authorization": "Bearer ht_not-the-host"}
    await unchanged(table, lambda: client.post(url, headers=bad), 403, "forbidden")
    await unchanged(
        table, lambda: client.post(f"{table.url}/seats/7/token", headers=table.as_host()), 404, "not_found"
    )
    with_bot = await new_table(client, "yutaka", 2, bots=[1])
    await unchanged(
        with_bot,
        lambda: client.post(f"{with_bot.url}/seats/1/token", headers=with_bot.as_host()),
        409,
        "seat_not_held",
    )
    for seat in (0, 1):  # the tokens still work
        assert (await table.view(seat))["seat"] == seat


async def test_handing_a_seat_to_a_bot_before_the_start(client: httpx.AsyncClient) -> None:
    created = (await create(client, "yutaka", 2)).json()
    token = (await join(client, created["id"], 0)).json()["token"]
    table = Table(client, created["id"], 2, {0: token}, host=created["host_token"])
    url = f"{table.url}/seats/0/bot"
    await unchanged(table, lambda: client.post(url, headers=table.as_host()), 409, "match_not_started")
    await unchanged(table, lambda: client.post(url, headers=table.auth(0)), 403, "forbidden")


BAD_SETTINGS: list[dict[str, Any]] = [
    {"clock": {"per_decision_s": 0}},
    {"clock": {"per_decision_s": 30 * 86_400 + 1}},
    {"clock": {"per_decision_s": 1.5}},
    {"clock": {"per_decision_s": "60"}},
    {"clock": {"initial_s": 0}},
    {"clock": {"initial_s": 60, "increment_s": -1}},
    {"clock": {"initial_s": 60, "increment_s": 86_401}},
    {"clock": {"per_decision_s": 60, "initial_s": 60}},
    {"clock": {}},
    {"clock": 60},
    {"on_timeout": "nothing"},
    {"takeover_after": 0},
    {"takeover_after": 101},
    {"visibility": "secret"},
    {"drafts": "yes"},
    {"allow_samples": 1},
    {"lifecycle": True},
]


@pytest.mark.parametrize("settings", BAD_SETTINGS)
async def test_settings_out_of_range_create_nothing(
    client: httpx.AsyncClient, settings: dict[str, Any]
) -> None:
    before = (await client.get("/v1/matches")).json()["total"]
    error = error_of(await create(client, "mount_drago", 2, **settings), 422, "validation_error")
    assert error["details"]
    assert (await client.get("/v1/matches")).json()["total"] == before


async def test_joining_an_unlisted_match_without_or_with_a_wrong_invite(client: httpx.AsyncClient) -> None:
    created = (await create(client, "yutaka", 2, visibility="unlisted")).json()
    table = Table(client, created["id"], 2, {}, invite=created["invite"])
    other = (await create(client, "yutaka", 2, visibility="unlisted")).json()
    for invite in (None, "", "iv_wrong", other["invite"], created["host_token"]):
        body: dict[str, Any] = {} if invite is None else {"invite": invite}

        def joining(body: dict[str, Any] = body) -> Awaitable[httpx.Response]:
            return join(client, table.match_id, 0, **body)

        error = await unchanged(table, joining, 403, "forbidden")
        assert error["details"] == {"field": "invite"}
    assert (await join(client, table.match_id, 0, invite=created["invite"])).status_code == 201
