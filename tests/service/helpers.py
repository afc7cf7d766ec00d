"""Helpers of the service tests: creating seated toy matches and playing them through the use cases."""

from __future__ import annotations

import inspect
import random
from typing import Any

import pytest

from app.service import acting, creating, reading, seating
from app.service.auth import Caller, identify
from app.service.context import Context
from app.service.creating import CreateRequest

ORDER = list(range(1, 13))  # dealt in order: seat 0 holds 1,2,3; seat 1 holds 4,5,6


def recorded(monkeypatch: pytest.MonkeyPatch, obj: Any, name: str) -> list[tuple[Any, ...]]:
    """From now on, the arguments of every call to the coroutine method `obj.name` (in their
    declared order, defaults filled in): which store reads a use case makes, for instance."""
    original = getattr(obj, name)
    signature = inspect.signature(original)
    calls: list[tuple[Any, ...]] = []

    async def recording(*args: Any, **kwargs: Any) -> Any:
        bound = signature.bind(*args, **kwargs)
        bound.apply_defaults()
        calls.append(tuple(bound.arguments.values()))
        return await original(*args, **kwargs)

    monkeypatch.setattr(obj, name, recording)
    return calls


async def create(ctx: Context, **kw: Any) -> str:
    created = await creating.create_match(
        ctx, CreateRequest(kw.pop("game", "toy"), kw.pop("players", 2), **kw)
    )
    return created.match.id


async def seated(ctx: Context, **kw: Any) -> tuple[str, list[Caller]]:
    """A toy match with both seats joined; the callers of seat 0 and seat 1."""
    match_id = await create(ctx, **kw)
    callers = []
    for s in range(2):
        grant = await seating.join_seat(ctx, match_id, s, f"p{s}")
        callers.append(await identify(ctx, grant.token))
    return match_id, callers


async def play_randomly(ctx: Context, match_id: str, callers: list[Caller], rng: random.Random) -> None:
    for _ in range(200):
        view = await reading.get_view(ctx, match_id, None)
        if view.status != "active":
            return
        seat = view.to_act[0]
        mine = await reading.get_view(ctx, match_id, callers[seat])
        await acting.submit_action(ctx, match_id, callers[seat], dict(rng.choice(mine.legal_actions)))
    raise AssertionError("no end")
