"""Request and reply models of the chat routes (docs/chat.md), and a message as JSON (the same
object in HTTP pages and in `chat` frames)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, StrictStr

from app.api.schemas import Model, Out
from app.games.codec import JSON
from app.matches.views import timestamp
from app.service.chat_ports import Block, ChatMessage, ChatReport

RoomName = Literal["players", "spectators"]


def message_json(m: ChatMessage) -> dict[str, JSON]:
    """A message as readers get it (plain text: frontends escape it)."""
    author: dict[str, JSON] = {"seat": m.author_seat, "player_id": m.author_player_id, "name": m.author_name}
    return {
        "id": m.id,
        "chat_seq": m.chat_seq,
        "room": m.room,
        "author": author,
        "text": m.text,
        "at": timestamp(m.created_at),
    }


class PostChat(Model):
    room: RoomName
    text: StrictStr = Field(
        max_length=4000,
        description="1 to 500 characters once trimmed, no control characters; plain text.",
    )


class ChatAuthorOut(Out):
    seat: int | None = Field(description="The author's seat; null for a spectator.")
    player_id: str | None = Field(description="The author's player; null for a seat token without one.")
    name: str | None


class ChatMessageOut(Out):
    id: str
    chat_seq: int = Field(description="The match's chat cursor at this message (both rooms share it).")
    room: RoomName
    author: ChatAuthorOut
    text: str
    at: str = Field(description="When it was written (UTC, `Z`).")

    @classmethod
    def of(cls, m: ChatMessage) -> ChatMessageOut:
        return cls.model_validate(message_json(m))


class ChatPageOut(Out):
    messages: list[ChatMessageOut]
    next: int | None = Field(
        description="Read on with `after=next`; null when the page was not full (nothing more now)."
    )


class PlayerBlockOut(Out):
    player_id: str
    blocked_at: str

    @classmethod
    def of(cls, b: Block) -> PlayerBlockOut:
        return cls(player_id=b.blocked_id, blocked_at=timestamp(b.created_at))


class PlayerBlockPage(Out):
    items: list[PlayerBlockOut]


class ReportChat(Model):
    reason: StrictStr = Field(max_length=4000, description="1 to 500 characters once trimmed.")


class ChatReportOut(Out):
    id: str
    match_id: str
    message_id: str
    reason: str
    created_at: str

    @classmethod
    def of(cls, r: ChatReport) -> ChatReportOut:
        return cls(
            id=r.id, match_id=r.match_id, message_id=r.message_id, reason=r.reason,
            created_at=timestamp(r.created_at),
        )  # fmt: skip
