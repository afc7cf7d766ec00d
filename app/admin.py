"""`python -m app admin <command> [arguments]`: the operators' commands, run beside the servers
on the same database (`DRAGO_DATABASE_URL`), which must be at the newest schema.

Each command is one function registered in `COMMANDS` by `@command(name)`, taking the settings
and its own arguments and returning the exit status; `main` dispatches. `reports` lists the open
chat reports (docs/chat.md), one JSON object per line, oldest first.
"""

from __future__ import annotations

import asyncio
import json
import sys
from collections.abc import Awaitable, Callable
from typing import TypeVar

from app.settings import Settings

Command = Callable[[Settings, list[str]], int]
COMMANDS: dict[str, Command] = {}
T = TypeVar("T")


def command(name: str) -> Callable[[Command], Command]:
    def register(fn: Command) -> Command:
        COMMANDS[name] = fn
        return fn

    return register


def usage() -> str:
    return f"usage: python -m app admin [{' | '.join(sorted(COMMANDS))}] …"


def main(args: list[str], settings: Settings | None = None) -> int:
    if not args or args[0] not in COMMANDS:
        print(usage(), file=sys.stderr)
        return 2
    return COMMANDS[args[0]](settings or Settings(), args[1:])


def with_context(settings: Settings, work: Callable[..., Awaitable[T]]) -> T | None:
    """Run `work(ctx)` on the configured store (None, with a message, when it cannot be)."""
    if settings.database_url == "memory://":
        print("memory:// keeps nothing: run this against the servers' database", file=sys.stderr)
        return None
    from app.store.migrate import at_head

    if not at_head(settings.database_url):
        print(
            "refusing: the database is not at the newest schema (run `python -m app migrate`)",
            file=sys.stderr,
        )
        return None
    from app.service.context import Context
    from app.store.factory import create_store

    async def run() -> T:
        store = create_store(settings.database_url)
        try:
            return await work(Context(store))
        finally:
            await store.close()

    return asyncio.run(run())


@command("reports")
def reports(settings: Settings, args: list[str]) -> int:
    """The open chat reports with the message each names (its text and author), oldest first."""
    if args:
        print("usage: python -m app admin reports", file=sys.stderr)
        return 2
    from app.service.chat import chat_store
    from app.service.context import Context
    from app.service.moderation import open_reports

    async def lines(ctx: Context) -> list[str]:
        out = []
        for r in await open_reports(ctx):
            m = await chat_store(ctx).get_chat_message(r.match_id, r.message_id)
            item = {
                "id": r.id, "match_id": r.match_id, "message_id": r.message_id, "reporter": r.reporter_id,
                "reason": r.reason, "reported_at": r.created_at.isoformat(),
                "room": m and m.room, "author_player_id": m and m.author_player_id,
                "author_seat": m and m.author_seat, "author_name": m and m.author_name, "text": m and m.text,
            }  # fmt: skip
            out.append(json.dumps(item, ensure_ascii=False))
        return out

    found = with_context(settings, lines)
    if found is None:
        return 1
    for line in found:
        print(line)
    return 0
