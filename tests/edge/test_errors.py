"""A 500 is contained: the envelope, one log line with the request id and the traceback (no
secret), and the kept-alive connection still serves the next request — on a real uvicorn. Also the
`Allow` header of a 405, the optional token of spectator reads, and the self-hosted docs."""

from __future__ import annotations

import asyncio
import json

import jsonschema  # type: ignore[import-untyped]  # no stubs in the dev extras
import pytest

from app.main import create_app
from app.openapi import FRAMES_PATH, generate
from app.settings import Settings
from tests.api.conftest import running, started
from tests.stream.servers import in_this_loop

OPENAPI = json.loads(generate())  # the app's own; tests/api/test_openapi.py compares it with the file
SECRET = "Zs9-secret-token-value-0123456789abcdefghij"


async def _read_response(reader: asyncio.StreamReader) -> tuple[int, dict[str, str], bytes]:
    head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 10)
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    headers = {k.lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:] if line)}
    body = await asyncio.wait_for(reader.readexactly(int(headers["content-length"])), 10)
    return status, headers, body


async def test_a_500_is_contained_logged_once_and_the_connection_lives_on(
    capsys: pytest.CaptureFixture[str],
) -> None:
    app = create_app(Settings(database_url="memory://", log_level="INFO"))

    @app.get("/boom")
    async def boom() -> None:
        raise RuntimeError(f"database said no to Bearer {SECRET}")

    async with in_this_loop(app, access_log=False) as port:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(
            b"GET /boom?token=" + SECRET.encode() + b" HTTP/1.1\r\nHost: t\r\nX-Request-ID: rid-500\r\n\r\n"
        )
        status, headers, body = await _read_response(reader)
        assert status == 500 and headers["x-request-id"] == "rid-500"
        assert json.loads(body)["error"] == {
            "code": "internal_error",
            "message": "internal server error",
            "details": None,
        }
        assert headers.get("connection", "keep-alive").lower() != "close"
        writer.write(b"GET /healthz HTTP/1.1\r\nHost: t\r\n\r\n")  # the same connection
        status, _, body = await _read_response(reader)
        assert status == 200 and json.loads(body) == {"status": "ok"}
        writer.close()
    out = capsys.readouterr().out
    lines = [json.loads(line) for line in out.splitlines() if line.startswith("{")]
    errors = [line for line in lines if line["level"] in ("ERROR", "CRITICAL")]
    assert len(errors) == 1, errors
    assert errors[0]["request_id"] == "rid-500" and "RuntimeError" in errors[0]["exc_info"]
    assert "Traceback" in errors[0]["exc_info"]
    assert SECRET not in out


async def test_a_500_over_asgi_has_the_envelope() -> None:
    async with started("memory://") as (app, client):

        @app.get("/boom2")
        async def boom() -> None:
            raise ValueError("x")

        r = await client.get("/boom2")
        assert r.status_code == 500 and r.json()["error"]["code"] == "internal_error"


@pytest.mark.parametrize(
    ("method", "path", "allow"),
    [
        ("DELETE", "/v1/matches", "GET, POST"),
        ("OPTIONS", "/v1/matches", "GET, POST"),
        ("PUT", "/v1/matches/abc", "GET"),
        ("GET", "/v1/matches/abc/actions", "POST"),
        ("DELETE", "/v1/matches/abc/seats/0", "POST"),
        ("POST", "/v1/games", "GET"),
        ("POST", "/healthz", "GET"),
    ],
)
async def test_405_names_every_allowed_method(method: str, path: str, allow: str) -> None:
    async with running("memory://") as client:
        r = await client.request(method, path)
        assert r.status_code == 405 and r.json()["error"]["code"] == "method_not_allowed"
        assert r.headers["allow"] == allow


def test_spectator_reads_have_an_optional_token_in_openapi() -> None:
    security = {
        op["operationId"]: op.get("security") for path in OPENAPI["paths"].values() for op in path.values()
    }
    assert security["getView"] == [{"Bearer": []}, {}]
    assert security["listEvents"] == [{"Bearer": []}, {}]
    assert security["submitAction"] == [{"Bearer": []}]


async def test_docs_are_served_without_any_outside_address() -> None:
    async with running("memory://") as client:
        for page in ("/docs", "/redoc"):
            r = await client.get(page)
            assert r.status_code == 200 and "text/html" in r.headers["content-type"]
            assert "http://" not in r.text and "https://" not in r.text and "//cdn" not in r.text
            assets = [a for a in r.text.split('"') if a.startswith("/docs/assets/")]
            assert assets
            for asset in assets:
                got = await client.get(asset)
                assert got.status_code == 200 and len(got.content) > 1000, asset
        assert (await client.get("/openapi.json")).json() == OPENAPI


def test_ping_and_pong_are_valid_against_the_frame_schemas_root() -> None:
    schema = json.loads(FRAMES_PATH.read_text(encoding="utf-8"))
    assert "anyOf" in schema and "oneOf" not in schema  # ping and pong are client and server frames
    validator = jsonschema.Draft202012Validator(schema)
    for frame in ({"type": "ping"}, {"type": "pong"}, {"type": "auth", "token": None}):
        validator.validate(frame)
    with pytest.raises(jsonschema.ValidationError):
        validator.validate({"type": "nope"})
