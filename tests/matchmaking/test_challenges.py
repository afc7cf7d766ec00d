"""Challenges over every backend: invite, accept (the match starts when all accepted), decline with
a reason, expiry, the bot flag, bad input; the notices of each step on the personal streams."""

from __future__ import annotations

import json

import jsonschema  # type: ignore[import-untyped]  # no stubs in the dev extras
import pytest

from app.api.frame_text import notice_frame
from app.openapi import FRAMES_PATH
from app.service.auth import Caller
from app.service.challenges import (
    ChallengeRequest,
    accept,
    create_challenge,
    decline,
    my_challenges,
    profile,
    set_bot,
)
from app.service.errors import ChallengeClosed, Forbidden, NotFound, Unauthorized, ValidationFailed
from app.service.matcher import match_once
from app.service.seeks import Matchmaking
from tests.matchmaking.conftest import FakeClock, new_player

PLAYER_FRAME = jsonschema.Draft202012Validator(
    {
        "$ref": "#/$defs/PlayerServerFrame",
        "$defs": json.loads(FRAMES_PATH.read_text(encoding="utf-8"))["$defs"],
    }
)


async def _told(mm: Matchmaking, who: Caller) -> list[str]:
    assert who.player_id is not None
    notices = await mm.ctx.store.read_notices(who.player_id)
    for n in notices:
        PLAYER_FRAME.validate(json.loads(notice_frame(n)))
    return [n.type for n in notices]


async def test_a_three_player_challenge_starts_when_all_accepted(mm: Matchmaking) -> None:
    ann, bob, cid = await new_player(mm, "ann"), await new_player(mm, "bob"), await new_player(mm, "cid")
    assert bob.player_id and cid.player_id and ann.player_id
    req = ChallengeRequest(to=[bob.player_id, cid.player_id], game="mount_drago")
    made = await create_challenge(mm, ann, req)
    c = made.challenge
    assert (
        c.players == 3
        and c.status == "open"
        and made.bots == dict.fromkeys((ann.player_id, bob.player_id, cid.player_id), False)
    )
    assert await _told(mm, bob) == ["challenge_received"]
    assert [v.challenge.id for v in await my_challenges(mm, bob, limit=10)] == [c.id]
    assert [v.challenge.id for v in await my_challenges(mm, ann, limit=10)] == [c.id]
    after_bob = (await accept(mm, bob, c.id)).challenge
    assert after_bob.status == "open" and after_bob.answers == {bob.player_id: "accepted"}
    assert await _told(mm, ann) == ["challenge_accepted"]
    done = (await accept(mm, cid, c.id)).challenge
    assert done.status == "accepted" and done.match_id is not None
    record = await mm.ctx.store.get_match(done.match_id)
    assert record is not None and record.status == "active" and record.players == 3
    seats = await mm.ctx.store.get_seats(done.match_id)
    assert {s.player_id for s in seats} == {ann.player_id, bob.player_id, cid.player_id}
    assert (await _told(mm, ann))[:2] == ["challenge_accepted", "challenge_accepted"]
    assert "match_started" in await _told(mm, ann) and "match_started" in await _told(mm, cid)
    assert (await accept(mm, cid, c.id)).challenge.match_id == done.match_id  # a retry changes nothing
    with pytest.raises(ChallengeClosed):
        await decline(mm, bob, c.id, None)


async def test_decline_with_a_reason(mm: Matchmaking) -> None:
    ann, bob = await new_player(mm, "ann"), await new_player(mm, "bob")
    assert bob.player_id
    c = (await create_challenge(mm, ann, ChallengeRequest(to=[bob.player_id], game="yutaka"))).challenge
    with pytest.raises(Forbidden):
        await accept(mm, ann, c.id)  # someone else's challenge to answer
    with pytest.raises(ValidationFailed):
        await decline(mm, bob, c.id, "x" * 201)
    declined = (await decline(mm, bob, c.id, "not today")).challenge
    assert declined.status == "declined" and declined.reason == "not today"
    assert await _told(mm, ann) == ["challenge_declined"]
    told = await mm.ctx.store.read_notices(ann.player_id or "")
    assert told[0].data == {"challenge_id": c.id, "player_id": bob.player_id, "reason": "not today"}
    with pytest.raises(ChallengeClosed):
        await accept(mm, bob, c.id)


async def test_an_expired_challenge_cannot_be_accepted(mm: Matchmaking, clock: FakeClock) -> None:
    ann, bob = await new_player(mm, "ann"), await new_player(mm, "bob")
    assert bob.player_id
    c = (
        await create_challenge(mm, ann, ChallengeRequest(to=[bob.player_id], game="yutaka", expires_s=60))
    ).challenge
    clock.advance(60)
    with pytest.raises(ChallengeClosed) as e:
        await accept(mm, bob, c.id)
    assert e.value.details == {"status": "expired"}
    await match_once(mm)  # the pass marks it
    stored = await mm.store.get_challenge(c.id)
    assert stored is not None and stored.status == "expired"


async def test_bad_challenges_change_nothing(mm: Matchmaking) -> None:
    ann, bob = await new_player(mm, "ann"), await new_player(mm, "bob")
    assert ann.player_id and bob.player_id
    with pytest.raises(Unauthorized):
        await create_challenge(
            mm, Caller("seat", "x", "m", 0), ChallengeRequest(to=[bob.player_id], game="yutaka")
        )
    for req in (
        ChallengeRequest(to=[ann.player_id], game="yutaka"),  # oneself
        ChallengeRequest(to=[], game="yutaka"),
        ChallengeRequest(to=[bob.player_id, bob.player_id], game="mount_drago"),
        ChallengeRequest(to=[bob.player_id], game="chess"),
        ChallengeRequest(to=[bob.player_id], game="yutaka", players=3),
        ChallengeRequest(to=[bob.player_id], game="mount_drago", options={"nope": 1}),
        ChallengeRequest(to=[bob.player_id], game="yutaka", expires_s=0),
    ):
        with pytest.raises(ValidationFailed):
            await create_challenge(mm, ann, req)
    with pytest.raises(NotFound):
        await create_challenge(mm, ann, ChallengeRequest(to=["nobody"], game="yutaka"))
    with pytest.raises(NotFound):
        await accept(mm, bob, "nope")
    assert await my_challenges(mm, ann, limit=10) == []
    assert await _told(mm, bob) == []


async def test_the_bot_flag_shows_on_profile_seeks_and_challenges(mm: Matchmaking) -> None:
    ann, bot = await new_player(mm, "ann"), await new_player(mm, "robo")
    assert bot.player_id and ann.player_id
    assert (await profile(mm, bot.player_id)).bot is False
    await set_bot(mm, bot, True)
    found = await profile(mm, bot.player_id)
    assert (found.player_id, found.name.split("#")[0], found.bot) == (bot.player_id, "robo", True)
    made = await create_challenge(mm, ann, ChallengeRequest(to=[bot.player_id], game="yutaka"))
    assert made.bots == {ann.player_id: False, bot.player_id: True}
    from app.service.seeks import SeekRequest, create_seek

    seek = await create_seek(mm, bot, SeekRequest(game="yutaka", players=2, opponents="any"))
    assert seek.bot is True
    with pytest.raises(NotFound):
        await profile(mm, "nobody")
