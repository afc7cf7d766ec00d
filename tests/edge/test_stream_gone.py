"""A stream whose connection goes away under it is an ordinary end, not an unhandled error; any other
exception of a stream, or of an HTTP request, still is (logged once, 500)."""

from __future__ import annotations

import logging

import pytest
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from uvicorn.protocols.utils import ClientDisconnected

from app.api.metrics import Metrics
from app.api.middleware import RequestContext


def _raising(error: Exception) -> ASGIApp:
    async def app(scope: Scope, receive: Receive, send: Send) -> None:
        raise error

    return app


async def _receive() -> Message:
    return {"type": "websocket.disconnect"}


async def _run(error: Exception, kind: str) -> list[Message]:
    sent: list[Message] = []

    async def send(message: Message) -> None:
        sent.append(message)

    scope: Scope = {"type": kind, "path": "/v1/matches/x/stream", "headers": [], "method": "GET"}
    await RequestContext(_raising(error), Metrics())(scope, _receive, send)
    return sent


async def test_a_stream_whose_client_left_logs_no_error(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.INFO):
        await _run(ClientDisconnected(), "websocket")
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert any("connection went away" in r.getMessage() for r in caplog.records)
    assert not [r for r in caplog.records if getattr(r, "status", None) == 500]


@pytest.mark.parametrize("kind", ["websocket", "http"])
async def test_any_other_failure_is_still_an_unhandled_error(
    kind: str, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.INFO):
        sent = await _run(RuntimeError("a bug"), kind)
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR] == ["unhandled error"]
    if kind == "http":
        assert sent[0]["type"] == "http.response.start" and sent[0]["status"] == 500


async def test_an_http_request_whose_client_left_is_still_contained(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.INFO):
        await _run(ClientDisconnected(), "http")
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR] == ["unhandled error"]
