"""Private turn drafts: steps only their seat sees, `undo`, `finish_turn`, publication as one commit."""

from __future__ import annotations

import pytest

from app.games import core
from app.games.codec import JSON
from app.games.core import AnyGame
from app.matches import views
from app.service import acting, errors, reading
from app.service.context import Context
from app.store.memory import MemoryEventStore
from tests.service.helpers import ORDER, seated

DRAFTS = {"settings": {"drafts": True}, "setup": {"order": ORDER}}


async def test_a_turn_is_drafted_undone_redone_and_finished(ctx: Context, store: MemoryEventStore) -> None:
    match_id, (ann, bob) = await seated(ctx, **DRAFTS)
    view = await reading.get_view(ctx, match_id, ann)
    assert [a["card"] for a in view.legal_actions] == [1, 2, 3] and view.draft is None
    step = await acting.submit_action(ctx, match_id, ann, {"type": "play", "card": 1})
    assert [e.type for e in step.events] == ["draft_step"] and step.seq == 5
    assert step.view.state["hand"] == [2, 3] and step.view.draft is not None and step.view.draft.steps == 1
    assert list(step.view.legal_actions) == [{"type": "undo"}, {"type": "finish_turn"}]
    # Nobody else sees the draft: the committed state, and a `draft_changed` that names only the seat.
    for viewer in (bob, None):
        seen = await reading.get_view(ctx, match_id, viewer)
        assert seen.state["played"] == [[], []] and seen.seq == 5 and seen.to_act == (0,)
        last = (await reading.get_events(ctx, match_id, viewer, 4, 10)).events
        assert [(e.type, e.data) for e in last] == [("draft_changed", {"type": "draft_changed", "seat": 0})]
    undone = await acting.submit_action(ctx, match_id, ann, {"type": "undo"})
    assert undone.view.state["hand"] == [1, 2, 3] and undone.view.draft is None
    await acting.submit_action(ctx, match_id, ann, {"type": "play", "card": 3})
    done = await acting.submit_action(ctx, match_id, ann, {"type": "finish_turn"})
    assert [e.type for e in done.events] == ["draft_published", "played", "drew", "passed"]
    assert {e.commit for e in done.events} == {done.seq} and done.view.to_act == (1,)
    theirs = (await reading.get_events(ctx, match_id, bob, 7, 10)).events
    assert [(e.type, e.data.get("card")) for e in theirs] == [
        ("draft_published", None),
        ("played", 3),
        ("drew", None),
        ("passed", None),
    ]
    assert (await reading.get_view(ctx, match_id, bob)).state["played"] == [[3], []]


async def test_draft_refusals_change_nothing(ctx: Context, store: MemoryEventStore) -> None:
    match_id, (ann, bob) = await seated(ctx, **DRAFTS)
    before = await store.read(match_id)
    for action in ({"type": "undo"}, {"type": "finish_turn"}):
        with pytest.raises(errors.IllegalActionError) as info:
            await acting.submit_action(ctx, match_id, ann, action)
        assert info.value.details == {"reason": "draft_empty"} and info.value.http_status == 409
    await acting.submit_action(ctx, match_id, ann, {"type": "play", "card": 2})
    with pytest.raises(errors.NotYourTurn):
        await acting.submit_action(ctx, match_id, bob, {"type": "finish_turn"})
    with pytest.raises(errors.NotYourTurn):
        await acting.submit_action(ctx, match_id, bob, {"type": "play", "card": 4})
    with pytest.raises(errors.ValidationFailed):
        await acting.submit_action(ctx, match_id, ann, {"type": "undo", "steps": 2})
    with pytest.raises(errors.IllegalActionError):
        await acting.submit_action(ctx, match_id, ann, {"type": "play", "card": 3})  # one play a turn
    assert len(await store.read(match_id)) == len(before) + 1


async def test_a_draft_obeys_expected_seq_and_idempotency(ctx: Context) -> None:
    match_id, (ann, _) = await seated(ctx, **DRAFTS)
    first = await acting.submit_action(ctx, match_id, ann, {"type": "play", "card": 1}, 4, "d1")
    assert await acting.submit_action(ctx, match_id, ann, {"type": "play", "card": 1}, 4, "d1") == first
    with pytest.raises(errors.StaleVersion):
        await acting.submit_action(ctx, match_id, ann, {"type": "undo"}, expected_seq=4)
    assert (await acting.submit_action(ctx, match_id, ann, {"type": "undo"}, expected_seq=5)).seq == 6


async def test_replays_of_other_viewers_never_show_a_draft(ctx: Context) -> None:
    match_id, (ann, bob) = await seated(ctx, **DRAFTS)
    await acting.submit_action(ctx, match_id, ann, {"type": "play", "card": 1})
    mine = await reading.get_view(ctx, match_id, ann, at=5)
    theirs = await reading.get_view(ctx, match_id, bob, at=5)
    assert mine.state["hand"] == [2, 3] and theirs.state["played"] == [[], []]


async def test_the_last_play_of_the_game_publishes_at_once(ctx: Context) -> None:
    match_id, (ann, bob) = await seated(ctx, options={"rounds": 1}, **DRAFTS)
    await acting.submit_action(ctx, match_id, ann, {"type": "play", "card": 1})
    await acting.submit_action(ctx, match_id, ann, {"type": "finish_turn"})
    end = await acting.submit_action(ctx, match_id, bob, {"type": "play", "card": 4})
    assert [e.type for e in end.events] == ["played", "match_ended"] and end.view.status == "finished"


async def test_a_draft_step_s_game_events_are_decoded_once_for_the_fold_not_again_for_the_reply(
    ctx: Context, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The actor's reply (and its stream frame) redacts a `draft_step`'s game events as the fold
    decoded them into `match.draft`; a reader of the stored events decodes them, to the same records."""
    match_id, (ann, _) = await seated(ctx, **DRAFTS)
    decodes: list[object] = []
    decode_event = core.decode_event

    def counted(game: AnyGame, data: JSON) -> object:
        decodes.append(data)
        return decode_event(game, data)

    monkeypatch.setattr(views, "decode_event", counted)
    step = await acting.submit_action(ctx, match_id, ann, {"type": "play", "card": 1})
    assert decodes == []
    stored = (await reading.get_events(ctx, match_id, ann, 4, 10)).events
    assert len(decodes) == len(step.events[0].data["events"]) > 0
    assert [(e.type, e.data) for e in stored] == [(e.type, e.data) for e in step.events]
