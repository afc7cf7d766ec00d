"""HTTP replies in one write: a response's head and its body leave in one `transport.write`.

uvicorn writes a response's status line and headers as soon as the app sends
`http.response.start`, and its body with `http.response.body`: two system calls, and on a
keep-alive connection two wake-ups of the client, per reply. `OneWrite` wraps the server's `send`
(by `RequestContext`, the outermost layer that wraps it) and holds the head of a reply that declares
its `content-length` until its first body message, then lets uvicorn's own `send` write both into a
buffer and writes that buffer once. uvicorn's send still does all of its work — the header checks,
the content-length accounting, keep-alive, closing, completing the cycle — only the bytes it writes
land in the buffer first (`python -m bench.ab` on the memory store: actions/s up 4 %).

It reads two attributes of uvicorn's request cycle (`UVICORN_CYCLE_INTERNALS`: the transport the
cycle writes to, and whether the client went away) of the `httptools` and `h11` implementations.
Under any other server, or when `uvicorn_cycle_problem` finds them changed (a warning names what to
check), replies go through the server's `send` unchanged; `DRAGO_HTTP_ONE_WRITE=0` turns it off.
A reply without `content-length` (a streamed body) goes through unchanged too.
"""

from __future__ import annotations

from typing import Final, cast

from starlette.types import Message, Send
from uvicorn.protocols.http.h11_impl import RequestResponseCycle as H11Cycle
from uvicorn.protocols.http.httptools_impl import RequestResponseCycle as HttpToolsCycle

from app.api import uvicorn_internals

UVICORN_CYCLE_INTERNALS: Final = ("transport", "disconnected")
"""What `OneWrite` reads and sets of a uvicorn `RequestResponseCycle` (its `send` writes the reply
with `self.transport.write` and may call `self.transport.close()`)."""

_CYCLES: Final = (HttpToolsCycle, H11Cycle)
_USABLE: dict[type, bool] = {}  # by the type of the object behind a server's `send`: one-write or not


def uvicorn_cycle_problem(cycle: object) -> str | None:
    """What is missing from a live uvicorn request cycle for one-write replies, or None."""
    return uvicorn_internals.problem(
        "RequestResponseCycle",
        [name for name in UVICORN_CYCLE_INTERNALS if not hasattr(cycle, name)],
        "HTTP replies in one write (app/api/one_write.py) swap the transport its send() writes to;",
        "compare that send() in the installed uvicorn with `OneWrite`",
        "DRAGO_HTTP_ONE_WRITE",
    )


class _Buffer:
    """Stands in for the transport while uvicorn's send writes a reply: keeps what it writes and
    whether it asked to close; anything else goes to the real transport."""

    __slots__ = ("_real", "close_asked", "parts")

    def __init__(self, real: object, parts: list[bytes]) -> None:
        self._real = real
        self.parts = parts
        self.close_asked = False

    def write(self, data: bytes) -> None:
        self.parts.append(data)

    def close(self) -> None:
        self.close_asked = True

    def __getattr__(self, name: str) -> object:
        return getattr(self._real, name)


class OneWrite:
    """One request's `send` with its reply's head held for its first body message."""

    __slots__ = ("_cycle", "_head", "_send")

    def __init__(self, cycle: HttpToolsCycle | H11Cycle, send: Send) -> None:
        self._cycle = cycle
        self._send = send
        self._head: list[bytes] | None = None  # the head uvicorn wrote, waiting for the body

    @classmethod
    def wrap(cls, send: Send) -> Send:
        """`send` itself where one-write replies do not apply, else a `send` that applies them."""
        cycle = getattr(send, "__self__", None)
        usable = _USABLE.get(type(cycle))
        if usable is None:  # the first request of this kind of server: its attributes are checked once
            found = uvicorn_internals.behind(send, _CYCLES, uvicorn_cycle_problem, "HTTP replies")
            usable = _USABLE[type(cycle)] = found is not None
        return cls(cast(HttpToolsCycle | H11Cycle, cycle), send).send if usable else send

    async def send(self, message: Message) -> None:
        kind = message["type"]
        if kind == "http.response.start" and self._head is None and _declares_length(message):
            self._head = await self._written(message, [])
            return
        if kind == "http.response.body" and self._head is not None:
            head, self._head = self._head, None
            await self._written(message, head, flush=True)
            return
        await self._send(message)

    async def _written(self, message: Message, parts: list[bytes], flush: bool = False) -> list[bytes]:
        """Run uvicorn's send with the transport swapped for a buffer holding `parts`; with `flush`
        (or when it fails), write the buffer to the real transport once, then close if asked."""
        cycle = self._cycle
        real = cycle.transport
        buffer = _Buffer(real, parts)
        cycle.transport = buffer  # type: ignore[assignment]  # duck-typed: write and close
        try:
            await self._send(message)
        except BaseException:
            flush = True
            raise
        finally:
            cycle.transport = real
            if flush:
                if buffer.parts and not cycle.disconnected:
                    real.write(b"".join(buffer.parts))
                if buffer.close_asked:
                    real.close()
        return buffer.parts


def _declares_length(message: Message) -> bool:
    return any(name.lower() == b"content-length" for name, _ in message.get("headers", ()))
