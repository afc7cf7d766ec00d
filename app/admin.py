"""`python -m app admin <command> …`: operators' commands, run against the configured database.

- `ban <player_id> [--reason TEXT]`: the player's key and the seat tokens of its seats are refused
  (403 `banned`) on every process, its open streams closed with 4403 (docs/moderation.md).
- `unban <player_id>`: lifts the ban.
- `reports`: the open chat reports, one JSON object per line, oldest first (docs/chat.md).

Each command is one async function `(settings, args) -> exit code` in `COMMANDS`; they refuse
`memory://` (a separate process shares nothing with a server on it) and a database whose schema is
not the newest. Servers may keep running: that is what a ban is for.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from collections.abc import AsyncIterator, Callable, Coroutine
from contextlib import asynccontextmanager

from app.service.bans import ban_player, unban_player
from app.service.chat import chat_store
from app.service.context import Context
from app.service.errors import NotFound
from app.service.moderation import open_reports
from app.settings import Settings
from app.store.factory import create_store
from app.store.migrate import at_head_async

USAGE = "usage: python -m app admin {ban <player_id> [--reason TEXT] | unban <player_id> | reports}"


class Refused(Exception):
    """The command cannot run against this database (the message says why)."""


@asynccontextmanager
async def _context(settings: Settings) -> AsyncIterator[Context]:
    if settings.database_url == "memory://":
        raise Refused("memory:// keeps nothing: a separate process cannot reach a server's players")
    if not await at_head_async(settings.database_url):
        raise Refused("the database is not at the newest schema (run `python -m app migrate`)")
    store = create_store(settings.database_url)
    try:
        yield Context(store)
    finally:
        await store.close()


def _parser(command: str) -> argparse.ArgumentParser:
    return argparse.ArgumentParser(prog=f"python -m app admin {command}")


async def ban(settings: Settings, args: list[str]) -> int:
    parser = _parser("ban")
    parser.add_argument("player_id")
    parser.add_argument("--reason", default=None, help="kept for operators; never shown to the player")
    parsed = parser.parse_args(args)
    async with _context(settings) as ctx:
        try:
            player = await ban_player(ctx, parsed.player_id, parsed.reason)
        except NotFound as e:
            print(e.message, file=sys.stderr)
            return 1
    assert player.banned_at is not None
    print(f"banned player {player.id} ({player.name}) at {player.banned_at.isoformat()}")
    return 0


async def unban(settings: Settings, args: list[str]) -> int:
    parser = _parser("unban")
    parser.add_argument("player_id")
    parsed = parser.parse_args(args)
    async with _context(settings) as ctx:
        try:
            player = await unban_player(ctx, parsed.player_id)
        except NotFound as e:
            print(e.message, file=sys.stderr)
            return 1
    print(f"player {player.id} ({player.name}) is not banned")
    return 0


async def reports(settings: Settings, args: list[str]) -> int:
    """The open chat reports with the message each names (its room, author and text)."""
    _parser("reports").parse_args(args)
    async with _context(settings) as ctx:
        store = chat_store(ctx)
        for r in await open_reports(ctx):
            m = await store.get_chat_message(r.match_id, r.message_id)
            item = {
                "id": r.id, "match_id": r.match_id, "message_id": r.message_id, "reporter": r.reporter_id,
                "reason": r.reason, "reported_at": r.created_at.isoformat(),
                "room": m and m.room, "author_player_id": m and m.author_player_id,
                "author_seat": m and m.author_seat, "author_name": m and m.author_name, "text": m and m.text,
            }  # fmt: skip
            print(json.dumps(item, ensure_ascii=False))
    return 0


Command = Callable[[Settings, list[str]], Coroutine[None, None, int]]
COMMANDS: dict[str, Command] = {"ban": ban, "unban": unban, "reports": reports}


def main(args: list[str], settings: Settings | None = None) -> int:
    """Run `admin <command> …` (`args` without `admin`); the exit code."""
    if not args or args[0] not in COMMANDS:
        print(USAGE, file=sys.stderr)
        return 2
    try:
        return asyncio.run(COMMANDS[args[0]](settings or Settings(), args[1:]))
    except Refused as e:
        print(f"refusing: {e}", file=sys.stderr)
        return 1
    except SystemExit as e:  # argparse's: it printed the usage and the problem (or the help)
        return e.code if isinstance(e.code, int) else 2
