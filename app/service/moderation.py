"""Moderation by players: blocks and reports (docs/chat.md). Operators list the open reports
with `python -m app admin reports`; bans are `app.service.bans`'.

A block hides the blocked player's chat messages from the blocker on every path (pages, live
frames, resumes): readers filter them out (`app.service.chat.hidden_for`). A report names a
message of the match it is sent to, with a reason of 1–500 characters; it is kept, unresolved,
for operators. Every credential may report the messages it may read (others are 404, as unknown ones).
"""

from __future__ import annotations

import uuid
from typing import Final

from app.service.auth import Caller
from app.service.chat import chat_store
from app.service.chat_ports import Block, ChatReport
from app.service.chat_rights import readable, reader_of
from app.service.context import Context
from app.service.errors import NotFound, ValidationFailed
from app.service.players import player_of

MAX_REASON: Final = 500


async def block(ctx: Context, caller: Caller, blocked_id: str) -> tuple[Block, bool]:
    """Block `blocked_id`: the block, and True if it is new (False: it existed, nothing changes)."""
    me = await player_of(ctx, caller)
    if blocked_id == me.id:
        raise ValidationFailed("a player cannot block itself", {"field": "player_id"})
    if await ctx.store.get_player(blocked_id) is None:
        raise NotFound("no such player", {"player_id": blocked_id})
    store = chat_store(ctx)
    created = await store.block_player(me.id, blocked_id, ctx.clock())
    held = next(b for b in await store.blocks_of(me.id) if b.blocked_id == blocked_id)
    return held, created


async def unblock(ctx: Context, caller: Caller, blocked_id: str) -> None:
    """Lift a block; 404 when there is none."""
    me = await player_of(ctx, caller)
    if not await chat_store(ctx).unblock_player(me.id, blocked_id):
        raise NotFound("this player is not blocked", {"player_id": blocked_id})


async def blocks(ctx: Context, caller: Caller) -> list[Block]:
    me = await player_of(ctx, caller)
    return await chat_store(ctx).blocks_of(me.id)


async def report(ctx: Context, match_id: str, caller: Caller, message_id: str, reason: str) -> ChatReport:
    """Report a message of `match_id` (404 for an unknown one, or one of another match)."""
    reason = reason.strip()
    if not 1 <= len(reason) <= MAX_REASON:
        raise ValidationFailed(f"reason must be 1 to {MAX_REASON} characters", {"field": "reason"})
    store = chat_store(ctx)
    loaded = await ctx.loader.load(match_id)
    reader = reader_of(loaded, caller)
    message = await store.get_chat_message(match_id, message_id)
    if message is None or message.room not in readable(loaded, reader):  # unseen: as if unknown
        raise NotFound("no such message in this match", {"message_id": message_id})
    reporter = reader.player_id if reader.player_id is not None else f"s:{match_id}:{reader.seat}"
    filed = ChatReport(uuid.uuid4().hex, match_id, message_id, reporter, reason, ctx.clock())
    await store.add_chat_report(filed)
    return filed


async def open_reports(ctx: Context, limit: int = 1000) -> list[ChatReport]:
    return await chat_store(ctx).open_chat_reports(limit)
