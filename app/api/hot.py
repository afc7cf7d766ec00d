"""The routes of a match's life, served without FastAPI's routing and dependencies.

`POST /v1/matches/{id}/actions` and `GET /v1/matches/{id}/view` are most of the server's traffic;
`POST /v1/matches` and `POST /v1/matches/{id}/seats/{seat}` start every match, and each seat opens
`WS /v1/matches/{id}/stream` (its session reads its own query and frames: the route only names the
match; through FastAPI's router and exception layers a match's set-up cost 4% more server CPU).
Measured with `python -m bench.stack`, FastAPI's route matching, dependency resolution and request
validation cost more per action than the action itself (about 300 µs against 190 µs); creating a
match and joining its two seats cost a median 3.1 ms of CPU through FastAPI and 2.6 ms here
(in-process, httpx client included, six alternating runs of 300 matches). So this innermost
middleware serves a *well-formed* request of these routes directly: the same caller identification
(`app.service.auth.identify`), the same body models (`SubmitAction`, `CreateMatch`, `JoinSeat`,
validated by pydantic from the JSON bytes), the same use cases and renderers, the same error
envelope. Anything it does not recognise as well-formed — another route, a query string (but a
stream's), a header or body that does not validate, a seat number not written plainly — goes on to
the FastAPI app unchanged (the body replayed), which answers it exactly as before, refusals
included. The FastAPI routes stay the documented ones in OpenAPI.

Everything outside (request ids, logs and metrics — labelled with the same route —, the input
guard, rate limits, the body limit, contained 500s) applies to both paths alike.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Final, TypeVar

from fastapi import FastAPI
from pydantic import BaseModel, TypeAdapter, ValidationError
from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from starlette.websockets import WebSocket

from app.api.credentials import Malformed, bearer_of
from app.api.deps import (
    BEARER,
    CallerDep,
    Ctx,
    IdempotencyKey,
    MatchId,
    MaybeCaller,
    SeatNo,
    caller_of,
    context_of,
    maybe_caller_of,
)
from app.api.errors import render
from app.api.middleware import replay_body
from app.api.render import action_body, send_json
from app.api.routes import matches, play, seats, stream
from app.api.routes.matches import CreateBody, create_request, created_out
from app.api.schemas import CreateMatch, JoinSeat, SeatToken, SubmitAction
from app.service import acting, creating, reading, seating
from app.service.auth import Caller, identify
from app.service.context import Context
from app.service.errors import ServiceError

_T = TypeVar("_T")
_M = TypeVar("_M", bound=BaseModel)


@dataclass(frozen=True, slots=True)
class Twin:
    """What a hot route reproduces of the FastAPI route it shortcuts.

    `params` are the endpoint's parameters with the annotated types the hot route takes them as
    (the same objects); `calls` are the dependencies it reproduces (the caller's identification,
    the context); `forwarded` are parameters whose presence hands the request to FastAPI (a query
    string). `tests/api/test_hot_routes.py` derives all three from the FastAPI route and fails when
    they differ, so a dependency or parameter added there cannot be skipped here silently.
    """

    path: str  # the route template: what the hot route matches (`pattern`), and labels logs and metrics with
    endpoint: Callable[..., Awaitable[object]]
    params: Mapping[str, object]
    calls: frozenset[Callable[..., object]]
    forwarded: frozenset[str] = frozenset()


_SEAT_CALLS: Final[frozenset[Callable[..., object]]] = frozenset({caller_of, BEARER, context_of})
_MAYBE_CALLS: Final[frozenset[Callable[..., object]]] = frozenset({maybe_caller_of, BEARER, context_of})
TWINS: Final = {
    "submitAction": Twin(
        "/v1/matches/{match_id}/actions",
        play.submit_action,
        {
            "match_id": MatchId,
            "caller": CallerDep,
            "body": SubmitAction,
            "ctx": Ctx,
            "idempotency_key": IdempotencyKey,
        },
        _SEAT_CALLS,
    ),
    "getView": Twin(
        "/v1/matches/{match_id}/view",
        play.get_view,
        {"match_id": MatchId, "caller": MaybeCaller, "ctx": Ctx},
        _MAYBE_CALLS,
        frozenset({"at"}),
    ),
    "createMatch": Twin(
        "/v1/matches",
        matches.create_match,
        {"body": CreateBody, "caller": MaybeCaller, "ctx": Ctx, "response": Response},
        _MAYBE_CALLS,
    ),
    "joinSeat": Twin(
        "/v1/matches/{match_id}/seats/{seat}",
        seats.join_seat,
        {"match_id": MatchId, "seat": SeatNo, "body": JoinSeat, "caller": MaybeCaller, "ctx": Ctx},
        _MAYBE_CALLS,
    ),
    "streamMatch": Twin(
        "/v1/matches/{match_id}/stream",
        stream.stream_match,
        {"websocket": WebSocket, "match_id": str},
        frozenset(),
    ),
}

_SEGMENT = "([^/]+)"  # a path parameter; its constraints are the FastAPI route's annotated type's


def pattern(template: str) -> re.Pattern[str]:
    """What a route's path template matches, as Starlette matches it: each `{parameter}` one
    non-empty segment. The hot routes match the templates of their twins, which a test holds to
    the FastAPI routes' own (`tests/api/test_hot_routes.py`): the paths are written once."""
    return re.compile(_SEGMENT.join(re.escape(part) for part in re.split(r"\{[^{}]+\}", template)))


_ACTIONS: Final = pattern(TWINS["submitAction"].path)
_VIEW: Final = pattern(TWINS["getView"].path)
_SEAT: Final = pattern(TWINS["joinSeat"].path)
_STREAM: Final = pattern(TWINS["streamMatch"].path)
_MATCHES: Final = TWINS["createMatch"].path

_MATCH_ID: Final = TypeAdapter[str](MatchId)
_SEAT_NO: Final = TypeAdapter[int](SeatNo)
_KEY: Final = TypeAdapter[str | None](IdempotencyKey)


def _valid(adapter: TypeAdapter[_T], value: object) -> _T | None:
    """`value` as the route's annotated type takes it, or None where FastAPI would refuse it."""
    try:
        return adapter.validate_python(value)
    except ValidationError:
        return None


class HotRoutes:
    def __init__(self, app: ASGIApp, fastapi: FastAPI) -> None:
        self.app = app
        self.fastapi = fastapi  # for its state: the context

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and not scope.get("query_string"):
            method, path = scope["method"], scope["path"]
            if method == "POST" and (m := _ACTIONS.fullmatch(path)) and (match_id := _valid(_MATCH_ID, m[1])):
                await self._act(match_id, scope, receive, send)
                return
            if method == "GET" and (m := _VIEW.fullmatch(path)) and (match_id := _valid(_MATCH_ID, m[1])):
                await self._view(match_id, scope, receive, send)
                return
            if method == "POST" and path == _MATCHES:
                await self._create(scope, receive, send)
                return
            if (
                method == "POST"
                and (m := _SEAT.fullmatch(path))
                and (match_id := _valid(_MATCH_ID, m[1]))
                and (seat := _valid(_SEAT_NO, m[2])) is not None
            ):
                await self._join(match_id, seat, scope, receive, send)
                return
        elif scope["type"] == "websocket" and (m := _STREAM.fullmatch(scope["path"])):
            self._label(scope, "streamMatch")  # its query (`after`, `token`…) is the session's to read
            await stream.stream_match(WebSocket(scope, receive, send), m[1])  # the route's own endpoint
            return
        await self.app(scope, receive, send)

    async def _view(self, match_id: str, scope: Scope, receive: Receive, send: Send) -> None:
        token = bearer_of(scope)
        if isinstance(token, Malformed):
            await self.app(scope, receive, send)
            return
        ctx = self.fastapi.state.ctx
        self._label(scope, "getView")
        try:
            caller = None if token is None else await identify(ctx, token)
            body = (await reading.get_view(ctx, match_id, caller)).json_bytes()
        except ServiceError as e:
            await render(e)(scope, receive, send)
            return
        await send_json(send, body)

    async def _act(self, match_id: str, scope: Scope, receive: Receive, send: Send) -> None:
        headers = _headers(scope)
        token = bearer_of(scope)
        raw_key = headers.get(b"idempotency-key")
        key = None if raw_key is None else _valid(_KEY, raw_key.decode("latin-1"))
        well_formed = isinstance(token, str) and (raw_key is None or key is not None)
        request, messages = await _json_body(headers, receive, SubmitAction, well_formed)
        if request is None or not isinstance(token, str):
            await self.app(scope, replay_body(messages, receive), send)  # FastAPI answers, refusals included
            return
        ctx = self.fastapi.state.ctx
        self._label(scope, "submitAction")
        try:
            caller = await identify(ctx, token)
            result = await acting.submit_action(
                ctx,
                match_id,
                caller,
                request.action,
                request.expected_seq,
                key,
            )
        except ServiceError as e:
            await render(e)(scope, receive, send)
            return
        await send_json(send, action_body(result))

    async def _create(self, scope: Scope, receive: Receive, send: Send) -> None:
        async def create(ctx: Context, caller: Caller | None, request: CreateMatch) -> Created:
            created = await creating.create_match(ctx, create_request(request), caller)
            return Created(created_out(created).model_dump_json(), f"{_MATCHES}/{created.match.id}")

        await self._keyed_post(scope, receive, send, "createMatch", CreateMatch, create)

    async def _join(self, match_id: str, seat: int, scope: Scope, receive: Receive, send: Send) -> None:
        async def join(ctx: Context, caller: Caller | None, request: JoinSeat) -> Created:
            grant = await seating.join_seat(
                ctx,
                match_id,
                seat,
                request.name,
                invite=request.invite,
                player=caller,
                client_seed=request.client_seed,
            )
            return Created(SeatToken.model_validate(grant, from_attributes=True).model_dump_json())

        await self._keyed_post(scope, receive, send, "joinSeat", JoinSeat, join)

    async def _keyed_post(
        self,
        scope: Scope,
        receive: Receive,
        send: Send,
        operation: str,
        model: type[_M],
        use: Callable[[Context, Caller | None, _M], Awaitable[Created]],
    ) -> None:
        """A POST whose credential is optional (a player key, else nobody): its body validated as
        `model`, the caller identified, then `use` answers 201 with its body (sent as the two ASGI
        messages, no `Response` built; a service error: its envelope)."""
        token = bearer_of(scope)
        request, messages = await _json_body(
            _headers(scope), receive, model, not isinstance(token, Malformed)
        )
        if request is None or isinstance(token, Malformed):
            await self.app(scope, replay_body(messages, receive), send)  # FastAPI answers
            return
        ctx = self.fastapi.state.ctx
        self._label(scope, operation)
        try:
            caller = None if token is None else await identify(ctx, token)
            created = await use(ctx, caller, request)
        except ServiceError as e:
            await render(e)(scope, receive, send)
            return
        await send_json(send, created.body.encode(), 201, created.location)

    def _label(self, scope: Scope, operation: str) -> None:
        """Metrics and logs label a request by its route template, as for FastAPI's routes."""
        scope["route"] = TWINS[operation]


def _headers(scope: Scope) -> dict[bytes, bytes]:
    return dict(scope.get("headers", ()))


@dataclass(frozen=True, slots=True)
class Created:
    """A 201 reply: the reply model's JSON, as FastAPI renders a `response_model` (pydantic's
    dump), and the new resource's `location` when it has one."""

    body: str
    location: str | None = None


async def _json_body(
    headers: dict[bytes, bytes], receive: Receive, model: type[_M], well_formed: bool
) -> tuple[_M | None, list[Message]]:
    """The whole body, and the request `model` validated from it when the headers are `well_formed`
    and say JSON and the body validates (else None: FastAPI answers, with the messages replayed)."""
    body, messages = await _body(receive)
    content_type = headers.get(b"content-type", b"")
    if not well_formed or content_type.split(b";")[0].strip().lower() != b"application/json":
        return None, messages
    try:
        return model.model_validate_json(body), messages
    except ValidationError:
        return None, messages


async def _body(receive: Receive) -> tuple[bytes, list[Message]]:
    messages: list[Message] = []
    chunks: list[bytes] = []
    while True:
        message = await receive()
        messages.append(message)
        if message["type"] != "http.request":
            break
        chunks.append(message.get("body", b""))
        if not message.get("more_body", False):
            break
    return b"".join(chunks), messages
