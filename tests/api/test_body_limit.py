"""`BodyLimit` at the ASGI level: what a declared length lets through unread, and what it counts."""

from __future__ import annotations

from typing import Any

from starlette.types import Message, Receive, Scope, Send

from app.api.middleware import BodyLimit

LIMIT = 100


class _App:
    """The next app: reads the whole body it is handed, answers 200."""

    def __init__(self) -> None:
        self.bodies: list[bytes] = []

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        body = b""
        while True:
            message = await receive()
            body += message.get("body", b"")
            if not message.get("more_body", False):
                break
        self.bodies.append(body)
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b""})


async def _post(headers: list[tuple[bytes, bytes]], chunks: list[bytes]) -> tuple[int, _App, int]:
    """The status answered, the next app, and how many body messages were read."""
    app = _App()
    pending = [
        {"type": "http.request", "body": c, "more_body": i < len(chunks) - 1} for i, c in enumerate(chunks)
    ]
    read = 0
    sent: list[Message] = []

    async def receive() -> Message:
        nonlocal read
        read += 1
        return pending.pop(0)

    async def send(message: Message) -> None:
        sent.append(message)

    scope: dict[str, Any] = {"type": "http", "method": "POST", "path": "/v1/matches", "headers": headers}
    await BodyLimit(app, LIMIT)(scope, receive, send)
    return sent[0]["status"], app, read


async def test_a_declared_length_within_the_limit_goes_on_unread() -> None:
    status, app, read = await _post([(b"content-length", b"10")], [b"x" * 10])
    assert (status, app.bodies, read) == (200, [b"x" * 10], 1)  # read once, by the app itself


async def test_a_declared_length_over_the_limit_is_refused_unread() -> None:
    status, app, read = await _post([(b"content-length", b"101")], [b"x" * 101])
    assert (status, app.bodies, read) == (413, [], 0)


async def test_with_a_transfer_encoding_the_body_is_counted_whatever_the_declared_length() -> None:
    headers = [(b"content-length", b"10"), (b"transfer-encoding", b"chunked")]
    status, app, _ = await _post(headers, [b"x" * 60, b"x" * 60])
    assert (status, app.bodies) == (413, [])
    headers = [(b"transfer-encoding", b"chunked"), (b"content-length", b"10")]  # in either order
    status, app, _ = await _post(headers, [b"x" * 40, b"x" * 40])
    assert (status, app.bodies) == (200, [b"x" * 80])


async def test_the_first_content_length_is_the_one_checked() -> None:
    status, _, _ = await _post([(b"content-length", b"500"), (b"content-length", b"10")], [b"x" * 10])
    assert status == 413
