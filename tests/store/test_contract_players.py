"""The `EventStore` contract, continued: players, their notices (written with appends, gap-free
cursors), a player's matches, and the lobby (filters, paging, totals)."""

from __future__ import annotations

import asyncio
import uuid
from datetime import UTC, datetime, timedelta

import pytest

from app.service.ports import (
    EventStore,
    MatchFilter,
    MatchStatus,
    MatchUpdate,
    PlayerMatchFilter,
    PlayerRecord,
    StoredNotice,
)

from .records import T0, append, contents, join, new_id, new_match, new_player, notice

BIG = 2**62

# --- players -------------------------------------------------------------------------------------


async def test_players_are_found_by_id_and_by_key(store: EventStore) -> None:
    ana = await new_player(store)
    assert await store.get_player(ana.id) == ana
    assert await store.player_by_key(ana.key_hash) == ana
    assert await store.get_player(new_id("p")) is None
    assert await store.player_by_key(new_id("key")) is None


async def test_a_player_id_or_key_hash_exists_once(store: EventStore) -> None:
    ana = await new_player(store)
    for twin in (
        PlayerRecord(ana.id, f"Twin {new_id('')[-8:]}", new_id("key"), T0),
        PlayerRecord(new_id("p"), f"Twin {new_id('')[-8:]}", ana.key_hash, T0),
    ):
        with pytest.raises(ValueError):
            await store.create_player(twin)
        assert await store.get_player(twin.id) in (None, ana)
    assert await store.player_by_key(ana.key_hash) == ana


async def test_a_new_key_replaces_the_old_one(store: EventStore) -> None:
    ana, bea = await new_player(store), await new_player(store, "Bea")
    new_key = new_id("key")
    assert await store.set_player_key(ana.id, new_key) is True
    assert await store.player_by_key(ana.key_hash) is None
    found = await store.player_by_key(new_key)
    assert found is not None and (found.id, found.key_hash) == (ana.id, new_key)
    assert await store.set_player_key(new_id("p"), new_id("key")) is False
    with pytest.raises(ValueError):
        await store.set_player_key(ana.id, bea.key_hash)
    assert await store.player_by_key(bea.key_hash) == bea
    assert await store.set_player_key(ana.id, new_key) is True  # its own key again: no conflict
    cid = PlayerRecord(new_id("p"), f"Cid {new_id('')[-8:]}", ana.key_hash, T0)  # the replaced key is free
    await store.create_player(cid)
    assert await store.player_by_key(ana.key_hash) == cid


async def test_a_ban_is_set_read_and_lifted(store: EventStore) -> None:
    ana, bea = await new_player(store), await new_player(store, "Bea")
    at = T0 + timedelta(hours=1, microseconds=5)
    assert await store.set_ban(ana.id, at, "abuse in chat") is True
    for found in (await store.get_player(ana.id), await store.player_by_key(ana.key_hash)):
        assert found is not None and (found.banned_at, found.ban_reason) == (at, "abuse in chat")
    assert await store.get_player(bea.id) == bea  # nobody else
    assert bea.banned_at is None and bea.ban_reason is None
    unknown = new_id("p")
    assert await store.banned_among([ana.id, bea.id, unknown]) == {ana.id}
    assert await store.banned_among([]) == set()
    assert await store.set_ban(unknown, at, None) is False
    assert await store.set_ban(ana.id, None, "ignored") is True  # lifting clears the reason too
    assert await store.get_player(ana.id) == ana
    assert await store.banned_among([ana.id]) == set()


# --- notices -------------------------------------------------------------------------------------


async def test_notices_are_written_with_the_append_with_gap_free_cursors(store: EventStore) -> None:
    ana, bea = await new_player(store), await new_player(store, "Bea")
    match_id = await new_match(store)
    given = (notice(bea, 1), notice(ana, 1), notice(bea, 2), notice(ana, 2), notice(bea, 3))
    result = await store.append(append(match_id, 0, notices=given))
    assert [(n.player_id, n.cursor, n.type, n.data) for n in result.notices] == [
        (bea.id, 1, "your_turn", given[0].data),
        (ana.id, 1, "your_turn", given[1].data),
        (bea.id, 2, "your_turn", given[2].data),
        (ana.id, 2, "your_turn", given[3].data),
        (bea.id, 3, "your_turn", given[4].data),
    ]
    assert all(n.recorded_at == T0 for n in result.notices)
    result = await store.append(append(match_id, 1, notices=(notice(ana, 3),)))
    assert [n.cursor for n in result.notices] == [3]
    stored = await store.read_notices(ana.id)
    assert [(n.cursor, n.data["n"]) for n in stored] == [(1, 1), (2, 2), (3, 3)]
    assert stored[2] == result.notices[0]
    player = await store.get_player(ana.id)
    assert player is not None and player.cursor == 3


async def test_notices_read_after_and_limit(store: EventStore) -> None:
    ana = await new_player(store)
    match_id = await new_match(store)
    await store.append(append(match_id, 0, notices=tuple(notice(ana, i) for i in range(1, 6))))

    async def cursors(after: int = 0, limit: int | None = None) -> list[int]:
        return [n.cursor for n in await store.read_notices(ana.id, after, limit)]

    assert await cursors() == [1, 2, 3, 4, 5]
    assert await cursors(after=3) == [4, 5]
    assert await cursors(after=1, limit=2) == [2, 3]
    assert await cursors(limit=0) == await cursors(after=BIG) == await cursors(after=BIG, limit=BIG) == []
    assert await cursors(limit=BIG) == [1, 2, 3, 4, 5]
    assert await store.read_notices(new_id("p")) == []


async def test_a_notice_for_an_unknown_player_fails_the_whole_append(store: EventStore) -> None:
    ana = await new_player(store)
    match_id = await new_match(store)
    before = await contents(store, match_id, [ana])
    stranger = PlayerRecord(new_id("p"), f"Zed {new_id('')[-8:]}", new_id("key"), T0)
    with pytest.raises(KeyError):
        await store.append(append(match_id, 0, notices=(notice(ana, 1), notice(stranger, 1))))
    assert await contents(store, match_id, [ana]) == before


async def test_concurrent_appends_notifying_the_same_players_leave_no_gaps(store: EventStore) -> None:
    players = [await new_player(store, f"P{i}") for i in range(3)]
    matches = [await new_match(store) for _ in range(12)]

    async def play(m: int) -> list[StoredNotice]:
        written: list[StoredNotice] = []
        for turn in range(4):
            told = tuple(notice(players[(m + turn + k) % 3], turn) for k in range(2))
            written += (await store.append(append(matches[m], turn, notices=told))).notices
        return written

    results = await asyncio.gather(*(play(m) for m in range(12)))
    for p in players:
        stored = await store.read_notices(p.id)
        assert [n.cursor for n in stored] == list(range(1, len(stored) + 1))
        returned = sorted((n for r in results for n in r if n.player_id == p.id), key=lambda n: n.cursor)
        assert returned == stored
        player = await store.get_player(p.id)
        assert player is not None and player.cursor == len(stored)
    assert sum(len(r) for r in results) == 12 * 4 * 2


# --- a player's matches --------------------------------------------------------------------------


async def test_a_players_matches_newest_activity_first(store: EventStore) -> None:
    ana, bea = await new_player(store), await new_player(store, "Bea")
    game = f"g-{uuid.uuid4().hex}"
    ids = [await new_match(store, game=game, seated=[ana, bea] if i % 2 else [bea, ana]) for i in range(4)]
    await new_match(store, seated=[bea])
    # Activity in the order 2, 0, 3, 1; match 3 finishes, and in match 0 it is seat 1's turn.
    for n, i in enumerate((2, 0, 3, 1)):
        status: MatchStatus = "finished" if i == 3 else "active"
        update = MatchUpdate(status, (1,) if i == 0 else (0,) if status == "active" else ())
        await store.append(append(ids[i], 0, update=update, at=T0 + timedelta(minutes=n)))

    page, total = await store.player_matches(PlayerMatchFilter(ana.id))
    assert [(pm.record.id, pm.seat) for pm in page] == [(ids[1], 0), (ids[3], 0), (ids[0], 1), (ids[2], 1)]
    assert total == 4 and page[0].record == await store.get_match(ids[1])
    page, total = await store.player_matches(PlayerMatchFilter(ana.id, limit=2, offset=1))
    assert [pm.record.id for pm in page] == [ids[3], ids[0]] and total == 4
    page, total = await store.player_matches(PlayerMatchFilter(ana.id, status="finished"))
    assert [pm.record.id for pm in page] == [ids[3]] and total == 1
    page, total = await store.player_matches(PlayerMatchFilter(ana.id, to_act=True))
    assert [(pm.record.id, pm.seat) for pm in page] == [(ids[1], 0), (ids[0], 1)] and total == 2
    page, total = await store.player_matches(PlayerMatchFilter(bea.id, game=game, to_act=True))
    assert [(pm.record.id, pm.seat) for pm in page] == [(ids[2], 0)] and total == 1
    page, total = await store.player_matches(PlayerMatchFilter(ana.id, offset=BIG))
    assert page == [] and total == 4
    assert await store.player_matches(PlayerMatchFilter(new_id("p"))) == ([], 0)


async def test_a_players_matches_follow_the_seats_written_with_appends(store: EventStore) -> None:
    ana, bea = await new_player(store), await new_player(store, "Bea")
    match_id = await new_match(store)
    assert await store.player_matches(PlayerMatchFilter(ana.id)) == ([], 0)
    await store.append(append(match_id, 0, seats=(join(0, ana), join(1))))
    page, total = await store.player_matches(PlayerMatchFilter(ana.id))
    assert [(pm.record.id, pm.seat) for pm in page] == [(match_id, 0)] and total == 1
    await store.append(append(match_id, 1, seats=(join(0, bea),)))  # the seat changes hands
    assert await store.player_matches(PlayerMatchFilter(ana.id)) == ([], 0)
    page, total = await store.player_matches(PlayerMatchFilter(bea.id))
    assert [(pm.record.id, pm.seat) for pm in page] == [(match_id, 0)] and total == 1
    assert page[0].record == await store.get_match(match_id)


# --- the lobby -----------------------------------------------------------------------------------


async def test_lobby_filters_pages_and_counts(store: EventStore) -> None:
    game = f"g-{uuid.uuid4().hex}"  # other tests' matches share the PostgreSQL database
    ids = []
    statuses: list[MatchStatus] = ["waiting", "active", "waiting", "finished", "waiting", "aborted"]
    for i, status in enumerate(statuses):
        ids.append(await new_match(store, game=game, status=status, created_at=T0 + timedelta(minutes=i)))
    await new_match(store, game=f"other-{game}", created_at=T0 + timedelta(hours=1))

    page, total = await store.list_matches(MatchFilter(game=game))
    assert [m.id for m in page] == ids[::-1] and total == 6
    page, total = await store.list_matches(MatchFilter(game=game, status="waiting", limit=2))
    assert [m.id for m in page] == [ids[4], ids[2]] and total == 3
    page, total = await store.list_matches(MatchFilter(game=game, status="waiting", limit=2, offset=2))
    assert [m.id for m in page] == [ids[0]] and total == 3
    page, total = await store.list_matches(MatchFilter(game=game, status="waiting", offset=BIG, limit=BIG))
    assert page == [] and total == 3
    page, total = await store.list_matches(MatchFilter(game=game, status="aborted"))
    assert [m.id for m in page] == [ids[5]] and total == 1
    assert page[0] == await store.get_match(ids[5])


async def test_lobby_shows_unlisted_matches_only_when_asked(store: EventStore) -> None:
    game = f"g-{uuid.uuid4().hex}"
    public = await new_match(store, game=game)
    unlisted = await new_match(store, game=game, visibility="unlisted", created_at=T0 + timedelta(seconds=1))
    assert [m.id for m in (await store.list_matches(MatchFilter(game=game)))[0]] == [public]
    page, total = await store.list_matches(MatchFilter(game=game, include_unlisted=True))
    assert [m.id for m in page] == [unlisted, public] and total == 2


async def test_lobby_open_means_waiting_with_free_seats(store: EventStore) -> None:
    game = f"g-{uuid.uuid4().hex}"
    full = await new_match(store, game=game, open_seats=0)
    free = await new_match(store, game=game, open_seats=1, created_at=T0 + timedelta(seconds=1))
    started = await new_match(
        store, game=game, status="active", open_seats=1, created_at=T0 + timedelta(seconds=2)
    )
    assert (await store.list_matches(MatchFilter(game=game, open=True))) == ([await store.get_match(free)], 1)
    page, total = await store.list_matches(MatchFilter(game=game, open=False))
    assert [m.id for m in page] == [started, full] and total == 2
    # An append that takes the last seat closes the match.
    await store.append(append(free, 0, update=MatchUpdate("active", (0,), open_seats=0), seats=(join(1),)))
    assert await store.list_matches(MatchFilter(game=game, open=True)) == ([], 0)


async def test_lobby_without_filter_is_newest_first(store: EventStore) -> None:
    _, before = await store.list_matches(MatchFilter(limit=1))
    newest = datetime.now(UTC) + timedelta(days=3650)  # newer than anything else in the database
    ids = [await new_match(store, created_at=newest + timedelta(seconds=i)) for i in range(3)]
    page, total = await store.list_matches(MatchFilter(limit=3))
    assert [m.id for m in page] == ids[::-1]
    assert total == before + 3
