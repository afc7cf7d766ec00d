"""The hot routes (`app.api.hot`) answer exactly as the FastAPI routes they shortcut.

Two apps on the same dev seed play the same requests — one with the hot routes, one without them —
and every answer must match: status, error code and field, and for successes the same JSON once
the match ids are set aside. Malformed requests fall through to FastAPI in the first app too.
"""

from __future__ import annotations

import re
import typing
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import httpx
import pytest
from fastapi import Depends
from fastapi.dependencies.utils import get_parameterless_sub_dependant
from fastapi.routing import APIRoute, APIWebSocketRoute
from starlette.websockets import WebSocket

from app.api import hot as hot_module
from app.api.hot import HotRoutes
from app.api.routes import ROUTERS
from app.api.streaming import Streaming
from app.main import create_app
from app.settings import Settings
from tests.stream.asgi import AsgiSocket

SEED = "hot-routes"
TIME = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z")


@asynccontextmanager
async def app_client(hot: bool) -> AsyncIterator[httpx.AsyncClient]:
    async with app_and_client(hot) as (_, client):
        yield client


@asynccontextmanager
async def app_and_client(hot: bool) -> AsyncIterator[tuple[Any, httpx.AsyncClient]]:
    settings = Settings(
        database_url="memory://", dev_features=True, log_level="WARNING", bots_enabled=False,
        rate_limit_enabled=False, sweep_interval_seconds=0,
    )  # fmt: skip
    app = create_app(settings)
    if not hot:
        app.user_middleware = [m for m in app.user_middleware if getattr(m, "cls", None) != HotRoutes]
    transport = httpx.ASGITransport(app=app)
    async with (
        app.router.lifespan_context(app),
        httpx.AsyncClient(transport=transport, base_url="http://t") as client,
    ):
        yield app, client


async def table(client: httpx.AsyncClient) -> tuple[str, list[str], str]:
    created = (
        await client.post("/v1/matches", json={"game": "mount_drago", "players": 2, "seed": SEED})
    ).json()
    match_id = created["id"]
    tokens = [
        (await client.post(f"/v1/matches/{match_id}/seats/{s}", json={"name": f"p{s}"})).json()["token"]
        for s in (0, 1)
    ]
    other = (await client.post("/v1/matches", json={"game": "yutaka", "players": 2})).json()["id"]
    other_token = (await client.post(f"/v1/matches/{other}/seats/0", json={"name": "o"})).json()["token"]
    return match_id, tokens, other_token


def cases(
    match_id: str, tokens: list[str], other: str, to_act: int, legal: dict[str, Any]
) -> list[dict[str, Any]]:
    me, them = (f"Bearer {tokens[to_act]}", f"Bearer {tokens[1 - to_act]}")
    url = f"/v1/matches/{match_id}"
    good = {"action": legal, "expected_seq": 4}
    return [
        {"method": "GET", "url": f"{url}/view"},
        {"method": "GET", "url": f"{url}/view", "headers": {"authorization": me}},
        {"method": "GET", "url": f"{url}/view", "headers": {"authorization": "Basic abc"}},
        {"method": "GET", "url": f"{url}/view", "headers": {"authorization": "Bearer nope"}},
        {"method": "GET", "url": f"{url}/view", "headers": {"authorization": f"Bearer {other}"}},
        {"method": "GET", "url": f"{url}/view", "params": {"at": 4}, "headers": {"authorization": me}},
        {"method": "GET", "url": "/v1/matches/unknown/view"},
        {"method": "POST", "url": f"{url}/actions", "json": good},
        {"method": "POST", "url": f"{url}/actions", "json": good, "headers": {"authorization": "Bearer  x"}},
        {"method": "POST", "url": f"{url}/actions", "json": good, "headers": {"authorization": them}},
        {
            "method": "POST",
            "url": f"{url}/actions",
            "json": good,
            "headers": {"authorization": f"Bearer {other}"},
        },
        {
            "method": "POST",
            "url": f"{url}/actions",
            "content": b"{",
            "headers": {"authorization": me, "content-type": "application/json"},
        },
        {
            "method": "POST",
            "url": f"{url}/actions",
            "content": b"{}",
            "headers": {"authorization": me, "content-type": "text/plain"},
        },
        {
            "method": "POST",
            "url": f"{url}/actions",
            "json": {**good, "extra": 1},
            "headers": {"authorization": me},
        },
        {
            "method": "POST",
            "url": f"{url}/actions",
            "json": {**good, "expected_seq": "4"},
            "headers": {"authorization": me},
        },
        {
            "method": "POST",
            "url": f"{url}/actions",
            "json": {"action": {"type": "fly"}},
            "headers": {"authorization": me},
        },
        {
            "method": "POST",
            "url": f"{url}/actions",
            "json": {**good, "expected_seq": 3},
            "headers": {"authorization": me},
        },
        {
            "method": "POST",
            "url": f"{url}/actions",
            "json": good,
            "headers": {"authorization": me, "idempotency-key": "a b"},
        },
        {
            "method": "POST",
            "url": "/v1/matches/unknown/actions",
            "json": good,
            "headers": {"authorization": me},
        },
        {
            "method": "POST",
            "url": f"{url}/actions",
            "json": good,
            "headers": {"authorization": me, "idempotency-key": "k1"},
        },
        {
            "method": "POST",
            "url": f"{url}/actions",
            "json": good,
            "headers": {"authorization": me, "idempotency-key": "k1"},
        },
        {"method": "GET", "url": f"{url}/view", "headers": {"authorization": them}},
    ]


def comparable(response: httpx.Response, match_id: str) -> Any:
    body = TIME.sub("<time>", response.text.replace(match_id, "<match>"))
    return response.status_code, response.headers.get("content-type"), body


@pytest.mark.parametrize("index", range(22))
async def test_hot_and_fastapi_answer_alike(index: int) -> None:
    answers = []
    for hot in (True, False):
        async with app_client(hot) as client:
            match_id, tokens, other = await table(client)
            view = (await client.get(f"/v1/matches/{match_id}/view")).json()
            seat = view["to_act"][0]
            mine = (
                await client.get(
                    f"/v1/matches/{match_id}/view", headers={"authorization": f"Bearer {tokens[seat]}"}
                )
            ).json()
            requests = cases(match_id, tokens, other, seat, mine["legal_actions"][0])
            for request in requests[:index]:  # the same history before the request compared
                await client.request(**request)
            response = await client.request(**requests[index])
            answers.append(comparable(response, match_id))
    assert answers[0] == answers[1]


SECRET_KEYS = ("id", "match_id", "host_token", "invite", "token", "commitment", "player_id")


def masked(response: httpx.Response) -> Any:
    """Status, type, Location and body of a reply, with what is random per match (ids, secrets, the
    commitment to a random secret) and the clock masked: each app mints its own."""
    try:
        body: Any = response.json()
    except ValueError:
        body = response.text
    if isinstance(body, dict):
        body = {k: "<random>" if k in SECRET_KEYS and v is not None else v for k, v in body.items()}
        body = TIME.sub("<time>", repr(body))
    location = response.headers.get("location")
    return (
        response.status_code,
        response.headers.get("content-type"),
        None if location is None else re.sub(r"[^/]+$", "<id>", location),
        body,
    )


def setup_cases(key: str) -> list[dict[str, Any]]:
    """`createMatch` and `joinSeat` requests, well-formed and not; `{m0}`/`{m1}` in a URL are the
    first and the second match created in this list (2-player public, then unlisted)."""
    game = {"game": "mount_drago", "players": 2}
    player = {"authorization": f"Bearer {key}"}
    json_type, nope = {"content-type": "application/json"}, {"authorization": "Bearer nope"}
    return [
        {"method": "POST", "url": "/v1/matches", "json": {**game, "seed": SEED}},
        {"method": "POST", "url": "/v1/matches", "json": {**game, "visibility": "unlisted"}},
        {"method": "POST", "url": "/v1/matches", "json": {"game": "yutaka", "players": 2}, "headers": player},
        {"method": "POST", "url": "/v1/matches", "json": {**game, "players": 9}},
        {"method": "POST", "url": "/v1/matches", "json": {**game, "extra": 1}},
        {"method": "POST", "url": "/v1/matches", "json": {**game, "players": "2"}},
        {"method": "POST", "url": "/v1/matches", "json": {**game, "bots": [1, 1]}},
        {"method": "POST", "url": "/v1/matches", "json": {"game": "chess", "players": 2}},
        {"method": "POST", "url": "/v1/matches", "content": b"{", "headers": json_type},
        {"method": "POST", "url": "/v1/matches", "content": b"", "headers": json_type},
        {"method": "POST", "url": "/v1/matches", "content": b"{}", "headers": {"content-type": "text/plain"}},
        {"method": "POST", "url": "/v1/matches", "json": game, "headers": {"authorization": "Basic abc"}},
        {"method": "POST", "url": "/v1/matches", "json": game, "headers": nope},
        {"method": "POST", "url": "/v1/matches", "json": game, "params": {"x": 1}},
        {"method": "POST", "url": "/v1/matches/{m0}/seats/0", "json": {"name": "  Ann  "}},
        {"method": "POST", "url": "/v1/matches/{m0}/seats/0", "json": {"name": "Bob"}},
        {"method": "POST", "url": "/v1/matches/{m0}/seats/2", "json": {"name": "Bob"}},
        {"method": "POST", "url": "/v1/matches/{m0}/seats/64", "json": {"name": "Bob"}},
        {"method": "POST", "url": "/v1/matches/{m0}/seats/1", "json": {"name": " "}},
        {"method": "POST", "url": "/v1/matches/{m0}/seats/1", "json": {"name": "Bob", "x": 1}},
        {"method": "POST", "url": "/v1/matches/{m0}/seats/1", "json": {"name": "Bob"}, "headers": nope},
        {"method": "POST", "url": "/v1/matches/{m0}/seats/1", "json": {"name": "Bob"}, "headers": player},
        {"method": "POST", "url": "/v1/matches/{m0}/seats/01", "json": {"name": "Bob"}},
        {"method": "POST", "url": "/v1/matches/{m1}/seats/0", "json": {"name": "Cy"}},
        {"method": "POST", "url": "/v1/matches/{m1}/seats/0", "json": {"name": "Cy", "invite": "wrong"}},
        {"method": "POST", "url": "/v1/matches/unknown/seats/0", "json": {"name": "Cy"}},
        {"method": "POST", "url": "/v1/matches/{m0}/seats/1", "json": {"name": "Dee"}},
    ]  # fmt: skip


async def test_hot_and_fastapi_set_up_matches_alike(monkeypatch: pytest.MonkeyPatch) -> None:
    served = []  # the replies the hot routes rendered themselves (not FastAPI)
    rendered = hot_module.Created

    def spy(*args: Any) -> Any:
        served.append(args)
        return rendered(*args)

    monkeypatch.setattr(hot_module, "Created", spy)
    answers = []
    for hot in (True, False):
        async with app_client(hot) as client:
            key = (await client.post("/v1/players", json={"name": "keyholder"})).json()["key"]
            ids: list[str] = []
            replies = []
            for request in setup_cases(key):
                url = request["url"].format(m0=ids[0] if ids else "", m1=ids[1] if len(ids) > 1 else "")
                response = await client.request(**{**request, "url": url})
                if request["url"] == "/v1/matches" and response.status_code == 201:
                    ids.append(response.json()["id"])
                    assert response.headers["location"] == f"/v1/matches/{ids[-1]}"
                replies.append(masked(response))
            assert len(ids) == 4  # the three first and the one with a query string (FastAPI ignores it)
            summary = (await client.get(f"/v1/matches/{ids[0]}")).json()
            replies.append(
                (
                    summary["status"],
                    [(s["name"], s["taken"], s["player_id"] is not None) for s in summary["seats"]],
                )
            )
            answers.append(replies)
    assert [a[0] for a in answers[0]][:3] == [201, 201, 201]
    assert len(served) == 5  # three matches created, two seats joined: all by the hot routes
    for hot_reply, fastapi_reply in zip(answers[0], answers[1], strict=True):
        assert hot_reply == fastapi_reply


def _routes(operation: str) -> list[APIRoute | APIWebSocketRoute]:
    """The FastAPI routes of an operation id (a WebSocket route's: its name), as `app.main`
    includes them (without extra dependencies)."""
    return [
        r
        for router in ROUTERS
        for r in router.routes
        if (isinstance(r, APIRoute) and r.operation_id == operation)
        or (isinstance(r, APIWebSocketRoute) and r.name == operation)
    ]


def _calls(dependant: Any) -> set[Any]:
    """Every dependency FastAPI resolves for a route, however deep."""
    out: set[Any] = set()
    for sub in dependant.dependencies:
        out |= {sub.call} | _calls(sub)
    return out


@pytest.mark.parametrize("operation", sorted(hot_module.TWINS))
def test_each_hot_route_takes_what_its_fastapi_route_declares(operation: str) -> None:
    """Derived from the FastAPI route (its endpoint's annotated parameters and its whole dependency
    tree), never listed by hand: a parameter or dependency added there fails here until the hot
    twin in `app.api.hot.TWINS` (and the code that serves it) takes it too."""
    twin = hot_module.TWINS[operation]
    [route] = _routes(operation)
    assert route.path == twin.path and route.endpoint is twin.endpoint
    hints = typing.get_type_hints(route.endpoint, include_extras=True)
    hints.pop("return", None)
    queries = {p.name for p in route.dependant.query_params}  # a stream's session reads its own
    assert queries == twin.forwarded, f"{operation}: the hot route must hand these queries to FastAPI"
    assert {k: v for k, v in hints.items() if k not in queries} == dict(twin.params), (
        f"{operation}'s parameters changed: update its twin in app/api/hot.py (and what it does)"
    )
    assert _calls(route.dependant) == set(twin.calls), (
        f"{operation}'s dependencies changed: the hot route must reproduce each one (app/api/hot.py)"
    )


SAMPLE_PATHS = [
    "/v1/matches", "/v1/matches/", "/v1/matches/m-1/actions", "/v1/matches/m-1/actions/",
    "/v1/matches//actions", "/v1/matches/a/b/actions", "/v1/matches/m.1/view", "/v1/matches/m 1/view",
    "/v1/matches/m-1/seats/0", "/v1/matches/m-1/seats/01", "/v1/matches/m-1/seats/", "/v1/matches/m-1/stream",
    "/v1/matches/m-1/stream/x", "/v2/matches/m-1/view", "/v1/matches/m-1/view?x", "/v1/matches/(.*)/view",
]  # fmt: skip


@pytest.mark.parametrize("operation", sorted(hot_module.TWINS))
def test_each_hot_route_matches_the_paths_its_fastapi_route_matches(operation: str) -> None:
    [route] = _routes(operation)
    mine = hot_module.pattern(hot_module.TWINS[operation].path)
    for path in SAMPLE_PATHS:
        assert (mine.fullmatch(path) is not None) == (route.path_regex.match(path) is not None), path


def test_the_derivation_sees_a_dependency_added_to_a_route() -> None:
    """Control: the comparison above fails for a route that gained a dependency."""

    async def extra() -> None:
        return None

    [route] = _routes("submitAction")
    route.dependant.dependencies.append(
        get_parameterless_sub_dependant(depends=Depends(extra), path=route.path)
    )
    assert _calls(route.dependant) != set(hot_module.TWINS["submitAction"].calls)


@pytest.mark.parametrize("hot", [True, False])
async def test_the_match_stream_is_served_past_fastapis_router(
    hot: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With the hot routes the stream's session starts under the hot twin (labelled with the same
    template for logs), not under FastAPI's route; either way it says the same hello."""
    routes: list[object] = []
    serve = Streaming.serve_match

    async def watched(self: Streaming, ws: WebSocket, match_id: str) -> None:
        routes.append(ws.scope.get("route"))
        await serve(self, ws, match_id)

    monkeypatch.setattr(Streaming, "serve_match", watched)
    async with app_and_client(hot) as (app, client):
        match_id, tokens, _ = await table(client)
        url, seat = f"/v1/matches/{match_id}", {"token": tokens[1], "views": "1"}
        async with AsgiSocket(app, f"{url}/stream", seat) as ws:
            hello = await ws.recv()
        view = await client.get(f"{url}/view", headers={"authorization": f"Bearer {tokens[1]}"})
    [route] = routes
    assert route is hot_module.TWINS["streamMatch"] if hot else isinstance(route, APIWebSocketRoute)
    assert getattr(route, "path", None) == "/v1/matches/{match_id}/stream"
    assert hello["type"] == "hello" and hello["seat"] == 1 and hello["view"] == view.json()
