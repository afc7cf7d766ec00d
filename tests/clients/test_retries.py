"""Retries: which failures are tried again, how long the client waits (the server's Retry-After),
and that an action is never applied twice — its retries carry the same idempotency key."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator

import httpx
import pytest
from drago_client import (
    AsyncClient,
    Client,
    DecodeError,
    RateLimited,
    Retry,
    TransportError,
    Unavailable,
)

from tests.clients.conftest import InProcess
from tests.clients.support import seated

HEALTH = {"status": "ok"}


def scripted(answers: list[httpx.Response | Exception], seen: list[httpx.Request]) -> httpx.MockTransport:
    """A transport that answers each request with the next item (raising it if it is an error)."""
    items: Iterator[httpx.Response | Exception] = iter(answers)

    def handle(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        item = next(items)
        if isinstance(item, Exception):
            raise item
        return item

    return httpx.MockTransport(handle)


def error(status: int, code: str, headers: dict[str, str] | None = None) -> httpx.Response:
    body = {"error": {"code": code, "message": code, "details": None}}
    return httpx.Response(status, json=body, headers=headers)


def client(
    answers: list[httpx.Response | Exception], seen: list[httpx.Request], waits: list[float]
) -> Client:
    c = Client("http://test", transport=scripted(answers, seen), retry=Retry(attempts=4, backoff=0.1))
    c.sleep = waits.append
    return c


def test_a_get_is_retried_on_502_503_504_and_broken_connections() -> None:
    seen: list[httpx.Request] = []
    waits: list[float] = []
    answers: list[httpx.Response | Exception] = [
        error(503, "unavailable"),
        httpx.Response(502, text="bad gateway"),
        httpx.ReadError("connection reset"),
        httpx.Response(200, json=HEALTH),
    ]
    assert client(answers, seen, waits).healthz().status == "ok"
    assert len(seen) == 4
    assert 0.05 <= waits[0] <= 0.1 and 0.1 <= waits[1] <= 0.2 and 0.2 <= waits[2] <= 0.4  # doubling, jittered


def test_429_waits_for_retry_after() -> None:
    seen: list[httpx.Request] = []
    waits: list[float] = []
    answers: list[httpx.Response | Exception] = [
        error(429, "rate_limited", {"Retry-After": "3"}),
        httpx.Response(200, json=HEALTH),
    ]
    client(answers, seen, waits).healthz()
    assert waits == [3.0]


def test_a_retry_after_too_long_raises_at_once() -> None:
    seen: list[httpx.Request] = []
    waits: list[float] = []
    with pytest.raises(RateLimited) as caught:
        client([error(429, "rate_limited", {"Retry-After": "600"})], seen, waits).healthz()
    assert caught.value.retry_after == 600 and waits == []


def test_the_attempts_run_out() -> None:
    seen: list[httpx.Request] = []
    waits: list[float] = []
    with pytest.raises(Unavailable):
        client([error(503, "unavailable")] * 4, seen, waits).healthz()
    assert len(seen) == 4
    with pytest.raises(TransportError):
        client([httpx.ConnectError("refused")] * 4, [], []).healthz()


def test_an_unsafe_post_is_retried_only_when_the_server_saw_nothing() -> None:
    seen: list[httpx.Request] = []
    with pytest.raises(Unavailable):  # 503: the match may exist: never created twice
        client([error(503, "unavailable")], seen, []).create_player("Ada")
    assert len(seen) == 1
    seen.clear()
    with pytest.raises(TransportError):  # the request went out, the answer was lost
        client([httpx.ReadError("reset")], seen, []).create_player("Ada")
    assert len(seen) == 1
    seen.clear()
    answers: list[httpx.Response | Exception] = [
        httpx.ConnectError("refused"),
        error(429, "rate_limited", {"Retry-After": "0"}),
        httpx.Response(201, json={"player_id": "p1", "name": "Ada", "key": "pk_x"}),
    ]
    assert client(answers, seen, []).create_player("Ada").key == "pk_x"
    assert len(seen) == 3


def test_an_action_is_retried_with_one_key_made_up_by_the_client() -> None:
    seen: list[httpx.Request] = []
    reply = {"seq": 3, "events": [], "view": {"status": "x"}}
    answers: list[httpx.Response | Exception] = [
        httpx.ReadTimeout("slow"),
        error(502, "bad_gateway"),
        httpx.Response(200, json=reply),
    ]
    with pytest.raises(DecodeError):  # this reply's view is not a view: only the requests matter here
        client(answers, seen, []).submit_action("m", {"type": "end_turn"}, token="t")
    keys = {r.headers["Idempotency-Key"] for r in seen}
    assert len(seen) == 3 and len(keys) == 1 and next(iter(keys)).startswith("py-")
    assert [json.loads(r.content) for r in seen] == [{"action": {"type": "end_turn"}}] * 3
    seen.clear()
    with pytest.raises(DecodeError):
        api = client([httpx.Response(200, json=reply)], seen, [])
        api.submit_action("m", {"type": "end_turn"}, idempotency_key="mine", token="t")
    assert seen[0].headers["Idempotency-Key"] == "mine" and seen[0].headers["Authorization"] == "Bearer t"


class LosesFirstReply(httpx.AsyncBaseTransport):
    """Forwards to the app, but the first answer to an action is lost after the server applied it."""

    def __init__(self, inner: httpx.AsyncBaseTransport, lose: Callable[[httpx.Request], bool]) -> None:
        self.inner = inner
        self.lose = lose
        self.lost = 0

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        response = await self.inner.handle_async_request(request)
        if self.lost == 0 and self.lose(request):
            await response.aread()
            self.lost += 1
            raise httpx.ReadError("the connection broke before the answer arrived")
        return response


async def test_a_lost_reply_is_retried_and_the_action_applied_once(inproc: InProcess) -> None:
    match_id, tokens = await seated(inproc.api, "yutaka", options={"first_player": 0})
    app_transport = inproc.api.http._transport  # the app, in-process
    lossy = LosesFirstReply(app_transport, lambda r: r.url.path.endswith("/actions"))
    async with AsyncClient("http://test", transport=lossy, retry=Retry(backoff=0)) as api:
        view = await api.get_view(match_id, token=tokens[0])
        reply = await api.submit_action(match_id, view.legal_actions[0], token=tokens[0])
    assert lossy.lost == 1
    assert reply.seq == view.seq + len(reply.events)
    summary = await inproc.api.get_match(match_id)
    assert summary.seq == reply.seq  # applied once, though sent twice
