"""`send_now`: a send coroutine run synchronously as far as it goes, finished in a task otherwise."""

from __future__ import annotations

import asyncio

import pytest

from app.api.fast_lane import send_now


@pytest.fixture(autouse=True)
def fast_lane() -> bool:
    """The fast lane's own unit tests: once (the stream suite's other tests run both ways)."""
    return True


async def test_a_send_that_only_buffers_finishes_at_once() -> None:
    out: list[str] = []

    async def send(text: str) -> None:
        out.append(text)

    assert send_now(send("a")) is None
    assert out == ["a"]


async def test_a_send_that_must_wait_is_finished_by_a_task_in_order() -> None:
    gate = asyncio.get_running_loop().create_future()
    out: list[str] = []

    async def send(text: str) -> None:
        out.append(f"{text}:start")
        await gate
        await asyncio.sleep(0)
        out.append(f"{text}:end")

    rest = send_now(send("a"))
    assert rest is not None and out == ["a:start"]
    gate.set_result(None)
    await asyncio.wait_for(rest, 5)
    assert out == ["a:start", "a:end"]


async def test_errors_are_raised_where_they_happen() -> None:
    async def broken_now() -> None:
        raise ConnectionResetError("gone")

    with pytest.raises(ConnectionResetError):
        send_now(broken_now())
    gate = asyncio.get_running_loop().create_future()

    async def broken_later() -> None:
        await gate
        raise ConnectionResetError("gone")

    rest = send_now(broken_later())
    assert rest is not None
    gate.set_result(None)
    with pytest.raises(ConnectionResetError):
        await asyncio.wait_for(rest, 5)


async def test_cancelling_the_task_cancels_the_send() -> None:
    gate = asyncio.get_running_loop().create_future()
    cleaned: list[bool] = []

    async def send() -> None:
        try:
            await gate
        finally:
            cleaned.append(True)

    rest = send_now(send())
    assert rest is not None
    await asyncio.sleep(0)
    rest.cancel()
    with pytest.raises(asyncio.CancelledError):
        await rest
    assert cleaned == [True]
