"""The sync client and the example bot against a real server process (`python -m app`) over TCP."""

from __future__ import annotations

import asyncio
import random

import pytest

from clients.drago_client import Client, NotYourTurn, Unauthorized
from clients.drago_client.bot import play_random, stream_url

GUARD = 120.0  # seconds: only a hang guard


def test_the_sync_client_plays_a_game(server_url: str) -> None:
    rng = random.Random("sync")
    with Client(server_url) as client:
        assert "yutaka" in [g["name"] for g in client.list_games()["items"]]
        assert client.get_game("yutaka")["max_players"] == 2
        match = client.create_match("yutaka", 2, options={}, bots=[])
        seats = [client.join_seat(match["id"], seat, f"p{seat}") for seat in (0, 1)]
        tokens = {s.seat: s.token for s in seats}
        summary = client.get_match(match["id"])
        me = summary["to_act"][0]
        with pytest.raises(NotYourTurn):
            client.submit_action(
                match["id"], {"type": "reveal", "island": 0, "slot": 0}, token=tokens[1 - me]
            )
        with pytest.raises(Unauthorized) as caught:
            client.get_view(match["id"], token="not-a-token")
        assert caught.value.status == 401

        for _ in range(5000):
            if summary["status"] == "finished":
                break
            seat = summary["to_act"][0]
            view = client.get_view(match["id"], token=tokens[seat])
            action = rng.choice(view["legal_actions"])
            client.submit_action(match["id"], action, view["seq"], f"k{view['seq']}", token=tokens[seat])
            summary = client.get_match(match["id"])
        assert summary["status"] == "finished" and summary["winners"]
        assert client.list_events(match["id"], token=tokens[0])["seq"] == summary["seq"]
        assert client.reveal(match["id"])["commitment"] == summary["commitment"]
        listed = client.list_matches(status="finished", game="yutaka")
        assert match["id"] in [m["id"] for m in listed["items"]]


@pytest.mark.parametrize("game", ["yutaka", "mount_drago"])
async def test_two_bots_play_a_match_over_http_and_websocket(server_url: str, game: str) -> None:
    with Client(server_url) as client:
        match = client.create_match(game, 2)
        seats = [client.join_seat(match["id"], seat, f"bot {seat}") for seat in (0, 1)]
    bots = [play_random(server_url, match["id"], s.token, seed=f"{game}-{s.seat}") for s in seats]
    results = await asyncio.wait_for(asyncio.gather(*bots), GUARD)
    for final in results:
        assert final["id"] == match["id"] and final["status"] == "finished" and final["winners"]
    assert results[0]["seq"] == results[1]["seq"]


def test_stream_urls() -> None:
    assert stream_url("http://h:1/", "m") == "ws://h:1/v1/matches/m/stream?views=1"
    assert stream_url("https://h/x", "a/b") == "wss://h/x/v1/matches/a%2Fb/stream?views=1"
