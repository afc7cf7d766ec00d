"""The two routes on the path of every move, served without FastAPI's routing and dependencies.

`POST /v1/matches/{id}/actions` and `GET /v1/matches/{id}/view` are most of the server's traffic.
Measured with `python -m bench.stack`, FastAPI's route matching, dependency resolution and request
validation cost more per action than the action itself (about 300 µs against 190 µs), so this
innermost middleware serves a *well-formed* request of these two routes directly: the same caller
identification (`app.service.auth.identify`), the same body model (`SubmitAction`, validated by
pydantic from the JSON bytes), the same use cases and renderers, the same error envelope. Anything
it does not recognise as well-formed — another route, a query string, a header or body that does
not validate — goes on to the FastAPI app unchanged (the body replayed), which answers it exactly as
before, refusals included. The FastAPI routes stay the documented ones in OpenAPI.

Everything outside (request ids, logs and metrics — labelled with the same route —, the input
guard, rate limits, the body limit, contained 500s) applies to both paths alike.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Final

from pydantic import ValidationError
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.api.errors import render
from app.api.middleware import replay_body
from app.api.render import action_response, view_response
from app.api.schemas import SubmitAction
from app.service import acting, reading
from app.service.auth import identify
from app.service.errors import ServiceError

_MATCH = r"/v1/matches/([A-Za-z0-9_-]{1,64})"
_ACTIONS: Final = re.compile(_MATCH + "/actions")
_VIEW: Final = re.compile(_MATCH + "/view")
_KEY: Final = re.compile(r"[\x21-\x7e]{1,200}")


@dataclass(frozen=True, slots=True)
class _Route:
    path: str  # what `app.api.middleware` labels logs and metrics with


_ROUTES: Final = {
    "submitAction": _Route("/v1/matches/{match_id}/actions"),
    "getView": _Route("/v1/matches/{match_id}/view"),
}


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
            response = view_response(await reading.get_view(ctx, match_id, caller))
        except ServiceError as e:
            response = render(e)
        await response(scope, receive, send)

    async def _act(self, match_id: str, scope: Scope, receive: Receive, send: Send) -> None:
        headers = _headers(scope)
        token = _bearer(headers.get(b"authorization"))
        key = headers.get(b"idempotency-key")
        content_type = headers.get(b"content-type", b"")
        body, messages = await _body(receive)
        well_formed = (
            bool(token)
            and (key is None or _KEY.fullmatch(key.decode("latin-1")) is not None)
            and content_type.split(b";")[0].strip().lower() == b"application/json"
        )
        request: SubmitAction | None = None
        if well_formed:
            try:
                request = SubmitAction.model_validate_json(body)
            except ValidationError:
                request = None
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
            response = action_response(result)
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
