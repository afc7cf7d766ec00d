"""The async client against the real app in-process: a full game by random legal actions, and
every kind of refusal raised as the right error class with the server's code and status."""

from __future__ import annotations

import hashlib
import random
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from app.matches.fairness import canonical_json
from app.service.errors import ALL_ERRORS
from clients.drago_client import (
    AsyncClient,
    DragoError,
    IllegalAction,
    MatchNotFinished,
    NotFound,
    NotYourTurn,
    SeatTaken,
    SeatToken,
    Unauthorized,
    ValidationError,
    VersionConflict,
    error_from_envelope,
)
from clients.drago_client.errors import ERRORS

MAX_STEPS = 5000  # a hang guard: real games take far fewer decisions


async def play_to_end(
    client: AsyncClient, match_id: str, tokens: dict[int, str], rng: random.Random
) -> dict[str, Any]:
    for _ in range(MAX_STEPS):
        summary = await client.get_match(match_id)
        if summary["status"] == "finished":
            return summary
        seat = summary["to_act"][0]
        view = await client.get_view(match_id, token=tokens[seat])
        assert view["seat"] == seat and view["seq"] == summary["seq"]
        action = rng.choice(view["legal_actions"])
        reply = await client.submit_action(match_id, action, expected_seq=view["seq"], token=tokens[seat])
        assert reply["seq"] > view["seq"] and reply["view"]["seat"] == seat
    raise AssertionError("the match did not finish")


async def new_match(client: AsyncClient, game: str) -> tuple[str, dict[int, str]]:
    match = await client.create_match(game, 2)
    seats = [await client.join_seat(match["id"], seat, f"player {seat}") for seat in (0, 1)]
    assert all(isinstance(s, SeatToken) and s.match_id == match["id"] for s in seats)
    assert seats[0].token not in repr(seats[0])  # a secret stays out of logs
    return match["id"], {s.seat: s.token for s in seats}


@pytest.mark.parametrize("game", ["yutaka", "mount_drago"])
async def test_a_full_game_with_events_and_reveal(client: AsyncClient, game: str) -> None:
    games = await client.list_games()
    assert game in [g["name"] for g in games["items"]]
    assert (await client.get_game(game))["name"] == game

    match_id, tokens = await new_match(client, game)
    assert (await client.get_match(match_id))["status"] == "active"
    listed = await client.list_matches(status="active", game=game, limit=5, offset=0)
    assert match_id in [m["id"] for m in listed["items"]] and listed["limit"] == 5

    final = await play_to_end(client, match_id, tokens, random.Random(f"client-{game}"))
    assert final["to_act"] == [] and final["winners"]

    events = await client.list_events(match_id, token=tokens[0])
    assert [e["seq"] for e in events["events"]] == list(range(1, final["seq"] + 1))
    page = await client.list_events(match_id, after=1, limit=2, token=tokens[1])
    assert [e["seq"] for e in page["events"]] == [2, 3]
    spectator = await client.get_view(match_id)
    assert spectator["seat"] is None and spectator["status"] == "finished"
    replay = await client.get_view(match_id, at=1, token=tokens[0])
    assert replay["seq"] == 1 and replay["seat"] == 0

    revealed = await client.reveal(match_id)
    deal = revealed["events"][0]["data"]
    commitment = hashlib.sha256(canonical_json({"deal": deal, "secret": revealed["secret"]})).hexdigest()
    assert commitment == revealed["commitment"] == final["commitment"]


async def test_refusals_raise_the_matching_error_class(client: AsyncClient) -> None:
    match_id, tokens = await new_match(client, "yutaka")
    summary = await client.get_match(match_id)
    me = summary["to_act"][0]
    other = 1 - me
    legal = (await client.get_view(match_id, token=tokens[me]))["legal_actions"][0]

    cases: list[tuple[type[DragoError], str, int, Callable[[], Awaitable[Any]]]] = [
        (
            NotYourTurn,
            "not_your_turn",
            409,
            lambda: client.submit_action(match_id, legal, token=tokens[other]),
        ),
        (
            IllegalAction,
            "illegal_action",
            409,
            lambda: client.submit_action(
                match_id, {"type": "reveal", "island": 99, "slot": 0}, token=tokens[me]
            ),
        ),
        (
            VersionConflict,
            "version_conflict",
            409,
            lambda: client.submit_action(match_id, legal, expected_seq=0, token=tokens[me]),
        ),
        (Unauthorized, "unauthorized", 401, lambda: client.get_view(match_id, token="not-a-token")),
        (NotFound, "not_found", 404, lambda: client.get_match("no-such-match")),
        (ValidationError, "validation_error", 422, lambda: client.create_match("yutaka", 99)),
        (SeatTaken, "seat_taken", 409, lambda: client.join_seat(match_id, 0, "late")),
        (MatchNotFinished, "match_not_finished", 409, lambda: client.reveal(match_id)),
    ]
    for cls, code, status, call in cases:
        with pytest.raises(cls) as caught:
            await call()
        error = caught.value
        assert type(error) is cls and (error.code, error.status) == (code, status)
        assert error.message and str(error).startswith(code)
    # A refused request changes nothing.
    assert (await client.get_match(match_id))["seq"] == summary["seq"]


def test_every_server_code_has_its_class() -> None:
    for server_error in ALL_ERRORS:
        cls = ERRORS[server_error.code]
        error = error_from_envelope(server_error().to_json(), server_error.http_status)
        assert type(error) is cls and error.status == server_error.http_status


def test_unknown_codes_and_bodies_become_the_base_class() -> None:
    error = error_from_envelope({"error": {"code": "brand_new", "message": "m", "details": [1]}}, 418)
    assert type(error) is DragoError and (error.code, error.message, error.details) == ("brand_new", "m", [1])
    odd = error_from_envelope("<html>Bad Gateway</html>", 502)
    assert type(odd) is DragoError and odd.code == "http_error" and odd.status == 502
