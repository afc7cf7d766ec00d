"""A store whose appends wait on a database server (`EventStore.appends_remotely`): the actor's
reply is rendered while its append is in flight, and nothing of a state is kept before it is
committed (a commit that loses keeps nothing it rendered)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from app.matches.views import commit_records, view_of
from app.service import acting, eager, errors
from app.service.cache import Rendered
from app.service.context import Config, Context
from app.service.ports import Append, AppendResult
from app.store.memory import MemoryEventStore
from tests.service.conftest import FakeClock
from tests.service.helpers import ORDER, seated
from tests.service.toy_game import GAMES

PLAY_1 = {"type": "play", "card": 1}
GUARD = 10.0


class RemoteStore(MemoryEventStore):
    """The memory store, as if each append waited for a server: while `gate` is not None, an
    append is in flight (`sent`) until it is set."""

    appends_remotely = True

    def __init__(self) -> None:
        super().__init__()
        self.gate: asyncio.Event | None = None
        self.sent = asyncio.Event()
        self.log: list[str] = []
        self.cancelled = False

    async def append(self, append: Append) -> AppendResult:
        if self.gate is None:
            return await super().append(append)
        self.log.append(f"sent {append.expected_seq}")
        self.sent.set()
        try:
            await self.gate.wait()
        except asyncio.CancelledError:
            self.cancelled = True
            raise
        result = await super().append(append)
        self.log.append(f"committed {append.expected_seq}")
        return result


@pytest.fixture
def remote() -> RemoteStore:
    return RemoteStore()


@pytest.fixture
def rctx(remote: RemoteStore) -> Context:
    return Context(remote, GAMES, FakeClock(), Config(dev_features=True))


def spy(monkeypatch: pytest.MonkeyPatch, ctx: Context, store: RemoteStore) -> list[Rendered]:
    """Log each reply rendered and each one kept; the list of those kept."""
    renderings = ctx.loader.renderings
    fresh, keep = renderings.fresh, renderings.keep
    kept: list[Rendered] = []

    def fresh_logged(*args: Any) -> Rendered:
        store.log.append(f"rendered {args[0].seq}")
        return fresh(*args)

    def keep_logged(rendered: Rendered) -> None:
        store.log.append(f"kept {rendered.match.seq}")
        kept.append(rendered)
        keep(rendered)

    monkeypatch.setattr(renderings, "fresh", fresh_logged)
    monkeypatch.setattr(renderings, "keep", keep_logged)
    return kept


async def test_the_reply_is_rendered_while_the_append_is_in_flight(
    rctx: Context, remote: RemoteStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    match_id, (ann, _) = await seated(rctx, setup={"order": ORDER})
    kept = spy(monkeypatch, rctx, remote)
    remote.gate = asyncio.Event()
    acting_task = asyncio.create_task(acting.submit_action(rctx, match_id, ann, PLAY_1))
    await asyncio.wait_for(remote.sent.wait(), GUARD)
    await asyncio.sleep(0)  # the rendering queued behind the append runs
    assert remote.log == ["sent 4", "rendered 6"] and kept == []  # rendered, kept nothing yet
    remote.gate.set()
    reply = await asyncio.wait_for(acting_task, GUARD)
    assert remote.log == ["sent 4", "rendered 6", "committed 4", "kept 6"]
    # The reply is the committed state's, as it is rendered once committed.
    state = rctx.loader.cached(match_id)
    assert state is not None and state.match.seq == reply.seq == 6
    stored = await remote.read(match_id, 4)
    assert reply.view.json_bytes() == view_of(state.match, 0).json_bytes()
    assert reply.events == commit_records(state.match, stored, 0)
    assert rctx.loader.renderings.view(state.match, 0) is reply.view  # what the stream frame embeds


async def test_a_commit_that_loses_keeps_nothing_it_rendered(
    rctx: Context, remote: RemoteStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    match_id, (ann, bob) = await seated(rctx, setup={"order": ORDER})
    other = Context(remote, GAMES, FakeClock(), Config(dev_features=True))  # another process
    kept = spy(monkeypatch, rctx, remote)
    gate = remote.gate = asyncio.Event()
    acting_task = asyncio.create_task(acting.submit_action(rctx, match_id, ann, PLAY_1))
    await asyncio.wait_for(remote.sent.wait(), GUARD)
    await asyncio.sleep(0)
    assert remote.log == ["sent 4", "rendered 6"]
    # While ours is in flight, the other process commits at seq 4 first (ann plays 2, not 1).
    remote.gate = None
    await acting.submit_action(other, match_id, ann, {"type": "play", "card": 2})
    gate.set()
    # Ours loses, is judged again on the store's state (bob's turn now) and refused.
    with pytest.raises(errors.NotYourTurn):
        await asyncio.wait_for(acting_task, GUARD)
    assert remote.log == ["sent 4", "rendered 6"] and kept == []
    state = await rctx.loader.load(match_id)
    assert state.match.seq == 6
    # Seq 6 names the other process's state here too: what is rendered of it is built from it.
    view = rctx.loader.renderings.view(state.match, 0)
    assert view.json_bytes() == view_of(state.match, 0).json_bytes()
    assert view.state["hand"][0] == 1  # ann still holds 1: she played 2
    reply = await acting.submit_action(rctx, match_id, bob, {"type": "play", "card": 4})
    assert reply.seq == 8 and [k.match.seq for k in kept] == [8]


async def test_a_cancelled_action_cancels_its_append_in_flight(rctx: Context, remote: RemoteStore) -> None:
    match_id, (ann, _) = await seated(rctx, setup={"order": ORDER})
    remote.gate = asyncio.Event()
    acting_task = asyncio.create_task(acting.submit_action(rctx, match_id, ann, PLAY_1))
    await asyncio.wait_for(remote.sent.wait(), GUARD)
    acting_task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await acting_task
    assert remote.cancelled and [e.seq for e in await remote.read(match_id)][-1] == 4


async def test_step_runs_a_coroutine_to_its_first_wait_and_its_rest_gives_the_value() -> None:
    order: list[str] = []
    gate = asyncio.get_running_loop().create_future()

    async def job() -> int:
        order.append("started")
        await gate
        order.append("resumed")
        return 7

    async def at_once() -> int:
        return 3

    done = eager.step(at_once())
    assert isinstance(done, eager.Done) and done.value == 3
    rest = eager.step(job())
    assert order == ["started"] and isinstance(rest, eager.Rest)
    asyncio.get_running_loop().call_soon(gate.set_result, None)
    assert await rest == 7 and order == ["started", "resumed"]
