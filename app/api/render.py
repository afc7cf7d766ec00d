"""Rendering the hot responses straight from the service's typed results, with no second validation.

Views and action replies are on the path of every move: they are turned into JSON text here, once,
from the typed results (`View.to_json`, memoised per state and viewer, and `EventRecord.to_json`),
and sent as they are. Their models in `app.api.schemas` document them in OpenAPI; tests validate
real responses against the published schemas.
"""

from __future__ import annotations

import orjson
from starlette.responses import Response

from app.matches.views import View
from app.service.results import ActionResult

JSON_TYPE = "application/json"


def view_response(view: View) -> Response:
    return Response(orjson.dumps(view.to_json()), media_type=JSON_TYPE)


def action_response(result: ActionResult) -> Response:
    body = {"seq": result.seq, "events": [e.to_json() for e in result.events], "view": result.view.to_json()}
    return Response(orjson.dumps(body), media_type=JSON_TYPE)
