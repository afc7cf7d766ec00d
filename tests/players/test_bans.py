"""Bans on two processes (two app instances on one store and one broadcast): the operator's command
(`app.admin.ban`, run as the command line runs it, on its own store) makes both refuse the player's
key at once and the seat tokens of its seats within the ban cache's lifetime (403 `banned`, the
error envelope, nothing changed), closes the player's open streams on both (4403, `banned: …`) and
no one else's, and refuses new ones at connect; `app.admin.unban` restores everything."""

from __future__ import annotations

import functools
import uuid
from typing import Any

import httpx
import pytest

from app import admin
from app.__main__ import main as command_line
from app.api.closes import Close
from app.service.cache import BanCache
from app.settings import Settings
from tests.api.helpers import Table, create, error_of, eventually, join, log_of
from tests.players.support import bearer, new_player
from tests.stream.asgi import AsgiSocket
from tests.stream.helpers import Reader, open_player_stream, open_stream
from tests.stream.test_resume_inside_commit import Process, shared, two_processes

__all__ = ["shared", "two_processes"]  # fixtures


async def _seated(client: httpx.AsyncClient, banned_key: str, other_key: str) -> tuple[Table, str]:
    """A Mount Drago match for two: seat 0 joined with the banned-to-be player's key, seat 1 with
    the other's; the table (seat tokens) and seat 0's first legal action."""
    created = (await create(client, "mount_drago", 2, options={"first_player": 0})).json()
    tokens = {}
    for seat, key in ((0, banned_key), (1, other_key)):
        r = await join(client, created["id"], seat, key=key, invite=created["invite"])
        assert r.status_code == 201, r.text
        tokens[seat] = r.json()["token"]
    table = Table(client, created["id"], 2, tokens, host=created["host_token"], invite=created["invite"])
    legal = (await table.view(0))["legal_actions"]
    assert legal, "seat 0 plays first"
    return table, legal[0]


async def _refused(client: httpx.AsyncClient, table: Table, credential: str, action: Any) -> None:
    """Every kind of request with `credential` is 403 `banned` and changes nothing."""
    public = Table(client, table.match_id, table.players, {})  # the summary and a spectator's log
    before = await log_of(public)
    auth = bearer(credential)
    url = table.url
    for r in (
        await client.get(f"{url}/view", headers=auth),  # a hot route
        await client.post(f"{url}/actions", json={"action": action}, headers=auth),  # a hot route
        await client.get(f"{url}/events", headers=auth),
        await client.post(f"{url}/resign", headers=auth),
        await client.post("/v1/matches", json={"game": "mount_drago", "players": 2}, headers=auth),
    ):
        error_of(r, 403, "banned")
    assert await log_of(public) == before


async def _opened(ws: AsgiSocket, name: str) -> Reader:
    await ws.__aenter__()
    reader = Reader(ws, name)
    await reader.wait_for(lambda frames: bool(frames), "hello")
    assert reader.frames[0]["type"] == "hello", reader.frames
    return reader


async def _refused_at_connect(ws: AsgiSocket, name: str) -> None:
    await ws.__aenter__()
    reader = Reader(ws, name)
    try:
        closed = await reader.wait_for_close()
        assert (closed.code, closed.reason.split(":")[0]) == (Close.FORBIDDEN, "banned"), name
        assert [f["error"]["code"] for f in reader.frames] == ["banned"], name
    finally:
        await reader.stop()


async def test_a_ban_takes_effect_on_both_processes_and_an_unban_restores(
    two_processes: tuple[Process, Process], shared: tuple[str, dict[str, Any]]
) -> None:
    (app_a, client_a), (app_b, client_b) = two_processes
    settings = Settings(database_url=shared[0])
    tag = uuid.uuid4().hex[:8]
    player, key = await new_player(client_a, f"Banned {tag}")
    _, other_key = await new_player(client_a, f"Fair {tag}")
    table, action = await _seated(client_a, key, other_key)
    token = table.tokens[0]
    readers = {
        "key on A": await _opened(open_stream(app_a, table.match_id, token=key), "key on A"),
        "token on B": await _opened(open_stream(app_b, table.match_id, token=token), "token on B"),
        "personal on A": await _opened(open_player_stream(app_a, key=key), "personal on A"),
        "personal on B": await _opened(open_player_stream(app_b, key=key), "personal on B"),
        "other on A": await _opened(open_stream(app_a, table.match_id, token=other_key), "other on A"),
        "spectator on B": await _opened(open_stream(app_b, table.match_id, spectate=True), "spectator on B"),
    }
    try:
        assert await admin.ban(settings, [player, "--reason", "abuse in chat"]) == 0

        for client in (client_a, client_b):  # the key: at once, on both
            r = await client.get("/v1/players/me", headers=bearer(key))
            assert "abuse" not in error_of(r, 403, "banned")["message"]  # the reason is for operators
            await _refused(client, table, key, action)

        async def token_answers(client: httpx.AsyncClient, status: int) -> bool:
            return (await client.get(f"{table.url}/view", headers=bearer(token))).status_code == status

        for client in (client_a, client_b):  # a seat token of its seat: within the cache's lifetime
            await eventually(functools.partial(token_answers, client, 403), "the seat token refused")
            await _refused(client, table, token, action)

        for name in ("key on A", "token on B", "personal on A", "personal on B"):
            closed = await readers[name].wait_for_close()
            assert closed.code == Close.FORBIDDEN and closed.reason.startswith("banned: "), name
            assert [f["error"]["code"] for f in readers[name].of("error")] == ["banned"], name
        for name in ("other on A", "spectator on B"):
            assert readers[name].closed is None, name
        for app in (app_a, app_b):
            await _refused_at_connect(open_stream(app, table.match_id, token=key), "key again")
            await _refused_at_connect(open_stream(app, table.match_id, token=token), "token again")
            await _refused_at_connect(open_player_stream(app, key=key), "personal again")
        other = await client_b.get("/v1/players/me", headers=bearer(other_key))
        assert other.status_code == 200  # nobody else is touched

        assert await admin.unban(settings, [player]) == 0
        for client in (client_a, client_b):
            assert (await client.get("/v1/players/me", headers=bearer(key))).status_code == 200
            await eventually(functools.partial(token_answers, client, 200), "the seat token accepted again")
        r = await client_b.post(f"{table.url}/actions", json={"action": action}, headers=bearer(key))
        assert r.status_code == 200, r.text
        back = await _opened(open_player_stream(app_b, key=key), "personal after the unban")
        await back.stop()
    finally:
        for reader in readers.values():
            await reader.stop()


@pytest.mark.parametrize("args", [[], ["nope"], ["ban"], ["unban", "p", "--reason", "x"]])
def test_admin_refuses_a_bad_command_line(args: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert admin.main(args, Settings(database_url="memory://")) == 2
    assert "usage" in capsys.readouterr().err
    if not args:
        assert command_line(["admin"]) == 2  # `python -m app admin` reaches it
        assert "usage: python -m app admin" in capsys.readouterr().err


def test_the_ban_cache_trusts_an_entry_for_its_lifetime_only() -> None:
    now = [0.0]
    cache = BanCache(ttl_s=0.5, size=2, now=lambda: now[0])
    cache.put("a", True)
    cache.put("b", False)
    assert (cache.get("a"), cache.get("b"), cache.get("c")) == (True, False, None)
    now[0] = 0.49
    assert cache.get("a") is True
    now[0] = 0.5
    assert cache.get("a") is None  # too old: read the player again
    cache.put("a", False)
    cache.put("c", True)  # over its size: the oldest entry ("b") goes
    assert (cache.get("a"), cache.get("b"), cache.get("c")) == (False, None, True)


def test_admin_refuses_memory_and_an_unmigrated_database(
    sqlite_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert admin.main(["ban", "p"], Settings(database_url="memory://")) == 1
    assert admin.main(["unban", "p"], Settings(database_url=sqlite_url)) == 1
    assert capsys.readouterr().err.count("refusing") == 2


async def test_admin_says_an_unknown_player_is_unknown(
    sqlite_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from app.store.migrate import upgrade_async

    await upgrade_async(sqlite_url)
    settings = Settings(database_url=sqlite_url)
    assert await admin.ban(settings, ["no-such-player"]) == 1
    assert await admin.unban(settings, ["no-such-player"]) == 1
    assert capsys.readouterr().err.count("no player no-such-player") == 2
