"""Creating, joining, playing to the end and revealing a match through the service."""

from __future__ import annotations

import hashlib
import random
from typing import Any

import pytest

from app.games.core import replay
from app.matches.fairness import canonical_json
from app.matches.lifecycle import decode
from app.matches.views import redacted_events
from app.service import errors
from app.service.matches import MatchService, hash_token
from app.store.memory import MemoryEventStore
from tests.service.conftest import RecordingNotifier
from tests.service.toy_game import GAMES, TOY

ORDER = list(range(1, 13))  # dealt in order: seat 0 holds 1,2,3; seat 1 holds 4,5,6


async def seated(service: MatchService, **kw: Any) -> tuple[str, list[str]]:
    summary = await service.create_match("toy", 2, **kw)
    match_id = summary["id"]
    tokens = [(await service.join_seat(match_id, s, f"p{s}"))["token"] for s in range(2)]
    return match_id, tokens


async def play_randomly(service: MatchService, match_id: str, rng: random.Random) -> None:
    for _ in range(100):
        view = await service.get_view(match_id, None)
        if view["status"] == "finished":
            return
        seat = view["to_act"][0]
        mine = await service.get_view(match_id, seat)
        await service.submit_action(match_id, seat, rng.choice(mine["legal_actions"]))
    raise AssertionError("no end")


async def test_waiting_until_the_last_seat_is_filled(service: MatchService) -> None:
    summary = await service.create_match("toy", 2)
    assert summary["status"] == "waiting" and summary["seq"] == 1 and summary["to_act"] == []
    assert len(summary["commitment"]) == 64 and "secret" not in summary
    match_id = summary["id"]
    joined = await service.join_seat(match_id, 0, "ann")
    assert joined["seat"] == 0 and len(joined["token"]) >= 40
    with pytest.raises(errors.MatchNotStarted):
        await service.submit_action(match_id, 0, {"type": "play", "card": 1})
    await service.join_seat(match_id, 1, "bob")
    summary = await service.get_summary(match_id)
    assert summary["status"] == "active" and summary["to_act"] == [0]
    assert [s["name"] for s in summary["seats"]] == ["ann", "bob"]
    listing = await service.list_matches(status="active")
    assert [m["id"] for m in listing["items"]] == [match_id] and listing["total"] == 1


async def test_tokens_are_stored_only_as_hashes(service: MatchService, store: MemoryEventStore) -> None:
    match_id, tokens = await seated(service)
    seats = await store.get_seats(match_id)
    assert [s.token_hash for s in seats] == [hash_token(t) for t in tokens]
    assert hash_token(tokens[0]) == hashlib.sha256(tokens[0].encode()).hexdigest()
    assert await service.authenticate(tokens[1]) == (match_id, 1)
    with pytest.raises(errors.Unauthorized):
        await service.authenticate("nope")
    with pytest.raises(errors.Unauthorized):
        await service.authenticate(None)
    _other, other_tokens = await seated(service)
    with pytest.raises(errors.Forbidden):
        await service.authorize(match_id, other_tokens[0])
    with pytest.raises(errors.SeatTakenError):
        await service.join_seat(match_id, 0, "eve")
    with pytest.raises(errors.NotFound):
        await service.join_seat(match_id, 2, "eve")


async def test_a_full_game_reveals_a_log_that_replays(
    service: MatchService, notifier: RecordingNotifier
) -> None:
    match_id, _ = await seated(service)
    with pytest.raises(errors.MatchNotFinished):
        await service.reveal(match_id)
    await play_randomly(service, match_id, random.Random(1))
    summary = await service.get_summary(match_id)
    assert summary["status"] == "finished" and summary["to_act"] == []
    revealed = await service.reveal(match_id)
    events = revealed["events"]
    assert [e["seq"] for e in events] == list(range(1, len(events) + 1)) == list(range(1, summary["seq"] + 1))
    deal = events[0]["data"]
    digest = hashlib.sha256(canonical_json({"deal": deal, "secret": revealed["secret"]})).hexdigest()
    assert digest == revealed["commitment"] == summary["commitment"]
    decoded = [
        TOY.event_types[e["type"]](**{k: v for k, v in e["data"].items() if k != "type"}) for e in events
    ]
    final = replay(TOY, [_tuples(e) for e in decoded])
    outcome = TOY.outcome(final)
    assert outcome is not None and list(outcome.scores) == summary["scores"] == revealed["outcome"]["scores"]
    assert notifier.calls[-1] == (match_id, summary["seq"])


def _tuples(event: Any) -> Any:
    """Stored JSON has lists where the dataclass has tuples; rebuild them for `replay`."""
    if hasattr(event, "hands"):
        return type(event)(tuple(tuple(h) for h in event.hands), tuple(event.deck), event.rounds)
    return event


async def test_the_dice_follow_the_secret(store: MemoryEventStore) -> None:
    """Two matches with the same dev seed deal and draw the same cards."""
    service = MatchService(store, games=GAMES, dev_features=True)
    logs = []
    for _ in range(2):
        match_id, _tokens = await seated(service, seed="fixed")
        await play_randomly(service, match_id, random.Random(7))
        logs.append([(e.type, dict(e.data)) for e in await store.read(match_id)])
    assert logs[0] == logs[1]


async def test_replay_at_a_seq_shows_the_past_view(service: MatchService) -> None:
    match_id, _ = await seated(service, setup={"order": ORDER})
    reply = await service.submit_action(match_id, 0, {"type": "play", "card": 2})
    assert reply["seq"] == 3 and [e["type"] for e in reply["events"]] == ["played", "drew"]
    assert reply["view"]["hand"][:2] == [1, 3] and reply["view"]["seq"] == 3
    past = await service.get_view(match_id, 0, at=1)
    assert past["hand"] == [1, 2, 3] and past["seq"] == 1
    with pytest.raises(errors.ValidationFailed):
        await service.get_view(match_id, 0, at=4)


async def test_bots_fill_their_seats_and_play(service: MatchService) -> None:
    summary = await service.create_match("toy", 2, bots=[1])
    assert summary["seats"][1] == {"seat": 1, "name": "bot 1", "bot": True, "taken": True}
    match_id = summary["id"]
    await service.join_seat(match_id, 0, "ann")
    rng = random.Random(3)
    for _ in range(10):
        view = await service.get_view(match_id, 0)
        if view["status"] == "finished":
            break
        assert view["to_act"] == [0]  # the bot has always moved already
        await service.submit_action(match_id, 0, rng.choice(view["legal_actions"]))
    assert (await service.get_summary(match_id))["status"] == "finished"


async def test_an_all_bot_match_plays_to_the_end_at_creation(service: MatchService) -> None:
    summary = await service.create_match("toy", 2, bots=[0, 1], options={"rounds": 5})
    assert summary["status"] == "finished" and summary["seq"] == 1 + 10 + 6  # deal, 10 plays, 6 draws


async def test_only_events_this_process_missed_are_read(store: MemoryEventStore) -> None:
    reads: list[int] = []
    original = store.read

    async def counting_read(match_id: str, after: int = 0, limit: int | None = None) -> Any:
        reads.append(after)
        return await original(match_id, after, limit)

    store.read = counting_read  # type: ignore[method-assign]
    service = MatchService(store, games=GAMES, dev_features=True)
    match_id, _ = await seated(service, setup={"order": ORDER})
    reads.clear()
    await service.submit_action(match_id, 0, {"type": "play", "card": 1})
    await service.submit_action(match_id, 1, {"type": "play", "card": 4})
    assert reads == []  # this process committed the state it acts on: nothing to read
    # A second process (its own cache) catches up from scratch once, then incrementally.
    other = MatchService(store, games=GAMES)
    await other.submit_action(match_id, 0, {"type": "play", "card": 2})
    assert reads[-1] == 0
    # The first process's cache is now stale: its append conflicts, then it reads only what it missed.
    await service.submit_action(match_id, 1, {"type": "play", "card": 5})
    assert reads[-1] == 5


async def test_events_are_redacted_per_viewer(service: MatchService) -> None:
    match_id, _ = await seated(service, setup={"order": ORDER})
    await service.submit_action(match_id, 0, {"type": "play", "card": 1})
    mine = (await service.get_events(match_id, 0))["events"]
    theirs = (await service.get_events(match_id, 1))["events"]
    spectator = (await service.get_events(match_id, None, after=1, limit=1))["events"]
    assert mine[0]["data"]["hand"] == [1, 2, 3] and theirs[0]["data"]["hand"] == [4, 5, 6]
    assert mine[2]["data"]["card"] is not None and theirs[2]["data"]["card"] is None
    assert [e["seq"] for e in spectator] == [2]
    stored = (await service.store.read(match_id))[2]
    assert decode(TOY, stored).card == mine[2]["data"]["card"]


async def test_stored_events_are_redacted_for_live_streams(service: MatchService) -> None:
    match_id, _ = await seated(service, setup={"order": ORDER})
    stored = await service.store.read(match_id)
    assert redacted_events(TOY, stored, None)[0]["data"]["hand"] is None
    assert redacted_events(TOY, stored, 1)[0]["data"]["hand"] == [4, 5, 6]
