"""The Python client's chat (docs/chat.md): send, pages, blocks, reports and their errors in
process; `follow_chat` against a real server process, resumed with `chat_after` exactly once."""

from __future__ import annotations

import asyncio
import itertools

import pytest
from drago_client import AsyncClient, ChatClosed, Forbidden, RateLimited, Retry, ValidationError, models

from tests.clients.servers import ServerProcess

_n = itertools.count()


async def _table(api: AsyncClient, **settings: object) -> tuple[str, list[str], str, str]:
    """A started two-seat match held by player keys, and a player key without a seat."""
    match = await api.create_match("mount_drago", 2, **settings)  # type: ignore[arg-type]
    keys = []
    for seat in range(2):
        player = await api.create_player(f"chat-client-{seat}-{next(_n)}-{id(api)}")
        await api.join_seat(match.id, seat, player.name, token=player.key)
        keys.append(player.key)
    watcher = await api.create_player(f"chat-client-w-{next(_n)}-{id(api)}")
    return match.id, keys, watcher.key, watcher.player_id


async def test_send_page_block_and_report(api: AsyncClient) -> None:
    match_id, (ada, bob), eve, eve_id = await _table(api)
    sent = await api.post_chat(match_id, "players", "  hello  ", token=ada)
    assert isinstance(sent, models.ChatMessage) and sent.text == "hello" and sent.author.seat == 0
    for i in range(3):
        await api.post_chat(match_id, "players", f"p{i}", token=bob)
    await api.post_chat(match_id, "spectators", "from eve", token=eve)
    texts = [m.text async for m in api.chat_messages(match_id, limit=2, token=ada)]
    assert texts == ["hello", "p0", "p1", "p2"]
    assert [m.text async for m in api.chat_messages(match_id)] == ["from eve"]  # anonymous: spectators
    with pytest.raises(Forbidden):
        await api.get_chat(match_id, room="spectators", token=ada)
    with pytest.raises(Forbidden):
        await api.post_chat(match_id, "spectators", "coaching", token=ada)
    with pytest.raises(ValidationError):
        await api.post_chat(match_id, "players", "\x00", token=ada)
    api.retry = Retry(attempts=1)  # a 429 is raised, not waited out
    with pytest.raises(RateLimited) as limited:
        for i in range(10):
            await api.post_chat(match_id, "players", f"flood {i}", token=bob)
    assert limited.value.retry_after is not None and limited.value.retry_after >= 1
    block = await api.block_player(eve_id, token=bob)
    assert isinstance(block, models.PlayerBlock) and block.player_id == eve_id
    assert [b.player_id for b in (await api.list_blocks(token=bob)).items] == [eve_id]
    await api.unblock_player(eve_id, token=bob)
    assert (await api.list_blocks(token=bob)).items == ()
    report = await api.report_chat(match_id, sent.id, "rude", token=bob)
    assert isinstance(report, models.ChatReport) and report.message_id == sent.id


async def test_a_switched_off_spectators_room(api: AsyncClient) -> None:
    match_id, _, eve, _ = await _table(api, spectator_chat=False)
    with pytest.raises(ChatClosed):
        await api.post_chat(match_id, "spectators", "hi", token=eve)


async def collect(frames: object, n: int) -> list[models.ChatFrame]:
    out: list[models.ChatFrame] = []
    async for frame in frames:  # type: ignore[attr-defined]
        out.append(frame)
        if len(out) == n:
            break
    await frames.aclose()  # type: ignore[attr-defined]
    return out


async def test_follow_chat_live_and_resumed(server: ServerProcess) -> None:
    async with AsyncClient(server.url) as api:
        match_id, (ada, bob), eve, _ = await _table(api)
        player = asyncio.create_task(collect(api.follow_chat(match_id, ada, chat_after=0), 3))
        spectator = asyncio.create_task(collect(api.follow_chat(match_id, eve, chat_after=0), 2))
        await api.post_chat(match_id, "players", "p1", token=bob)
        await api.post_chat(match_id, "spectators", "s1", token=eve)
        await api.post_chat(match_id, "players", "p2", token=ada)
        await api.post_chat(match_id, "spectators", "s2", token=eve)
        await api.post_chat(match_id, "players", "p3", token=bob)
        got = await asyncio.wait_for(player, 20)
        assert [f.message.text for f in got] == ["p1", "p2", "p3"]
        seen = await asyncio.wait_for(spectator, 20)
        assert [f.message.text for f in seen] == ["s1", "s2"]
        resumed = await asyncio.wait_for(
            collect(api.follow_chat(match_id, ada, chat_after=got[0].chat_seq), 2), 20
        )
        assert [f.message.text for f in resumed] == ["p2", "p3"]
