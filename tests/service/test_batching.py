"""Group calls: the first item alone, what comes meanwhile together (up to the batch's size), one
batch in flight at a time; each caller gets its own outcome, a failing call fails its batch only,
and a cancelled caller's item is not sent."""

from __future__ import annotations

import asyncio

import pytest

from app.service.batching import GroupCall


class Sender:
    """A `send` that records its batches and waits for the test's word before answering."""

    def __init__(self) -> None:
        self.batches: list[list[int]] = []
        self.go = asyncio.Event()
        self.fail: set[int] = set()

    async def __call__(self, items: list[int]) -> list[int | Exception]:
        self.batches.append(items)
        await self.go.wait()
        if self.fail & set(items):
            raise RuntimeError("down")
        return [ValueError(i) if i < 0 else i * 10 for i in items]


async def test_what_comes_while_a_batch_is_in_flight_goes_out_together() -> None:
    send = Sender()
    group: GroupCall[int, int] = GroupCall(send, max_batch=3)
    calls = [asyncio.create_task(group(i)) for i in range(6)]
    await asyncio.sleep(0)
    send.go.set()
    assert await asyncio.gather(*calls) == [0, 10, 20, 30, 40, 50]
    assert send.batches == [[0, 1, 2], [3, 4, 5]] and group.batches == 2  # oldest first, three at most
    first = asyncio.create_task(group(6))
    await asyncio.sleep(0)
    later = [asyncio.create_task(group(i)) for i in (7, 8)]
    assert await asyncio.gather(first, *later) == [60, 70, 80]
    assert send.batches[2:] == [[6], [7, 8]]  # alone at once, then the two that came meanwhile


async def test_each_caller_gets_its_own_outcome_and_a_failed_call_fails_its_batch_only() -> None:
    send = Sender()
    send.go.set()
    send.fail = {2}
    group: GroupCall[int, int] = GroupCall(send, max_batch=2)
    results = await asyncio.gather(*(group(i) for i in (-1, 1, 2, 3, 4)), return_exceptions=True)
    assert isinstance(results[0], ValueError) and results[1] == 10
    assert all(isinstance(r, RuntimeError) for r in results[2:4]) and results[4] == 40
    assert send.batches == [[-1, 1], [2, 3], [4]]


async def test_a_cancelled_callers_item_is_not_sent_and_wait_sees_the_batches_out() -> None:
    send = Sender()
    group: GroupCall[int, int] = GroupCall(send, max_batch=8)
    first = asyncio.create_task(group(1))
    await asyncio.sleep(0)
    gone, kept = asyncio.create_task(group(2)), asyncio.create_task(group(3))
    await asyncio.sleep(0)
    gone.cancel()
    send.go.set()
    await group.wait()
    assert send.batches == [[1], [3]]
    assert await first == 10 and await kept == 30
    with pytest.raises(asyncio.CancelledError):
        await gone
