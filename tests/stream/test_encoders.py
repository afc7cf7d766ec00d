"""Each server frame's encoder in `app.api.frames` writes a frame of the committed schema, with
what it is given in the right members (views and events embedded as they were encoded)."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import jsonschema  # type: ignore[import-untyped]  # no stubs in the dev extras
import orjson

from app.api import examples
from app.api.frame_text import (
    PING,
    PONG,
    ack_frame,
    commit_frame,
    error_frame,
    hello_frame,
    notice_frame,
    player_hello_frame,
)
from app.openapi import FRAMES_PATH
from app.service import errors as svc
from app.service.ports import StoredNotice
from tests.stream.helpers import check_server_frame

DEFS = json.loads(FRAMES_PATH.read_text(encoding="utf-8"))["$defs"]


def _check_player_frame(frame: dict[str, object]) -> None:
    jsonschema.Draft202012Validator({"$ref": "#/$defs/PlayerServerFrame", "$defs": DEFS}).validate(frame)


def test_match_stream_frames() -> None:
    first = examples.opening()
    view = orjson.dumps(first.view)
    hello = json.loads(hello_frame("m1", first.seat, 9, 7, True, 20.0, view))
    check_server_frame(hello)
    assert hello == {
        "type": "hello",
        "protocol": 2,
        "match_id": "m1",
        "seat": first.seat,
        "seq": 9,
        "after": 7,
        "views": True,
        "heartbeat": 20.0,
        "view": first.view,
        "chat_seq": 0,
    }
    seq = first.events[-1]["seq"]
    for with_view in (None, view):
        commit = json.loads(commit_frame(seq, first.events, with_view))
        check_server_frame(commit)
        assert commit["events"] == first.events and commit.get("view") == (with_view and first.view)
    ack = json.loads(ack_frame("a-1", 12))
    check_server_frame(ack)
    assert ack == {"type": "ack", "id": "a-1", "seq": 12}
    for frame_id in (3, None):
        error = json.loads(error_frame(frame_id, svc.NotYourTurn("it is not your turn", {"to_act": [1]})))
        check_server_frame(error)
        assert error["id"] == frame_id and error["error"]["code"] == "not_your_turn"
    for text in (PING, PONG):
        check_server_frame(json.loads(text))


def test_player_stream_frames() -> None:
    hello = json.loads(player_hello_frame("p1", 7, 5, 20.0))
    _check_player_frame(hello)
    assert (hello["player_id"], hello["cursor"], hello["after"], hello["protocol"]) == ("p1", 7, 5, 2)
    at = datetime(2026, 1, 1, 12, tzinfo=UTC)
    data = {"match_id": "m1", "seat": 1, "seq": 31, "deadline": None}
    notice = json.loads(notice_frame(StoredNotice("p1", 8, "your_turn", data, at)))
    _check_player_frame(notice)
    assert notice == {
        "type": "notice",
        "cursor": 8,
        "notice": {"type": "your_turn", **data, "recorded_at": "2026-01-01T12:00:00Z"},
    }
    error = json.loads(error_frame(None, svc.Unauthorized("this player key was rotated")))
    _check_player_frame(error)
    for text in (PING, PONG):
        _check_player_frame(json.loads(text))
