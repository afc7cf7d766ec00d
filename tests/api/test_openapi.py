"""The committed OpenAPI file is what the app generates, a valid OpenAPI 3.1 document whose schemas
are valid Draft 2020-12 JSON Schemas, documents every route's errors, and describes each game's
payloads with named components that the generic members refer to."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from jsonschema import Draft202012Validator  # type: ignore[import-untyped]
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012
from schemathesis.specs.openapi.definitions import OPENAPI_31

from app.api.components import KIND_NAMES, MATCH_EVENT, component_name, prefix_of
from app.games.registry import GAMES
from app.matches.views import ENVELOPE_FIELDS
from app.openapi import DEFAULT_PATH, generate

SPEC = json.loads(DEFAULT_PATH.read_text(encoding="utf-8"))
SCHEMAS = SPEC["components"]["schemas"]
REF = "#/components/schemas/"
NAMES = sorted(GAMES)


def test_committed_openapi_matches_the_app() -> None:
    assert DEFAULT_PATH.read_text(encoding="utf-8") == generate(), (
        "openapi/openapi.json is stale: run `python -m app.openapi`"
    )


def test_every_operation_has_an_id_and_enveloped_errors() -> None:
    ids = []
    for path, operations in SPEC["paths"].items():
        for method, op in operations.items():
            ids.append(op["operationId"])
            for status, response in op["responses"].items():
                if status.startswith(("4", "5")):
                    ref = response["content"]["application/json"]["schema"]["$ref"]
                    assert ref.endswith("/ErrorEnvelope"), (method, path, status)
            if path.startswith("/v1/") and (op.get("parameters") or "requestBody" in op):
                assert "422" in op["responses"], (method, path)
    assert len(ids) == len(set(ids))
    assert {"listGames", "createMatch", "joinSeat", "getView", "submitAction", "listEvents"} <= set(ids)


def test_a_valid_openapi_31_document_of_valid_json_schemas() -> None:
    Draft202012Validator(OPENAPI_31).validate(SPEC)
    for name, schema in SCHEMAS.items():
        Draft202012Validator.check_schema(schema)
        assert "$defs" not in json.dumps(schema) and "$schema" not in schema, name


def _refs(node: Any) -> Iterator[str]:
    if isinstance(node, dict):
        if isinstance(node.get("$ref"), str):
            yield node["$ref"]
        for value in node.values():
            yield from _refs(value)
    elif isinstance(node, list):
        for item in node:
            yield from _refs(item)


def test_every_reference_resolves_and_every_component_is_used() -> None:
    refs = set(_refs(SPEC))
    assert all(r.startswith(REF) and r.removeprefix(REF) in SCHEMAS for r in refs), refs
    reached, todo = set(), [r.removeprefix(REF) for r in _refs(SPEC["paths"])]
    while todo:
        name = todo.pop()
        if name not in reached:
            reached.add(name)
            todo.extend(r.removeprefix(REF) for r in _refs(SCHEMAS[name]))
    assert reached == set(SCHEMAS)


def test_each_game_has_its_named_components() -> None:
    for name in NAMES:
        for kind in KIND_NAMES:
            component = SCHEMAS[component_name(GAMES[name], kind)]
            assert component["title"] and component["description"], (name, kind)
    assert SCHEMAS[MATCH_EVENT]["oneOf"]  # the match-level events have distinct types
    for name, schema in SCHEMAS.items():
        if schema.get("type") == "object" and "_" in name:  # lifted definitions stay closed objects
            assert schema.get("additionalProperties") is False, name


def _alternatives(schema: dict[str, Any], key: str = "anyOf") -> list[str]:
    return [alt.get("$ref", "null").removeprefix(REF) for alt in schema[key]]


def test_generic_members_refer_to_every_game() -> None:
    views = [component_name(GAMES[n], "view") for n in NAMES]
    assert _alternatives(SCHEMAS["ViewOut"], "oneOf") == [*views, "UndealtView"]
    assert set(SCHEMAS["ViewOut"]["properties"]) == set(ENVELOPE_FIELDS)  # the envelope, beside
    assert "additionalProperties" not in SCHEMAS["ViewOut"]  # each game's view is closed
    # A drago-fair-2 match before its deal: the envelope alone, closed (no discriminator: an
    # undealt view names its game too).
    undealt = SCHEMAS["UndealtView"]
    assert set(undealt["properties"]) == set(ENVELOPE_FIELDS) and undealt["additionalProperties"] is False
    assert "discriminator" not in SCHEMAS["ViewOut"]
    for n, view in zip(NAMES, views, strict=True):
        assert SCHEMAS[view]["properties"]["game"]["const"] == n
    for component, member, kind, nullable in [
        ("EventOut", "data", "event", False),
        ("SubmitAction", "action", "action", False),
        ("CreateMatch", "options", "options", False),
        ("CreateMatch", "setup", "setup", True),
        ("MatchOut", "options", "options", False),
        ("RevealOut", "options", "options", False),
    ]:
        expected = [component_name(GAMES[n], kind) for n in NAMES] + ["null"] * nullable
        assert _alternatives(SCHEMAS[component]["properties"][member]) == expected, (component, member)
    for reply in ("ActionReply", "EventPage", "RevealOut"):
        assert SCHEMAS[reply]["properties"]["events"]["items"] == {"$ref": REF + "EventOut"}
    view = SPEC["paths"]["/v1/matches/{match_id}/view"]["get"]["responses"]["200"]
    assert view["content"]["application/json"]["schema"] == {"$ref": REF + "ViewOut"}
    assert SCHEMAS["ActionReply"]["properties"]["view"] == {"$ref": REF + "ViewOut"}


@pytest.mark.parametrize("name", NAMES)
def test_every_game_event_refers_to_the_match_events(name: str) -> None:
    event = SCHEMAS[component_name(GAMES[name], "event")]
    assert event["anyOf"][-1] == {"$ref": REF + MATCH_EVENT}
    own = f"{REF}{prefix_of(GAMES[name])}_"
    assert all(alt["$ref"].startswith(own) for alt in event["anyOf"][:-1])


def test_every_example_fits_its_schema() -> None:
    """Examples of members (JSON Schema `examples`) and of request bodies (OpenAPI `examples`)."""
    registry = Registry().with_resource("urn:openapi", Resource.from_contents(SPEC, DRAFT202012))

    def validator(pointer: str) -> Draft202012Validator:
        return Draft202012Validator({"$ref": f"urn:openapi#{pointer}"}, registry=registry)

    checked = 0
    for name, schema in SCHEMAS.items():
        for member, prop in schema.get("properties", {}).items():
            for example in prop.get("examples", ()):
                validator(f"/components/schemas/{name}/properties/{member}").validate(example)
                checked += 1
    for path, operations in SPEC["paths"].items():
        for method, op in operations.items():
            content = op.get("requestBody", {}).get("content", {}).get("application/json", {})
            escaped = path.replace("~", "~0").replace("/", "~1").replace("{", "%7B").replace("}", "%7D")
            for example in content.get("examples", {}).values():
                validator(f"/paths/{escaped}/{method}/requestBody/content/application~1json/schema").validate(
                    example["value"]
                )
                checked += 1
    assert checked >= 5
