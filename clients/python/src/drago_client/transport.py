"""Sending one API call over httpx, with retries: the base of both clients.

A `Call` is one request as the generated methods (`drago_client.api`) describe it. The two
transports send it with the client's `Retry` policy (see `drago_client.retry`), turn an error
answer into the matching `ApiError` and decode a success into the generated type. They differ only
in blocking or awaiting; everything they share is a function here.
"""

from __future__ import annotations

import asyncio
import time
import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import TracebackType
from typing import Any, Literal, Self

import httpx

from drago_client import wire
from drago_client.errors import ApiError, DecodeError, TransportError, api_error
from drago_client.retry import Retry, retry_after, retryable_error, retryable_status

VERSION = "2.0.0"
USER_AGENT = f"drago-client-python/{VERSION}"


@dataclass(frozen=True, slots=True)
class Call:
    """One request: method, path, query and body (members left `None` are omitted), credential."""

    method: str
    path: str
    query: Mapping[str, Any] = field(default_factory=dict)
    body: Mapping[str, Any] | None = None
    auth: Literal["none", "token", "explicit", "host"] = "none"  # explicit/host: never the default
    token: str | None = field(default=None, repr=False)
    idempotency_key: str | None = None
    keyed: bool = False  # the route takes an Idempotency-Key: one is made up if none is given
    text: bool = False  # the answer is text, not JSON

    @property
    def safe(self) -> bool:
        """Whether repeating the request cannot change the outcome (see `drago_client.retry`)."""
        return self.method == "GET" or self.keyed


@dataclass(frozen=True, slots=True)
class _Prepared:
    request: dict[str, Any]
    safe: bool


def _prepare(call: Call, default_token: str | None) -> _Prepared:
    headers: dict[str, str] = {}
    token = call.token if call.auth in ("host", "explicit") or call.token is not None else default_token
    if call.auth != "none" and token is not None:
        headers["Authorization"] = f"Bearer {token}"
    key = call.idempotency_key or (f"py-{uuid.uuid4().hex}" if call.keyed else None)
    if key is not None:
        headers["Idempotency-Key"] = key  # the same key on every attempt: that makes retries safe
    query = {k: _query_value(v) for k, v in call.query.items() if v is not None}
    request: dict[str, Any] = {"method": call.method, "url": call.path, "params": query, "headers": headers}
    if call.body is not None:
        request["json"] = wire.encode({k: v for k, v in call.body.items() if v is not None})
    return _Prepared(request, call.safe)


def _query_value(value: Any) -> Any:
    return ("true" if value else "false") if isinstance(value, bool) else value


def _result(response: httpx.Response, call: Call, result: Any) -> Any:
    if response.is_success:
        if call.text:
            return response.text
        try:
            body = response.json()
        except ValueError:
            raise DecodeError(f"HTTP {response.status_code}: the answer is not JSON") from None
        return body if result is None else wire.decode(result, body)
    try:
        body = response.json()
    except ValueError:
        body = response.text[:500]
    raise api_error(body, response.status_code, retry_after(response))


def _should_retry(
    outcome: httpx.Response | Exception, safe: bool, attempt: int, policy: Retry
) -> float | None:
    """Seconds to wait before trying again, or None to stop here."""
    if attempt + 1 >= policy.attempts:
        return None
    if isinstance(outcome, Exception):
        return policy.delay(attempt) if retryable_error(outcome, safe=safe) else None
    if not retryable_status(outcome.status_code, safe=safe):
        return None
    after = retry_after(outcome)
    if after is not None and after > policy.max_retry_after:
        return None
    return policy.delay(attempt, after)


def _failed(outcome: httpx.Response | Exception, call: Call) -> Exception:
    if isinstance(outcome, Exception):
        return TransportError(f"{call.method} {call.path}: {type(outcome).__name__}: {outcome}")
    try:
        _result(outcome, call, None)
    except ApiError as e:
        return e
    return TransportError(f"{call.method} {call.path}: HTTP {outcome.status_code}")  # pragma: no cover


class _Base:
    """What both transports keep: base URL, default credential, retry policy."""

    def __init__(self, base_url: str, token: str | None, retry: Retry | None) -> None:
        self.base_url = base_url.rstrip("/")
        self.token = token
        self.retry = retry or Retry()

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.base_url!r})"


class AsyncTransport(_Base):
    """The async transport over `httpx.AsyncClient`; use as `async with … as client:`."""

    def __init__(
        self,
        base_url: str,
        *,
        token: str | None = None,
        retry: Retry | None = None,
        timeout: float = 10.0,
        transport: httpx.AsyncBaseTransport | None = None,
    ) -> None:
        super().__init__(base_url, token, retry)
        headers = {"User-Agent": USER_AGENT}
        self.http = httpx.AsyncClient(
            base_url=self.base_url, transport=transport, timeout=timeout, headers=headers
        )
        self.sleep: Callable[[float], Any] = asyncio.sleep

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        await self.http.aclose()

    async def _send(self, call: Call, result: Any = None) -> Any:
        prepared = _prepare(call, self.token)
        attempt = 0
        while True:
            outcome: httpx.Response | Exception
            try:
                outcome = await self.http.request(**prepared.request)
            except httpx.TransportError as e:
                outcome = e
            if isinstance(outcome, httpx.Response) and outcome.status_code < 400:
                return _result(outcome, call, result)
            wait = _should_retry(outcome, prepared.safe, attempt, self.retry)
            if wait is None:
                raise _failed(outcome, call) from (outcome if isinstance(outcome, Exception) else None)
            await self.sleep(wait)
            attempt += 1


class SyncTransport(_Base):
    """The blocking transport over `httpx.Client`; use as `with … as client:`."""

    def __init__(
        self,
        base_url: str,
        *,
        token: str | None = None,
        retry: Retry | None = None,
        timeout: float = 10.0,
        transport: httpx.BaseTransport | None = None,
    ) -> None:
        super().__init__(base_url, token, retry)
        headers = {"User-Agent": USER_AGENT}
        self.http = httpx.Client(
            base_url=self.base_url, transport=transport, timeout=timeout, headers=headers
        )
        self.sleep: Callable[[float], Any] = time.sleep

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    def close(self) -> None:
        self.http.close()

    def _send(self, call: Call, result: Any = None) -> Any:
        prepared = _prepare(call, self.token)
        attempt = 0
        while True:
            outcome: httpx.Response | Exception
            try:
                outcome = self.http.request(**prepared.request)
            except httpx.TransportError as e:
                outcome = e
            if isinstance(outcome, httpx.Response) and outcome.status_code < 400:
                return _result(outcome, call, result)
            wait = _should_retry(outcome, prepared.safe, attempt, self.retry)
            if wait is None:
                raise _failed(outcome, call) from (outcome if isinstance(outcome, Exception) else None)
            self.sleep(wait)
            attempt += 1


__all__ = ["AsyncTransport", "Call", "SyncTransport"]
