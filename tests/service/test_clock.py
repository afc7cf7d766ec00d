"""Turn clocks, timeouts and takeovers, expiry, resignation and the host's controls, with an
injected clock (no sleeping); the sweeper of two processes fires a deadline exactly once."""

from __future__ import annotations

import pytest

from app.service import acting, errors, reading, seating
from app.service.auth import identify
from app.service.context import Config, Context
from app.service.sweeping import Sweeper
from app.store.memory import MemoryEventStore
from tests.service.conftest import FakeClock, RecordingBots
from tests.service.helpers import ORDER, create, seated
from tests.service.toy_game import GAMES

CLOCK = {"settings": {"clock": {"per_decision_s": 60}}, "setup": {"order": ORDER}}


async def types(store: MemoryEventStore, match_id: str, after: int = 0) -> list[str]:
    return [e.type for e in await store.read(match_id, after)]


async def test_a_clock_shows_deadlines_and_times_out_to_a_bot(
    ctx: Context, store: MemoryEventStore, clock: FakeClock, bots: RecordingBots
) -> None:
    match_id, _ = await seated(ctx, **CLOCK)
    view = await reading.get_view(ctx, match_id, None)
    assert [(c.seat, c.deadline) for c in view.clock] == [(0, "2026-01-01T12:01:00Z")]
    record = await store.get_match(match_id)
    assert record is not None and record.deadline_at == clock.now.replace(minute=1)
    sweeper = Sweeper(ctx)
    clock.advance(59)
    assert await sweeper.sweep_once() == 0
    clock.advance(1)
    assert await sweeper.sweep_once() == 1
    assert await types(store, match_id, 4) == ["turn_timed_out"]
    assert bots.woken == [match_id]
    after = await reading.get_view(ctx, match_id, None)
    assert after.to_act == (0,) and after.clock == ()  # a bot makes this decision
    record = await store.get_match(match_id)
    assert record is not None and record.bot_due and record.deadline_at is None
    assert await sweeper.sweep_once() == 0  # fired once


async def test_consecutive_timeouts_hand_the_seat_to_a_bot(
    ctx: Context, store: MemoryEventStore, clock: FakeClock
) -> None:
    match_id, (_, bob) = await seated(
        ctx, settings={"clock": {"per_decision_s": 10}, "takeover_after": 2}, setup={"order": ORDER}
    )
    sweeper = Sweeper(ctx)
    from app.service.bots import BotRunner, random_chooser

    runner = BotRunner(ctx, random_chooser)
    for _ in range(2):  # ann times out twice in a row; bob plays in between
        clock.advance(10)
        assert await sweeper.sweep_once() == 1
        assert await runner.play(match_id) == 1
        view = await reading.get_view(ctx, match_id, bob)
        await acting.submit_action(ctx, match_id, bob, dict(view.legal_actions[0]))
    tail = await types(store, match_id)
    assert tail.count("turn_timed_out") == 2 and tail.count("seat_taken_over") == 1
    summary = await reading.get_summary(ctx, match_id)
    assert summary.seats[0].bot and summary.seats[0].level == ctx.config.takeover_bot_level
    assert (await store.get_seats(match_id))[0].bot


async def test_acting_in_time_resets_the_count(
    ctx: Context, store: MemoryEventStore, clock: FakeClock
) -> None:
    match_id, (ann, bob) = await seated(
        ctx, settings={"clock": {"per_decision_s": 10}, "takeover_after": 2}, setup={"order": ORDER}
    )
    from app.service.bots import BotRunner, random_chooser

    sweeper, runner = Sweeper(ctx), BotRunner(ctx, random_chooser)
    clock.advance(10)
    await sweeper.sweep_once()
    await runner.play(match_id)
    await acting.submit_action(
        ctx, match_id, bob, dict((await reading.get_view(ctx, match_id, bob)).legal_actions[0])
    )
    await acting.submit_action(
        ctx, match_id, ann, dict((await reading.get_view(ctx, match_id, ann)).legal_actions[0])
    )
    await acting.submit_action(
        ctx, match_id, bob, dict((await reading.get_view(ctx, match_id, bob)).legal_actions[0])
    )
    clock.advance(10)
    await sweeper.sweep_once()
    assert "seat_taken_over" not in await types(store, match_id)


async def test_a_bank_clock_spends_and_earns_time(ctx: Context, clock: FakeClock) -> None:
    match_id, (ann, bob) = await seated(
        ctx, settings={"clock": {"initial_s": 100, "increment_s": 5}}, setup={"order": ORDER}
    )
    clock.advance(30)
    reply = await acting.submit_action(ctx, match_id, ann, {"type": "play", "card": 1})
    clock.advance(1)
    view = await reading.get_view(ctx, match_id, ann)
    assert [(c.seat, c.bank_s) for c in view.clock] == [(1, 100.0)]
    assert reply.view.clock[0].deadline == "2026-01-01T12:02:10Z"  # bob's turn began at 12:00:30
    await acting.submit_action(ctx, match_id, bob, {"type": "play", "card": 4})
    view = await reading.get_view(ctx, match_id, ann)
    assert [(c.seat, c.bank_s) for c in view.clock] == [(0, 75.0)]  # 100 − 30 + 5


async def test_forfeit_ends_a_two_player_match(
    ctx: Context, store: MemoryEventStore, clock: FakeClock
) -> None:
    match_id, _ = await seated(
        ctx, settings={"clock": {"per_decision_s": 5}, "on_timeout": "forfeit"}, setup={"order": ORDER}
    )
    clock.advance(5)
    await Sweeper(ctx).sweep_once()
    assert await types(store, match_id, 4) == ["turn_timed_out", "match_ended"]
    summary = await reading.get_summary(ctx, match_id)
    assert summary.status == "finished" and summary.winners == (1,)


async def test_two_processes_fire_one_deadline_once(store: MemoryEventStore, clock: FakeClock) -> None:
    one = Context(store, GAMES, clock, Config(dev_features=True))
    two = Context(store, GAMES, clock, Config(dev_features=True))
    match_id, _ = await seated(one, **CLOCK)
    await reading.get_view(two, match_id, None)  # both processes have it cached
    clock.advance(60)
    fired = [await Sweeper(one).sweep_once(), await Sweeper(two).sweep_once()]
    assert sorted(fired) == [0, 1] and (await types(store, match_id)).count("turn_timed_out") == 1


async def test_waiting_matches_expire(store: MemoryEventStore, clock: FakeClock) -> None:
    ctx = Context(store, GAMES, clock, Config(waiting_expiry_s=3600))
    match_id = await create(ctx)
    clock.advance(3599)
    assert await Sweeper(ctx).sweep_once() == 0
    clock.advance(1)
    assert await Sweeper(ctx).sweep_once() == 1
    assert await types(store, match_id) == ["match_aborted", "match_ended"]  # never dealt (drago-fair-2)
    summary = await reading.get_summary(ctx, match_id)
    assert summary.status == "aborted"
    with pytest.raises(errors.MatchOver):
        await seating.join_seat(ctx, match_id, 0, "late")


async def test_resigning(ctx: Context, store: MemoryEventStore) -> None:
    match_id, (ann, bob) = await seated(ctx, setup={"order": ORDER})
    first = await acting.resign(ctx, match_id, bob, idempotency_key="r")
    assert [e.type for e in first.events] == ["seat_resigned", "match_ended"]
    assert first.view.outcome is not None and first.view.outcome.winners == (0,)
    assert first.view.outcome.reason == "resigned"
    assert await acting.resign(ctx, match_id, bob, idempotency_key="r") == first  # idempotent
    with pytest.raises(errors.MatchOver):
        await acting.resign(ctx, match_id, ann)
    waiting = await create(ctx)
    grant = await seating.join_seat(ctx, waiting, 0, "cy")
    with pytest.raises(errors.MatchNotStarted):
        await acting.resign(ctx, waiting, await identify(ctx, grant.token))


async def test_the_host_controls(ctx: Context, store: MemoryEventStore) -> None:
    from app.service import creating
    from app.service.creating import CreateRequest

    created = await creating.create_match(ctx, CreateRequest("toy", 2))
    match_id, host = created.match.id, created.host_token
    grant = await seating.join_seat(ctx, match_id, 0, "ann")
    ann = await identify(ctx, grant.token)
    with pytest.raises(errors.Forbidden):
        await seating.abort(ctx, match_id, grant.token)  # a seat token is not the host's
    with pytest.raises(errors.Unauthorized):
        await seating.abort(ctx, match_id, None)
    with pytest.raises(errors.SeatNotHeld):
        await seating.reissue_token(ctx, match_id, 1, host)
    new = await seating.reissue_token(ctx, match_id, 0, host)
    assert new.token != grant.token
    with pytest.raises(errors.Unauthorized):
        await reading.get_view(ctx, match_id, ann)  # the old token stopped at once
    with pytest.raises(errors.Unauthorized):
        await reading.get_view(ctx, match_id, await identify(ctx, grant.token))
    assert (await reading.get_view(ctx, match_id, await identify(ctx, new.token))).seat == 0
    events = await store.read(match_id)
    assert (
        events[-1].type == "seat_token_reissued"
        and grant.token not in str(events)
        and new.token not in str(events)
    )
    summary = await seating.abort(ctx, match_id, host)
    assert summary.status == "aborted"
    with pytest.raises(errors.MatchOver):
        await seating.abort(ctx, match_id, host)
    other = await create(ctx)
    with pytest.raises(errors.Forbidden):
        await seating.abort(ctx, other, host)  # the host token of another match


async def test_the_host_hands_a_silent_seat_to_a_bot(ctx: Context, bots: RecordingBots) -> None:
    from app.service import creating
    from app.service.creating import CreateRequest

    created = await creating.create_match(ctx, CreateRequest("toy", 2, setup={"order": ORDER}))
    match_id, host = created.match.id, created.host_token
    for s in (0, 1):
        await seating.join_seat(ctx, match_id, s, f"p{s}")
    with pytest.raises(errors.AlreadyStarted):
        await seating.abort(ctx, match_id, host)
    summary = await seating.hand_to_bot(ctx, match_id, 0, host)
    assert summary.seats[0].bot and bots.woken[-1] == match_id


async def test_a_match_that_cannot_be_fired_does_not_hold_up_the_others(
    ctx: Context, store: MemoryEventStore, clock: FakeClock, caplog: pytest.LogCaptureFixture
) -> None:
    from datetime import timedelta

    from tests.store.records import match_record

    broken = match_record(  # due, with settings this server cannot read (a row written by hand)
        game="toy", status="active", settings={"clock": {"turn_seconds": 60}}, deadline_at=clock.now
    )
    await store.create_match(broken, [])
    match_id, _ = await seated(ctx, **CLOCK)
    sweeper = Sweeper(ctx)
    clock.advance(60)
    assert broken.deadline_at is not None and broken.deadline_at < clock.now - timedelta(seconds=59)
    assert await sweeper.sweep_once() == 1  # the good match's deadline fired all the same
    assert await types(store, match_id, 4) == ["turn_timed_out"]
    assert sweeper.failed == 1
    assert any(broken.id in r.getMessage() for r in caplog.records if r.name == "app.sweeper")
