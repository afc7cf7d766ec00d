"""The contract checker: every payload a client sends or receives, against every published schema.

`Contract` holds three sources of truth and checks each payload against all that describe it:

- the schemas the running server serves (`GET /v1/games/{game}` → `schemas`), per game and kind;
- the committed `openapi/openapi.json`: request bodies and responses by operation id and status,
  and the games' named components (`MountDragoView`, `YutakaEvent`…), `$ref`s resolved through a
  registry that holds the file, as any client of the file would resolve them;
- the committed `openapi/stream-frames.schema.json`: every frame, client and server, match and
  player streams.

Nested payloads are checked too: the view and the events inside an action reply or a frame, the
options of a summary, the action and events inside a `draft_step`. A failure raises
`jsonschema.ValidationError` naming the schema and the payload's path.

Two implementations check: `jsonschema_rs` every payload (a random match yields thousands of views
and events; the pure-Python `jsonschema` takes ~5 ms per view, the Rust one ~0.01 ms), and
`jsonschema` with `referencing` the first payloads of every schema and event type, and any payload
the first one refuses (for its error message), so the two must agree. `counts` says how many
payloads of each kind were checked; `checks` counts validations (several per payload). A payload
seen again (the same view over HTTP and in a frame) is validated once per schema.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping
from typing import Any, Final
from urllib.parse import quote

import jsonschema_rs
import orjson
from jsonschema import Draft202012Validator, ValidationError  # type: ignore[import-untyped]
from jsonschema.exceptions import best_match  # type: ignore[import-untyped]
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from app.api.components import component_name
from app.games.registry import GAMES
from app.openapi import DEFAULT_PATH, FRAMES_PATH

OPENAPI: Final = "urn:drago:openapi"
FRAMES: Final = "urn:drago:frames"
SAMPLE: Final = 3
"""Payloads per schema and event type that the pure-Python validator checks as well."""
JSON = Any


def _escape(segment: str) -> str:
    return quote(segment.replace("~", "~0").replace("/", "~1"), safe="~")


class Schema:
    """One published schema, checked by both implementations."""

    def __init__(self, label: str, schema: JSON, rs_registry: Any = None, registry: Any = None) -> None:
        self.label = label
        self.fast = jsonschema_rs.Draft202012Validator(schema, registry=rs_registry)
        self.slow = Draft202012Validator(schema, registry=registry or Registry())
        self.sampled: Counter[str] = Counter()

    def check(self, payload: JSON) -> int:
        """Raise unless `payload` is valid; the number of validations made."""
        kind = payload.get("type", "") if isinstance(payload, dict) else ""
        sample = self.sampled[kind] < SAMPLE
        if self.fast.is_valid(payload) and not sample:
            return 1
        self.sampled[kind] += 1
        error = best_match(self.slow.iter_errors(payload))
        if error is not None:
            where = "/".join(str(p) for p in error.absolute_path)
            raise ValidationError(f"{self.label}: at /{where}: {error.message}"[:2000])
        if not self.fast.is_valid(payload):
            raise AssertionError(f"{self.label}: the two validators disagree on {payload!r}"[:2000])
        return 2


class Contract:
    def __init__(self, served: Mapping[str, Mapping[str, JSON]]) -> None:
        """`served`: per game name, its `schemas` as `GET /v1/games/{game}` returned them."""
        self.served = {
            game: {kind: Schema(f"served {game} {kind}", schema) for kind, schema in kinds.items()}
            for game, kinds in served.items()
        }
        openapi = json.loads(DEFAULT_PATH.read_text(encoding="utf-8"))
        frames = json.loads(FRAMES_PATH.read_text(encoding="utf-8"))
        self.rs_registry = jsonschema_rs.Registry([(OPENAPI, openapi), (FRAMES, frames)])
        self.registry: Registry[Any] = Registry().with_resources(
            [
                (OPENAPI, Resource.from_contents(openapi, default_specification=DRAFT202012)),
                (FRAMES, Resource.from_contents(frames, default_specification=DRAFT202012)),
            ]
        )
        self.operations = {
            op["operationId"]: (path, method, op)
            for path, ops in openapi["paths"].items()
            for method, op in ops.items()
        }
        self._schemas: dict[str, Schema] = {}
        self._valid: set[tuple[str, bytes]] = set()
        self.counts: Counter[str] = Counter()
        self.checks = 0

    # -- validators ------------------------------------------------------------------------------

    def _schema(self, label: str, uri: str) -> Schema:
        schema = self._schemas.get(uri)
        if schema is None:
            schema = Schema(label, {"$ref": uri}, self.rs_registry, self.registry)
            self._schemas[uri] = schema
        return schema

    def _check(self, schema: Schema, payload: JSON) -> None:
        key = (schema.label, orjson.dumps(payload, option=orjson.OPT_SORT_KEYS))
        if key not in self._valid:
            self.checks += schema.check(payload)
            self._valid.add(key)

    def component(self, name: str, payload: JSON) -> None:
        self._check(self._schema(f"openapi {name}", f"{OPENAPI}#/components/schemas/{name}"), payload)

    def frame_def(self, name: str, payload: JSON) -> None:
        self._check(self._schema(f"frames {name}", f"{FRAMES}#/$defs/{name}"), payload)
        self._check(self._schema("frames root", FRAMES), payload)

    # -- game payloads ---------------------------------------------------------------------------

    def served_kind(self, game: str, kind: str, payload: JSON) -> None:
        self._check(self.served[game][kind], payload)
        self.component(component_name(GAMES[game], kind), payload)
        self.counts[kind] += 1

    def view(self, game: str, view: JSON) -> None:
        self.served_kind(game, "view", view)
        self.component("ViewOut", view)
        for action in view["legal_actions"]:
            self.action(game, action)

    def action(self, game: str, action: JSON) -> None:
        self.served_kind(game, "action", action)

    def event(self, game: str, record: JSON) -> None:
        """One event record (`{seq, type, data, recorded_at, commit}`)."""
        self.component("EventOut", record)
        data = record["data"]
        assert data["type"] == record["type"] and record["seq"] <= record["commit"], record
        self.event_data(game, data)

    def event_data(self, game: str, data: JSON) -> None:
        """An event's `data`; a `draft_step`'s action and game events too."""
        self.served_kind(game, "event", data)
        self.counts[f"event {data['type']}"] += 1
        if data["type"] == "draft_step":  # the seat's own step: an action and its (game) events
            self.action(game, data["action"])
            for inner in data["events"]:
                self.served_kind(game, "event", inner)

    def options(self, game: str, options: JSON) -> None:
        self.served_kind(game, "options", options)

    # -- HTTP ------------------------------------------------------------------------------------

    def request(self, operation: str, body: JSON) -> None:
        path, method, _ = self.operations[operation]
        pointer = f"/paths/{_escape(path)}/{method}/requestBody/content/application~1json/schema"
        self._check(self._schema(f"{operation} request", f"{OPENAPI}#{pointer}"), body)
        self.counts["request"] += 1

    def response(self, operation: str, status: int, body: JSON, game: str | None = None) -> None:
        """A response body: its game payloads against the game's schemas (whose errors are the most
        precise), then the whole against its operation's documented response."""
        path, method, op = self.operations[operation]
        assert str(status) in op["responses"], (operation, status, body)
        if status < 400 and game is not None:
            self._game_payloads(operation, body, game)
        pointer = f"/paths/{_escape(path)}/{method}/responses/{status}/content/application~1json/schema"
        self._check(self._schema(f"{operation} {status}", f"{OPENAPI}#{pointer}"), body)
        self.counts["response"] += 1

    def _game_payloads(self, operation: str, body: JSON, game: str) -> None:
        if operation == "getView":
            self.view(game, body)
        elif operation in ("submitAction", "resign"):
            self.view(game, body["view"])
            for record in body["events"]:
                self.event(game, record)
        elif operation in ("listEvents", "revealMatch"):
            for record in body["events"]:
                self.event(game, record)
        if operation in ("createMatch", "getMatch", "revealMatch", "abortMatch"):
            self.options(game, body["options"])
        elif operation == "listMatches":
            for item in body["items"]:
                self.options(item["game"], item["options"])

    # -- streams ---------------------------------------------------------------------------------

    def server_frame(self, frame: JSON, game: str | None = None) -> None:
        """A frame of a match stream (with `game`: its view and events first) or of a player's."""
        if game is not None:
            if frame.get("view") is not None:
                self.view(game, frame["view"])
            for record in frame.get("events", ()):
                self.event(game, record)
        self.frame_def("ServerFrame" if game is not None else "PlayerServerFrame", frame)
        self.counts[f"frame {frame['type']}"] += 1

    def client_frame(self, frame: JSON, game: str) -> None:
        self.frame_def("ClientFrame", frame)
        self.counts[f"client {frame['type']}"] += 1
        if frame["type"] == "action":
            self.action(game, frame["action"])
