"""The committed frame schema is what the code generates; its examples are valid frames."""

from __future__ import annotations

import json

import jsonschema  # type: ignore[import-untyped]  # no stubs in the dev extras
import pytest

from app.api.frames import CLIENT_FRAMES, Close, render_frames_schema
from app.openapi import FRAMES_PATH
from tests.stream.helpers import check_client_frame, check_server_frame

SCHEMA = json.loads(FRAMES_PATH.read_text(encoding="utf-8"))
CLIENT = {"AuthFrame", "ActionFrame", "PingFrame", "PongFrame"}
SERVER = {"HelloFrame", "EventFrame", "ViewFrame", "AckFrame", "ErrorFrame", "PingFrame", "PongFrame"}


def test_committed_frame_schema_matches_the_code() -> None:
    assert FRAMES_PATH.read_text(encoding="utf-8") == render_frames_schema(), (
        "openapi/stream-frames.schema.json is stale: run `python -m app.openapi`"
    )


def test_the_schema_is_valid_and_covers_every_frame_and_close_code() -> None:
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    defs = SCHEMA["$defs"]
    client = {ref["$ref"].rsplit("/", 1)[1] for ref in defs["ClientFrame"]["oneOf"]}
    server = {ref["$ref"].rsplit("/", 1)[1] for ref in defs["ServerFrame"]["oneOf"]}
    assert client == CLIENT and server == SERVER
    assert {defs[name]["properties"]["type"]["const"] for name in client} == set(CLIENT_FRAMES)
    assert set(SCHEMA["x-close-codes"]) == {str(int(c)) for c in Close}


@pytest.mark.parametrize("name", sorted(CLIENT | SERVER))
def test_examples_are_valid_frames(name: str) -> None:
    examples = SCHEMA["$defs"][name]["examples"]
    assert examples
    for example in examples:
        if name in CLIENT:
            check_client_frame(example)
        if name in SERVER:
            check_server_frame(example)


@pytest.mark.parametrize(
    "frame",
    [
        {"type": "event", "seq": 1},
        {"type": "hello", "protocol": 2},
        {"type": "action", "id": True, "action": {}},
        {"type": "nope"},
    ],
)
def test_broken_frames_fail_the_schema(frame: dict[str, object]) -> None:
    with pytest.raises(jsonschema.ValidationError):
        check_server_frame(frame)
    with pytest.raises(jsonschema.ValidationError):
        check_client_frame(frame)
