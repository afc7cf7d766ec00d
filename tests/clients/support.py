"""Helpers of the client tests: seat a match, play it out with random legal actions."""

from __future__ import annotations

import random

from drago_client import AsyncClient, models

MAX_STEPS = 5000  # a hang guard: real games take far fewer decisions


async def seated(
    api: AsyncClient, game: str, players: int = 2, **create: object
) -> tuple[str, dict[int, str]]:
    """A new match with every seat joined; its id and the seat tokens."""
    match = await api.create_match(game, players, **create)  # type: ignore[arg-type]
    tokens = {seat: (await api.join_seat(match.id, seat, f"player {seat}")).token for seat in range(players)}
    return match.id, tokens


async def play_out(
    api: AsyncClient, match_id: str, tokens: dict[int, str], rng: random.Random
) -> models.Match:
    """Random legal actions of whoever is to act, until the match is over; its final summary."""
    for _ in range(MAX_STEPS):
        summary = await api.get_match(match_id)
        if summary.status != "active":
            return summary
        seat = summary.to_act[0]
        view = await api.get_view(match_id, token=tokens[seat])
        assert view.seat == seat and view.seq == summary.seq
        reply = await api.submit_action(
            match_id, rng.choice(view.legal_actions), expected_seq=view.seq, token=tokens[seat]
        )
        assert reply.seq > view.seq and reply.view.seat == seat
    raise AssertionError("the match did not finish")
