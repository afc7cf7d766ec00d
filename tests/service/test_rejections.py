"""Every refusal of the service has its code, and a refused request changes nothing."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from typing import Any

import pytest

from app.service import errors
from app.service.matches import MatchService
from app.store.memory import MemoryEventStore
from tests.service.test_lifecycle import ORDER, seated
from tests.service.toy_game import GAMES

PLAY_1 = {"type": "play", "card": 1}


async def refused(
    store: MemoryEventStore, match_id: str, call: Awaitable[Any], error: type[Exception]
) -> Any:
    before = await store.read(match_id)
    with pytest.raises(error) as info:
        await call
    assert await store.read(match_id) == before
    return info.value


async def test_create_refusals(service: MatchService) -> None:
    cases: list[tuple[dict[str, Any], type[errors.ServiceError], Any]] = [
        ({"game": "chess", "players": 2}, errors.ValidationFailed, "game"),
        ({"game": "toy", "players": 3}, errors.ValidationFailed, "players"),
        ({"game": "toy", "players": 2, "options": {"rounds": 9}}, errors.ValidationFailed, "options.rounds"),
        ({"game": "toy", "players": 2, "bots": [2]}, errors.ValidationFailed, "bots"),
        ({"game": "toy", "players": 2, "bots": [0, 0]}, errors.ValidationFailed, "bots"),
        ({"game": "toy", "players": 2, "setup": {"order": [1]}}, errors.ValidationFailed, "setup.order"),
    ]
    for kwargs, error, field in cases:
        with pytest.raises(error) as info:
            await service.create_match(**kwargs)
        assert info.value.details["field"] == field
    assert (await service.list_matches())["total"] == 0


async def test_dev_features_are_refused_when_off(store: MemoryEventStore) -> None:
    service = MatchService(store, games=GAMES)
    for kwargs in ({"seed": "x"}, {"setup": {"order": ORDER}}):
        with pytest.raises(errors.Forbidden) as info:
            await service.create_match("toy", 2, **kwargs)
        assert "development" in info.value.message
    assert (await service.list_matches())["total"] == 0


async def test_action_refusals_change_nothing(service: MatchService, store: MemoryEventStore) -> None:
    match_id, _ = await seated(service, setup={"order": ORDER})
    e = await refused(
        store, match_id, service.submit_action(match_id, 1, {"type": "play", "card": 4}), errors.NotYourTurn
    )
    assert e.code == "not_your_turn" and e.http_status == 409
    e = await refused(
        store,
        match_id,
        service.submit_action(match_id, 0, {"type": "play", "card": 4}),
        errors.IllegalActionError,
    )
    assert e.details == {"reason": "card_not_in_hand"}
    e = await refused(
        store, match_id, service.submit_action(match_id, 0, {"type": "jump"}), errors.ValidationFailed
    )
    assert "unknown action type" in e.message
    await refused(
        store,
        match_id,
        service.submit_action(match_id, 0, {"type": "play", "card": "x"}),
        errors.ValidationFailed,
    )
    await refused(
        store,
        match_id,
        service.submit_action(match_id, 0, PLAY_1, expected_seq=0),
        errors.VersionConflictError,
    )
    await service.submit_action(match_id, 0, PLAY_1, expected_seq=1)


async def test_idempotent_retries_return_the_first_reply(
    service: MatchService, store: MemoryEventStore
) -> None:
    match_id, _ = await seated(service, setup={"order": ORDER})
    first = await service.submit_action(match_id, 0, PLAY_1, idempotency_key="k1")
    again = await service.submit_action(match_id, 0, PLAY_1, idempotency_key="k1")
    assert again == first and len(await store.read(match_id)) == 3
    e = await refused(
        store,
        match_id,
        service.submit_action(match_id, 0, {"type": "play", "card": 2}, idempotency_key="k1"),
        errors.IdempotencyKeyReused,
    )
    assert e.http_status == 422


async def test_concurrent_duplicates_apply_once(store: MemoryEventStore) -> None:
    """Three 'processes' (services with their own caches and locks) retry one request at once."""
    services = [MatchService(store, games=GAMES, dev_features=True) for _ in range(3)]
    match_id, _ = await seated(services[0], setup={"order": ORDER})
    replies = await asyncio.gather(
        *(s.submit_action(match_id, 0, PLAY_1, idempotency_key="same") for s in services for _ in range(3))
    )
    assert all(r == replies[0] for r in replies)
    assert [e.type for e in await store.read(match_id)] == ["dealt", "played", "drew"]


async def test_concurrent_writers_lose_nothing(store: MemoryEventStore) -> None:
    """Unpinned submissions from several processes retry on conflicts; a pinned one gets 409."""
    services = [MatchService(store, games=GAMES, dev_features=True) for _ in range(4)]
    match_id, _ = await seated(services[0], setup={"order": ORDER}, options={"rounds": 6})
    results = await asyncio.gather(
        services[0].submit_action(match_id, 0, PLAY_1),
        services[1].submit_action(match_id, 0, PLAY_1),
        services[2].submit_action(match_id, 0, PLAY_1, expected_seq=1),
        return_exceptions=True,
    )
    ok = [r for r in results if isinstance(r, dict)]
    refusals = [r for r in results if isinstance(r, errors.ServiceError)]
    assert len(ok) == 1 and len(refusals) == 2
    assert {type(r) for r in refusals} <= {
        errors.NotYourTurn,
        errors.VersionConflictError,
        errors.IllegalActionError,
    }
    events = await store.read(match_id)
    assert [e.seq for e in events] == [1, 2, 3]
