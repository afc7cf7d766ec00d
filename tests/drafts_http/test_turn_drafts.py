"""Turn drafts over HTTP and streams (issue 10), on every store: a Mount Drago turn is played (a card,
then the rider decision), undone step by step to its start, played again with another card and
finished. Until then the other seat and spectators see nothing of it — their views, replays,
histories and stream frames are those of the turn's start (each draft commit reaches them as a
`draft_changed` that names the seat and nothing else) — and the draw happens at `finish_turn`, in
the commit that publishes the turn. Refusals while drafting change nothing.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import httpx

from tests.api.conftest import started
from tests.api.helpers import Table, error_of, new_table, unchanged
from tests.lifecycle.support import commits, following, kinds
from tests.stream.helpers import Reader

UNDO = {"type": "undo"}
FINISH = {"type": "finish_turn"}
DRAFT_CONTROLS = ("undo", "finish_turn")


def without_seq(view: Any) -> Any:
    return {k: v for k, v in view.items() if k != "seq"}


def choices(view: Any) -> list[Any]:
    """The view's legal actions other than `undo` and `finish_turn`."""
    return [a for a in view["legal_actions"] if a["type"] not in DRAFT_CONTROLS]


def acting(table: Table, action: Any) -> Callable[[], Awaitable[httpx.Response]]:
    return lambda: table.act(0, action)


async def step(table: Table, action: Any, expected: list[str] | None = None, **extra: Any) -> Any:
    r = await table.act(0, action, **extra)
    assert r.status_code == 200, r.text
    reply = r.json()
    if expected is not None:
        assert kinds(reply["events"]) == expected, reply["events"]
    return reply


async def test_a_turn_drafted_undone_redone_differently_and_finished(database_url: str) -> None:
    async with started(database_url) as (app, client):
        table = await new_table(
            client, "mount_drago", 2, seed="draft-1", drafts=True, options={"first_player": 0}
        )
        start = await table.view(0)
        start_seq = start["seq"]
        before = {viewer: await table.view(viewer) for viewer in (None, 1)}
        assert start["draft"] is None and not any(a["type"] in DRAFT_CONTROLS for a in start["legal_actions"])
        async with following(app, table) as spectator, following(app, table, token=table.tokens[1]) as other:
            # Bad input first: an empty draft has nothing to undo or finish (nothing changes).
            for control in (UNDO, FINISH):
                error = await unchanged(table, acting(table, control), 409, "illegal_action")
                assert error["details"] == {"reason": "draft_empty"}

            # The turn: a card whose rider decision follows, then that decision — two private steps.
            first_card, drafted = None, None
            for play in choices(start):
                reply = await step(table, play, ["draft_step"])
                if any(a["type"] == "choose_rider" for a in choices(reply["view"])):
                    first_card, drafted = play, reply
                    break
                await step(table, UNDO, ["draft_undone"])
            assert first_card is not None and drafted is not None, "no card of this deal asks for a rider"
            view = drafted["view"]
            assert view["draft"] == {"steps": 1, "can_finish": False} and len(view["hand"]) == 5
            assert view["draw_pile_size"] == start["draw_pile_size"]  # no draw while drafting
            rider = choices(view)[0]
            view = (await step(table, rider, ["draft_step"]))["view"]
            assert view["draft"]["steps"] == 2 and view["seq"] > drafted["seq"]
            assert view["draw_pile_size"] == start["draw_pile_size"]

            # Bad input while drafting: the other seat may not act or finish; a stale seq is refused.
            legal1 = before[1]["legal_actions"] or [first_card]
            await unchanged(table, lambda: table.act(1, FINISH), 409, "not_your_turn")
            await unchanged(table, lambda: table.act(1, legal1[0]), 409, "not_your_turn")
            await unchanged(
                table, lambda: table.act(0, UNDO, expected_seq=start_seq), 409, "version_conflict"
            )

            # Nobody else sees any of it: the start's views, and `draft_changed` naming the seat.
            await check_unseen(table, before, start_seq)

            # Undo to the start, step by step.
            view = (await step(table, UNDO, ["draft_undone"]))["view"]
            assert view["draft"] == {"steps": 1, "can_finish": False}
            view = (await step(table, UNDO, ["draft_undone"], idempotency_key="back-to-start"))["view"]
            again = await table.act(0, UNDO, idempotency_key="back-to-start")  # a retry: applied once
            assert again.status_code == 200 and again.json()["view"] == view
            assert without_seq(view) == without_seq(start)
            error = await unchanged(table, lambda: table.act(0, UNDO), 409, "illegal_action")
            assert error["details"] == {"reason": "draft_empty"}

            # Played again, differently, and finished: the turn is public at once, the draw with it.
            other_card = next(p for p in choices(start) if p != first_card)
            view = (await step(table, other_card))["view"]
            while choices(view) and not view["draft"]["can_finish"]:
                view = (await step(table, choices(view)[0]))["view"]
            finished = await step(table, FINISH)
            published = kinds(finished["events"])
            assert published[0] == "draft_published" and "cards_drawn" in published
            assert published.index("cards_drawn") > published.index("card_played")
            played = [e["data"]["card"] for e in finished["events"] if e["type"] == "card_played"]
            assert played == [other_card["card"]]
            end = finished["view"]
            assert end["draft"] is None and end["to_act"] == [1] and len(end["hand"]) == 6
            assert end["draw_pile_size"] < start["draw_pile_size"]
            seq = finished["seq"]
            assert {e["commit"] for e in finished["events"]} == {seq}

            # The others now see the finished turn, and only it: never the first card.
            for viewer in (None, 1):
                history = await table.events(viewer, after=start_seq)
                groups = commits(history)
                assert all(kinds(g) == ["draft_changed"] for g in groups[:-1])
                assert [e["data"] for e in history[: -len(groups[-1])]] == [
                    {"type": "draft_changed", "seat": 0}
                ] * (len(history) - len(groups[-1]))
                assert kinds(groups[-1]) == published
                assert first_card["card"] not in [e["data"].get("card") for e in history]
                drawn = next(e for e in groups[-1] if e["type"] == "cards_drawn")
                assert "cards" not in drawn["data"]  # how many, not which
            for reader in (spectator, other):
                await check_frames(reader, table, start_seq, seq)


async def check_unseen(table: Table, before: dict[int | None, Any], start_seq: int) -> None:
    now = (await table.summary())["seq"]
    for viewer, was in before.items():
        seen = await table.view(viewer)
        assert seen["seq"] == now and without_seq(seen) == without_seq(was)
        for at in range(start_seq + 1, now + 1):  # every draft commit's replay, too
            assert without_seq(await table.view(viewer, at=at)) == without_seq(was)
        for event in await table.events(viewer, after=start_seq):
            assert event["data"] == {"type": "draft_changed", "seat": 0}


async def check_frames(reader: Reader, table: Table, start_seq: int, seq: int) -> None:
    """The stream carried the draft commits as `draft_changed` (with the unchanged view), then the turn."""
    await reader.wait_for_seq(seq)
    viewer = reader.frames[0]["seat"]
    history = await table.events(viewer, after=start_seq)
    assert reader.events() == history
    start = reader.frames[0]["view"]
    for frame in reader.of("commit")[:-1]:
        assert kinds(frame["events"]) == ["draft_changed"]
        if "view" in frame:  # (a frame carries the view when it is the newest state at sending)
            assert without_seq(frame["view"]) == without_seq(start)
    last = reader.of("commit")[-1]
    assert last["seq"] == seq and kinds(last["events"])[0] == "draft_published"
    assert last["view"] == await table.view(viewer)


async def test_a_yutaka_card_is_drafted_until_its_reveal(database_url: str) -> None:
    """Yutakâ: reveals are public at once (barriers); a card placed without one is a private step."""
    async with started(database_url) as (_, client):
        options = {"first_player": 0}
        table = await new_table(client, "yutaka", 2, seed="draft-yutaka", drafts=True, options=options)
        for _ in range(50):
            summary = await table.summary()
            seat = summary["to_act"][0]
            view = await table.view(seat)
            before = {viewer: await table.view(viewer) for viewer in (None, 1 - seat)}
            reply = (await table.act(seat, view["legal_actions"][0])).json()
            if kinds(reply["events"]) == ["draft_step"]:
                break
            assert "draft_changed" not in kinds(reply["events"])
        else:
            raise AssertionError("no private step in 50 decisions")
        assert reply["view"]["draft"]["steps"] == 1
        for viewer, was in before.items():  # the others: the view before the step, and no content
            assert without_seq(await table.view(viewer)) == without_seq(was)
            (event,) = await table.events(viewer, after=reply["seq"] - 1)
            assert event["data"] == {"type": "draft_changed", "seat": seat}
        await unchanged(table, lambda: table.act(1 - seat, FINISH), 409, "not_your_turn")
        undone = (await table.act(seat, UNDO)).json()
        assert without_seq(undone["view"]) == without_seq(view)
        error_of(await table.act(seat, UNDO), 409, "illegal_action")
