"""The committed OpenAPI file is what the app generates, and documents every route's errors."""

from __future__ import annotations

import json

from app.openapi import DEFAULT_PATH, generate


def test_committed_openapi_matches_the_app() -> None:
    assert DEFAULT_PATH.read_text(encoding="utf-8") == generate(), (
        "openapi/openapi.json is stale: run `python -m app.openapi`"
    )


def test_every_operation_has_an_id_and_enveloped_errors() -> None:
    spec = json.loads(generate())
    ids = []
    for path, operations in spec["paths"].items():
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
