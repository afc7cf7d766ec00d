"""No secret in any log at any level: the root filter on records of every library, and a full game
played against a real server at DEBUG whose whole output is searched for every token issued."""

from __future__ import annotations

import asyncio
import io
import json
import logging
import random
import sys
from pathlib import Path

import httpx
import pytest
from websockets.asyncio.client import connect

from app.api.logs import REDACTED, JsonFormatter, SecretFilter, configure_logging, scrub
from tests.api.helpers import Table, create, join, play_to_end
from tests.stream.servers import serving

TOKEN = "q3XvT0k-en_5ecret4567890abcdefghijklmnopqrs"


def record(name: str, msg: str, *args: object, level: int = logging.DEBUG) -> logging.LogRecord:
    return logging.LogRecord(name, level, __file__, 1, msg, args, None)


@pytest.mark.parametrize(
    "rec",
    [
        # uvicorn: the handshake line, with the query string in an argument
        record(
            "uvicorn.error", '%s - "WebSocket %s" [accepted]', "127.0.0.1:5", f"/v1/m/x/stream?token={TOKEN}"
        ),
        # websockets (through uvicorn's logger): request line, headers, frames
        record("uvicorn.error", "< GET %s HTTP/1.1", f"/v1/matches/x/stream?after=1&token={TOKEN}"),
        record("uvicorn.error", "< %s: %s", "authorization", f"Bearer {TOKEN}"),
        record("websockets.server", "< %s", f'TEXT \'{{"type":"auth","token":"{TOKEN}"}}\' [62 bytes]'),
        # httpx: a URL; asyncpg / anything: a repr of headers or a dict
        record("httpx", 'HTTP Request: %s %s "%s"', "GET", f"http://h/v1/x?key={TOKEN}", "HTTP/1.1 200 OK"),
        record("asyncpg", "headers %r", [(b"authorization", f"Bearer {TOKEN}".encode())]),
        record("app", "body %s", json.dumps({"player_key": TOKEN})),
        record("uvicorn.error", "%s", f"Authorization: Basic {TOKEN}", level=logging.ERROR),
    ],
)
def test_the_filter_removes_credentials_from_every_kind_of_line(rec: logging.LogRecord) -> None:
    raw = rec.getMessage()
    assert TOKEN in raw  # the line leaks without the filter
    assert SecretFilter().filter(rec)
    assert (TOKEN not in rec.getMessage() and REDACTED in rec.getMessage()) or "?" not in rec.getMessage()
    assert TOKEN not in JsonFormatter().format(rec)


def test_tracebacks_and_extra_fields_are_scrubbed_too() -> None:
    try:
        raise RuntimeError(f"refused Bearer {TOKEN}")
    except RuntimeError:
        rec = logging.LogRecord("app", logging.ERROR, __file__, 1, "failed", (), sys.exc_info())
    rec.__dict__["url"] = f"/v1/x?token={TOKEN}"
    SecretFilter().filter(rec)
    line = JsonFormatter().format(rec)
    assert "RuntimeError" in line and TOKEN not in line


def test_ordinary_lines_pass_unchanged() -> None:
    for text in ("request", "stream closed", "match abc at seq 12", "what?", "key point: 3 seats"):
        assert scrub(text) == text


def test_the_filter_is_installed_by_the_logging_configuration_on_every_root_handler() -> None:
    root = logging.getLogger()
    other = logging.StreamHandler(io.StringIO())
    root.addHandler(other)
    try:
        configure_logging("DEBUG")
        assert all(any(isinstance(f, SecretFilter) for f in h.filters) for h in root.handlers)
        assert logging.getLogger("sqlalchemy.engine").getEffectiveLevel() >= logging.INFO
        logging.getLogger("websockets.client").debug("> GET /x?token=%s HTTP/1.1", TOKEN)
        assert TOKEN not in other.stream.getvalue() and "GET /x HTTP/1.1" in other.stream.getvalue()
    finally:
        root.removeHandler(other)
        configure_logging("WARNING")


class Flushes(io.StringIO):
    """A stdout that notes how many lines it held at each flush."""

    def __init__(self) -> None:
        super().__init__()
        self.flushes: list[int] = []

    def flush(self) -> None:
        self.flushes.append(self.getvalue().count("\n"))
        super().flush()


async def test_the_lines_of_one_loop_step_are_flushed_together(monkeypatch: pytest.MonkeyPatch) -> None:
    out = Flushes()
    monkeypatch.setattr(sys, "stdout", out)
    configure_logging("INFO")
    try:
        log = logging.getLogger("app.test")
        for i in range(3):
            log.info("line %d", i)
        assert out.getvalue().count("\n") == 3 and out.flushes == []  # written, not flushed yet
        await asyncio.sleep(0)  # the loop's next step
        assert out.flushes == [3]
        await asyncio.to_thread(log.info, "from a thread")  # no loop there: flushed at once
        assert out.flushes == [3, 4]
        assert [json.loads(line)["message"] for line in out.getvalue().splitlines()] == [
            "line 0", "line 1", "line 2", "from a thread"
        ]  # fmt: skip
    finally:
        configure_logging("WARNING")


@pytest.mark.slow
async def test_a_full_game_at_debug_leaves_no_credential_or_secret_in_the_output(tmp_path: Path) -> None:
    """Seat tokens, player keys (old and rotated), the host token, the invite and the secret."""
    env = {"DRAGO_LOG_LEVEL": "DEBUG", "DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path / 'db.sqlite'}"}
    async with serving(tmp_path, "debug", env) as server, httpx.AsyncClient(base_url=server.url) as client:
        player = (await client.post("/v1/players", json={"name": "Ada"})).json()
        old_key = player["key"]
        key = (
            await client.post("/v1/players/me/keys", headers={"Authorization": f"Bearer {old_key}"})
        ).json()["key"]
        created = await create(client, "yutaka", 2, seed="debug-logs", visibility="unlisted")
        match_id, host, invite = created.json()["id"], created.json()["host_token"], created.json()["invite"]
        seat0 = await join(client, match_id, 0, invite=invite, key=key)
        assert seat0.status_code == 201, seat0.text
        token1 = (await join(client, match_id, 1, invite=invite)).json()["token"]
        reissued = await client.post(
            f"/v1/matches/{match_id}/seats/1/token", headers={"Authorization": f"Bearer {host}"}
        )
        tokens = {0: seat0.json()["token"], 1: reissued.json()["token"]}
        table = Table(client, match_id, 2, tokens, host=host, invite=invite)
        base = f"ws://127.0.0.1:{server.port}"
        ws_url = f"{base}/v1/matches/{table.match_id}/stream"
        by_query = await connect(
            f"{ws_url}?token={table.tokens[0]}&views=1", compression=None, close_timeout=1
        )
        by_header = await connect(
            ws_url,
            compression=None,
            close_timeout=1,
            additional_headers={"Authorization": f"Bearer {table.tokens[1]}"},
        )
        by_frame = await connect(f"{ws_url}?after=0", compression=None, close_timeout=1)
        await by_frame.send(json.dumps({"type": "auth", "token": table.tokens[0]}))
        by_key = await connect(f"{ws_url}?token={key}", compression=None, close_timeout=1)
        personal = await connect(
            f"{base}/v1/players/me/stream?token={key}", compression=None, close_timeout=1
        )
        personal_by_frame = await connect(f"{base}/v1/players/me/stream", compression=None, close_timeout=1)
        await personal_by_frame.send(json.dumps({"type": "auth", "token": key}))
        sockets = (by_query, by_header, by_frame, by_key, personal, personal_by_frame)
        for ws in sockets:
            assert json.loads(await asyncio.wait_for(ws.recv(), 10))["type"] == "hello"
        view = await table.view(0)
        if 0 in view["to_act"]:  # one action over the socket, the rest over HTTP
            await by_query.send(json.dumps({"type": "action", "id": 1, "action": view["legal_actions"][0]}))
            while json.loads(await asyncio.wait_for(by_query.recv(), 10)).get("id") != 1:
                pass  # commits until the ack
        await play_to_end(table, random.Random(5))
        await client.get(f"{table.url}/events", params={"token": table.tokens[1]})  # a token in a query
        await client.get("/v1/players/me/matches", headers={"Authorization": f"Bearer {key}"})
        for refused in (f"Bearer {table.tokens[0]}x", f"Bearer {old_key}", f"Bearer {token1}"):
            bad = await client.get(f"{table.url}/view", headers={"Authorization": refused})
            assert bad.status_code == 401
        secret = (await client.get(f"{table.url}/reveal")).json()["secret"]
        await asyncio.gather(*(ws.close() for ws in sockets))  # unread frames may hold up a close
    output = server.log.read_text(errors="replace")
    levels = {json.loads(line)["level"] for line in output.splitlines() if line.startswith("{")}
    assert "DEBUG" in levels and "< GET /v1/matches/" in output  # DEBUG lines were written
    assert "TEXT" in output and "authorization" in output.lower()  # frames and headers were logged
    for value in [*table.tokens.values(), token1, key, old_key, host, invite, secret]:
        assert value not in output
    assert key[3:] not in output and old_key[3:] not in output  # not even without the prefix
