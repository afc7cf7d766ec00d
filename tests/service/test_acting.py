"""Actions, idempotency keys, `expected_seq`, replays at commit boundaries and redaction per viewer;
every refusal has its code and changes nothing."""

from __future__ import annotations

from collections.abc import Awaitable
from typing import Any

import pytest

from app.matches import decide
from app.service import acting, errors, reading, seating
from app.service.auth import identify
from app.service.context import Context
from app.store.memory import MemoryEventStore
from tests.service.conftest import RecordingNotifier
from tests.service.helpers import ORDER, create, recorded, seated

PLAY_1 = {"type": "play", "card": 1}


async def refused(
    store: MemoryEventStore, match_id: str, call: Awaitable[Any], error: type[Exception]
) -> Any:
    before = await store.read(match_id)
    with pytest.raises(error) as info:
        await call
    assert await store.read(match_id) == before
    return info.value


async def test_an_action_returns_its_commit_redacted_for_the_caller(ctx: Context) -> None:
    match_id, (ann, bob) = await seated(ctx, setup={"order": ORDER})
    reply = await acting.submit_action(ctx, match_id, ann, PLAY_1)
    assert reply.seq == 6 and [(e.type, e.commit) for e in reply.events] == [("played", 6), ("drew", 6)]
    assert reply.events[1].data["card"] is not None and reply.view.seq == 6 and reply.view.to_act == (1,)
    theirs = (await reading.get_events(ctx, match_id, bob, 4, 10)).events
    assert theirs[1].data["card"] is None  # bob does not see ann's draw
    spectator = await reading.get_events(ctx, match_id, None, 0, 100)
    assert spectator.events[0].data["hand"] is None


async def test_replays_stop_only_at_commit_boundaries(ctx: Context) -> None:
    match_id, (ann, _) = await seated(ctx, setup={"order": ORDER})
    await acting.submit_action(ctx, match_id, ann, PLAY_1)
    past = await reading.get_view(ctx, match_id, ann, at=4)
    assert past.state["hand"] == [1, 2, 3] and past.seq == 4
    assert (await reading.get_view(ctx, match_id, ann, at=6)).seq == 6
    with pytest.raises(errors.ValidationFailed) as info:
        await reading.get_view(ctx, match_id, ann, at=5)
    assert info.value.details == {"field": "at", "previous": 4, "next": 6}
    with pytest.raises(errors.ValidationFailed):
        await reading.get_view(ctx, match_id, ann, at=3)  # inside the commit of the start
    with pytest.raises(errors.ValidationFailed):
        await reading.get_view(ctx, match_id, ann, at=7)


async def test_refusals_change_nothing(ctx: Context, store: MemoryEventStore) -> None:
    match_id, (ann, bob) = await seated(ctx, setup={"order": ORDER})
    e = await refused(
        store,
        match_id,
        acting.submit_action(ctx, match_id, bob, {"type": "play", "card": 4}),
        errors.NotYourTurn,
    )
    assert e.code == "not_your_turn" and e.http_status == 409
    e = await refused(
        store,
        match_id,
        acting.submit_action(ctx, match_id, ann, {"type": "play", "card": 9}),
        errors.IllegalActionError,
    )
    assert e.details == {"reason": "card_not_in_hand"}
    e = await refused(
        store, match_id, acting.submit_action(ctx, match_id, ann, {"type": "fly"}), errors.ValidationFailed
    )
    e = await refused(
        store, match_id, acting.submit_action(ctx, match_id, ann, PLAY_1, expected_seq=3), errors.StaleVersion
    )
    e = await refused(
        store, match_id, acting.submit_action(ctx, match_id, ann, {"type": "undo"}), errors.ValidationFailed
    )
    for key in (None, "k-huge"):  # not plain JSON, with or without a key to bind it to
        huge = acting.submit_action(ctx, match_id, ann, {"type": "play", "card": 2**64}, idempotency_key=key)
        e = await refused(store, match_id, huge, errors.ValidationFailed)
        assert e.details == {"field": "action"} and "64-bit" in e.message
    waiting = await create(ctx)
    with pytest.raises(errors.Forbidden):
        await acting.submit_action(ctx, waiting, ann, PLAY_1)  # another match's token
    grant = await seating.join_seat(ctx, waiting, 0, "cy")
    with pytest.raises(errors.MatchNotStarted):
        await acting.submit_action(ctx, waiting, await identify(ctx, grant.token), PLAY_1)


async def test_a_retry_with_the_same_key_gets_the_first_reply(ctx: Context, store: MemoryEventStore) -> None:
    match_id, (ann, bob) = await seated(ctx, setup={"order": ORDER})
    first = await acting.submit_action(ctx, match_id, ann, PLAY_1, idempotency_key="k1")
    await acting.submit_action(ctx, match_id, bob, {"type": "play", "card": 4})
    again = await acting.submit_action(ctx, match_id, ann, PLAY_1, idempotency_key="k1")
    assert again == first  # rebuilt from the events the first request appended
    fresh = Context(store, ctx.games)  # another process, after a deploy: nothing cached
    assert await acting.submit_action(fresh, match_id, ann, PLAY_1, idempotency_key="k1") == first
    with pytest.raises(errors.IdempotencyKeyReused):
        await acting.submit_action(ctx, match_id, ann, {"type": "play", "card": 2}, idempotency_key="k1")
    assert len(await store.read(match_id)) == 8


async def test_a_first_request_reads_no_key_and_its_retry_finds_it_where_it_fails(
    ctx: Context, store: MemoryEventStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A keyed first request (the SDKs key every action) costs the store no read of its key: the
    append keeps it, and refuses a key already kept. A retry reads it once it fails: refused by now,
    or (its action legal again) its append finding the key kept; both answer with the first reply."""
    match_id, (ann, _bob) = await seated(ctx, setup={"order": ORDER})
    keys = recorded(monkeypatch, store, "get_idempotent")
    appends = recorded(monkeypatch, store, "append")
    first = await acting.submit_action(ctx, match_id, ann, PLAY_1, idempotency_key="k1")
    assert keys == [] and len(appends) == 1
    assert await acting.submit_action(ctx, match_id, ann, PLAY_1, idempotency_key="k1") == first
    assert keys == [(match_id, 0, "k1")] and len(appends) == 1  # refused (bob's turn): nothing appended
    keys.clear()

    def legal_again(match: Any, seat: int, dice: Any) -> Any:  # as if the action were legal once more
        return decide.act(match, 1 - seat, {"type": "play", "card": 4}, dice)

    written = len(await store.read(match_id))
    digest = acting.request_hash("action", PLAY_1, None)
    again = await acting.run(ctx, match_id, ann, legal_again, digest, None, "k1")
    assert again == first and keys == [(match_id, 0, "k1")]
    assert len(appends) == 2 and len(await store.read(match_id)) == written  # that append wrote nothing


async def test_a_retry_tells_the_live_readers_again(
    ctx: Context, store: MemoryEventStore, notifier: RecordingNotifier
) -> None:
    """The first request's process may have died between its commit and telling the live readers
    (or met the database going away with its commit made): the retry tells them, else a match's
    last commit would never reach the streams of the other processes."""
    match_id, (ann, bob) = await seated(ctx, setup={"order": ORDER})
    first = await acting.submit_action(ctx, match_id, ann, PLAY_1, idempotency_key="k1")
    assert notifier.calls[-1] == (match_id, first.seq)
    notifier.calls.clear()
    fresh = Context(store, ctx.games, notifier=notifier)  # another process, nothing cached
    assert await acting.submit_action(fresh, match_id, ann, PLAY_1, idempotency_key="k1") == first
    assert notifier.calls == [(match_id, first.seq)]
    later = await acting.submit_action(ctx, match_id, bob, {"type": "play", "card": 4})
    notifier.calls.clear()
    assert await acting.submit_action(ctx, match_id, ann, PLAY_1, idempotency_key="k1") == first
    assert notifier.calls == [(match_id, first.seq)]  # its own seq: readers past it ignore it
    assert later.seq > first.seq
    with pytest.raises(errors.IdempotencyKeyReused):
        await acting.submit_action(ctx, match_id, ann, {"type": "play", "card": 2}, idempotency_key="k1")
    assert notifier.calls == [(match_id, first.seq)]  # a refusal tells nobody anything


async def test_a_retry_of_the_newest_commit_reads_only_that_commit(
    ctx: Context, store: MemoryEventStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The usual retry (a reply lost in transit, nothing committed since) takes the state at hand:
    no fold of the match from its first event, whatever its length."""
    match_id, (ann, bob) = await seated(ctx, setup={"order": ORDER})
    await acting.submit_action(ctx, match_id, ann, PLAY_1)
    first = await acting.submit_action(ctx, match_id, bob, {"type": "play", "card": 4}, idempotency_key="k")
    reads = recorded(monkeypatch, store, "read")
    assert (
        await acting.submit_action(ctx, match_id, bob, {"type": "play", "card": 4}, idempotency_key="k")
        == first
    )
    assert reads == [(match_id, first.seq - len(first.events), len(first.events))]
    fresh = Context(store, ctx.games)  # a process that holds nothing: its load, then the same
    assert (
        await acting.submit_action(fresh, match_id, bob, {"type": "play", "card": 4}, idempotency_key="k")
        == first
    )


async def test_a_retry_after_the_match_moved_on_folds_nothing(
    ctx: Context, store: MemoryEventStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A retry that comes after another commit starts from the state its first request reached
    (kept for it), not from the match's first event: it reads only its own commit."""
    match_id, (ann, bob) = await seated(ctx, setup={"order": ORDER})
    first = await acting.submit_action(ctx, match_id, ann, PLAY_1, idempotency_key="k")
    await acting.submit_action(ctx, match_id, bob, {"type": "play", "card": 4})
    reads = recorded(monkeypatch, store, "read")
    folded: list[int] = []
    fold = ctx.loader._fold

    def counted(base: Any, events: Any) -> Any:
        folded.append(len(events))
        return fold(base, events)

    monkeypatch.setattr(ctx.loader, "_fold", counted)
    assert await acting.submit_action(ctx, match_id, ann, PLAY_1, idempotency_key="k") == first
    assert reads == [(match_id, first.seq - len(first.events), len(first.events))]
    assert sum(folded) == 0


async def test_a_stale_cache_is_judged_again_on_the_store(ctx: Context, store: MemoryEventStore) -> None:
    match_id, (ann, bob) = await seated(ctx, setup={"order": ORDER})
    other = Context(store, ctx.games)
    await acting.submit_action(other, match_id, ann, PLAY_1)
    # ctx's cached state still says it is ann's turn: bob's action is refused there, then accepted.
    reply = await acting.submit_action(ctx, match_id, bob, {"type": "play", "card": 4}, expected_seq=6)
    assert reply.seq == 8


async def test_a_refused_action_of_a_finished_match(ctx: Context) -> None:
    match_id, (ann, bob) = await seated(ctx, options={"rounds": 1}, setup={"order": ORDER})
    await acting.submit_action(ctx, match_id, ann, PLAY_1)
    reply = await acting.submit_action(ctx, match_id, bob, {"type": "play", "card": 4})
    assert reply.view.status == "finished" and reply.events[-1].type == "match_ended"
    assert reply.view.outcome is not None and reply.view.outcome.reason == "finished"
    assert reply.view.outcome.winners == (1,) and reply.view.outcome.scores == (1, 4)
    with pytest.raises(errors.MatchOver):
        await acting.submit_action(ctx, match_id, ann, {"type": "play", "card": 2})
