"""`AsyncClient` and `Client`: every route of the API (generated in `drago_client.api`), typed.

    async with AsyncClient("http://127.0.0.1:8000") as api:
        match = await api.create_match("yutaka", 2)
        seat = await api.join_seat(match.id, 0, "Ada")
        async for commit in api.follow(match.id, seat.token):
            ...

A client may hold a default credential (`token=`: a seat token or a player key); every method of a
route that takes one also accepts `token=` for one call, and the host's routes take `host_token`.
Answers are frozen dataclasses (`drago_client.models`, `drago_client.games`); refusals raise the
`ApiError` subclass of their code. Streams need the async client: `follow`, `follow_player` and
`follow_chat`; `chat_messages` iterates a match's chat pages.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator, Iterator
from typing import Literal, overload

from drago_client import models, streams
from drago_client.api import AsyncApi, SyncApi
from drago_client.retry import Retry


class AsyncClient(AsyncApi):
    """The API over `httpx.AsyncClient`, with the live streams."""

    @overload
    def follow(
        self, match_id: str, token: str | None = ..., after: int | None = ..., *,
        views: bool = ..., hellos: Literal[False] = ..., until_end: bool = ..., retry: Retry | None = ...,
    ) -> AsyncGenerator[models.CommitFrame, None]: ...  # fmt: skip
    @overload
    def follow(
        self, match_id: str, token: str | None = ..., after: int | None = ..., *,
        views: bool = ..., hellos: Literal[True], until_end: bool = ..., retry: Retry | None = ...,
    ) -> AsyncGenerator[models.CommitFrame | models.HelloFrame, None]: ...  # fmt: skip
    def follow(
        self,
        match_id: str,
        token: str | None = None,
        after: int | None = None,
        *,
        views: bool = True,
        hellos: bool = False,
        until_end: bool = True,
        retry: Retry | None = None,
    ) -> (
        AsyncGenerator[models.CommitFrame, None]
        | AsyncGenerator[models.CommitFrame | models.HelloFrame, None]
    ):
        """The match's commit frames after `after`, each exactly once, across reconnects.

        See `drago_client.streams.follow`; `token` None uses the client's (none: a spectator).
        """
        if hellos:
            return streams.follow(
                self, match_id, token, after, views=views, hellos=True, until_end=until_end, retry=retry
            )
        return streams.follow(self, match_id, token, after, views=views, until_end=until_end, retry=retry)

    def follow_chat(
        self,
        match_id: str,
        token: str | None = None,
        chat_after: int | None = None,
        *,
        retry: Retry | None = None,
    ) -> AsyncGenerator[models.ChatFrame, None]:
        """The match's chat frames after `chat_after` (None: from now), each once, across reconnects.

        See `drago_client.streams.follow_chat`; `token` None uses the client's (none: a spectator).
        """
        return streams.follow_chat(self, match_id, token, chat_after, retry=retry)

    async def chat_messages(
        self,
        match_id: str,
        *,
        room: Literal["players", "spectators"] | None = None,
        after: int = 0,
        limit: int | None = None,
        token: str | None = None,
    ) -> AsyncGenerator[models.ChatMessage, None]:
        """Every message the caller may read after `after`, page by page (`next` followed)."""
        while True:
            page = await self.get_chat(match_id, room=room, after=after, limit=limit, token=token)
            for message in page.messages:
                yield message
            if page.next is None:
                return
            after = page.next

    @overload
    def follow_player(
        self, key: str | None = ..., after: int | None = ..., *,
        hellos: Literal[False] = ..., retry: Retry | None = ...,
    ) -> AsyncGenerator[models.NoticeFrame, None]: ...  # fmt: skip
    @overload
    def follow_player(
        self, key: str | None = ..., after: int | None = ..., *,
        hellos: Literal[True], retry: Retry | None = ...,
    ) -> AsyncGenerator[models.NoticeFrame | models.PlayerHelloFrame, None]: ...  # fmt: skip
    def follow_player(
        self,
        key: str | None = None,
        after: int | None = None,
        *,
        hellos: bool = False,
        retry: Retry | None = None,
    ) -> (
        AsyncGenerator[models.NoticeFrame, None]
        | AsyncGenerator[models.NoticeFrame | models.PlayerHelloFrame, None]
    ):
        """The player's notices after cursor `after`, each exactly once, across reconnects.

        See `drago_client.streams.follow_player`; `key` None uses the client's token.
        """
        if hellos:
            return streams.follow_player(self, key, after, hellos=True, retry=retry)
        return streams.follow_player(self, key, after, retry=retry)


class Client(SyncApi):
    """The API over the blocking `httpx.Client` (streams: use `AsyncClient`)."""

    def chat_messages(
        self,
        match_id: str,
        *,
        room: Literal["players", "spectators"] | None = None,
        after: int = 0,
        limit: int | None = None,
        token: str | None = None,
    ) -> Iterator[models.ChatMessage]:
        """Every message the caller may read after `after`, page by page (`next` followed)."""
        while True:
            page = self.get_chat(match_id, room=room, after=after, limit=limit, token=token)
            yield from page.messages
            if page.next is None:
                return
            after = page.next
