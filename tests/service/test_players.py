"""Players: one key for many seats, "my matches", and notices written with the commits."""

from __future__ import annotations

import pytest

from app.service import acting, errors, players, reading, seating
from app.service.auth import Caller, identify
from app.service.context import Context
from app.service.ports import StoredNotice
from app.service.results import PlayerMatchListing
from app.store.memory import MemoryEventStore
from tests.service.helpers import ORDER, create


async def test_a_player_key_holds_seats_in_many_matches(ctx: Context, store: MemoryEventStore) -> None:
    made = await players.create_player(ctx, "Ada")
    assert made.key.startswith("pk_") and made.name == "Ada"
    ada = await identify(ctx, made.key)
    assert (await players.me(ctx, ada)).player_id == made.player_id
    matches = [await create(ctx, setup={"order": ORDER}) for _ in range(3)]
    for m in matches:
        await seating.join_seat(ctx, m, 1, "Ada", player=ada)
        await seating.join_seat(ctx, m, 0, "Bo")
    page = await players.my_matches(ctx, ada)
    assert page.total == 3 and {i.match.id for i in page.items} == set(matches)
    assert await players.my_matches(ctx, ada, to_act=True) == PlayerMatchListing((), 0, 50, 0)
    assert all(i.seat == 1 and not i.my_turn for i in page.items)


async def test_the_key_authorizes_the_seat_it_holds(ctx: Context) -> None:
    made = await players.create_player(ctx, "Ada")
    ada = await identify(ctx, made.key)
    match_id = await create(ctx, setup={"order": ORDER})
    await seating.join_seat(ctx, match_id, 0, "Ada", player=ada)
    with pytest.raises(errors.AlreadySeated):
        await seating.join_seat(ctx, match_id, 1, "Ada again", player=ada)
    bo = await identify(ctx, (await seating.join_seat(ctx, match_id, 1, "Bo")).token)
    reply = await acting.submit_action(ctx, match_id, ada, {"type": "play", "card": 1})
    assert reply.view.seat == 0
    other = await create(ctx)
    with pytest.raises(errors.Forbidden):
        await reading.get_view(ctx, other, ada)  # holds no seat there
    page = await players.my_matches(ctx, ada)
    assert [(i.seat, i.my_turn) for i in page.items] == [(0, False)]
    await acting.submit_action(ctx, match_id, bo, {"type": "play", "card": 4})
    page = await players.my_matches(ctx, ada, to_act=True)
    assert [(i.match.id, i.seat, i.my_turn) for i in page.items] == [(match_id, 0, True)]


async def test_rotating_the_key_stops_the_old_one(ctx: Context) -> None:
    made = await players.create_player(ctx, "Ada")
    old = await identify(ctx, made.key)
    new = await players.rotate_key(ctx, old)
    assert new.key != made.key and new.player_id == made.player_id
    with pytest.raises(errors.Unauthorized):
        await identify(ctx, made.key)
    with pytest.raises(errors.Unauthorized):
        await players.me(ctx, old)  # identified before the rotation: refused now
    assert (await players.me(ctx, await identify(ctx, new.key))).name == "Ada"


async def test_notices_announce_each_turn_once(ctx: Context, store: MemoryEventStore) -> None:
    ada = await identify(ctx, (await players.create_player(ctx, "Ada")).key)
    bea = await identify(ctx, (await players.create_player(ctx, "Bea")).key)
    match_id = await create(ctx, setup={"order": ORDER})
    await seating.join_seat(ctx, match_id, 0, "Ada", player=ada)
    await seating.join_seat(ctx, match_id, 1, "Bea", player=bea)
    await acting.submit_action(ctx, match_id, ada, {"type": "play", "card": 1})
    await acting.submit_action(ctx, match_id, bea, {"type": "play", "card": 4})
    cursor, mine = await notices(ctx, ada, 0)
    assert [(n.cursor, n.type, n.data["seq"]) for n in mine] == [
        (1, "match_started", 4),
        (2, "your_turn", 4),
        (3, "your_turn", 8),
    ]
    assert cursor == 3
    _, theirs = await notices(ctx, bea, 0)
    assert [n.type for n in theirs] == ["match_started", "your_turn"]
    assert all(set(n.data) <= {"match_id", "seat", "seq", "deadline", "reason", "winners"} for n in mine)
    with pytest.raises(errors.ValidationFailed):
        await notices(ctx, ada, 4)


async def notices(ctx: Context, caller: Caller, after: int) -> tuple[int, list[StoredNotice]]:
    """What the personal stream reads: the player's cursor (checked) and notices after `after`."""
    player = await players.player_of(ctx, caller)
    players.check_after(player, after)
    return player.cursor, await ctx.store.read_notices(player.id, after, 100)


async def test_a_server_may_require_a_player_key_to_create(store: MemoryEventStore) -> None:
    from app.service import creating
    from app.service.context import Config
    from app.service.creating import CreateRequest
    from tests.service.toy_game import GAMES

    ctx = Context(store, GAMES, config=Config(require_player_key=True))
    with pytest.raises(errors.Unauthorized):
        await creating.create_match(ctx, CreateRequest("toy", 2))
    made = await players.create_player(ctx, "Ada")
    created = await creating.create_match(ctx, CreateRequest("toy", 2), await identify(ctx, made.key))
    assert created.match.status == "waiting"
