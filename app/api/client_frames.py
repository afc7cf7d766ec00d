"""Client frames as the server reads them: a frame it cannot take at all closes the stream
(`ProtocolError`), an `action` with a usable `id` but invalid members is answered (`InvalidAction`).

A frame's text is parsed by pydantic's JSON parser, the one that reads HTTP bodies: a number or a
string reads the same in an `action` frame as in `POST .../actions` (integers of any size stay
integers; a lone surrogate, which no reply could encode back, is refused), in a third of the stdlib
parser's time."""

from __future__ import annotations

from typing import TypeAlias, cast

from pydantic import ValidationError
from pydantic_core import from_json

from app.api.closes import ProtocolError
from app.api.errors import validation_failed
from app.api.frames import CLIENT_FRAMES, ActionFrame, AuthFrame, PingFrame, PongFrame
from app.service import errors as svc

ClientFrame: TypeAlias = AuthFrame | ActionFrame | PingFrame | PongFrame
"""A frame a client sends: one of `CLIENT_FRAMES`."""


class InvalidAction(Exception):
    """An `action` frame with a usable `id` but invalid members: answered by an error frame."""

    def __init__(self, frame_id: str | int, error: svc.ValidationFailed) -> None:
        super().__init__(error.message)
        self.frame_id = frame_id
        self.error = error


def parse_client_frame(text: str) -> ClientFrame:
    try:
        raw = from_json(text)
    except ValueError:
        raise ProtocolError("a frame is one JSON object") from None
    kind = raw.get("type") if isinstance(raw, dict) else None
    model = CLIENT_FRAMES.get(kind) if isinstance(kind, str) else None
    if model is None:
        raise ProtocolError(f"frames are JSON objects with a type in {sorted(CLIENT_FRAMES)}")
    try:
        return cast(ClientFrame, model.model_validate(raw))  # `model` is one of `CLIENT_FRAMES`
    except ValidationError as e:
        error = validation_failed(e.errors())
        frame_id = raw.get("id")
        if model is ActionFrame and _usable_id(frame_id):
            raise InvalidAction(frame_id, error) from None
        raise ProtocolError(f"invalid {kind} frame: {error.message}") from None


def _usable_id(value: object) -> bool:
    if isinstance(value, bool):
        return False
    return isinstance(value, int) or (isinstance(value, str) and 1 <= len(value) <= 64)
