"""The FastAPI application class, with a shorter stack around its routes.

FastAPI wraps every request in its own layers before any of ours: OpenTelemetry hooks (which look
the environment up per request), `ServerErrorMiddleware`, its exception telemetry and its body
limit. Each of them our own pure-ASGI layers already does (`app.api.middleware.RequestContext`
contains every error with the error envelope and logs it once; `BodyLimit` limits bodies), and each
costs a function call and a `send` wrapper per message, on every action and every stream frame.
`Api` builds its stack as our layers (`add_middleware`, outermost first) around FastAPI's
exception handlers and its exit stack around the router; the lifespan still goes through FastAPI.
It also leaves a WebSocket's `send`, as the server gave it, in the scope (`SERVER_SEND`): the
streams send their commit frames with it, past Starlette's per-message wrappers (none of our layers
wraps a WebSocket's messages).
"""

from __future__ import annotations

from typing import Any, Final

from fastapi import FastAPI
from fastapi.middleware.asyncexitstack import AsyncExitStackMiddleware
from starlette.middleware import Middleware
from starlette.middleware.exceptions import ExceptionMiddleware
from starlette.types import ASGIApp, Receive, Scope, Send

SERVER_SEND: Final = "app.server_send"  # scope key: a WebSocket's `send` as the server gave it


class Api(FastAPI):
    def build_middleware_stack(self) -> ASGIApp:
        handlers: dict[Any, Any] = {
            key: value for key, value in self.exception_handlers.items() if key not in (500, Exception)
        }
        middleware = [
            *self.user_middleware,
            Middleware(ExceptionMiddleware, handlers=handlers, debug=self.debug),
            Middleware(AsyncExitStackMiddleware),
        ]
        app: ASGIApp = self.router
        for cls, args, kwargs in reversed(middleware):
            app = cls(app, *args, **kwargs)
        return app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):  # the lifespan: FastAPI's own
            await super().__call__(scope, receive, send)
            return
        scope["app"] = self
        if scope["type"] == "websocket":
            scope[SERVER_SEND] = send  # for the streams' frames (`app.api.session`)
        if self.root_path:
            scope["root_path"] = self.root_path
        if self.middleware_stack is None:
            self.middleware_stack = self.build_middleware_stack()
        await self.middleware_stack(scope, receive, send)
