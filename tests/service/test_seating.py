"""Creating, joining and starting matches: every step an event in the match's own stream."""

from __future__ import annotations

import asyncio
import hashlib
import random
import secrets

import pytest

from app.games import fair2
from app.games.core import replay
from app.matches.fold import decode
from app.service import auth, creating, errors, reading, seating
from app.service.auth import hash_token, identify
from app.service.context import Config, Context
from app.service.creating import CreateRequest
from app.service.ports import MatchFilter, SeatRecord
from app.service.results import SeatGrant
from app.store.memory import MemoryEventStore
from tests.service.conftest import RecordingNotifier
from tests.service.helpers import ORDER, create, play_randomly, recorded, seated
from tests.service.toy_game import GAMES, TOY


async def test_a_match_waits_until_its_last_seat_is_filled(ctx: Context, store: MemoryEventStore) -> None:
    match_id = await create(ctx)
    summary = await reading.get_summary(ctx, match_id)
    assert summary.status == "waiting" and summary.seq == 0 and summary.to_act == ()  # not dealt yet
    assert len(summary.commitment) == 64
    grant = await seating.join_seat(ctx, match_id, 0, "  ann  ")
    assert grant.seat == 0 and len(grant.token) >= 40
    await seating.join_seat(ctx, match_id, 1, "bob")
    summary = await reading.get_summary(ctx, match_id)
    assert summary.status == "active" and summary.to_act == (0,)
    assert [s.name for s in summary.seats] == ["ann", "bob"]
    events = await store.read(match_id)
    assert [(e.type, e.seq, e.commit) for e in events] == [
        ("seat_joined", 1, 1),
        ("seat_joined", 2, 4),  # the last seat deals (drago-fair-2): after every seat_joined
        ("dealt", 3, 4),
        ("match_started", 4, 4),
    ]
    assert events[0].data == {
        "type": "seat_joined",
        "seat": 0,
        "name": "ann",
        "bot": False,
        "level": None,
        "player_id": None,
        "seed": grant.client_seed,
    }
    assert grant.client_seed is not None and len(grant.client_seed) == 32  # the server chose it
    page = await reading.list_matches(ctx, MatchFilter(status="active"))
    assert [m.id for m in page.items] == [match_id] and page.total == 1


async def test_tokens_are_stored_only_as_hashes_and_checked_per_match(
    ctx: Context, store: MemoryEventStore
) -> None:
    match_id, callers = await seated(ctx)
    rows = await store.get_seats(match_id)
    assert all(r.token_hash is not None and len(r.token_hash) == 64 for r in rows)
    assert hash_token("x") == hashlib.sha256(b"x").hexdigest()
    assert callers[1].match_id == match_id and callers[1].seat == 1
    with pytest.raises(errors.Unauthorized):
        await identify(ctx, "nope")
    with pytest.raises(errors.Unauthorized):
        await identify(ctx, None)
    other, other_callers = await seated(ctx)
    with pytest.raises(errors.Forbidden):
        await reading.get_view(ctx, match_id, other_callers[0])
    with pytest.raises(errors.SeatTaken):
        await seating.join_seat(ctx, match_id, 0, "eve")
    with pytest.raises(errors.NotFound):
        await seating.join_seat(ctx, match_id, 2, "eve")
    with pytest.raises(errors.ValidationFailed):
        await seating.join_seat(ctx, other, 0, "\x00")


async def test_seat_tokens_never_read_as_player_keys(ctx: Context, monkeypatch: pytest.MonkeyPatch) -> None:
    """A random seat token may start with `pk_` (`token_urlsafe` draws `_`) or `-` (an option on a
    command line): new ones never do, and one issued before that rule still identifies its seat."""
    draws = iter(["pk_lucky", "ht_lucky", "iv_lucky", "-lucky", "plain"])
    monkeypatch.setattr(secrets, "token_urlsafe", lambda n: next(draws))
    assert auth.new_token() == "plain"
    monkeypatch.undo()
    match_id = await create(ctx)
    old = "pk_" + "a" * 40
    monkeypatch.setattr(seating, "new_token", lambda prefix="": old)
    await seating.join_seat(ctx, match_id, 0, "p0")
    caller = await identify(ctx, old)
    assert (caller.kind, caller.match_id, caller.seat) == ("seat", match_id, 0)
    with pytest.raises(errors.Unauthorized, match="player key is not valid"):
        await identify(ctx, "pk_" + "b" * 40)


async def test_a_full_game_reveals_a_log_that_replays(ctx: Context, notifier: RecordingNotifier) -> None:
    match_id, callers = await seated(ctx)
    with pytest.raises(errors.MatchNotFinished):
        await reading.reveal(ctx, match_id)
    await play_randomly(ctx, match_id, callers, random.Random(1))
    summary = await reading.get_summary(ctx, match_id)
    assert summary.status == "finished" and summary.to_act == ()
    revealed = await reading.reveal(ctx, match_id)
    events = revealed.events
    assert [e.seq for e in events] == list(range(1, summary.seq + 1))
    assert events[-1].type == "match_ended" and events[-1].commit == summary.seq
    assert [e.type for e in events[:4]] == ["seat_joined", "seat_joined", "dealt", "match_started"]
    assert revealed.algorithm == "drago-fair-2" and revealed.seat_seeds is not None
    digest = hashlib.sha256(bytes.fromhex(revealed.secret) + b"drago-fair-2").hexdigest()
    assert digest == revealed.commitment == summary.commitment
    seeds = list(revealed.seat_seeds)
    assert [e.data["seed"] for e in events[:2]] == seeds
    redealt = TOY.start(
        2, revealed.options, fair2.stream(bytes.fromhex(revealed.secret), match_id, seeds, None)
    )
    assert decode(TOY, events[2]) == redealt
    game_events = [decode(TOY, e) for e in events if e.type in TOY.event_types]
    final = replay(TOY, game_events)
    outcome = TOY.outcome(final)
    assert outcome is not None and outcome.scores == summary.scores == tuple(revealed.outcome["scores"])
    assert notifier.calls[-1] == (match_id, summary.seq)


async def test_the_dice_follow_the_secret(store: MemoryEventStore) -> None:
    """Two matches with the same dev seed deal and draw the same cards."""
    ctx = Context(store, GAMES, config=Config(dev_features=True))
    logs = []
    for _ in range(2):
        match_id, callers = await seated(ctx, seed="fixed")
        await play_randomly(ctx, match_id, callers, random.Random(7))
        logs.append([(e.type, dict(e.data)) for e in await store.read(match_id) if e.type != "seat_joined"])
    assert logs[0] == logs[1]


async def test_bots_take_their_seats_at_creation(ctx: Context, store: MemoryEventStore) -> None:
    match_id = await create(ctx, bots={1: "random"})
    summary = await reading.get_summary(ctx, match_id)
    assert summary.seats[1].bot and summary.seats[1].level == "random" and summary.seats[1].name == "bot 1"
    all_bots = await create(ctx, bots={0: None, 1: "greedy"})
    events = await store.read(all_bots)
    assert [e.type for e in events] == ["seat_joined", "seat_joined", "dealt", "match_started"]
    assert {e.commit for e in events} == {4}  # the creation is one commit
    summary = await reading.get_summary(ctx, all_bots)
    assert summary.status == "active" and summary.seats[0].level == "greedy"  # the default level


async def test_creation_refusals_change_nothing(ctx: Context, store: MemoryEventStore) -> None:
    cases: list[tuple[dict[str, object], str]] = [
        ({"game": "chess"}, "game"),
        ({"players": 3}, "players"),
        ({"options": {"rounds": 9}}, "options.rounds"),
        ({"bots": {2: None}}, "bots"),
        ({"bots": {1: "grandmaster"}}, "bots"),
        ({"setup": {"order": [1]}}, "setup.order"),
        ({"settings": {"clock": {"per_decision_s": 0}}}, "clock.per_decision_s"),
        ({"settings": {"visibility": "secret"}}, "visibility"),
        ({"settings": {"lifecycle": True}}, "lifecycle"),
    ]
    for kwargs, field in cases:
        with pytest.raises(errors.ValidationFailed) as info:
            await create(ctx, **kwargs)
        details = info.value.details
        assert isinstance(details, dict) and details["field"] == field, kwargs
    assert (await store.list_matches(MatchFilter(include_unlisted=True)))[1] == 0


async def test_dev_features_are_refused_when_off(store: MemoryEventStore) -> None:
    ctx = Context(store, GAMES)
    for kwargs in ({"seed": "x"}, {"setup": {"order": ORDER}}):
        with pytest.raises(errors.Forbidden):
            await create(ctx, **kwargs)


async def test_unlisted_matches_need_their_invite(ctx: Context) -> None:
    from app.service import creating
    from app.service.creating import CreateRequest

    created = await creating.create_match(ctx, CreateRequest("toy", 2, settings={"visibility": "unlisted"}))
    assert created.invite is not None and created.invite.startswith("iv_")
    match_id = created.match.id
    public = await create(ctx)
    page = await reading.list_matches(ctx, MatchFilter())
    assert [m.id for m in page.items] == [public]
    for invite in (None, "iv_wrong"):
        with pytest.raises(errors.Forbidden):
            await seating.join_seat(ctx, match_id, 0, "eve", invite=invite)
    await seating.join_seat(ctx, match_id, 0, "ann", invite=created.invite)
    assert (await reading.get_summary(ctx, match_id)).seats[0].name == "ann"


async def test_the_lobby_shows_free_seats_and_filters_open_matches(ctx: Context) -> None:
    waiting = await create(ctx)
    await seating.join_seat(ctx, waiting, 1, "bob")
    full, _ = await seated(ctx)
    page = await reading.list_matches(ctx, MatchFilter(open=True))
    assert [m.id for m in page.items] == [waiting]
    assert [s.taken for s in page.items[0].seats] == [False, True]
    assert {m.id for m in (await reading.list_matches(ctx, MatchFilter(open=False))).items} == {full}


async def test_only_events_this_process_missed_are_read(
    store: MemoryEventStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls = recorded(monkeypatch, store, "read")
    ctx = Context(store, GAMES, config=Config(dev_features=True))
    match_id, callers = await seated(ctx, setup={"order": ORDER})
    from app.service import acting

    calls.clear()
    await acting.submit_action(ctx, match_id, callers[0], {"type": "play", "card": 1})
    await acting.submit_action(ctx, match_id, callers[1], {"type": "play", "card": 4})
    assert calls == []  # this process committed the state it acts on: nothing to read
    other = Context(store, GAMES)  # a second process, its own cache
    await acting.submit_action(other, match_id, callers[0], {"type": "play", "card": 2})
    assert calls[-1] == (match_id, 0, None)
    # The first process's cache is stale: its append conflicts, then it reads only what it missed.
    await acting.submit_action(ctx, match_id, callers[1], {"type": "play", "card": 5})
    assert calls[-1] == (match_id, 8, None)


async def test_joins_decide_on_the_cache_and_a_stale_one_ends_in_the_store_s_verdict(
    store: MemoryEventStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A join on a match this process holds reads nothing; a process whose cache missed another's
    join conflicts, reads what it missed and decides again: the seat taken there is refused, a
    free one is granted."""
    reads = recorded(monkeypatch, store, "read")
    here, there = Context(store, GAMES), Context(store, GAMES)  # two processes, one store
    for seat, taken in ((0, True), (1, False)):
        match_id = await create(here)
        stale = (await there.loader.load(match_id)).match.seq
        reads.clear()
        await seating.join_seat(here, match_id, 0, "ann")
        assert reads == []  # this process holds the match
        if taken:
            with pytest.raises(errors.ServiceError) as refused:
                await seating.join_seat(there, match_id, seat, "bob")
            assert refused.value.code == "seat_taken"
        else:
            assert (await seating.join_seat(there, match_id, seat, "bob")).seat == 1
            assert [s.name for s in await store.get_seats(match_id)] == ["ann", "bob"]
            assert (await here.loader.load(match_id)).match.started
        assert reads[0] == (match_id, stale, None)  # first only the join it missed


async def test_a_held_match_s_record_comes_from_the_cache_and_an_unknown_one_is_not_found(
    ctx: Context, store: MemoryEventStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Joins, the host's operations and stream opens need only a record's fixed members (players,
    game, host and invite hashes), which never change: a match this process holds costs no read."""
    match_id = await create(ctx)
    reads = recorded(monkeypatch, store, "get_match")
    await seating.join_seat(ctx, match_id, 0, "ann")
    assert (await ctx.loader.record(match_id)).id == match_id
    assert reads == []
    ctx.loader.cache = type(ctx.loader.cache)()  # a process that does not hold the match
    assert (await ctx.loader.record(match_id)).players == 2
    assert reads == [(match_id,)]
    with pytest.raises(errors.NotFound):
        await ctx.loader.record("no-such-match")


async def test_a_token_this_process_issued_is_known_without_a_lookup_and_checked_all_the_same(
    ctx: Context, store: MemoryEventStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Joining (and reissuing) remembers the new token's seat, so its first use costs no store
    lookup; the hint never outranks the seat rows: a reissued token stays refused."""
    created = await creating.create_match(ctx, CreateRequest("toy", 2))
    match_id = created.match.id
    lookups = recorded(monkeypatch, store, "seat_by_token")
    grants = [await seating.join_seat(ctx, match_id, seat, f"p{seat}") for seat in (0, 1)]
    callers = [await identify(ctx, g.token) for g in grants]
    assert [(c.match_id, c.seat) for c in callers] == [(match_id, 0), (match_id, 1)]
    assert lookups == []
    view = await reading.get_view(ctx, match_id, callers[0])
    assert view.seat == 0
    fresh = await seating.reissue_token(ctx, match_id, 0, created.host_token)
    with pytest.raises(errors.Unauthorized):
        await identify(ctx, grants[0].token)  # the old token: no longer anywhere
    assert (await identify(ctx, fresh.token)).seat == 0
    assert lookups == [(hash_token(grants[0].token),)]


async def test_a_cold_load_never_holds_seat_rows_older_than_its_events(
    store: MemoryEventStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A process loading a match it does not hold while another process seats a player must not
    keep the fold's new seat without its row (the player's token would be refused there for good):
    the seat rows are read after the events, or read again after them."""
    here, there = Context(store, GAMES), Context(store, GAMES)  # two processes, one store
    match_id = await create(there)
    await seating.join_seat(there, match_id, 0, "ann")
    read = store.read
    grants: list[SeatGrant] = []

    async def read_while_bob_joins(match_id: str, after: int = 0, limit: int | None = None) -> object:
        monkeypatch.setattr(store, "read", read)  # only the first read
        grants.append(await seating.join_seat(there, match_id, 1, "bob"))  # commits between the reads
        return await read(match_id, after, limit)

    monkeypatch.setattr(store, "read", read_while_bob_joins)
    loaded = await here.loader.load(match_id)
    assert loaded.match.seats[1].name == "bob"
    bob = await identify(here, grants[0].token)
    view = await reading.get_view(here, match_id, bob)
    assert view.seat == 1


@pytest.mark.parametrize("change", ["join", "reissue", "takeover"])
async def test_a_cold_load_reads_the_seat_rows_again_when_a_seat_changed_after_it_read_them(
    store: MemoryEventStore, monkeypatch: pytest.MonkeyPatch, change: str
) -> None:
    """A cold load reads the events and the seat rows together. Here another process commits a
    join, a token reissue or a takeover after the rows are read and before the events are: the
    events hold the change, so the load must not keep the rows it read first (a new token would be
    refused here for good, a bot seat kept a person's)."""
    here, there = Context(store, GAMES), Context(store, GAMES)  # two processes, one store
    created = await creating.create_match(there, CreateRequest("toy", 2))
    match_id, host = created.match.id, created.host_token
    grants = [await seating.join_seat(there, match_id, 0, "ann")]
    if change != "join":
        grants.append(await seating.join_seat(there, match_id, 1, "bob"))
    get_seats, read = store.get_seats, store.read
    written = asyncio.Event()

    async def seats_then_a_change(match_id: str) -> list[SeatRecord]:
        monkeypatch.setattr(store, "get_seats", get_seats)  # only the first read
        rows = await get_seats(match_id)
        if change == "join":
            grants.append(await seating.join_seat(there, match_id, 1, "bob"))
        elif change == "reissue":
            grants[1] = await seating.reissue_token(there, match_id, 1, host)
        else:
            await seating.hand_to_bot(there, match_id, 1, host)
        written.set()
        return rows

    async def events_after_the_change(match_id: str, after: int = 0, limit: int | None = None) -> object:
        monkeypatch.setattr(store, "read", read)
        await asyncio.wait_for(written.wait(), 2)  # the rows were read first, then the change committed
        return await read(match_id, after, limit)

    monkeypatch.setattr(store, "get_seats", seats_then_a_change)
    monkeypatch.setattr(store, "read", events_after_the_change)
    loaded = await here.loader.load(match_id)
    assert loaded.match.seq == (await store.get_match(match_id) or created.match).seq  # the change's too
    assert list(loaded.seats) == await store.get_seats(match_id)
    assert loaded.match.seats[1].bot == (change == "takeover") == loaded.seats[1].bot
    if change != "takeover":
        assert (await identify(here, grants[1].token)).seat == 1
