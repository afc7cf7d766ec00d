"""Seeks over every backend: creating (with the cap), listing, cancelling, expiry, bad input."""

from __future__ import annotations

import pytest

from app.service.errors import Forbidden, NotFound, SeekClosed, TooManySeeks, Unauthorized, ValidationFailed
from app.service.matcher import match_once
from app.service.seeks import Matchmaking, SeekRequest, cancel_seek, create_seek, my_seeks, open_seeks
from tests.matchmaking.conftest import FakeClock, new_player

YUTAKA = SeekRequest(game="yutaka", players=2)


async def test_a_seek_is_stored_listed_and_cancelled(mm: Matchmaking, clock: FakeClock) -> None:
    ann = await new_player(mm)
    seek = await create_seek(mm, ann, SeekRequest(game="mount_drago", players=[4, 2, 3]))
    assert seek.counts == (2, 3, 4) and seek.status == "open"
    assert (seek.expires_at - seek.created_at).total_seconds() == 3600
    assert [s.id for s in await open_seeks(mm, game=None, limit=10)] == [seek.id]
    assert [s.id for s in await open_seeks(mm, game="yutaka", limit=10)] == []
    assert [s.id for s in await my_seeks(mm, ann, limit=10)] == [seek.id]
    cancelled = await cancel_seek(mm, ann, seek.id)
    assert cancelled.status == "cancelled"
    assert await open_seeks(mm, game=None, limit=10) == []
    with pytest.raises(SeekClosed):
        await cancel_seek(mm, ann, seek.id)


async def test_the_cap_on_open_seeks(mm: Matchmaking) -> None:
    ann = await new_player(mm)
    seeks = [await create_seek(mm, ann, YUTAKA) for _ in range(mm.max_open)]
    with pytest.raises(TooManySeeks):
        await create_seek(mm, ann, YUTAKA)
    assert len(await my_seeks(mm, ann, limit=50)) == mm.max_open
    await cancel_seek(mm, ann, seeks[0].id)
    await create_seek(mm, ann, YUTAKA)  # room again


async def test_expiry_by_the_clock_and_the_sweep(mm: Matchmaking, clock: FakeClock) -> None:
    ann = await new_player(mm)
    seek = await create_seek(mm, ann, SeekRequest(game="yutaka", players=2, expires_s=60))
    clock.advance(59)
    assert len(await open_seeks(mm, game=None, limit=10)) == 1
    clock.advance(1)
    assert await open_seeks(mm, game=None, limit=10) == []  # expired, even before any sweep
    await match_once(mm)  # the pass marks it
    found = await mm.store.get_seek(seek.id)
    assert found is not None and found.status == "expired"
    # An expired seek no longer counts against the cap.
    for _ in range(mm.max_open):
        await create_seek(mm, ann, YUTAKA)


async def test_only_the_owner_cancels(mm: Matchmaking) -> None:
    ann, bob = await new_player(mm, "ann"), await new_player(mm, "bob")
    seek = await create_seek(mm, ann, YUTAKA)
    with pytest.raises(Forbidden):
        await cancel_seek(mm, bob, seek.id)
    with pytest.raises(NotFound):
        await cancel_seek(mm, bob, "nope")
    found = await mm.store.get_seek(seek.id)
    assert found is not None and found.status == "open"


@pytest.mark.parametrize(
    ("req", "field"),
    [
        (SeekRequest(game="chess", players=2), "game"),
        (SeekRequest(game="yutaka", players=3), "players"),
        (SeekRequest(game="mount_drago", players=[2, 2]), "players"),
        (SeekRequest(game="mount_drago", players=[]), "players"),
        (SeekRequest(game="mount_drago", players=2, options={"nope": 1}), "options"),
        (SeekRequest(game="yutaka", players=2, settings={"clock": {"per_decision_s": 0}}), "settings"),
        (SeekRequest(game="yutaka", players=2, expires_s=0), "expires_s"),
        (SeekRequest(game="yutaka", players=2, bots_after_s=-1), "bots_after_s"),
    ],
)
async def test_bad_input_changes_nothing(mm: Matchmaking, req: SeekRequest, field: str) -> None:
    ann = await new_player(mm)
    with pytest.raises(ValidationFailed) as e:
        await create_seek(mm, ann, req)
    details = e.value.details
    assert isinstance(details, dict)
    assert str(details["field"]).startswith(field)
    assert await my_seeks(mm, ann, limit=10) == []


async def test_a_seat_token_cannot_seek(mm: Matchmaking) -> None:
    from app.service.auth import Caller

    with pytest.raises(Unauthorized):
        await create_seek(mm, Caller("seat", "x", "m", 0), YUTAKA)
