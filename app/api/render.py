"""Rendering the hot responses straight from the service's typed results, with no second validation.

Views and action replies are on the path of every move: they are turned into JSON text here, once,
from the typed results (`View.json_bytes`, encoded once per state and viewer and shared with the
stream's frames, and `EventRecord.to_json`), and sent as they are. Their models in
`app.api.schemas` document them in OpenAPI; tests validate real responses against the published
schemas.

`send_json` writes such a body as the two ASGI messages a Starlette `Response` would send (the same
status and headers), without building the response object: the hot routes (`app.api.hot`) answer
every action and view with it; FastAPI's routes return the `Response`s below.
"""

from __future__ import annotations

from typing import Final

import orjson
from starlette.responses import Response
from starlette.types import Send

from app.matches.views import View
from app.service.results import ActionResult

JSON_TYPE = "application/json"
_CONTENT_TYPE: Final = (b"content-type", JSON_TYPE.encode())


def action_body(result: ActionResult) -> bytes:
    view = orjson.Fragment(result.view.json_bytes())
    encoded = result.events_json
    events = [e.to_json() for e in result.events] if encoded is None else orjson.Fragment(encoded)
    return orjson.dumps({"seq": result.seq, "events": events, "view": view})


def view_response(view: View) -> Response:
    return Response(view.json_bytes(), media_type=JSON_TYPE)


def action_response(result: ActionResult) -> Response:
    return Response(action_body(result), media_type=JSON_TYPE)


async def send_json(send: Send, body: bytes, status: int = 200, location: str | None = None) -> None:
    """Answer with `body` as `Response(body, status_code=status, media_type=JSON_TYPE)` does (with
    `headers={"location": location}` when given)."""
    headers = [(b"content-length", str(len(body)).encode()), _CONTENT_TYPE]
    if location is not None:
        headers.insert(0, (b"location", location.encode("latin-1")))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
