"""The committed frame schema is what the code generates: a valid Draft 2020-12 document that
describes every frame and close code, whose views, event data and actions are the games' own
components (named as in openapi.json), and whose examples are valid frames."""

from __future__ import annotations

import json

import jsonschema  # type: ignore[import-untyped]  # no stubs in the dev extras
import pytest

from app.api.closes import Close
from app.api.components import MATCH_EVENT, component_name
from app.api.frames import CLIENT_FRAMES, render_frames_schema
from app.games.registry import GAMES
from app.openapi import DEFAULT_PATH, FRAMES_PATH
from tests.stream.helpers import check_client_frame, check_server_frame

SCHEMA = json.loads(FRAMES_PATH.read_text(encoding="utf-8"))
DEFS = SCHEMA["$defs"]
CLIENT = {"AuthFrame", "ActionFrame", "PingFrame", "PongFrame"}
SERVER = {"HelloFrame", "CommitFrame", "ChatFrame", "AckFrame", "ErrorFrame", "PingFrame", "PongFrame"}
PLAYER = {"PlayerHelloFrame", "NoticeFrame", "ErrorFrame", "PingFrame", "PongFrame"}
REF = "#/$defs/"


def test_committed_frame_schema_matches_the_code() -> None:
    assert FRAMES_PATH.read_text(encoding="utf-8") == render_frames_schema(), (
        "openapi/stream-frames.schema.json is stale: run `python -m app.openapi`"
    )


def _members(name: str) -> set[str]:
    return {ref["$ref"].removeprefix(REF) for ref in DEFS[name]["oneOf"]}


def test_the_schema_is_valid_and_covers_every_frame_and_close_code() -> None:
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    assert _members("ClientFrame") == CLIENT and _members("ServerFrame") == SERVER
    assert _members("PlayerServerFrame") == PLAYER
    assert {DEFS[name]["properties"]["type"]["const"] for name in CLIENT} == set(CLIENT_FRAMES)
    assert set(SCHEMA["x-close-codes"]) == {str(int(c)) for c in Close}


def test_views_events_and_actions_are_the_games_components_as_in_openapi() -> None:
    names = sorted(GAMES)
    views = [{"$ref": REF + component_name(GAMES[n], "view")} for n in names]
    assert DEFS["ViewOut"]["oneOf"] == [*views, {"$ref": REF + "UndealtView"}]  # a match before its deal
    assert DEFS["HelloFrame"]["properties"]["view"] == {"$ref": REF + "ViewOut"}
    assert DEFS["CommitFrame"]["properties"]["events"]["items"] == {"$ref": REF + "EventOut"}
    events = [{"$ref": REF + component_name(GAMES[n], "event")} for n in names]
    assert DEFS["EventOut"]["properties"]["data"]["anyOf"] == events
    actions = [{"$ref": REF + component_name(GAMES[n], "action")} for n in names]
    assert DEFS["ActionFrame"]["properties"]["action"]["anyOf"] == actions
    # The same components as openapi.json, with the references of this document.
    openapi = json.loads(DEFAULT_PATH.read_text(encoding="utf-8"))["components"]["schemas"]
    for name in [
        MATCH_EVENT,
        "UndealtView",
        *(component_name(GAMES[n], k) for n in names for k in ("view", "event", "action")),
    ]:
        as_here = json.dumps(DEFS[name]).replace(REF, "#/components/schemas/")
        assert json.loads(as_here) == openapi[name], name


@pytest.mark.parametrize("name", sorted(CLIENT | SERVER | PLAYER))
def test_examples_are_valid_frames(name: str) -> None:
    examples = DEFS[name]["examples"]
    assert examples
    for example in examples:
        if name in CLIENT:
            check_client_frame(example)
        if name in SERVER:
            check_server_frame(example)
        if name in PLAYER:
            player = {"$ref": REF + "PlayerServerFrame", "$defs": DEFS}
            jsonschema.Draft202012Validator(player).validate(example)


@pytest.mark.parametrize(
    "frame",
    [
        {"type": "commit", "seq": 1},
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
