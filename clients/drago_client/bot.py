"""An example bot that plays one seat like any third party: views over the WebSocket, actions over HTTP.

It follows `WS /v1/matches/{id}/stream?views=1` (token in the first frame, so it stays out of URLs
and logs), and whenever a `hello` or `view` frame shows its seat in `to_act` it sends a random legal
action with `expected_seq` set to that view's seq. A stale view (the match moved on meanwhile) is
refused with `version_conflict` (or `match_over`), which is harmless: the next view frame brings
the fresh state.

    python -m clients.drago_client.bot --base-url http://127.0.0.1:8000 --match M --token T
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
from typing import Any
from urllib.parse import quote

from websockets.asyncio.client import connect

from clients.drago_client.client import AsyncClient
from clients.drago_client.errors import DragoError, MatchOver, VersionConflict, error_from_envelope


def stream_url(base_url: str, match_id: str) -> str:
    """The stream's `ws://` (or `wss://`) URL with `views=1`, for an `http(s)://` base URL."""
    base = base_url.rstrip("/")
    if base.startswith("http"):
        base = "ws" + base[len("http") :]
    return f"{base}/v1/matches/{quote(match_id, safe='')}/stream?views=1"


async def play_random(
    base_url: str, match_id: str, token: str, *, seed: int | str | None = None
) -> dict[str, Any]:
    """Play the token's seat with random legal actions until the match ends; its final summary."""
    rng = random.Random(seed)
    async with (
        AsyncClient(base_url, token=token) as client,
        connect(stream_url(base_url, match_id), compression=None) as ws,
    ):
        await ws.send(json.dumps({"type": "auth", "token": token}))
        async for message in ws:
            frame = json.loads(message)
            kind = frame.get("type")
            if kind == "ping":
                await ws.send('{"type":"pong"}')
            elif kind == "error":
                raise error_from_envelope(frame)  # a refused connection: the close follows
            elif kind in ("hello", "view"):
                view = frame["view"]
                if view["status"] == "finished":
                    return await client.get_match(match_id)
                if view["seat"] in view["to_act"] and view["legal_actions"]:
                    action = rng.choice(view["legal_actions"])
                    # A stale view (the match moved on, or ended) is refused and changes nothing;
                    # the next view frame brings the current state.
                    with contextlib.suppress(VersionConflict, MatchOver):
                        await client.submit_action(match_id, action, expected_seq=view["seq"])
    raise DragoError("stream_closed", "the stream closed before the match finished")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m clients.drago_client.bot",
        description="Play one seat of a match with random legal actions.",
    )
    parser.add_argument("--base-url", default="http://127.0.0.1:8000")
    parser.add_argument("--match", required=True, help="the match id")
    parser.add_argument("--token", required=True, help="the seat token from joinSeat")
    parser.add_argument("--seed", default=None, help="seed of the bot's choices (reproducible play)")
    args = parser.parse_args(argv)
    summary = asyncio.run(play_random(args.base_url, args.match, args.token, seed=args.seed))
    print(json.dumps(summary, indent=2))


if __name__ == "__main__":
    main()
