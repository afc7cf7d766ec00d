"""`WS /v1/matches/{id}/stream`: a match's live events, redacted for the caller (docs/streams.md).

FastAPI leaves WebSocket routes out of OpenAPI; the frames have their own JSON Schema,
`openapi/stream-frames.schema.json`. The session itself lives in `app.api.streaming`.
"""

from __future__ import annotations

from fastapi import APIRouter, WebSocket

from app.api.streaming import Streaming

router = APIRouter(prefix="/v1/matches", tags=["stream"])


@router.websocket("/{match_id}/stream", name="streamMatch")
async def stream_match(websocket: WebSocket, match_id: str) -> None:
    """Query: `after` (seq), `views=1`, `token` or `spectate=1`; else an `auth` first frame."""
    streaming: Streaming = websocket.app.state.streaming
    await streaming.serve(websocket, match_id)
