"""`WS /v1/matches/{id}/stream` and `WS /v1/players/me/stream` (docs/streams.md).

FastAPI leaves WebSocket routes out of OpenAPI; the frames have their own JSON Schema,
`openapi/stream-frames.schema.json`. The sessions live in `app.api.match_stream` and
`app.api.player_stream`.
"""

from __future__ import annotations

from fastapi import APIRouter, WebSocket

from app.api.streaming import Streaming

router = APIRouter(tags=["stream"])


@router.websocket("/v1/matches/{match_id}/stream", name="streamMatch")
async def stream_match(websocket: WebSocket, match_id: str) -> None:
    """Query: `after` (seq), `views=1`, `token` or `spectate=1`; else an `auth` first frame."""
    streaming: Streaming = websocket.app.state.streaming
    await streaming.serve_match(websocket, match_id)


@router.websocket("/v1/players/me/stream", name="streamPlayer")
async def stream_player(websocket: WebSocket) -> None:
    """Query: `after` (cursor), `token`; else an `auth` first frame with the player key."""
    streaming: Streaming = websocket.app.state.streaming
    await streaming.serve_player(websocket)
