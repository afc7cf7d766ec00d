"""Bad input over HTTP: the documented status and code, and the event log unchanged afterwards."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator, Awaitable, Callable

import httpx
import pytest

from tests.api.conftest import running
from tests.api.helpers import Table, create, error_of, new_table, play_to_end, unchanged

Request = Callable[[], Awaitable[httpx.Response]]


@pytest.fixture
async def table(client: httpx.AsyncClient) -> AsyncIterator[Table]:
    """A started 2-player Mount Drago match; seat 0 plays first."""
    yield await new_table(client, "mount_drago", 2, options={"first_player": 0})


async def total(client: httpx.AsyncClient) -> int:
    count: int = (await client.get("/v1/matches")).json()["total"]
    return count


async def test_creating_with_bad_input(client: httpx.AsyncClient) -> None:
    before = await total(client)
    r = await client.post("/v1/matches", content=b'{"game": ', headers={"Content-Type": "application/json"})
    assert "not valid JSON" in error_of(r, 422, "validation_error")["message"]
    error = error_of(await create(client, "chess", 2), 422, "validation_error")
    assert error["details"]["field"] == "game"
    error = error_of(await create(client, "yutaka", 3), 422, "validation_error")
    assert error["details"]["field"] == "players"
    error_of(await create(client, "mount_drago", 6), 422, "validation_error")
    error_of(await create(client, "yutaka", 2.0), 422, "validation_error")  # type: ignore[arg-type]
    error_of(await create(client, "yutaka", "2"), 422, "validation_error")  # type: ignore[arg-type]
    error_of(await create(client, "yutaka", 2, bots=[True]), 422, "validation_error")
    error = error_of(
        await create(client, "mount_drago", 2, options={"colour": "red"}), 422, "validation_error"
    )
    assert error["details"]["field"].startswith("options")
    error_of(await create(client, "mount_drago", 2, options={"first_player": 7}), 422, "validation_error")
    error_of(await create(client, "yutaka", 2, bots=[2]), 422, "validation_error")
    error = error_of(await create(client, "yutaka", "two"), 422, "validation_error")  # type: ignore[arg-type]
    assert error["details"][0]["field"] == "body.players"
    error_of(await create(client, "yutaka", 2, surprise=1), 422, "validation_error")
    error_of(await create(client, "yutaka", 2, setup={"decks": "no"}), 422, "validation_error")
    assert await total(client) == before  # nothing was created
    error_of(await client.get("/v1/games/chess"), 404, "not_found")
    error_of(await client.get("/v1/matches/nope"), 404, "not_found")
    error_of(await client.get("/v1/matches", params={"status": "over"}), 422, "validation_error")
    error_of(await client.get("/v1/nowhere"), 404, "not_found")
    r = await client.delete("/v1/matches")
    assert error_of(r, 405, "method_not_allowed") and r.headers["allow"] == "GET, POST"


async def test_dev_features_are_refused_when_off(database_url: str) -> None:
    async with running(database_url, dev_features=False) as client:
        before = await total(client)
        for extra in ({"seed": "abc"}, {"setup": {"first_player": 1}}):
            error = error_of(await create(client, "yutaka", 2, **extra), 403, "forbidden")
            assert "development" in error["message"]
        assert await total(client) == before
        assert (await create(client, "yutaka", 2)).status_code == 201


async def test_seats(client: httpx.AsyncClient) -> None:
    table = await new_table(client, "yutaka", 2, bots=[1])
    url = f"{table.url}/seats"
    await unchanged(table, lambda: client.post(f"{url}/0", json={"name": "eve"}), 409, "seat_taken")
    await unchanged(table, lambda: client.post(f"{url}/1", json={"name": "eve"}), 409, "seat_taken")
    await unchanged(table, lambda: client.post(f"{url}/5", json={"name": "eve"}), 404, "not_found")
    await unchanged(table, lambda: client.post(f"{url}/0", json={"name": ""}), 422, "validation_error")
    await unchanged(table, lambda: client.post(f"{url}/0", json={}), 422, "validation_error")
    error_of(await client.post("/v1/matches/nope/seats/0", json={"name": "eve"}), 404, "not_found")


async def test_tokens(client: httpx.AsyncClient, table: Table) -> None:
    other = await new_table(client, "mount_drago", 2)
    view = await table.view(0)
    action = view["legal_actions"][0]
    url = f"{table.url}/actions"
    body = {"action": action}

    def post(headers: dict[str, str]) -> Request:
        return lambda: client.post(url, json=body, headers=headers)

    await unchanged(table, post({}), 401, "unauthorized")
    await unchanged(table, post({"Authorization": "Bearer not-a-token"}), 401, "unauthorized")
    await unchanged(table, post({"Authorization": f"Basic {table.tokens[0]}"}), 401, "unauthorized")
    await unchanged(table, post(other.auth(0)), 403, "forbidden")
    error_of(await client.get(f"{table.url}/view", headers=other.auth(0)), 403, "forbidden")
    error_of(
        await client.get(f"{table.url}/view", headers={"Authorization": "Bearer x"}), 401, "unauthorized"
    )
    error_of(await client.get(f"{table.url}/events", headers=other.auth(1)), 403, "forbidden")
    assert (await client.get(f"{table.url}/view")).json()["seat"] is None  # no token: a spectator


async def test_actions(client: httpx.AsyncClient, table: Table) -> None:
    view = await table.view(0)
    play = view["legal_actions"][0]
    assert play["type"] == "play"
    held = {(c["dragon"], c["value"]) for c in view["hand"]}
    missing = next(
        {"dragon": d, "value": v}
        for d in ("blue", "brown", "black", "red", "yellow")
        for v in (1, 2, 3, 4, 5)
        if (d, v) not in held
    )
    seq = view["seq"]
    await unchanged(table, lambda: table.act(1, play), 409, "not_your_turn")
    error = await unchanged(table, lambda: table.act(0, {**play, "card": missing}), 409, "illegal_action")
    assert error["details"]["reason"]
    await unchanged(table, lambda: table.act(0, {"type": "fly"}), 422, "validation_error")
    await unchanged(table, lambda: table.act(0, {**play, "card": "red"}), 422, "validation_error")
    await unchanged(table, lambda: table.act(0, play, expected_seq=seq - 1), 409, "version_conflict")
    await unchanged(
        table,
        lambda: table.client.post(
            f"{table.url}/actions",
            content=b"{nope",
            headers={**table.auth(0), "Content-Type": "application/json"},
        ),
        422,
        "validation_error",
    )
    await unchanged(
        table,
        lambda: table.client.post(
            f"{table.url}/actions", json={"action": play, "extra": 1}, headers=table.auth(0)
        ),
        422,
        "validation_error",
    )
    r = await table.act(0, play, expected_seq=seq)
    assert r.status_code == 200 and r.json()["seq"] > seq


async def test_oversized_bodies(client: httpx.AsyncClient, table: Table) -> None:
    big = {"action": {"type": "play", "padding": "x" * 70_000}}
    url = f"{table.url}/actions"
    await unchanged(
        table, lambda: client.post(url, json=big, headers=table.auth(0)), 413, "payload_too_large"
    )

    async def chunks() -> AsyncIterator[bytes]:  # no Content-Length: counted while streaming
        for _ in range(20):
            yield b" " * 4096

    await unchanged(
        table,
        lambda: client.post(
            url, content=chunks(), headers={**table.auth(0), "Content-Type": "application/json"}
        ),
        413,
        "payload_too_large",
    )
    error_of(
        await client.post("/v1/matches", json={"game": "x" * 70_000, "players": 2}), 413, "payload_too_large"
    )


async def test_waiting_and_finished_matches(client: httpx.AsyncClient) -> None:
    r = await create(client, "yutaka", 2)
    match_id = r.json()["id"]
    token = (await client.post(f"/v1/matches/{match_id}/seats/0", json={"name": "ann"})).json()["token"]
    table = Table(client, match_id, 2, {0: token})
    view = await table.view(0)
    assert view["status"] == "waiting" and view["legal_actions"] == []
    await unchanged(
        table, lambda: table.act(0, {"type": "reveal", "island": 0, "slot": 0}), 409, "match_not_started"
    )
    done = (await create(client, "yutaka", 2, bots=[1])).json()
    token = (await client.post(f"/v1/matches/{done['id']}/seats/0", json={"name": "ann"})).json()["token"]
    finished = Table(client, done["id"], 2, {0: token})
    await play_to_end(finished, random.Random(5))
    await unchanged(
        finished, lambda: finished.act(0, {"type": "reveal", "island": 0, "slot": 0}), 409, "match_over"
    )
