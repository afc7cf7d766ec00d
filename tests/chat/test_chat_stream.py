"""Chat frames on the match stream (docs/chat.md): each message a viewer may read, once and in
order, live and after `chat_after`; `hello.chat_seq`; the rooms a player's stream gains at the end;
blocks; a spectator who takes a seat stops getting the spectators' room at once."""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import AsyncIterator, Collection
from contextlib import AsyncExitStack, asynccontextmanager
from typing import Any

import pytest
from starlette.types import ASGIApp

from app.broadcast.memory import MemoryBroadcaster
from app.service.chat_live import ChatWatch, ChatWatchers
from app.service.context import NullChatNotifier
from tests.api.conftest import started
from tests.chat.support import ChatTable, Person, chat_table, person
from tests.stream.helpers import Reader, check_server_frame, open_stream


@asynccontextmanager
async def streaming(app: ASGIApp, table: ChatTable, who: Person, **query: Any) -> AsyncIterator[Reader]:
    credential: dict[str, Any] = {"spectate": True} if who.credential is None else {"token": who.credential}
    async with open_stream(app, table.match_id, **credential, **query) as ws:
        reader = Reader(ws, who.label)
        await reader.wait_for(lambda frames: bool(frames), "hello")
        try:
            yield reader
        finally:
            await reader.stop()


def texts(reader: Reader) -> list[str]:
    return [f["message"]["text"] for f in reader.of("chat")]


async def has(reader: Reader, *wanted: str) -> None:
    await reader.wait_for(lambda _: all(t in texts(reader) for t in wanted), f"{wanted}")


async def test_live_frames_resume_and_the_end() -> None:
    async with started("memory://") as (app, client):
        table = await chat_table(client)
        ada, bob = table.seats
        eve, anon = table.watchers[0], table.anonymous
        await table.post(ada, "players", "before any stream")
        async with (
            streaming(app, table, ada) as a,
            streaming(app, table, eve) as e,
            streaming(app, table, anon) as n,
            streaming(app, table, bob, chat_after=0) as b,
        ):
            for r in (a, e, n, b):
                assert r.frames[0]["type"] == "hello" and r.frames[0]["chat_seq"] == 1
            await table.post(bob, "players", "p1")
            await table.post(eve, "spectators", "s1")
            await table.post(ada, "players", "p2")
            await has(a, "p1", "p2")
            await has(b, "before any stream", "p1", "p2")
            await has(e, "s1")
            await has(n, "s1")
            last_of_eve = e.of("chat")[-1]["chat_seq"]
        await table.post(eve, "spectators", "s2 while eve is away")
        await table.post(ada, "players", "p3 while everyone is away")
        async with streaming(app, table, eve, chat_after=last_of_eve) as e2, streaming(app, table, ada) as a2:
            await has(e2, "s2 while eve is away")
            await table.resign(0)
            await table.post(eve, "spectators", "s3 after the end")
            await table.post(bob, "spectators", "a player in the spectators' room")
            await table.post(bob, "players", "p4 after the end")
            wanted = ("s3 after the end", "a player in the spectators' room", "p4 after the end")
            await has(e2, *wanted)
            await has(a2, *wanted)
            # Eve's resume read s2 and p3 at once, before the end: p3 was the players' then. It
            # is a GET away now; the stream goes on from its cursor.
            assert texts(e2) == ["s2 while eve is away", *wanted]
            assert texts(a2) == list(wanted)  # the stream started at the head: no backlog
            for reader in (a, e, n, b, e2, a2):
                for frame in reader.frames:
                    check_server_frame(frame)
                seqs = [f["chat_seq"] for f in reader.of("chat")]
                assert seqs == sorted(set(seqs)) and all(
                    f["message"]["chat_seq"] == f["chat_seq"] for f in reader.of("chat")
                )
        assert texts(a) == ["p1", "p2"] and texts(e) == ["s1"] and texts(n) == ["s1"]
        assert texts(b) == ["before any stream", "p1", "p2"]


async def test_chat_after_beyond_the_head_is_refused() -> None:
    async with started("memory://") as (app, client):
        table = await chat_table(client)
        async with open_stream(app, table.match_id, spectate=True, chat_after=1) as ws:
            reader = Reader(ws)
            closed = await reader.wait_for_close()
            assert closed.code == 4400
            assert (
                reader.frames[0]["type"] == "error"
                and reader.frames[0]["error"]["details"]["field"] == "chat_after"
            )


async def test_blocks_on_the_stream() -> None:
    async with started("memory://") as (app, client):
        table = await chat_table(client, watchers=2)
        ada, bob = table.seats
        eve, fay = table.watchers
        await client.post(f"/v1/players/me/blocks/{bob.player_id}", headers=ada.headers())
        await client.post(f"/v1/players/me/blocks/{eve.player_id}", headers=fay.headers())
        async with (
            streaming(app, table, ada, chat_after=0) as a,
            streaming(app, table, fay, chat_after=0) as f,
        ):
            await table.post(bob, "players", "from bob")
            await table.post(eve, "spectators", "from eve")
            await table.post(ada, "players", "from ada")
            await table.post(table.watchers[1], "spectators", "from fay")
            await has(a, "from ada")
            await has(f, "from fay")
        async with streaming(app, table, ada, chat_after=0) as a2:  # a resume from the start
            await has(a2, "from ada")
        assert texts(a) == texts(a2) == ["from ada"] and texts(f) == ["from fay"]


async def test_a_spectator_who_takes_a_seat_stops_reading_the_spectators_room() -> None:
    async with started("memory://") as (app, client):
        table = await chat_table(client, start=False)
        eve = table.watchers[0]
        newcomer = await person(client, "newcomer")
        async with streaming(app, table, newcomer) as r:
            await table.post(eve, "spectators", "s1")
            await has(r, "s1")
            joined = await client.post(
                f"{table.url}/seats/1", json={"name": "newcomer"}, headers=newcomer.headers()
            )
            assert joined.status_code == 201, joined.text
            await r.wait_for(lambda frames: any(f["type"] == "commit" for f in frames), "the join")
            await table.post(eve, "spectators", "s2: not for a seated player")
            await table.post(table.seats[0], "players", "p1")
            await has(r, "p1")
        assert texts(r) == ["s1", "p1"]


async def test_a_rights_change_is_read_on_the_state_held_here_a_notification_on_the_stores() -> None:
    """The end wakes a player's stream (its rooms changed): that read judges by the state this
    process committed, without reading the match again, and gets what the new rights allow (here a
    spectators' message whose notification was lost, on a stream that does not know the head, as
    after a read under way during a resync: else it reads nothing, see the next test). A
    notification still reads the store's."""
    async with started("memory://") as (app, client):
        table = await chat_table(client)
        ada, eve = table.seats[0], table.watchers[0]
        ctx, live = app.state.ctx, app.state.hub.chat
        loader, real_load, notifier = ctx.loader, ctx.loader.load, ctx.chat
        chat_loads: list[str] = []

        async def load(match_id: str) -> Any:
            if any(frame.function == "new_messages" for frame in inspect.stack()):
                chat_loads.append(match_id)
            return await real_load(match_id)

        loader.load = load
        async with streaming(app, table, ada) as a:
            ctx.chat = NullChatNotifier()  # the next message's notification is lost
            await table.post(eve, "spectators", "s1: its notification was lost")
            ctx.chat = notifier
            assert chat_loads == []
            live._heads.clear()  # the head this process knew is forgotten (a resync's read)
            await table.resign(1)
            await has(a, "s1: its notification was lost")  # readable after the end, read at the end
            assert chat_loads == []
            await table.post(eve, "spectators", "s2")
            await has(a, "s2")
            assert chat_loads and set(chat_loads) == {table.match_id}  # woken locally and by the broadcast
        assert texts(a) == ["s1: its notification was lost", "s2"]


def test_a_notification_outranks_a_rights_change_in_what_a_chat_read_judges_by() -> None:
    watch = ChatWatch("m")
    assert watch.take() is None and not watch.wake.is_set()
    watch.rights_changed(7)
    watch.rights_changed(5)
    assert watch.wake.is_set() and watch.take() == 7 and not watch.wake.is_set()
    watch.rights_changed(9)
    watch.notify()
    assert watch.take() is None  # a notification: the store's state
    assert watch.take() is None and not watch.notified and watch.rights_at is None


async def test_the_streams_one_message_wakes_read_the_store_once() -> None:
    """Eight streams of one match, each woken by a message: the store's rows are read once per
    wake-up (the local one, and at most the broadcast's), not once per stream, and so are the
    bans; each stream still gets the message once, with its own blocks applied."""
    async with started("memory://") as (app, client):
        table = await chat_table(client, watchers=5)
        store, live = app.state.ctx.store, app.state.hub.chat
        real_read, real_banned = store.read_chat, store.banned_among
        gate = asyncio.Event()  # holds the reads until every stream has asked
        reads: list[int] = []
        bans: list[frozenset[str]] = []

        async def read_chat(match_id: str, after: int, limit: int, rooms: Any) -> Any:
            reads.append(after)
            await gate.wait()
            return await real_read(match_id, after, limit, rooms)

        async def banned_among(player_ids: Collection[str]) -> set[str]:
            bans.append(frozenset(player_ids))
            banned: set[str] = await real_banned(player_ids)
            return banned

        eve, fay = table.watchers[0], table.watchers[1]
        await client.post(f"/v1/players/me/blocks/{eve.player_id}", headers=fay.headers())
        people = [*table.watchers, table.anonymous, *table.seats]
        async with AsyncExitStack() as streams:
            readers = [await streams.enter_async_context(streaming(app, table, who)) for who in people]
            store.read_chat, store.banned_among = read_chat, banned_among
            joined = live.shared_reads
            await table.post(eve, "spectators", "one message, eight streams")
            for _ in range(10_000):
                if len(reads) + live.shared_reads - joined >= len(people):
                    break
                await asyncio.sleep(0)
            asked = len(reads) + live.shared_reads - joined
            assert len(people) == 8 and asked == 8, (reads, live.shared_reads)
            assert 1 <= len(reads) <= 2 and set(reads) == {0}, reads  # one per wake-up, at most two
            gate.set()
            readable = [r for r, who in zip(readers, people, strict=True) if who not in (*table.seats, fay)]
            for reader in readable:
                await has(reader, "one message, eight streams")
            assert 1 <= len(bans) <= 2 and set(bans) == {frozenset({eve.player_id})}, bans
        for reader, who in zip(readers, people, strict=True):
            expected = ["one message, eight streams"] if reader in readable else []
            assert texts(reader) == expected, who.label  # fay blocks eve; seats do not read it


async def test_a_read_begun_before_a_notification_or_a_new_watch_is_not_shared_after_it() -> None:
    watchers = ChatWatchers(MemoryBroadcaster())
    gate = asyncio.Event()
    calls: list[str] = []

    async def read(tag: str) -> str:
        calls.append(tag)
        await gate.wait()
        return tag

    first = asyncio.create_task(watchers.shared("k", lambda: read("first")))
    await asyncio.sleep(0)
    same = asyncio.create_task(watchers.shared("k", lambda: read("not run: joins the first")))
    other = asyncio.create_task(watchers.shared("another key", lambda: read("another key")))
    await asyncio.sleep(0)
    watchers.wake("m", 1)  # a message: a read begun before cannot hold it
    after_wake = asyncio.create_task(watchers.shared("k", lambda: read("after the wake")))
    await asyncio.sleep(0)
    async with watchers.watch("m"):  # a new stream: its backlog must not come from an older read
        after_watch = asyncio.create_task(watchers.shared("k", lambda: read("after the watch")))
        await asyncio.sleep(0)
        first.cancel()  # the first asker goes away: the read goes on for the others
        gate.set()
        assert await same == "first"
        assert (await other, await after_wake, await after_watch) == (
            "another key", "after the wake", "after the watch"
        )  # fmt: skip
    with pytest.raises(asyncio.CancelledError):
        await first
    assert calls == ["first", "another key", "after the wake", "after the watch"]
    assert watchers.shared_reads == 1 and not watchers._reads


async def test_a_stream_of_a_match_watched_here_starts_from_the_head_this_process_knows() -> None:
    """The first stream of a match reads its chat head; the streams that open while it is watched
    take the head this process knows, raised by every message since (the hello's chat_seq is the
    store's); once nobody watches the match, the next stream reads it again."""
    async with started("memory://") as (app, client):
        table = await chat_table(client, watchers=2)
        store, live = app.state.ctx.store, app.state.hub.chat
        ada, bob = table.seats
        eve, fay = table.watchers
        await table.post(ada, "players", "m1")
        async with streaming(app, table, ada) as a:
            assert a.frames[0]["chat_seq"] == 1 and live.head_reads == 1
            async with streaming(app, table, eve) as e:
                assert e.frames[0]["chat_seq"] == 1 and live.head_reads == 1  # known: not read again
            await table.post(bob, "players", "m2")
            await table.post(fay, "spectators", "m3")
            await has(a, "m2")
            async with streaming(app, table, bob) as b, streaming(app, table, fay, chat_after=1) as f:
                assert (
                    b.frames[0]["chat_seq"]
                    == f.frames[0]["chat_seq"]
                    == 3
                    == await store.chat_head(table.match_id)
                )
                assert live.head_reads == 1  # raised by the notifications of m2 and m3
                await has(f, "m3")
                assert texts(b) == [] and texts(f) == ["m3"]
        await table.post(eve, "spectators", "m4 while nobody watches")
        async with streaming(app, table, eve) as e:
            assert e.frames[0]["chat_seq"] == 4 and live.head_reads == 2  # forgotten with the last watch
        assert not live._heads and not live._watching


async def test_a_change_of_rights_with_no_message_after_the_cursor_reads_nothing() -> None:
    """A commit that changes what a stream may read (here the end) wakes its chat; when this
    process knows the head and the stream's cursor is there, nothing is read for it, and neither
    is anything for a notification of a message the stream has read (this process's own publish,
    coming back from the broadcaster). A message whose notification was lost comes with the next
    notification's read, judged by the rights of then."""
    async with started("memory://") as (app, client):
        table = await chat_table(client)
        store = app.state.ctx.store
        ada, bob = table.seats
        eve = table.watchers[0]
        found: list[int] = []  # rows each read of the store returned
        read_chat = store.read_chat

        async def counted(*args: Any, **kwargs: Any) -> Any:
            rows = await read_chat(*args, **kwargs)
            found.append(len(rows))
            return rows

        store.read_chat = counted
        ctx, notifier = app.state.ctx, app.state.ctx.chat
        await table.post(ada, "players", "before")
        async with streaming(app, table, ada) as a, streaming(app, table, eve) as e:
            assert a.frames[0]["chat_seq"] == e.frames[0]["chat_seq"] == 1
            ctx.chat = NullChatNotifier()
            await table.post(eve, "spectators", "lost: its notification never came")
            ctx.chat = notifier
            await table.resign(1)
            for reader in (a, e):
                await reader.wait_for(lambda frames: any(f["type"] == "commit" for f in frames), "the end")
            await table.post(eve, "spectators", "after the end")
            wanted = ("lost: its notification never came", "after the end")
            await has(a, *wanted)
            await has(e, *wanted)
            assert found and all(found), found  # every read found the messages it was woken for
            assert texts(a) == texts(e) == list(wanted)
        found.clear()
        async with streaming(app, table, bob, chat_after=0) as b:  # a backlog: read, all of it
            await has(b, "before", *wanted)
        assert found and all(found), found


async def test_a_known_head_is_forgotten_at_a_resync_and_read_again_below_a_given_cursor() -> None:
    watchers = ChatWatchers(MemoryBroadcaster())
    store_head = 5
    reads: list[int] = []
    gate = asyncio.Event()
    gate.set()

    async def read() -> int:
        await gate.wait()
        reads.append(store_head)
        return store_head

    async with watchers.watch("m"), watchers.watch("other"):
        assert await watchers.head("m", read) == 5 and await watchers.head("m", read) == 5
        assert reads == [5]
        watchers.wake("m", 6)  # a message here, or from another process
        assert await watchers.head("m", read) == 6 and reads == [5]
        store_head = 8  # 7 and 8 stored, their notifications still on their way
        assert await watchers.head("m", read, at_least=8) == 8 and reads == [5, 8]  # a cursor above it
        watchers.wake("m", -1)  # a resync: notifications may have been missed
        store_head = 9
        assert await watchers.head("m", read) == 9 and reads == [5, 8, 9]
        gate.clear()  # a read under way when a resync comes is not kept
        under_way = asyncio.create_task(watchers.head("other", read))
        await asyncio.sleep(0)
        watchers.wake("other", -1)
        gate.set()
        assert await under_way == 9
        assert "other" not in watchers._heads and await watchers.head("other", read) == 9
        assert reads == [5, 8, 9, 9, 9]
    assert not watchers._heads and not watchers._notified and not watchers._watching


async def test_a_round_of_quiet_feeds_wakes_a_chat_past_the_head_known_here() -> None:
    """A chat notification lost altogether (its process died between storing the message and
    publishing it): the live hub's round reads each watched match's chat head and wakes its
    watches when it is past the head this process knows, or when it knows none; otherwise not."""
    watchers = ChatWatchers(MemoryBroadcaster())
    heads = {"m": 3, "n": 2}

    async def read_head(match_id: str) -> int:
        return heads[match_id]

    async with watchers.watch("m") as m, watchers.watch("n") as n:
        assert await watchers.head("m", lambda: read_head("m")) == 3  # known here; n's is not
        assert await watchers.read_quiet(read_head) == 1
        assert n.wake.is_set() and not m.wake.is_set()
        assert n.take() is None and watchers.nothing_after("n", 2)  # known from now on
        heads["m"] = 4  # stored by another process, its notification lost
        assert await watchers.read_quiet(read_head) == 1
        assert m.wake.is_set() and not n.wake.is_set()
        assert m.take() is None  # judged by the store's state, as after a notification
        assert watchers.nothing_after("m", 4) and not watchers.nothing_after("m", 3)
        assert await watchers.read_quiet(read_head) == 0
        assert not m.wake.is_set() and not n.wake.is_set()
    assert await watchers.read_quiet(read_head) == 0  # nothing watched: nothing read


async def test_a_message_whose_notification_was_lost_comes_with_the_hubs_next_round() -> None:
    async with started("memory://") as (app, client):
        table = await chat_table(client)
        ada, bob = table.seats
        ctx, notifier, hub = app.state.ctx, app.state.ctx.chat, app.state.hub
        await table.post(ada, "players", "before")
        async with streaming(app, table, ada) as a, streaming(app, table, bob) as b:
            ctx.chat = NullChatNotifier()
            await table.post(bob, "players", "lost: its notification never came")
            ctx.chat = notifier
            assert await hub.read_quiet() == 1  # the chat; the match's feed is marked only
            await has(a, "lost: its notification never came")
            await has(b, "lost: its notification never came")
            assert hub.stats()["quiet_chat_wakes"] == 1
            assert await hub.read_quiet() == 1  # the feed, quiet for a round; the chat is known
            assert hub.stats()["quiet_chat_wakes"] == 1
        assert texts(a) == texts(b) == ["lost: its notification never came"]
