"""The routes of a match's life, served without FastAPI's routing and dependencies.

`POST /v1/matches/{id}/actions` and `GET /v1/matches/{id}/view` are most of the server's traffic;
`POST /v1/matches` and `POST /v1/matches/{id}/seats/{seat}` start every match. Measured with
`python -m bench.stack`, FastAPI's route matching, dependency resolution and request validation cost
more per action than the action itself (about 300 µs against 190 µs); creating a match and joining
its two seats cost a median 3.1 ms of CPU through FastAPI and 2.6 ms here (in-process, httpx client
included, six alternating runs of 300 matches). So this innermost middleware serves a *well-formed*
request of these four routes directly: the same caller identification (`app.service.auth.identify`),
the same body models (`SubmitAction`, `CreateMatch`, `JoinSeat`, validated by pydantic from the JSON
bytes), the same use cases and renderers, the same error envelope. Anything it does not recognise as
well-formed — another route, a query string, a header or body that does not validate, a seat number
not written plainly — goes on to the FastAPI app unchanged (the body replayed), which answers it
exactly as before, refusals included. The FastAPI routes stay the documented ones in OpenAPI.

Everything outside (request ids, logs and metrics — labelled with the same route —, the input
guard, rate limits, the body limit, contained 500s) applies to both paths alike.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Final, TypeVar

from pydantic import BaseModel, ValidationError
from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.api.deps import MAX_SEAT_NO
from app.api.errors import render
from app.api.middleware import replay_body
from app.api.render import JSON_TYPE, action_body, send_json
from app.api.routes.matches import create_request, created_out
from app.api.schemas import CreateMatch, JoinSeat, SeatToken, SubmitAction
from app.service import acting, creating, reading, seating
from app.service.auth import Caller, identify
from app.service.context import Context
from app.service.errors import ServiceError

_MATCH = r"/v1/matches/([A-Za-z0-9_-]{1,64})"
_ACTIONS: Final = re.compile(_MATCH + "/actions")
_VIEW: Final = re.compile(_MATCH + "/view")
_SEAT: Final = re.compile(_MATCH + "/seats/(0|[1-9][0-9]?)")  # plain numbers only; the bound below
_MATCHES: Final = "/v1/matches"
_KEY: Final = re.compile(r"[\x21-\x7e]{1,200}")


@dataclass(frozen=True, slots=True)
class _Route:
    path: str  # what `app.api.middleware` labels logs and metrics with


_ROUTES: Final = {
    "submitAction": _Route("/v1/matches/{match_id}/actions"),
    "getView": _Route("/v1/matches/{match_id}/view"),
    "createMatch": _Route("/v1/matches"),
    "joinSeat": _Route("/v1/matches/{match_id}/seats/{seat}"),
}

_M = TypeVar("_M", bound=BaseModel)


class HotRoutes:
    def __init__(self, app: ASGIApp, fastapi: Any) -> None:
        self.app = app
        self.fastapi = fastapi  # for its state: the context

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and not scope.get("query_string"):
            method, path = scope["method"], scope["path"]
            if method == "POST" and (m := _ACTIONS.fullmatch(path)):
                await self._act(m.group(1), scope, receive, send)
                return
            if method == "GET" and (m := _VIEW.fullmatch(path)):
                await self._view(m.group(1), scope, receive, send)
                return
            if method == "POST" and path == _MATCHES:
                await self._create(scope, receive, send)
                return
            if method == "POST" and (m := _SEAT.fullmatch(path)) and int(m.group(2)) <= MAX_SEAT_NO:
                await self._join(m.group(1), int(m.group(2)), scope, receive, send)
                return
        await self.app(scope, receive, send)

    async def _view(self, match_id: str, scope: Scope, receive: Receive, send: Send) -> None:
        headers = _headers(scope)
        token = _bearer(headers.get(b"authorization"))
        if token == _MALFORMED:
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
        token = _bearer(headers.get(b"authorization"))
        key = headers.get(b"idempotency-key")
        well_formed = bool(token) and (key is None or _KEY.fullmatch(key.decode("latin-1")) is not None)
        request, messages = await _json_body(headers, receive, SubmitAction, well_formed)
        if request is None or not token:
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
                None if key is None else key.decode(),
            )
        except ServiceError as e:
            await render(e)(scope, receive, send)
            return
        await send_json(send, action_body(result))

    async def _create(self, scope: Scope, receive: Receive, send: Send) -> None:
        async def create(ctx: Context, caller: Caller | None, request: CreateMatch) -> Response:
            created = await creating.create_match(ctx, create_request(request), caller)
            location = f"{_MATCHES}/{created.match.id}"
            return _created(created_out(created).model_dump_json(), {"location": location})

        await self._keyed_post(scope, receive, send, "createMatch", CreateMatch, create)

    async def _join(self, match_id: str, seat: int, scope: Scope, receive: Receive, send: Send) -> None:
        async def join(ctx: Context, caller: Caller | None, request: JoinSeat) -> Response:
            grant = await seating.join_seat(
                ctx,
                match_id,
                seat,
                request.name,
                invite=request.invite,
                player=caller,
                client_seed=request.client_seed,
            )
            return _created(SeatToken.model_validate(grant, from_attributes=True).model_dump_json())

        await self._keyed_post(scope, receive, send, "joinSeat", JoinSeat, join)

    async def _keyed_post(
        self,
        scope: Scope,
        receive: Receive,
        send: Send,
        operation: str,
        model: type[_M],
        use: Callable[[Context, Caller | None, _M], Awaitable[Response]],
    ) -> None:
        """A POST whose credential is optional (a player key, else nobody): its body validated as
        `model`, the caller identified, then `use` answers (a service error: its envelope)."""
        headers = _headers(scope)
        token = _bearer(headers.get(b"authorization"))
        request, messages = await _json_body(headers, receive, model, token != _MALFORMED)
        if request is None:
            await self.app(scope, replay_body(messages, receive), send)  # FastAPI answers
            return
        ctx = self.fastapi.state.ctx
        self._label(scope, operation)
        try:
            caller = None if token is None else await identify(ctx, token)
            response = await use(ctx, caller, request)
        except ServiceError as e:
            response = render(e)
        await response(scope, receive, send)

    def _label(self, scope: Scope, operation: str) -> None:
        """Metrics and logs label a request by its route template, as for FastAPI's routes."""
        scope["route"] = _ROUTES[operation]


def _headers(scope: Scope) -> dict[bytes, bytes]:
    return dict(scope.get("headers", ()))


_MALFORMED: Final = ""


def _bearer(value: bytes | None) -> str | None:
    """The bearer credential; None without the header; "" for a malformed one (FastAPI answers)."""
    if value is None:
        return None
    scheme, _, token = value.decode("latin-1").partition(" ")
    if scheme.lower() != "bearer" or not token.strip() or token != token.strip():
        return _MALFORMED
    return token


def _created(body: str, headers: dict[str, str] | None = None) -> Response:
    """201 with the reply model's JSON, as FastAPI renders a `response_model` (pydantic's dump)."""
    return Response(body, status_code=201, media_type=JSON_TYPE, headers=headers)


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
