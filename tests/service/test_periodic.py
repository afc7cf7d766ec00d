"""`Periodic`, the loop of the sweeper, the webhook deliverer, the matcher and the ban watch: a pass
that raises is logged and the loop goes on; with a pause of 0 after a busy pass, busy passes follow
each other at once and an idle one pauses; without `pause` every pass pauses; `stop` ends the
loop. No test waits for time: the pauses are either 0 or an hour that is never reached."""

from __future__ import annotations

import asyncio
import logging

import pytest

from app.service.periodic import Periodic

HOUR = 3600.0
log = logging.getLogger("tests.periodic")


async def _settle(rounds: int = 20) -> None:
    """Let the loop's task run as far as it can without time passing."""
    for _ in range(rounds):
        await asyncio.sleep(0)


async def test_a_failing_pass_is_logged_and_the_loop_goes_on(caplog: pytest.LogCaptureFixture) -> None:
    calls = 0
    third = asyncio.Event()

    async def work() -> None:
        nonlocal calls
        calls += 1
        if calls == 3:
            third.set()
        if calls == 1:
            raise RuntimeError("boom")

    loop = Periodic("test", work, 0.0, log=log, failure="test pass failed")
    await loop.start()
    try:
        await asyncio.wait_for(third.wait(), 60)  # a hang guard
        went_on = loop.running
    finally:
        await loop.stop()
    assert went_on and not loop.running
    failed = [r for r in caplog.records if r.name == "tests.periodic"]
    assert [r.getMessage() for r in failed] == ["test pass failed"]
    assert failed[0].exc_info is not None and "boom" in str(failed[0].exc_info[1])


@pytest.mark.parametrize("busy_at_once", [True, False])
async def test_busy_passes_follow_at_once_only_with_a_pause_of_0(busy_at_once: bool) -> None:
    """With `pause` giving 0 after a busy pass (a truthy result), the next pass follows at once;
    without `pause`, every pass is followed by the interval."""
    results = [3, 2, 1, 0, 5]
    calls = 0

    async def work() -> int:
        nonlocal calls
        calls += 1
        return results[calls - 1]

    def pause(result: object) -> float:
        return 0.0 if result else HOUR

    chosen = pause if busy_at_once else None
    loop = Periodic("test", work, HOUR, log=log, failure="test pass failed", pause=chosen)
    await loop.start()
    try:
        await _settle()
        assert calls == (4 if busy_at_once else 1)  # then the hour's pause, which never ends here
    finally:
        await loop.stop()
    await _settle()
    assert calls == (4 if busy_at_once else 1)  # stopped: no pass after it


async def test_a_kick_ends_the_pause_and_pause_sets_its_length() -> None:
    """`pause(result)` says how long to wait after a pass (here an hour, never reached); `kick`
    ends that pause at once, and a kick during a pass skips the pause after it."""
    calls = 0
    pauses: list[object] = []

    async def work() -> int:
        nonlocal calls
        calls += 1
        if calls == 2:
            loop.kick()  # work arrived while this pass ran
        return calls

    def pause(result: object) -> float:
        pauses.append(result)
        return HOUR

    loop = Periodic("test", work, 0.0, log=log, failure="test pass failed", pause=pause)
    await loop.start()
    try:
        await _settle()
        assert calls == 1 and pauses == [1]  # an hour's pause, whatever the interval of 0 says
        loop.kick()
        await _settle()
        assert calls == 3 and pauses == [1, 2, 3]  # the second pass's kick skipped its pause
        await _settle()
        assert calls == 3  # and then the hour's pause again
    finally:
        await loop.stop()
