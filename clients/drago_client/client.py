"""`AsyncClient` and `Client`: thin typed wrappers of the server's HTTP API over httpx.

Both variants send the same `Call`s (built in `calls.py`) and read answers the same way, so they
differ only in `await`. Answers are the server's JSON as plain dicts; refusals raise the matching
`DragoError` subclass. A client may carry a default seat token; every token-bearing method also
takes `token=` for one call (handy when one process plays two seats).
"""

from __future__ import annotations

from types import TracebackType
from typing import Self

import httpx

from clients.drago_client.calls import JSON, Call, Calls, SeatToken, read, seat_token


class AsyncClient(Calls):
    """The API over `httpx.AsyncClient`; use as `async with AsyncClient(url) as client:`."""

    def __init__(
        self,
        base_url: str,
        *,
        token: str | None = None,
        transport: httpx.AsyncBaseTransport | None = None,
        timeout: float = 10,
    ) -> None:
        super().__init__(token)
        self.http = httpx.AsyncClient(base_url=base_url, transport=transport, timeout=timeout)

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        await self.http.aclose()

    async def _send(self, call: Call) -> JSON:
        return read(await self.http.request(**call.request()))

    async def list_games(self) -> JSON:
        return await self._send(self._list_games())

    async def get_game(self, name: str) -> JSON:
        return await self._send(self._get_game(name))

    async def create_match(
        self, game: str, players: int, options: JSON | None = None, bots: list[int] | None = None
    ) -> JSON:
        return await self._send(self._create_match(game, players, options, bots))

    async def list_matches(
        self,
        status: str | None = None,
        game: str | None = None,
        limit: int | None = None,
        offset: int | None = None,
    ) -> JSON:
        return await self._send(self._list_matches(status, game, limit, offset))

    async def join_seat(self, match_id: str, seat: int, name: str) -> SeatToken:
        return seat_token(await self._send(self._join_seat(match_id, seat, name)))

    async def get_match(self, match_id: str) -> JSON:
        return await self._send(self._get_match(match_id))

    async def get_view(self, match_id: str, at: int | None = None, *, token: str | None = None) -> JSON:
        return await self._send(self._get_view(match_id, at, token))

    async def submit_action(
        self,
        match_id: str,
        action: JSON,
        expected_seq: int | None = None,
        idempotency_key: str | None = None,
        *,
        token: str | None = None,
    ) -> JSON:
        call = self._submit_action(match_id, action, expected_seq, idempotency_key, token)
        return await self._send(call)

    async def list_events(
        self, match_id: str, after: int = 0, limit: int | None = None, *, token: str | None = None
    ) -> JSON:
        return await self._send(self._list_events(match_id, after, limit, token))

    async def reveal(self, match_id: str) -> JSON:
        return await self._send(self._reveal(match_id))


class Client(Calls):
    """The same API over the blocking `httpx.Client`; use as `with Client(url) as client:`."""

    def __init__(
        self,
        base_url: str,
        *,
        token: str | None = None,
        transport: httpx.BaseTransport | None = None,
        timeout: float = 10,
    ) -> None:
        super().__init__(token)
        self.http = httpx.Client(base_url=base_url, transport=transport, timeout=timeout)

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    def close(self) -> None:
        self.http.close()

    def _send(self, call: Call) -> JSON:
        return read(self.http.request(**call.request()))

    def list_games(self) -> JSON:
        return self._send(self._list_games())

    def get_game(self, name: str) -> JSON:
        return self._send(self._get_game(name))

    def create_match(
        self, game: str, players: int, options: JSON | None = None, bots: list[int] | None = None
    ) -> JSON:
        return self._send(self._create_match(game, players, options, bots))

    def list_matches(
        self,
        status: str | None = None,
        game: str | None = None,
        limit: int | None = None,
        offset: int | None = None,
    ) -> JSON:
        return self._send(self._list_matches(status, game, limit, offset))

    def join_seat(self, match_id: str, seat: int, name: str) -> SeatToken:
        return seat_token(self._send(self._join_seat(match_id, seat, name)))

    def get_match(self, match_id: str) -> JSON:
        return self._send(self._get_match(match_id))

    def get_view(self, match_id: str, at: int | None = None, *, token: str | None = None) -> JSON:
        return self._send(self._get_view(match_id, at, token))

    def submit_action(
        self,
        match_id: str,
        action: JSON,
        expected_seq: int | None = None,
        idempotency_key: str | None = None,
        *,
        token: str | None = None,
    ) -> JSON:
        call = self._submit_action(match_id, action, expected_seq, idempotency_key, token)
        return self._send(call)

    def list_events(
        self, match_id: str, after: int = 0, limit: int | None = None, *, token: str | None = None
    ) -> JSON:
        return self._send(self._list_events(match_id, after, limit, token))

    def reveal(self, match_id: str) -> JSON:
        return self._send(self._reveal(match_id))
